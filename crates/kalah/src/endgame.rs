//! An endgame database: the exact value of every position with few seeds left in the pits.
//! A position's future does not depend on its stores (the rules never take a seed out of one),
//! and the rules treat both sides alike past the pie rule's opening, so one entry serves every
//! store count and either side to move: the value kept is the margin the side to move still
//! gains from here.
//!
//! Positions with `k` seeds in their 2m pits are ranked in the combinatorial number system (the
//! seeds and the m * 2 - 1 walls between pits as a word of stars and bars, the mover's pits
//! first), one array per `k`. Entries are found on demand and kept ([`EndgameTable::new`]), or
//! all of them up front, level by level on several threads ([`EndgameTable::filled`]). Sowings
//! that reach no store and capture nothing keep `k`, but they move every seed sown toward its
//! own side's store, so looking values up while filling them in never goes round.

use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering::Relaxed};

use crate::circuit::Circuit;
use crate::{Position, Rules, Side};

/// What an entry holds before its value is known.
const UNKNOWN: i8 = i8::MIN;

/// The database for one set of rules, up to `max_seeds` seeds in the pits.
#[derive(Debug)]
pub struct EndgameTable {
    rules: Rules,
    max_seeds: u8,
    /// `binomial[n][r]`, for ranking.
    binomial: Vec<[u64; BINOMIAL_COLUMNS]>,
    /// For each seed count in the pits, one entry per ranked position (the side to move's pits
    /// first), the levels one after another in one allocation (on huge pages where granted:
    /// the entries are read at random).
    entries: Vec<AtomicI8>,
    /// Where each level starts in `entries`, and where the last one ends.
    level_starts: Vec<usize>,
}

impl EndgameTable {
    /// An empty database for `rules` and positions with at most `max_seeds` seeds in the pits
    /// (it takes about [`EndgameTable::bytes`] of memory), filled as it is asked.
    #[must_use]
    pub fn new(rules: Rules, max_seeds: u8) -> EndgameTable {
        let binomial = binomials(usize::from(max_seeds) + 2 * usize::from(rules.pits()));
        let walls = 2 * usize::from(rules.pits()) - 1;
        let mut level_starts = vec![0];
        for seeds in 0..=usize::from(max_seeds) {
            level_starts.push(level_starts[seeds] + binomial[seeds + walls][walls] as usize);
        }
        let mut entries = Vec::with_capacity(level_starts[usize::from(max_seeds) + 1]);
        game_search::memory::advise_huge_pages(&entries);
        entries.extend((0..entries.capacity()).map(|_| AtomicI8::new(UNKNOWN)));
        EndgameTable { rules, max_seeds, binomial, entries, level_starts }
    }

    /// The entries of the positions with `seeds` seeds in the pits, by rank.
    fn level(&self, seeds: usize) -> &[AtomicI8] {
        &self.entries[self.level_starts[seeds]..self.level_starts[seeds + 1]]
    }

    /// The whole database, every entry found before it is returned, level by level from the
    /// fewest seeds up, each level shared out among `threads` threads (one: this thread alone).
    #[must_use]
    pub fn filled(rules: Rules, max_seeds: u8, threads: usize) -> EndgameTable {
        let table = EndgameTable::new(rules, max_seeds);
        for seeds in 0..=max_seeds {
            let level = table.level(usize::from(seeds));
            let next_block = AtomicUsize::new(0);
            let fill_blocks = || {
                loop {
                    let start = next_block.fetch_add(FILL_BLOCK, Relaxed);
                    if start >= level.len() {
                        break;
                    }
                    // The block's first position, then each next one from the one before.
                    let mut circuit = table.unrank(seeds, start);
                    for entry in level.iter().skip(start).take(FILL_BLOCK) {
                        if !circuit.ends(true, rules.end) {
                            table.entry_value(&circuit, entry);
                        }
                        table.advance(&mut circuit);
                    }
                }
            };
            if threads <= 1 {
                fill_blocks();
            } else {
                std::thread::scope(|scope| {
                    for _ in 0..threads {
                        scope.spawn(fill_blocks);
                    }
                });
            }
        }
        table
    }

    /// The memory a database for `rules` up to `max_seeds` takes, in bytes.
    #[must_use]
    pub fn bytes(rules: Rules, max_seeds: u8) -> u64 {
        let walls = 2 * usize::from(rules.pits()) - 1;
        let binomial = binomials(usize::from(max_seeds) + walls + 1);
        (0..=usize::from(max_seeds)).map(|seeds| binomial[seeds + walls][walls]).sum()
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
        let side = position.to_move?;
        let covered = position.rules == self.rules
            && !position.opening
            && !position.swap_open
            && self.seeds_in_pits(position) <= u32::from(self.max_seeds);
        covered.then(|| i32::from(self.value(&position.circuit(side))))
    }

    /// Every seed not in a store (the rules never add or remove one).
    fn seeds_in_pits(&self, position: &Position) -> u32 {
        let all = 2 * u32::from(self.rules.pits()) * u32::from(self.rules.seeds());
        all - u32::from(position.store(Side::South)) - u32::from(position.store(Side::North))
    }

    /// The value of a covered position (the mover's circuit) that is not over, found and kept
    /// if it was unknown.
    fn value(&self, circuit: &Circuit) -> i8 {
        self.entry_value(circuit, self.entry(circuit))
    }

    /// The value kept in `entry`, that of `circuit`, found first if it was unknown.
    fn entry_value(&self, circuit: &Circuit, entry: &AtomicI8) -> i8 {
        let known = entry.load(Relaxed);
        if known != UNKNOWN {
            return known;
        }
        // Every position reached first, each entry fetched at once: the entries lie far apart,
        // and their cache misses then overlap rather than follow one another.
        let mut reached = [None; crate::MAX_PITS as usize];
        for (index, slot) in reached.iter_mut().enumerate().take(circuit.pits()) {
            if circuit.hole(index) == 0 {
                continue;
            }
            let mut next = *circuit;
            next.set_hole(next.store(), 0);
            let sowing = next.sow(index, self.rules.capture);
            let gained = i32::from(next.hole(next.store()));
            *slot = Some(if next.ends(sowing.again, self.rules.end) {
                // The end: each side's seeds go to its own store.
                (gained + i32::from(next.own_seeds()) - i32::from(next.other_seeds()), None)
            } else {
                let (next, sign) = if sowing.again { (next, 1) } else { (next.turned(), -1) };
                let entry = self.entry(&next);
                game_search::memory::prefetch(entry);
                (gained, Some((next, entry, sign)))
            });
        }
        let mut best = i32::MIN;
        for &(gained, rest) in reached.iter().flatten() {
            let rest = rest.map_or(0, |(next, entry, sign)| sign * i32::from(self.entry_value(&next, entry)));
            best = best.max(gained + rest);
        }
        // At most the seeds in the pits, which fit an i8 for every board.
        let value = best as i8;
        entry.store(value, Relaxed);
        value
    }

    /// The entry of a covered position.
    fn entry(&self, circuit: &Circuit) -> &AtomicI8 {
        let (seeds, rank) = self.rank(circuit);
        &self.level(seeds)[rank]
    }

    /// The hole of the `ranked`th pit in ranking order (the mover's 1..m, then the other
    /// side's): past the mover's pits, the store is stepped over.
    fn ranked_hole(circuit: &Circuit, ranked: usize) -> usize {
        if ranked < circuit.pits() { ranked } else { ranked + 1 }
    }

    /// The seeds in the pits, and the position's index among those with as many: the walls'
    /// places in the word of seeds and walls, ranked as a combination.
    fn rank(&self, circuit: &Circuit) -> (usize, usize) {
        let holes = circuit.holes();
        let walls = 2 * circuit.pits() - 1;
        let mut seeds_before = 0;
        let mut rank = 0;
        for wall in 0..walls {
            seeds_before += usize::from(holes[EndgameTable::ranked_hole(circuit, wall)]);
            rank += self.binomial[seeds_before + wall][wall + 1];
        }
        (seeds_before + usize::from(holes[EndgameTable::ranked_hole(circuit, walls)]), rank as usize)
    }

    /// Turns a circuit made by [`EndgameTable::unrank`] into the one of the next rank (the
    /// last rank's into nothing in particular): the next combination of walls. The pits between
    /// the first and the first non-empty one after it are empty, so one seed of that pit and
    /// every seed of the first gather in the pit before it.
    fn advance(&self, circuit: &mut Circuit) {
        let first = EndgameTable::ranked_hole(circuit, 0);
        let mut previous = first;
        for ranked in 1..2 * circuit.pits() {
            let next = EndgameTable::ranked_hole(circuit, ranked);
            if circuit.hole(next) > 0 {
                let gathered = circuit.hole(first);
                circuit.set_hole(first, 0);
                circuit.set_hole(previous, gathered + 1);
                circuit.set_hole(next, circuit.hole(next) - 1);
                return;
            }
            previous = next;
        }
    }

    /// The mover's circuit of `seeds` seeds in the pits with that rank, its store empty.
    fn unrank(&self, seeds: u8, rank: usize) -> Circuit {
        let walls = 2 * usize::from(self.rules.pits()) - 1;
        let mut left = rank as u64;
        // The walls' places in the word, from the last wall down: each the highest place whose
        // binomial still fits in what is left of the rank.
        let mut places = [0usize; 2 * crate::MAX_PITS as usize];
        let mut place = usize::from(seeds) + walls;
        for wall in (0..walls).rev() {
            place -= 1;
            while self.binomial[place][wall + 1] > left {
                place -= 1;
            }
            left -= self.binomial[place][wall + 1];
            places[wall] = place;
        }
        // The last pit's seeds end where the word does.
        places[walls] = usize::from(seeds) + walls;
        let mut circuit = Circuit::empty(self.rules.pits());
        let mut previous_end = 0;
        for (wall, &end) in places.iter().enumerate().take(walls + 1) {
            // The seeds between the previous wall and this one (they are at least one place apart
            // after the first).
            circuit.set_hole(EndgameTable::ranked_hole(&circuit, wall), (end - previous_end) as u8);
            previous_end = end + 1;
        }
        circuit
    }
}

/// Ranks a level's threads take at a time while filling it.
const FILL_BLOCK: usize = 1 << 14;

/// Columns of the binomials kept: ranks choose at most the 2m - 1 walls of six pits a side.
const BINOMIAL_COLUMNS: usize = 2 * crate::MAX_PITS as usize;

/// Pascal's triangle up to row `n`, its first [`BINOMIAL_COLUMNS`] columns.
fn binomials(n: usize) -> Vec<[u64; BINOMIAL_COLUMNS]> {
    let mut rows = vec![[0u64; BINOMIAL_COLUMNS]; n + 1];
    for row in 0..=n {
        rows[row][0] = 1;
        for column in 1..=row.min(BINOMIAL_COLUMNS - 1) {
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
                        // South to move: its pits a, b, then North's c and the rest.
                        let mut position = Position::start(rules);
                        position.board[..6].copy_from_slice(&[a, b, 12 - seeds, c, seeds - a - b - c, 0]);
                        let mut circuit = position.circuit(Side::South);
                        let (_, rank) = table.rank(&circuit);
                        circuit.set_hole(circuit.store(), 0);
                        assert_eq!(table.unrank(seeds, rank), circuit);
                        // The same pits with the sides changed and North to move: the same entry.
                        let mut mirrored = position;
                        mirrored.board[..3].copy_from_slice(&position.board[3..6]);
                        mirrored.board[3..6].copy_from_slice(&position.board[..3]);
                        assert_eq!(table.rank(&mirrored.circuit(Side::North)), (usize::from(seeds), rank));
                        ranks.push(rank);
                    }
                }
            }
            ranks.sort_unstable();
            assert_eq!(ranks, (0..ranks.len()).collect::<Vec<_>>(), "{seeds} seeds");
            for rank in 1..ranks.len() {
                let mut circuit = table.unrank(seeds, rank - 1);
                table.advance(&mut circuit);
                assert_eq!(circuit, table.unrank(seeds, rank), "{seeds} seeds, rank {rank}");
            }
            assert_eq!(table.level(usize::from(seeds)).len(), ranks.len());
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
                let solved = crate::search::solve(&position, 1, 1).value;
                // The solver's value is the first mover's (South's) margin; North is to move.
                let from_north = table.future_margin(&position).unwrap() + position.margin_for(side);
                assert_eq!(-from_north, solved, "{rules:?}");
            }
        }
        let rules = Rules::new(6, 4).unwrap();
        assert_eq!(EndgameTable::bytes(rules, 0), 1);
        assert_eq!(EndgameTable::bytes(rules, 2), 1 + 12 + 78);
        assert!(EndgameTable::seeds_within(rules, 64 << 20) >= 12);
        assert!(EndgameTable::new(rules, 4).future_margin(&Position::start(rules)).is_none(), "48 seeds");
    }

    #[test]
    fn a_database_filled_up_front_holds_what_one_filled_on_demand_finds() {
        for capture in [Capture::Standard, Capture::Empty] {
            for end in [End::Irving, End::Site] {
                let rules = Rules::new(3, 3).unwrap().with_capture(capture).with_end(end);
                let filled = EndgameTable::filled(rules, 9, 2);
                let on_demand = EndgameTable::new(rules, 9);
                let mut live = 0;
                for seeds in 0..=9 {
                    let level = filled.level(seeds);
                    for (rank, entry) in level.iter().enumerate() {
                        let circuit = filled.unrank(seeds as u8, rank);
                        let value = entry.load(Relaxed);
                        if circuit.ends(true, end) {
                            assert_eq!(value, UNKNOWN, "a position that is over has no entry");
                        } else {
                            live += 1;
                            assert_eq!(value, on_demand.value(&circuit), "{circuit:?}");
                        }
                    }
                }
                assert!(live > 1000, "{live} positions: {rules:?}");
            }
        }
    }
}
