//! An exact solver for games whose length has no useful bound (Kalah: a sowing can give another
//! turn, and seeds go round): alpha-beta to the end of the game with no depth at all, driven by
//! MTD(f) (null-window searches that close in on the value), a transposition table of proven
//! bounds, and cutoffs on [`SearchGame::value_bounds`] (what is in the stores is kept).
//! [`Searcher`](crate::Searcher) solves too, but through its depth schedule, which needs
//! [`SearchGame::moves_left_at_most`] to be tight.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use web_time::{Duration, Instant};

use crate::game::{SearchGame, bound_outside};
use crate::search::tt::{Bound, NO_MOVE};
use crate::search::{Claims, INFINITY, alphabeta::seen_by};
use table::{Proved, SolverTable};

mod table;

/// The exact value of a position, and a line that keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The value under perfect play, from the side to move's point of view.
    pub value: i32,
    /// A line of perfect play to the end of the game, starting with the best move (empty if the
    /// game is over).
    pub line: Vec<M>,
    /// Positions visited, over all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// What a solve has proved so far, from the side to move's point of view: the value lies in
/// `lower..=upper` (±[`INFINITY`] where the game gives no bound and none is proved yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// Positions visited so far, over all threads.
    pub nodes: u64,
    /// Time taken so far.
    pub time: Duration,
}

/// The solver and its table, which it keeps between calls (positions of one game share most of
/// their subtrees).
#[derive(Debug)]
pub struct Solver {
    table: SolverTable,
    threads: usize,
    nodes: u64,
}

impl Solver {
    /// A solver with a table of about `table_megabytes` MiB, searching on `threads` threads
    /// (one: this thread alone). The threads share the table and every null-window search;
    /// a position one thread is searching is left by the others for later (simplified
    /// ABDADA), so that they split the tree. The table keeps results whose value, net of
    /// [`SearchGame::value_banked`], lies within ±512 and moves that pack below 15: a game of
    /// larger values or more moves is still solved right, only with less help from it.
    #[must_use]
    pub fn new(table_megabytes: usize, threads: usize) -> Solver {
        Solver { table: SolverTable::new(table_megabytes), threads: threads.max(1), nodes: 0 }
    }

    /// The exact value of `game` and a line of perfect play.
    pub fn solve<G: SearchGame>(&mut self, game: &G) -> Solved<G::Move> {
        self.solve_from(game, 0)
    }

    /// The same, starting from `guess`, a value expected near the true one (a depth-limited
    /// search's, say): every step of the value away from the guess costs one more null-window
    /// search of the whole game.
    pub fn solve_from<G: SearchGame>(&mut self, game: &G, guess: i32) -> Solved<G::Move> {
        self.solve_reporting(game, guess, |_| {})
    }

    /// The same, telling `report` the bounds on the value proved so far after each
    /// null-window search: a large game's solve takes minutes, and they show how it goes.
    pub fn solve_reporting<G: SearchGame>(
        &mut self,
        game: &G,
        guess: i32,
        report: impl FnMut(SolveProgress),
    ) -> Solved<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        let mut game = game.clone();
        let (value, keeping) = self.value(&mut game, guess, start, report);
        let line = self.line(&mut game, value, &keeping);
        Solved { value, line, nodes: self.nodes, time: start.elapsed() }
    }

    /// MTD(f): null-window searches around the latest bound, from `guess`, until the two
    /// bounds meet, each new pair of bounds reported. Also the moves (packed) of the side to
    /// move's turn that the search which set the lower bound found worth at least that much,
    /// so that the line need not prove them again (none if no search did).
    fn value<G: SearchGame>(
        &mut self,
        game: &mut G,
        guess: i32,
        start: Instant,
        mut report: impl FnMut(SolveProgress),
    ) -> (i32, Vec<u16>) {
        let (mut lower, mut upper) = game.value_bounds().unwrap_or((-INFINITY, INFINITY));
        let mut guess = guess.clamp(lower, upper);
        let mut keeping = Vec::new();
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            let found;
            (guess, found) = self.null_window(game, beta);
            if guess < beta {
                upper = guess;
            } else {
                (lower, keeping) = (guess, found);
            }
            report(SolveProgress { lower, upper, nodes: self.nodes, time: start.elapsed() });
        }
        (lower, keeping)
    }

    /// One null-window search at `beta` on every thread: the answer of the thread that finishes
    /// first (each searches the whole tree, so any one's answer is the answer), the others then
    /// stopped; with it, the turn that thread found best at the root (see [`Worker::turns`]).
    /// Waiting for one chosen thread instead wasted the others: one whose first move cut off
    /// early sat idle while the chosen one went on alone.
    fn null_window<G: SearchGame>(&mut self, game: &G, beta: i32) -> (i32, Vec<u16>) {
        if self.threads == 1 {
            let mut worker = Worker::new(&self.table, None, None);
            let value = worker.search(&mut game.clone(), beta - 1, beta, 0, true);
            self.nodes += worker.nodes;
            return (value, worker.root_turn());
        }
        let claims = Claims::new();
        let stop = AtomicBool::new(false);
        let answer = OnceLock::new();
        let (table, claims, stop, answer) = (&self.table, &claims, &stop, &answer);
        let nodes: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads)
                .map(|_| {
                    let mut game = game.clone();
                    scope.spawn(move || {
                        let mut worker = Worker::new(table, Some(claims), Some(stop));
                        let value = worker.search(&mut game, beta - 1, beta, 0, true);
                        if !worker.stopped {
                            let _ = answer.set((value, worker.root_turn()));
                            stop.store(true, Relaxed);
                        }
                        worker.nodes
                    })
                })
                .collect();
            workers.into_iter().map(|worker| worker.join().unwrap_or(0)).sum()
        });
        self.nodes += nodes;
        // A thread is stopped only after another has set the answer.
        answer.get().cloned().expect("the first thread to finish answers")
    }

    /// The moves of perfect play from `game`, whose exact value is `value`: first those of
    /// `keeping` (a turn MTD(f) found keeps the value), then at each step the first move (the
    /// table's first) that keeps the value. Proving the first turn again took 2 s of
    /// Kalah(6,4)'s 13 in half the runs: the last null-window search had overwritten the
    /// proof in the table.
    fn line<G: SearchGame>(&mut self, game: &mut G, mut value: i32, keeping: &[u16]) -> Vec<G::Move> {
        let mut line = Vec::new();
        while game.terminal_value().is_none() {
            let mover = game.mover();
            let known = keeping.get(line.len()).copied().unwrap_or(NO_MOVE);
            let stored = self.table.probe(game.hash()).map_or(NO_MOVE, |entry| entry.best);
            let mut moves: Vec<G::Move> = game.moves().into_iter().collect();
            moves.sort_by_key(|&mv| (G::pack(mv) != known, G::pack(mv) != stored));
            let kept = moves.into_iter().find(|&mv| {
                if G::pack(mv) == known {
                    return true;
                }
                game.play(mv);
                // No move is worth more than `value`, so one worth at least as much keeps it:
                // one null-window search tells, where the exact value of the position reached
                // would take two (and the second, the proof that it is no more, costs most).
                let keeps = if game.mover() == mover {
                    self.null_window(game, value).0 >= value
                } else {
                    self.null_window(game, 1 - value).0 <= -value
                };
                game.undo();
                keeps
            });
            let Some(mv) = kept else { break };
            game.play(mv);
            value = seen_by(game, mover, value);
            line.push(mv);
        }
        for _ in &line {
            game.undo();
        }
        line
    }
}

/// One thread's search: the shared table, and its own counts and move lists.
struct Worker<'a> {
    table: &'a SolverTable,
    claims: Option<&'a Claims>,
    /// Set when another thread has answered; a search on one thread has none.
    stop: Option<&'a AtomicBool>,
    stopped: bool,
    nodes: u64,
    /// For each ply of the side to move's turn at the root (the root, and the positions its
    /// best moves reach while the same side moves), the rest of that turn as the search found
    /// it best: after a fail-high, moves worth at least the value returned. A turn stops short
    /// where its value came without a move (the table, the game).
    turns: Vec<Vec<u16>>,
    /// A move list for each depth below the root, reused (orders and packed moves).
    buffers: Vec<Vec<(i32, u16)>>,
}

/// The order of a move another thread was searching, for the second round over a node's moves.
const DEFERRED: i32 = i32::MIN;

/// Plies below the root from which threads no longer claim positions: deep down the subtrees
/// are small, and a claim (a write to memory the other thread reads) cost more than the work it
/// kept from being done twice. Kalah(6,4) on two threads, 8 runs each interleaved: median
/// 13.6 s with 16, 13.3 s with 24, 16.2 s claiming at every ply (4.6 million positions a
/// second against 5.3 to 5.6); Kalah(5,5) 46 s with 16, 59 s with 24, 73 s at every ply.
const CLAIM_MAX_PLY: usize = 16;

impl<'a> Worker<'a> {
    fn new(table: &'a SolverTable, claims: Option<&'a Claims>, stop: Option<&'a AtomicBool>) -> Worker<'a> {
        Worker { table, claims, stop, stopped: false, nodes: 0, turns: Vec::new(), buffers: Vec::new() }
    }

    /// The turn found best at the root by the latest search.
    fn root_turn(&self) -> Vec<u16> {
        self.turns.first().cloned().unwrap_or_default()
    }

    /// Fail-soft alpha-beta to the end of the game: the value if it lies inside `(alpha, beta)`,
    /// else a bound on the side it fell. A stopped thread returns at once, storing nothing.
    /// `in_turn` says the position is the root or one its side to move reached and still moves
    /// in (see [`Worker::turns`]).
    fn search<G: SearchGame>(&mut self, game: &mut G, mut alpha: i32, mut beta: i32, ply: usize, in_turn: bool) -> i32 {
        let nodes_before = self.nodes;
        self.nodes += 1;
        if in_turn {
            if self.turns.len() <= ply {
                self.turns.resize_with(ply + 1, Vec::new);
            }
            self.turns[ply].clear();
        }
        if let Some(stop) = self.stop
            && stop.load(Relaxed)
        {
            self.stopped = true;
            return 0;
        }
        if let Some(value) = game.terminal_value() {
            return value;
        }
        if let Some(bound) = bound_outside(game, alpha, beta) {
            return bound;
        }
        // The entry is fetched only where the game's own knowledge gives no value: fetched
        // before it asked, for every position the endgame database answers too, the entries
        // cost Kalah(6,4) 6% of its time (11 runs of each, medians 13.5 s and 14.4 s).
        if let Some(value) = game.known_value() {
            return value;
        }
        let key = game.hash();
        let banked = game.value_banked();
        let mut table_move = NO_MOVE;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.best;
            if in_turn && entry.best != NO_MOVE {
                // Only a fail-high's turn is used, and a fail-high here comes from a lower or
                // exact bound, whose move is worth the bound (the cutoff's, or the best).
                self.turns[ply].push(entry.best);
            }
            let value = entry.value + banked;
            match entry.bound {
                Bound::Exact => return value,
                Bound::Lower if value >= beta => return value,
                Bound::Upper if value <= alpha => return value,
                Bound::Lower => alpha = alpha.max(value),
                Bound::Upper => beta = beta.min(value),
            }
        }
        let (original_alpha, original_beta) = (alpha, beta);
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        game.hint_moves(|mv, hint| {
            let packed = G::pack(mv);
            moves.push((if packed == table_move { i32::MAX } else { hint }, packed));
        });
        moves.sort_unstable_by_key(|&(order, _)| std::cmp::Reverse(order));
        let mover = game.mover();
        let (mut best_value, mut best_move) = (-INFINITY, NO_MOVE);
        let mut deferred = false;
        'rounds: for round in 0..2 {
            for index in 0..moves.len() {
                let (order, packed) = moves[index];
                if round == 1 && order != DEFERRED {
                    continue;
                }
                let Some(mv) = G::unpack(packed) else { continue };
                game.play(mv);
                // A position another thread is searching waits for the second round, when its
                // value may be in the table; at the root, only past the first move, so that
                // every thread starts on it. Below the root the first move waits too: threads
                // that all went down the first moves' path split the tree only where the
                // first move did not cut off, and the search of Kalah(6,4) took a median 21.6 s
                // of 7 runs so, 19.1 s of 6 this way.
                let claimed = match self.claims {
                    Some(claims) if round == 0 && (index > 0 || ply > 0) && ply < CLAIM_MAX_PLY => {
                        let key = game.hash();
                        if !claims.claim(key) {
                            game.undo();
                            moves[index].0 = DEFERRED;
                            deferred = true;
                            continue;
                        }
                        Some((claims, key))
                    }
                    _ => None,
                };
                let again = game.mover() == mover;
                let value = if again {
                    self.search(game, alpha, beta, ply + 1, in_turn)
                } else {
                    -self.search(game, -beta, -alpha, ply + 1, false)
                };
                if let Some((claims, key)) = claimed {
                    claims.release(key);
                }
                game.undo();
                if self.stopped {
                    self.buffers[ply] = moves;
                    return 0;
                }
                if value > best_value {
                    (best_value, best_move) = (value, packed);
                    if in_turn {
                        let (turn, rest) = self.turns.split_at_mut(ply + 1);
                        turn[ply].clear();
                        turn[ply].push(packed);
                        if again {
                            turn[ply].extend_from_slice(&rest[0]);
                        }
                    }
                    alpha = alpha.max(value);
                    if alpha >= beta {
                        break 'rounds;
                    }
                }
                // The first move did not cut off, so every move will be searched (most nodes
                // that need a second move need them all): fetch their entries now, together,
                // rather than one cache miss after another.
                if index == 0 && round == 0 {
                    for &(_, packed) in &moves[1..] {
                        let Some(mv) = G::unpack(packed) else { continue };
                        game.play(mv);
                        self.table.prefetch(game.hash());
                        game.undo();
                    }
                }
            }
            if !deferred {
                break;
            }
        }
        self.buffers[ply] = moves;
        let bound = if best_value >= original_beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Every entry is exact in depth, so the table keeps those whose subtrees were largest.
        let work = (self.nodes - nodes_before).max(1).ilog2() as u8;
        self.table.store(key, Proved { value: best_value - banked, bound, best: best_move, work });
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::Solver;
    use crate::nim::{Nim, Takes, WIN};
    use crate::{SearchGame, minimax};

    /// Nim with values and moves too large for the table's entries (a win is worth ten times
    /// as much, and the moves pack from 20 on): solved as right, only without the table.
    #[derive(Clone, Debug)]
    struct Wide(Nim);

    impl SearchGame for Wide {
        type Move = u8;
        type Moves = Takes;
        const MOVE_SLOTS: usize = 24;

        crate::nim::nim_methods!();
        fn terminal_value(&self) -> Option<i32> {
            self.0.terminal_value().map(|value| value * 10)
        }
        fn pack(take: u8) -> u16 {
            u16::from(take) + 20
        }
        fn unpack(number: u16) -> Option<u8> {
            number.checked_sub(20).and_then(Nim::unpack)
        }
    }

    #[test]
    fn the_solver_agrees_with_minimax_and_its_line_keeps_the_value() {
        for threads in [1, 2] {
            let mut solver = Solver::new(1, threads);
            for counters in 0..=13 {
                let mut game = Nim::new(counters);
                let solved = solver.solve_from(&game, i32::from(counters % 3) - 1);
                assert_eq!(solved.value, minimax(&mut game), "a pile of {counters}, {threads} threads");
                for &mv in &solved.line {
                    game.play(mv);
                }
                assert!(game.terminal_value().is_some(), "the line from {counters} ends the game");
            }
        }
    }

    #[test]
    fn each_null_window_search_reports_bounds_that_close_in_on_the_value() {
        let mut solver = Solver::new(1, 1);
        for counters in 1..=13 {
            let game = Nim::new(counters);
            let mut reports = Vec::new();
            let solved = solver.solve_reporting(&game, 0, |progress| reports.push(progress));
            assert!(!reports.is_empty(), "a pile of {counters}");
            for pair in reports.windows(2) {
                let (before, after) = (pair[0], pair[1]);
                assert!(before.lower <= after.lower && after.upper <= before.upper, "{reports:?}");
                assert!(before.nodes <= after.nodes && before.time <= after.time, "{reports:?}");
                assert!(after.upper - after.lower < before.upper - before.lower, "each search narrows: {reports:?}");
            }
            assert!(reports.iter().all(|bounds| (bounds.lower..=bounds.upper).contains(&solved.value)));
            let last = reports.last().unwrap();
            assert_eq!((last.lower, last.upper), (solved.value, solved.value), "a pile of {counters}");
        }
    }

    #[test]
    fn values_and_moves_beyond_the_tables_entries_are_solved_as_right() {
        let mut solver = Solver::new(1, 1);
        for counters in 0..=13 {
            let solved = solver.solve(&Wide(Nim::new(counters)));
            let value = if counters % 4 == 0 { -WIN } else { WIN };
            assert_eq!(solved.value, value * 10, "a pile of {counters}");
            let mut game = Wide(Nim::new(counters));
            for &take in &solved.line {
                game.play(take);
            }
            assert!(game.terminal_value().is_some(), "the line from {counters} ends the game");
        }
    }
}
