//! The board as the side to move sows it: its pits 1..m, its store, the other side's pits 1..m,
//! round and round (the other side's store is never sown into). The sowing, the capture and
//! the end rules are written once, here, for [`Position::play`](crate::Position::play) and for
//! the endgame database, which walks millions of these and never needs a whole `Position`.
//!
//! The holes are the bytes of one `u128`, so that a sowing is a few additions of whole words:
//! seeds dropped one at a time into a byte array, then copied as words, stalled the processor
//! on every copy (the database spent most of its time so).

use crate::{Capture, End, Side};

/// The holes of one side's sowing, in the order it sows them: byte `i` of `holes` is hole `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Circuit {
    holes: u128,
    pits: u8,
}

/// What a sowing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sowing {
    /// The last seed fell in the mover's store.
    pub(crate) again: bool,
    /// The seeds the capture took to the store, the last seed included.
    pub(crate) captured: Option<u8>,
}

/// All the bits of the bytes `0..count`.
const fn mask(count: usize) -> u128 {
    ones(count) * 0xff
}

/// A one in each of the bytes `0..count`.
const fn ones(count: usize) -> u128 {
    (u128::MAX / 255) >> (8 * (16 - count))
}

impl Circuit {
    /// A circuit of `pits` pits a side (at most [`crate::MAX_PITS`]), every hole empty.
    pub(crate) fn empty(pits: u8) -> Circuit {
        Circuit { holes: 0, pits }
    }

    /// `side`'s circuit of a board of `pits` pits a side laid out as one word: South's pits,
    /// South's store, North's pits, North's store, a byte each. That word's first 2m + 1 bytes
    /// are South's circuit; North's is that turned, with North's store.
    pub(crate) fn of_board(pits: u8, board: u128, side: Side) -> Circuit {
        let south = Circuit { holes: board & mask(2 * usize::from(pits) + 1), pits };
        match side {
            Side::South => south,
            Side::North => {
                let mut north = south.turned();
                north.set_hole(north.store(), (board >> (8 * north.len())) as u8);
                north
            }
        }
    }

    /// `board` (laid out as for [`Circuit::of_board`]) with `side`'s circuit replaced by this
    /// one.
    pub(crate) fn onto_board(&self, board: u128, side: Side) -> u128 {
        let south_circuit = mask(self.len());
        match side {
            Side::South => board & !south_circuit | self.holes,
            Side::North => {
                let south_store = board & south_circuit & !self.own_mask() & !self.other_mask();
                south_store | self.turned().holes | u128::from(self.hole(self.store())) << (8 * self.len())
            }
        }
    }

    /// Pits a side.
    pub(crate) fn pits(&self) -> usize {
        usize::from(self.pits)
    }

    /// The index of the mover's store.
    pub(crate) fn store(&self) -> usize {
        self.pits()
    }

    /// The number of holes sown round.
    fn len(&self) -> usize {
        2 * self.pits() + 1
    }

    /// The seeds in hole `at`.
    pub(crate) fn hole(&self, at: usize) -> u8 {
        (self.holes >> (8 * at)) as u8
    }

    /// Every hole's seeds, in order (and zeros past the last).
    pub(crate) fn holes(&self) -> [u8; 16] {
        self.holes.to_le_bytes()
    }

    /// Puts `seeds` in hole `at`.
    pub(crate) fn set_hole(&mut self, at: usize, seeds: u8) {
        self.holes = self.holes & !(0xff << (8 * at)) | u128::from(seeds) << (8 * at);
    }

    /// The mover's pits, as a mask of their bytes.
    fn own_mask(&self) -> u128 {
        mask(self.pits())
    }

    /// The other side's pits, as a mask of their bytes.
    fn other_mask(&self) -> u128 {
        mask(self.len()) & !mask(self.pits() + 1)
    }

    /// The seeds in the mover's pits.
    pub(crate) fn own_seeds(&self) -> u8 {
        byte_sum(self.holes & self.own_mask())
    }

    /// The seeds in the other side's pits.
    pub(crate) fn other_seeds(&self) -> u8 {
        byte_sum(self.holes & self.other_mask())
    }

    /// The holes the seeds of the mover's pit `index` (0 for pit 1) fall into, in order.
    pub(crate) fn sown_holes(&self, index: usize) -> impl Iterator<Item = usize> + use<> {
        let len = self.len();
        (1..=usize::from(self.hole(index))).map(move |step| (index + step) % len)
    }

    /// Sows the mover's pit `index` (0 for pit 1; it holds seeds) and captures as `capture`
    /// says: a last seed in an empty pit of the mover's own takes the opposite pit's seeds, and
    /// itself, to the mover's store.
    pub(crate) fn sow(&mut self, index: usize, capture: Capture) -> Sowing {
        let len = self.len();
        let seeds = usize::from(self.hole(index));
        self.set_hole(index, 0);
        // Whole rounds at once (a pit of more than a round's seeds is rare but legal), then the
        // rest in one run of holes after the pit, wrapping round past the last. No byte
        // overflows into the next: a board holds at most 72 seeds.
        let rest = if seeds < len {
            seeds
        } else {
            self.holes += (seeds / len) as u128 * ones(len);
            seeds % len
        };
        let end = index + rest;
        self.holes +=
            if end < len { ones(end + 1) - ones(index + 1) } else { ones(len) - ones(index + 1) + ones(end + 1 - len) };
        let last = if end < len { end } else { end - len };
        let again = last == self.store();
        let mut captured = None;
        if last < self.pits() && self.hole(last) == 1 {
            let opposite = 2 * self.pits() - last;
            let taken = self.hole(opposite);
            if taken > 0 || capture == Capture::Empty {
                self.set_hole(opposite, 0);
                self.set_hole(last, 0);
                let store = self.store();
                self.set_hole(store, self.hole(store) + taken + 1);
                captured = Some(taken + 1);
            }
        }
        Sowing { again, captured }
    }

    /// Whether `end` ends the game here, with the mover to move again (`again`) or the other
    /// side to move.
    pub(crate) fn ends(&self, again: bool, end: End) -> bool {
        let own_empty = self.holes & self.own_mask() == 0;
        let other_empty = self.holes & self.other_mask() == 0;
        match end {
            End::Irving => own_empty || other_empty,
            End::Site if again => own_empty,
            End::Site => other_empty,
        }
    }

    /// The same board seen by the other side, its store empty.
    pub(crate) fn turned(&self) -> Circuit {
        let pits = self.pits();
        let own = self.holes & self.own_mask();
        let other = self.holes & self.other_mask();
        Circuit { holes: other >> (8 * (pits + 1)) | own << (8 * (pits + 1)), pits: self.pits }
    }
}

/// The sum of the bytes of `word`, which must be under 256: multiplied by a one in every byte,
/// the top byte collects them all.
fn byte_sum(word: u128) -> u8 {
    (word.wrapping_mul(u128::MAX / 255) >> 120) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Circuit {
        /// The circuit whose holes, in order, are `holes` (the mover's pits, its store, the other
        /// side's pits).
        fn from_holes(pits: u8, holes: impl IntoIterator<Item = u8>) -> Circuit {
            let holes = holes.into_iter().enumerate().fold(0, |word, (at, seeds)| word | u128::from(seeds) << (8 * at));
            Circuit { holes, pits }
        }
    }

    #[test]
    fn sowing_drops_a_seed_in_each_hole_round_the_circuit_and_captures() {
        // Two pits a side: holes [own 1, own 2, store, other 1, other 2].
        let mut circuit = Circuit::from_holes(2, [1, 7, 0, 2, 3]);
        // Seven seeds from own pit 2: one round of five, then own store and other pit 1.
        assert_eq!(circuit.sown_holes(1).collect::<Vec<_>>(), [2, 3, 4, 0, 1, 2, 3]);
        assert_eq!(circuit.sow(1, Capture::Standard), Sowing { again: false, captured: None });
        assert_eq!(circuit, Circuit::from_holes(2, [2, 1, 2, 4, 4]));
        assert_eq!((circuit.own_seeds(), circuit.other_seeds()), (3, 8));
        // One seed from own pit 1 into own pit 2, which held one: no capture.
        let mut again = Circuit::from_holes(2, [1, 1, 0, 5, 0]);
        again.sow(0, Capture::Standard);
        assert_eq!(again, Circuit::from_holes(2, [0, 2, 0, 5, 0]));
        // Into an empty own pit: the opposite pit's five and the last seed go to the store.
        let mut capture = Circuit::from_holes(2, [1, 0, 4, 5, 6]);
        assert_eq!(capture.sow(0, Capture::Standard), Sowing { again: false, captured: Some(6) });
        assert_eq!(capture, Circuit::from_holes(2, [0, 0, 10, 0, 6]));
        // Opposite an empty pit only the empty capture takes the lone seed.
        let lone = Circuit::from_holes(2, [1, 0, 0, 0, 6]);
        for (rule, taken) in [(Capture::Standard, None), (Capture::Empty, Some(1))] {
            let mut sown = lone;
            assert_eq!(sown.sow(0, rule).captured, taken);
        }
        // The last seed in the store: again.
        let mut store = Circuit::from_holes(2, [0, 1, 0, 0, 6]);
        assert!(store.sow(1, Capture::Standard).again);
        assert!(store.ends(true, End::Site) && store.ends(false, End::Irving) && !store.ends(false, End::Site));
        assert_eq!(store.turned(), Circuit::from_holes(2, [0, 6, 0, 0, 0]));
    }
}
