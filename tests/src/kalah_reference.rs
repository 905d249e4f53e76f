//! A plain Kalah, written apart from the `kalah` crate and as directly as the rules read, to
//! count move sequences independently of it: the board is a ring of holes that each know their
//! owner and kind, and a sowing walks the ring one hole at a time.

/// A hole of the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hole {
    /// A pit of player 0 (South) or 1 (North).
    Pit(usize),
    /// The store of player 0 or 1.
    Store(usize),
}

/// A game under one set of rules.
#[derive(Clone, Debug)]
pub struct NaiveKalah {
    ring: Vec<Hole>,
    seeds: Vec<u32>,
    player: usize,
    empty_capture: bool,
    irving_end: bool,
    pie: bool,
    /// 0: South's opening turn; 1: North may swap; 2: neither.
    pie_stage: u8,
    over: bool,
}

impl NaiveKalah {
    /// Kalah(`pits`, `seeds`) with the empty capture or the standard one, Irving's end or the
    /// site's, and the pie rule or not.
    pub fn new(pits: usize, seeds: u32, empty_capture: bool, irving_end: bool, pie: bool) -> NaiveKalah {
        let mut ring = Vec::new();
        for player in 0..2 {
            ring.extend(std::iter::repeat_n(Hole::Pit(player), pits));
            ring.push(Hole::Store(player));
        }
        let seeds = ring.iter().map(|hole| if matches!(hole, Hole::Pit(_)) { seeds } else { 0 }).collect();
        NaiveKalah { ring, seeds, player: 0, empty_capture, irving_end, pie, pie_stage: 0, over: false }
    }

    /// The ring positions of `player`'s pits, in the order of sowing (pit 1 first).
    fn pits_of(&self, player: usize) -> Vec<usize> {
        (0..self.ring.len()).filter(|&at| self.ring[at] == Hole::Pit(player)).collect()
    }

    fn has_seeds(&self, player: usize) -> bool {
        self.pits_of(player).iter().any(|&at| self.seeds[at] > 0)
    }

    /// The moves: pit numbers from 1, and 0 for the swap.
    pub fn moves(&self) -> Vec<usize> {
        if self.over {
            return Vec::new();
        }
        let mut moves: Vec<usize> = self
            .pits_of(self.player)
            .iter()
            .enumerate()
            .filter(|&(_, &at)| self.seeds[at] > 0)
            .map(|(number, _)| number + 1)
            .collect();
        if self.pie && self.pie_stage == 1 {
            moves.push(0);
        }
        moves
    }

    /// Plays a move of [`NaiveKalah::moves`].
    pub fn play(&mut self, pit: usize) {
        if pit == 0 {
            self.pie_stage = 2;
            return;
        }
        let mover = self.player;
        let mut at = self.pits_of(mover)[pit - 1];
        let mut hand = std::mem::take(&mut self.seeds[at]);
        while hand > 0 {
            at = (at + 1) % self.ring.len();
            if self.ring[at] == Hole::Store(1 - mover) {
                continue;
            }
            self.seeds[at] += 1;
            hand -= 1;
        }
        let store = self.ring.iter().position(|&hole| hole == Hole::Store(mover)).unwrap();
        let last_in_store = at == store;
        if !last_in_store && self.ring[at] == Hole::Pit(mover) && self.seeds[at] == 1 {
            // The opposite pit: as far from the other player's store as this one is from its own.
            let mine = self.pits_of(mover);
            let theirs = self.pits_of(1 - mover);
            let number = mine.iter().position(|&hole| hole == at).unwrap();
            let opposite = theirs[theirs.len() - 1 - number];
            if self.seeds[opposite] > 0 || self.empty_capture {
                let taken = self.seeds[opposite] + 1;
                self.seeds[opposite] = 0;
                self.seeds[at] = 0;
                self.seeds[store] += taken;
            }
        }
        if !last_in_store {
            self.player = 1 - mover;
        }
        self.pie_stage = match self.pie_stage {
            0 if self.player == 1 => 1,
            0 => 0,
            _ => 2,
        };
        let ends =
            if self.irving_end { !self.has_seeds(0) || !self.has_seeds(1) } else { !self.has_seeds(self.player) };
        if ends {
            self.over = true;
        }
    }

    /// Move sequences of exactly `depth` moves.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|pit| {
                let mut next = self.clone();
                next.play(pit);
                next.perft(depth - 1)
            })
            .sum()
    }
}
