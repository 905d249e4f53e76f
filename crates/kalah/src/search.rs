//! Kalah on the game-agnostic search of `game-search`: [`KalahGame`] is the position walked with
//! make/unmake, and [`solve`] its exact value with [`game_search::Solver`].

use std::sync::Arc;

pub use game_search::SolveProgress;
use game_search::{SearchGame, Solver};

use crate::endgame::EndgameTable;
use crate::{Move, Position, Rules, Side};

/// A position as the searches walk it: the position and the ones before it, for undo, and an
/// endgame database if it has one.
#[derive(Clone, Debug)]
pub struct KalahGame {
    position: Position,
    before: Vec<Position>,
    endgame: Option<Arc<EndgameTable>>,
}

impl KalahGame {
    /// The searches' view of `position`.
    #[must_use]
    pub fn new(position: Position) -> KalahGame {
        KalahGame { position, before: Vec::new(), endgame: None }
    }

    /// The same, with `endgame` for the positions it covers.
    #[must_use]
    pub fn with_endgame(self, endgame: Arc<EndgameTable>) -> KalahGame {
        KalahGame { endgame: Some(endgame), ..self }
    }

    /// The position reached.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side whose point of view values take: the side to move, and South once it is over.
    fn viewpoint(&self) -> Side {
        self.position.to_move.unwrap_or(Side::South)
    }
}

/// The legal moves as bits: bit 0 the swap, bit `p` pit `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet(u8);

impl Iterator for MoveSet {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(if bit == 0 { Move::Swap } else { Move::Pit(bit) })
    }
}

impl SearchGame for KalahGame {
    type Move = Move;
    type Moves = MoveSet;
    const MOVE_SLOTS: usize = 1 + crate::MAX_PITS as usize;

    fn moves(&self) -> MoveSet {
        let Some(side) = self.position.to_move else { return MoveSet(0) };
        let pits = (1..=self.position.rules.pits)
            .filter(|&pit| self.position.pit(side, pit) > 0)
            .fold(0, |bits, pit| bits | 1 << pit);
        MoveSet(pits | u8::from(self.position.swap_open))
    }

    fn move_count(&self) -> usize {
        self.moves().0.count_ones() as usize
    }

    fn play(&mut self, mv: Move) {
        self.before.push(self.position);
        // The searches play only the moves they were given.
        let _ = self.position.play(mv);
    }

    fn undo(&mut self) {
        if let Some(position) = self.before.pop() {
            self.position = position;
        }
    }

    /// Every pit (not the stores, which [`SearchGame::value_banked`] accounts for), the side to
    /// move's first, and the pie rule's state, mixed (splitmix64 steps). Past the opening the
    /// rules treat both sides alike, so a position and its mirror image with the other side to
    /// move share a key, and their values.
    fn hash(&self) -> u64 {
        let position = &self.position;
        let flags = u64::from(position.swap_open) | u64::from(position.opening) << 1;
        let mover = self.viewpoint();
        let sides = [position.pits_of(mover), position.pits_of(mover.other())];
        // The flags mixed on their own first: xored into a side's word they would collide with
        // its pits.
        let mut key = mix(flags);
        for side in sides {
            let word = side.iter().fold(0u64, |word, &seeds| word << 8 | u64::from(seeds));
            key = mix(key ^ word);
        }
        key
    }

    /// The stores: the rules never take a seed out of one.
    fn value_banked(&self) -> i32 {
        self.position.margin_for(self.viewpoint())
    }

    /// From the endgame database, where it covers the position.
    fn known_value(&self) -> Option<i32> {
        let future = self.endgame.as_ref()?.future_margin(&self.position)?;
        Some(self.value_banked() + future)
    }

    fn ply(&self) -> usize {
        self.before.len()
    }

    /// No useful bound is known (seeds go round), so none is claimed: the [`Solver`] needs
    /// none, and [`game_search::Searcher`] then calls no depth-limited search exact.
    fn moves_left_at_most(&self) -> usize {
        usize::MAX / 2
    }

    /// The person to move (the one who moved first is 0), so that a sowing into one's own store
    /// keeps the value's sign; a finished game is seen from South's owner.
    fn mover(&self) -> u8 {
        u8::from(self.viewpoint() == Side::North) ^ u8::from(self.position.swapped)
    }

    /// The final margin, from the point of view of [`KalahGame::mover`]'s side.
    fn terminal_value(&self) -> Option<i32> {
        self.position.is_over().then(|| self.position.margin_for(self.viewpoint()))
    }

    /// What is in the stores stays there; every seed still in play may go either way. Where
    /// the swap is open the mover may yet take the other side, and its margin.
    fn value_bounds(&self) -> Option<(i32, i32)> {
        let side = self.viewpoint();
        let now = self.position.margin_for(side);
        let in_play = i32::from(self.position.rules.pits) * i32::from(self.position.rules.seeds) * 2
            - i32::from(self.position.store(Side::South))
            - i32::from(self.position.store(Side::North));
        let (lowest, highest) = (now - in_play, now + in_play);
        Some(if self.position.swap_open { (lowest.min(-highest), highest.max(-lowest)) } else { (lowest, highest) })
    }

    fn pack(mv: Move) -> u16 {
        match mv {
            Move::Swap => 0,
            Move::Pit(pit) => u16::from(pit),
        }
    }

    fn unpack(number: u16) -> Option<Move> {
        match number {
            0 => Some(Move::Swap),
            1..=6 => Some(Move::Pit(number as u8)),
            _ => None,
        }
    }

    /// Sowings that end in the mover's store first (another turn), the pit nearest the store
    /// first; then captures of the opposite pit's seeds, the most first; then the pits nearest
    /// the store first. The order matters most of all to the solver: Kalah(6,3) with the empty
    /// capture and Irving's end solves in 0.34 million positions so; 1.1 million when a last
    /// seed taken alone counts as a capture too, 19 million by the seeds sown, 146 million with
    /// the pits farthest from the store first. Kalah(6,4) takes 72 million, 170 million with
    /// the lone seed's capture ahead of the other sowings.
    fn order_hint(&self, mv: Move) -> i32 {
        let (Move::Pit(pit), Some(side)) = (mv, self.position.to_move) else { return 0 };
        let seeds = i32::from(self.position.pit(side, pit));
        let to_store = i32::from(self.position.rules.pits) - i32::from(pit) + 1;
        let lap = 2 * i32::from(self.position.rules.pits) + 1;
        if seeds % lap == to_store % lap {
            return 1000 + i32::from(pit);
        }
        let landing = i32::from(pit) + seeds;
        if seeds < lap && landing <= i32::from(self.position.rules.pits) {
            let target = landing as u8;
            if self.position.pit(side, target) == 0 && target != pit {
                let opposite = self.position.rules.pits + 1 - target;
                let taken = i32::from(self.position.pit(side.other(), opposite));
                if taken > 0 {
                    return 500 + taken;
                }
            }
        }
        i32::from(pit)
    }
}

/// The stores' margin for the side to move: what a depth-limited search of Kalah counts.
#[derive(Clone, Copy, Debug)]
pub struct StoreMargin;

impl game_search::Evaluator<KalahGame> for StoreMargin {
    fn evaluate(&self, game: &KalahGame) -> i32 {
        game.value_banked()
    }
}

/// The depth of the search whose value [`solve`] starts from.
const GUESS_DEPTH: u32 = 12;

/// The engine's strongest levels look this many moves ahead (a sowing or a swap each).
const LEVEL_DEPTHS: [u32; 5] = [1, 3, 6, 10, 14];

/// The engine's move at `level` (1-5, the strongest; others are taken as the nearest), or
/// `None` when the game is over: alpha-beta to the level's depth on the stores' margin, and
/// perfect play once the endgame database covers the position.
#[must_use]
pub fn engine_move(position: &Position, level: u8) -> Option<Move> {
    let depth = LEVEL_DEPTHS[usize::from(level.clamp(1, 5)) - 1];
    let table = Arc::new(EndgameTable::new(position.rules, if level >= 5 { ENDGAME_SEEDS } else { 0 }));
    let game = KalahGame::new(*position).with_endgame(table);
    if game.known_value().is_some() {
        return solve(position, 64, 1).best.first().copied();
    }
    let mut searcher = game_search::Searcher::new(16, 1);
    searcher.search(&game, &StoreMargin, game_search::Limits::depth(depth), None).best
}

/// Every legal move of `position` with its value for the side to move (the seeds it is ahead at
/// the end, as far as the search saw), best first: the engine's view for hints. The endgame
/// database of level 5 answers exactly where it covers the position.
#[must_use]
pub fn ranked_moves(position: &Position, limits: game_search::Limits) -> game_search::RankedMoves<Move> {
    let table = Arc::new(EndgameTable::new(position.rules, ENDGAME_SEEDS));
    let game = KalahGame::new(*position).with_endgame(table);
    game_search::Searcher::new(16, 1).rank_moves(&game, &StoreMargin, limits)
}

/// One step of splitmix64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The exact value of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final margin of the player who moved first, under perfect play: South's store minus
    /// North's at the end, unless the pie rule's swap gave that player North.
    pub value: i32,
    /// The best turn of the side to move: its sowings until the turn passes (one move, or the
    /// swap, for most positions).
    pub best: Vec<Move>,
    /// A whole line of perfect play to the end.
    pub line: Vec<Move>,
    /// Positions the solver visited.
    pub nodes: u64,
}

/// The most seeds in the pits that the endgame database of level 5 and of the hints covers: a
/// database a move, small enough to set up at once (ten million entries for six pits).
pub const ENDGAME_SEEDS: u8 = 14;

/// The most seeds in the pits that [`solve`]'s endgame database covers (and at most what a
/// quarter of the table's memory holds). It fills its entries by plain minimax as the search
/// reaches them. For Kalah(6,4) (empty capture, Irving's end, `--table-mb 512`), 16 seeds took
/// 15.5-19.3 s on two threads where the whole database built up front first took 19.4-22.1 s,
/// 17 seeds 17.6-22.8 s and 14 seeds 21.4 s; the smallest boards lose up to a second by it
/// (Kalah(6,3): 0.9 s with 14 seeds, 1.9 s with 16).
pub const SOLVER_ENDGAME_SEEDS: u8 = 16;

/// The memory [`solve_with`] is given: its table and its endgame database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverMemory {
    /// The table, in MiB.
    pub table_megabytes: usize,
    /// The endgame database covers every position with at most this many seeds in the pits.
    pub endgame_seeds: u8,
}

impl SolverMemory {
    /// What a whole game of `rules` was solved fastest with on a two-core machine
    /// (`docs/KALAH.md`): boards of up to 48 seeds (Kalah(6,4) among them) a 256 MiB table and
    /// a 16-seed database (30 MB for six pits): a larger table saves positions but costs more
    /// in fresh memory than it saves. Kalah(5,5) a 1 GiB table, as it was measured with (46 s).
    /// Larger boards, Kalah(6,5) first, a 4 GiB table and a 26-seed database (2.5 GiB for six
    /// pits; 24 or 28 seeds took longer, a 2 GiB table too): 6.8 GB in all. Without a database
    /// that large Kalah(6,5) had not finished in 30 minutes.
    #[must_use]
    pub fn for_rules(rules: Rules) -> SolverMemory {
        let seeds = 2 * u32::from(rules.pits()) * u32::from(rules.seeds());
        let (table_megabytes, endgame_seeds) = match seeds {
            ..=48 => (256, SOLVER_ENDGAME_SEEDS),
            49..=50 => (1024, SOLVER_ENDGAME_SEEDS),
            _ => (4096, 26),
        };
        SolverMemory { table_megabytes, endgame_seeds }
    }

    /// The bytes it takes for `rules`, the table and the database together.
    #[must_use]
    pub fn bytes(self, rules: Rules) -> u64 {
        ((self.table_megabytes as u64) << 20) + EndgameTable::bytes(rules, self.endgame_seeds)
    }
}

/// Solves `position` with a table of about `table_megabytes` MiB on `threads` threads, and an
/// endgame database of up to [`SOLVER_ENDGAME_SEEDS`] seeds (and at most a quarter of that
/// memory) filled as the search goes.
#[must_use]
pub fn solve(position: &Position, table_megabytes: usize, threads: usize) -> Solution {
    let rules = position.rules;
    let seeds = EndgameTable::seeds_within(rules, (table_megabytes as u64) << 18).min(SOLVER_ENDGAME_SEEDS);
    solve_with(position, table_megabytes, threads, Arc::new(EndgameTable::new(rules, seeds)), |_| {})
}

/// Solves `position` with a table of about `table_megabytes` MiB on `threads` threads, and
/// `endgame` for the positions it covers (for instance one [`EndgameTable::filled`] up front),
/// telling `report` after each null-window search the bounds proved so far on
/// [`Solution::value`] (the first mover's margin).
#[must_use]
pub fn solve_with(
    position: &Position,
    table_megabytes: usize,
    threads: usize,
    endgame: Arc<EndgameTable>,
    mut report: impl FnMut(SolveProgress),
) -> Solution {
    let game = KalahGame::new(*position).with_endgame(endgame);
    // A shallow search's value to start MTD(f) from: Kalah(6,4)'s is 6 of 10 after 12 sowings,
    // found in 20 ms; it saves three of the seven null-window searches from 0.
    let guess =
        game_search::Searcher::new(16, 1).search(&game, &StoreMargin, game_search::Limits::depth(GUESS_DEPTH), None);
    let first_moves = game.mover() == 0;
    let solved = Solver::new(table_megabytes, threads).solve_reporting(&game, guess.value, |progress| {
        report(if first_moves {
            progress
        } else {
            SolveProgress { lower: -progress.upper, upper: -progress.lower, ..progress }
        });
    });
    let value = if first_moves { solved.value } else { -solved.value };
    let mut walk = game;
    let mover = walk.mover();
    let mut best = Vec::new();
    for &mv in &solved.line {
        if walk.mover() != mover {
            break;
        }
        best.push(mv);
        walk.play(mv);
    }
    Solution { value, best, line: solved.line, nodes: solved.nodes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capture, End, Rules};

    /// The final margin of the player who moved first (North's after a swap).
    fn first_mover_margin(end: &Position) -> i32 {
        if end.swapped() { -end.margin() } else { end.margin() }
    }

    /// The first mover's final margin under perfect play, by plain minimax over every line: the
    /// first mover maximises it and the other player minimises it, whichever side each owns.
    fn minimax(position: &Position) -> i32 {
        let Some(side) = position.to_move() else {
            return first_mover_margin(position);
        };
        let values = position.legal_moves().into_iter().map(|mv| {
            let mut next = *position;
            next.play(mv).unwrap();
            minimax(&next)
        });
        let first_mover_to_move = (side == Side::South) != position.swapped();
        if first_mover_to_move { values.max().unwrap() } else { values.min().unwrap() }
    }

    #[test]
    fn the_solvers_memory_for_every_board_fits_eight_gigabytes() {
        for pits in 1..=crate::MAX_PITS {
            for seeds in 1..=6 {
                let rules = Rules::new(pits, seeds).unwrap();
                let memory = SolverMemory::for_rules(rules);
                let database = EndgameTable::bytes(rules, memory.endgame_seeds);
                assert_eq!(memory.bytes(rules), ((memory.table_megabytes as u64) << 20) + database);
                assert!(memory.bytes(rules) < 7 << 30, "Kalah({pits},{seeds}): {memory:?}");
                // Up to Kalah(6,4) a larger table costs more in fresh memory than it saves.
                if 2 * pits * seeds <= 48 {
                    assert_eq!(memory.table_megabytes, 256, "Kalah({pits},{seeds})");
                }
            }
        }
        // Kalah(6,5) had not finished in 30 minutes with the small database.
        let six_five = SolverMemory::for_rules(Rules::new(6, 5).unwrap());
        assert!(EndgameTable::bytes(Rules::new(6, 5).unwrap(), six_five.endgame_seeds) > 2 << 30);
    }

    #[test]
    fn the_levels_play_legal_moves_and_the_strongest_outscores_the_weakest() {
        // Kalah(4,3) twice, level 5 against level 1 with the sides swapped: every move legal, and
        // level 5's margins add up ahead (the first player's edge cancels out over the pair).
        let mut level_5_margin = 0;
        for (south, north) in [(5, 1), (1, 5)] {
            let mut position = Position::start(Rules::new(4, 3).unwrap());
            while let Some(side) = position.to_move() {
                let level = if side == Side::South { south } else { north };
                let mv = engine_move(&position, level).expect("a move while the game is on");
                position.play(mv).expect("a legal move");
            }
            level_5_margin += if south == 5 { position.margin() } else { -position.margin() };
        }
        assert!(level_5_margin > 0, "level 5 against level 1: {level_5_margin}");
        let over = Position::start(Rules::new(1, 1).unwrap()).replay(&[Move::Pit(1)]).unwrap();
        assert_eq!(engine_move(&over, 3), None);
    }

    #[test]
    fn ranked_moves_are_every_move_with_its_value_when_the_search_reaches_the_end() {
        // Kalah(3,2) with the pie rule after one sowing: every move (the swap included), each
        // with minimax's value for the side to move, best first.
        let position = Position::start(Rules::new(3, 2).unwrap().with_pie(true)).replay(&[Move::Pit(1)]).unwrap();
        // Deep enough to reach the end of every line (Kalah's length has no bound the search
        // may rely on, so it never calls its values exact).
        let ranked = ranked_moves(&position, game_search::Limits::depth(40));
        let mut listed: Vec<Move> = ranked.moves.iter().map(|&(mv, _)| mv).collect();
        listed.sort_by_key(|mv| match mv {
            Move::Pit(pit) => *pit,
            Move::Swap => u8::MAX,
        });
        assert_eq!(listed, position.legal_moves());
        assert!(ranked.moves.windows(2).all(|pair| pair[0].1 >= pair[1].1), "best first");
        let first_mover = |p: &Position| (p.to_move() == Some(Side::South)) != p.swapped();
        for (mv, value) in ranked.moves {
            let mut next = position;
            next.play(mv).unwrap();
            // minimax is the first mover's margin; the value is the side to move's.
            let for_mover = if first_mover(&position) { minimax(&next) } else { -minimax(&next) };
            assert_eq!(value, for_mover, "{mv}");
        }
    }

    #[test]
    fn positions_that_can_play_differently_have_different_keys() {
        // Every position reachable in Kalah(3,2) with the pie rule: equal keys only for equal
        // pits seen from the side to move, and equal pie-rule state (the stores are banked, not
        // hashed, and who owns which side does not change what the mover can gain).
        fn walk(position: Position, keys: &mut std::collections::HashMap<u64, Position>) {
            let game = KalahGame::new(position);
            let state = |p: &Position| (p.board, p.to_move, p.swap_open, p.swapped, p.opening);
            let unbanked = |p: &Position| {
                let mover = p.to_move.unwrap_or(Side::South);
                ([p.pits_of(mover), p.pits_of(mover.other())].concat(), p.swap_open, p.opening)
            };
            if let Some(seen) = keys.insert(game.hash(), position) {
                assert_eq!(unbanked(&seen), unbanked(&position), "{seen:?} and {position:?} share a key");
                if state(&seen) == state(&position) {
                    return;
                }
            }
            for mv in position.legal_moves() {
                let mut next = position;
                next.play(mv).unwrap();
                walk(next, keys);
            }
        }
        let mut keys = std::collections::HashMap::new();
        walk(Position::start(Rules::new(3, 2).unwrap().with_pie(true)), &mut keys);
        assert!(keys.len() > 1000, "{} positions", keys.len());
        // A position and its mirror image with the other side to move share one.
        let north_to_move = Position::start(Rules::new(3, 2).unwrap()).replay(&[Move::Pit(1)]).unwrap();
        let mut mirrored = north_to_move;
        mirrored.board[..4].copy_from_slice(&north_to_move.board[4..8]);
        mirrored.board[4..8].copy_from_slice(&north_to_move.board[..4]);
        mirrored.to_move = Some(Side::South);
        assert_eq!(KalahGame::new(mirrored).hash(), KalahGame::new(north_to_move).hash());
        assert_eq!(KalahGame::new(mirrored).value_banked(), KalahGame::new(north_to_move).value_banked());
    }

    #[test]
    fn boards_of_four_to_six_pits_solve_to_the_values_in_the_docs() {
        // Empty capture and Irving's end, as docs/KALAH.md's table has them (Kalah(6,4), +10 as
        // "Solving Kalah" found, takes seconds more and is the CLI's to show). Two threads, so
        // that the threads' sharing is checked on trees of millions of positions too.
        for (pits, seeds, value) in [(4, 3, 8), (4, 4, 2), (4, 5, 2), (4, 6, 0), (5, 3, 8), (5, 4, 12), (6, 3, 2)] {
            let start =
                Position::start(Rules::new(pits, seeds).unwrap().with_capture(Capture::Empty).with_end(End::Irving));
            let solution = solve(&start, 64, 2);
            assert_eq!(solution.value, value, "Kalah({pits},{seeds})");
            let end = start.replay(&solution.line).unwrap();
            assert_eq!((end.is_over(), end.margin()), (true, value), "Kalah({pits},{seeds})'s line keeps the value");
        }
    }

    #[test]
    fn the_bounds_reported_are_on_the_first_movers_margin() {
        let rules = Rules::new(4, 3).unwrap().with_capture(Capture::Empty).with_end(End::Irving);
        // South to move at the start, North after "1": the bounds are South's margin both times.
        for moves in ["", "1"] {
            let position = Position::start(rules).replay(&crate::parse_moves(moves).unwrap()).unwrap();
            let mut reports = Vec::new();
            let endgame = Arc::new(EndgameTable::new(rules, 6));
            let solution = solve_with(&position, 1, 1, endgame, |progress| reports.push(progress));
            assert!(reports.iter().all(|bounds| bounds.lower <= solution.value && solution.value <= bounds.upper));
            let last = reports.last().unwrap();
            assert_eq!((last.lower, last.upper), (solution.value, solution.value), "after {moves:?}: {reports:?}");
        }
    }

    #[test]
    fn the_solver_agrees_with_minimax_on_small_boards_and_every_variant() {
        for pits in 1..=3 {
            for seeds in 1..=3 {
                for capture in [Capture::Standard, Capture::Empty] {
                    for end in [End::Irving, End::Site] {
                        for pie in [false, true] {
                            let rules =
                                Rules::new(pits, seeds).unwrap().with_capture(capture).with_end(end).with_pie(pie);
                            let start = Position::start(rules);
                            let solution = solve(&start, 1, 1 + usize::from(seeds % 2));
                            assert_eq!(solution.value, minimax(&start), "{rules:?}");
                            let end = start.replay(&solution.line).unwrap();
                            assert!(end.is_over(), "the line ends the game: {rules:?}");
                            assert_eq!(first_mover_margin(&end), solution.value, "the line keeps the value: {rules:?}");
                            assert!(solution.line.starts_with(&solution.best));
                        }
                    }
                }
            }
        }
    }
}
