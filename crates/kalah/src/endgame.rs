//! An endgame database built on the fly: the exact value of every position with few seeds left
//! in the pits, kept once found. A position's future does not depend on its stores (the rules
//! never take a seed out of one), so one entry serves every store count: the value kept is the
//! margin the side to move still gains from here.
//!
//! Positions with `k` seeds in their 2m pits are ranked in the combinatorial number system (the
//! seeds and the m * 2 - 1 walls between pits as a word of stars and bars), one array per `k`.
//! Sowings that reach no store and capture nothing keep `k`, but they move every seed sown
//! toward its own side's store, so looking values up while filling them in never goes round.

use std::sync::atomic::{AtomicI8, Ordering::Relaxed};

use crate::{Position, Rules};

/// What an entry holds before its value is known.
const UNKNOWN: i8 = i8::MIN;

/// The database for one set of rules, up to `max_seeds` seeds in the pits.
#[derive(Debug)]
pub struct EndgameTable {
    rules: Rules,
    max_seeds: u8,
    /// `binomial[n][r]`, for ranking.
    binomial: Vec<Vec<u64>>,
    /// For each seed count in the pits, two entries (South, North to move) per ranked position.
    levels: Vec<Vec<AtomicI8>>,
}

impl EndgameTable {
    /// An empty database for `rules` and positions with at most `max_seeds` seeds in the pits
    /// (it takes about [`EndgameTable::bytes`] of memory).
    #[must_use]
    pub fn new(rules: Rules, max_seeds: u8) -> EndgameTable {
        let binomial = binomials(usize::from(max_seeds) + 2 * usize::from(rules.pits()));
        let walls = 2 * usize::from(rules.pits()) - 1;
        let levels = (0..=usize::from(max_seeds))
            .map(|seeds| (0..2 * binomial[seeds + walls][walls]).map(|_| AtomicI8::new(UNKNOWN)).collect())
            .collect();
        EndgameTable { rules, max_seeds, binomial, levels }
    }

    /// The memory a database for `rules` up to `max_seeds` takes, in bytes.
    #[must_use]
    pub fn bytes(rules: Rules, max_seeds: u8) -> u64 {
        let walls = 2 * usize::from(rules.pits()) - 1;
        let binomial = binomials(usize::from(max_seeds) + walls + 1);
        (0..=usize::from(max_seeds)).map(|seeds| 2 * binomial[seeds + walls][walls]).sum()
    }

    /// The largest seed count whose database fits in `bytes`.
    #[must_use]
    pub fn seeds_within(rules: Rules, bytes: u64) -> u8 {
        let all_seeds = 2 * rules.pits() * rules.seeds();
        (0..=all_seeds.min(100)).take_while(|&seeds| EndgameTable::bytes(rules, seeds) <= bytes).last().unwrap_or(0)
    }

    /// The margin the side to move still gains under perfect play, if `position` is one the
    /// database covers: its rules, at most its seeds in the pits, and past the pie rule's opening.
    #[must_use]
    pub fn future_margin(&self, position: &Position) -> Option<i32> {
        let covered = position.rules == self.rules
            && position.to_move.is_some()
            && !position.opening
            && !position.swap_open
            && self.seeds_in_pits(position) <= u32::from(self.max_seeds);
        covered.then(|| i32::from(self.value(position)))
    }

    fn seeds_in_pits(&self, position: &Position) -> u32 {
        let m = usize::from(self.rules.pits());
        position.board[..m].iter().chain(&position.board[m + 1..=2 * m]).map(|&seeds| u32::from(seeds)).sum()
    }

    /// The entry of a covered position that is not over, found and kept if it was unknown.
    fn value(&self, position: &Position) -> i8 {
        let Some(side) = position.to_move else { return 0 };
        let entry = &self.levels[self.seeds_in_pits(position) as usize][self.rank(position) * 2 + side.index()];
        let known = entry.load(Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let mut best = i32::MIN;
        for mv in position.legal_moves() {
            let mut next = *position;
            if next.play(mv).is_err() {
                continue;
            }
            let gained = next.margin_for(side) - position.margin_for(side);
            let rest = match next.to_move {
                None => 0,
                Some(mover) if mover == side => i32::from(self.value(&next)),
                Some(_) => -i32::from(self.value(&next)),
            };
            best = best.max(gained + rest);
        }
        // At most the seeds in the pits, which fit an i8 for every board.
        let value = best as i8;
        entry.store(value, Relaxed);
        value
    }

    /// The position's index among those with as many seeds in the pits: the walls' places in the
    /// word of seeds and walls, ranked as a combination.
    fn rank(&self, position: &Position) -> usize {
        let m = usize::from(self.rules.pits());
        let pits = position.board[..m].iter().chain(&position.board[m + 1..2 * m]);
        let mut seeds_before = 0;
        let mut rank = 0;
        for (wall, &seeds) in pits.enumerate() {
            seeds_before += usize::from(seeds);
            rank += self.binomial[seeds_before + wall][wall + 1];
        }
        rank as usize
    }
}

/// Pascal's triangle up to `n`.
fn binomials(n: usize) -> Vec<Vec<u64>> {
    let mut rows = vec![vec![0u64; n + 1]; n + 1];
    for row in 0..=n {
        rows[row][0] = 1;
        for column in 1..=row {
            rows[row][column] = rows[row - 1][column - 1] + rows[row - 1][column];
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capture, End, parse_moves};

    #[test]
    fn ranks_are_a_numbering_of_the_positions_with_as_many_seeds() {
        // Kalah(2, n): every way of putting up to six seeds in four pits, ranked without gaps.
        let rules = Rules::new(2, 3).unwrap();
        let table = EndgameTable::new(rules, 6);
        for seeds in 0..=6u8 {
            let mut ranks = Vec::new();
            for a in 0..=seeds {
                for b in 0..=seeds - a {
                    for c in 0..=seeds - a - b {
                        let mut position = Position::start(rules);
                        position.board[..6].copy_from_slice(&[a, b, 0, c, seeds - a - b - c, 0]);
                        ranks.push(table.rank(&position));
                    }
                }
            }
            ranks.sort_unstable();
            assert_eq!(ranks, (0..ranks.len()).collect::<Vec<_>>(), "{seeds} seeds");
            assert_eq!(table.levels[usize::from(seeds)].len(), 2 * ranks.len());
        }
    }

    #[test]
    fn its_values_are_the_solvers() {
        for capture in [Capture::Standard, Capture::Empty] {
            for end in [End::Irving, End::Site] {
                let rules = Rules::new(3, 2).unwrap().with_capture(capture).with_end(end);
                let table = EndgameTable::new(rules, 12);
                let position = Position::start(rules).replay(&parse_moves("1").unwrap()).unwrap();
                let side = position.to_move().unwrap();
                let solved = crate::search::solve(&position, 1).value;
                // The solver's value is the first mover's (South's) margin; North is to move.
                let from_north = table.future_margin(&position).unwrap() + position.margin_for(side);
                assert_eq!(-from_north, solved, "{rules:?}");
            }
        }
        let rules = Rules::new(6, 4).unwrap();
        assert_eq!(EndgameTable::bytes(rules, 0), 2);
        assert!(EndgameTable::seeds_within(rules, 64 << 20) >= 12);
        assert!(EndgameTable::new(rules, 4).future_margin(&Position::start(rules)).is_none(), "48 seeds");
    }
}
