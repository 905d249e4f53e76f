//! One search thread: iterative deepening over a negamax principal variation search.

use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use super::tt::{Bound, EXACT_DEPTH, Entry, NO_MOVE};
use super::{Claims, SearchResult, Shared};
use crate::game::{Evaluator, SearchGame, bound_outside};

/// Above any value a game can reach.
pub const INFINITY: i32 = 1_000_000;
/// Plies left at which the search goes straight to the exact solution after a warm-up: with a
/// time limit only where the solution nearly always takes a second at most (an unfinished
/// solution leaves just the warm-up's shallow move), without one wherever it is feasible at all
/// (a search without any limit goes to the end anyway, so it jumps from any distance).
const SOLVER_REACH: usize = 24;
const SOLVER_REACH_UNTIMED: usize = 26;
/// Depth of the warm-up before solving: its value centres the exact search's window, and its
/// table moves order the exact search's first plies. Kulami's endgames (`examples/endgames`,
/// nodes for the 15 positions; `POSITIONS` the kept ones, `PLAY=engine` level 4's of
/// 2026-12-07) took from 10 rather than 8: 26 plies 278 million against 306 (median 16.5
/// against 20.2), `PLAY=engine` 419 against 455 and proved (`PROVE=1`) 206 against 243; 24
/// plies 69 against 73, 84 against 89, and random play's 30 against 33; 22 plies alike; but
/// random play's 26 plies 147 against 136. From 6, 9, 11 and 12 the kept 26 plies took 308,
/// 272, 290 and 282 million, and from 9 the kept 24 plies 75.
const SOLVER_WARMUP: u32 = 10;
/// Remaining depths at or below which an exact search runs without ordering or table. Once the
/// last move's value came without playing it, 3 beat 2 (26 plies left: 25.9 s against 30.4 s
/// for the 15 positions of `examples/endgames`, with 9% more nodes); 4 was level with 3 and 5
/// slower. Once the last two moves' value came so ([`SearchGame::endgame_value`]), 4 and 5
/// beat 3 (`PLAY=engine examples/endgames 26`, interleaved: 15.6 to 16.2 s for the 15 with
/// 4, 15.9 to 16.0 s with 5, 16.4 to 16.5 s with 3).
const LEAN_DEPTH: u32 = 4;
/// Remaining depths at or below which the table is not used, in depth-limited and in exact
/// searches. A probe is a cache miss (44% of an exact search's time at 3, by `perf`). Kulami's
/// move rules make transpositions rare, so in exact subtrees the table serves mostly the
/// aspiration re-searches: from 4 to 12 the solver's node count hardly changes and its speed
/// rises up to 10 (`examples/endgames`). Depth-limited searches need it lower for their move
/// ordering from one iteration to the next.
const TABLE_MIN_DEPTH: u32 = 3;
const EXACT_TABLE_MIN_DEPTH: u32 = 10;
/// Remaining depths from which threads leave positions another thread is searching for later.
/// With two threads, 3 to 14 solved 24 plies alike (`THREADS=2 examples/endgames`): 1.5 times
/// as fast as one thread, against 1.2 times with Lazy SMP alone.
const CLAIM_MIN_DEPTH: u32 = 10;
/// The order of a move left for the second pass.
const DEFERRED: i32 = i32::MIN;
/// Remaining depths from which an exact node tries its moves in the order the evaluation ranks
/// the positions they reach, not by the game's hint (which breaks ties). Far from the end a
/// marble's worth is what the evaluation knows; near it, taking the opponent's replies away
/// counts most, as the hint has it. Positions from level 4's games (`PLAY=engine
/// examples/endgames`), 26 plies left: median 2.1 s against 5.3 s, 0.70 billion nodes against
/// 1.34 for the 15; from 12, 14 or 16 alike; from 8 or 10 slower than 14 at 24 plies. A search
/// two plies deep under each move ordered no better and cost more.
const EVALUATION_ORDER_MIN_DEPTH: u32 = 14;
/// Half the first window of the exact search around the warm-up's value. For Kulami (100 a
/// point) 50, 100 and 300 solved 26 plies alike (`PLAY=engine examples/endgames`, 1.07 to 1.10 s
/// median, 293 to 297 million nodes for the 15, against 1.11 to 1.14 s and 297 million at 150).
const ASPIRATION: i32 = 150;
/// Nodes between looks at the clock and the shared counters.
const CHECK_EVERY: u64 = 1024;
/// Ordering bonuses: the table's move first, then the two killer moves.
const TABLE_MOVE: i32 = 1 << 28;
const KILLER: [i32; 2] = [1 << 27, 1 << 26];

/// Whether a search `depth` plies deep reaches the end of a game with at most `moves_left` moves
/// to go, so that its value is exact.
fn reaches_end(depth: u32, moves_left: usize) -> bool {
    depth as usize >= moves_left
}

pub(crate) struct Worker<'a, G: SearchGame, E: ?Sized> {
    shared: &'a Shared,
    evaluator: &'a E,
    /// 0 for the main thread; helpers search one ply deeper on odd numbers, so that the
    /// threads fill the table with different parts of the tree (Lazy SMP).
    id: usize,
    unflushed_nodes: u64,
    stopped: bool,
    cancel: Option<&'a AtomicBool>,
    /// Two moves per ply that last caused a cutoff there.
    killers: Vec<[Option<G::Move>; 2]>,
    /// Cutoff counts per side and move.
    history: Vec<i32>,
    /// Move lists per ply, reused to avoid allocating in the search.
    buffers: Vec<Vec<(i32, G::Move)>>,
}

impl<'a, G: SearchGame, E: Evaluator<G> + ?Sized> Worker<'a, G, E> {
    /// Ranks every root move by iterative deepening until the limits end it: the last complete
    /// depth's values, and whether they are exact.
    pub(crate) fn rank(
        mut self,
        game: &mut G,
        max_depth: u32,
        cancel: Option<&'a AtomicBool>,
    ) -> (Vec<(i32, G::Move)>, u32, bool) {
        self.cancel = cancel;
        let moves_left = game.moves_left_at_most();
        let mut found = (Vec::new(), 0, false);
        for depth in 1..=max_depth {
            let Some(ranked) = self.rank_root(game, depth) else { break };
            let exact = reaches_end(depth, moves_left);
            found = (ranked, depth, exact);
            if exact {
                break;
            }
        }
        self.flush_nodes();
        found
    }

    pub(crate) fn new(shared: &'a Shared, evaluator: &'a E, id: usize) -> Self {
        Worker {
            shared,
            evaluator,
            id,
            unflushed_nodes: 0,
            stopped: false,
            cancel: None,
            killers: Vec::new(),
            history: vec![0; 2 * G::MOVE_SLOTS],
            buffers: Vec::new(),
        }
    }

    /// Iterative deepening from depth 1 to `max_depth`, until solved, stopped or out of time.
    pub(crate) fn iterate(
        mut self,
        game: &mut G,
        max_depth: u32,
        start: Instant,
        cancel: Option<&'a AtomicBool>,
    ) -> SearchResult<G::Move> {
        self.cancel = cancel;
        let mut result = SearchResult {
            best: game.moves().into_iter().next(),
            value: game.terminal_value().unwrap_or(0),
            pv: Vec::new(),
            depth: 0,
            exact: game.terminal_value().is_some(),
            nodes: 0,
            time: start.elapsed(),
        };
        if result.best.is_none() {
            return result;
        }
        let moves_left = game.moves_left_at_most();
        let budget = self.shared.deadline.map(|deadline| deadline.saturating_duration_since(start));
        let mut depth = 1;
        while depth <= max_depth {
            let searched = (depth + u32::from(self.id % 2 == 1)).min(max_depth);
            let outcome = if reaches_end(searched, moves_left) {
                self.solve(game, searched, result.value)
            } else {
                self.root(game, searched, -INFINITY, INFINITY)
            };
            let Some((value, best, complete)) = outcome else { break };
            if complete || best != result.best.expect("set above") {
                // A move that beat the first one counts even if the iteration did not finish.
                result.best = Some(best);
                result.value = value;
                result.depth = if complete { searched } else { result.depth };
                result.exact = complete && reaches_end(searched, moves_left);
                result.pv = self.principal_variation(game, best, result.exact.then_some(value));
            }
            if !complete || result.exact {
                break;
            }
            self.history.iter_mut().for_each(|h| *h /= 2);
            // Near the end, the evaluated iterations between a shallow one (for move ordering and
            // a first guess) and the exact one cost more than the exact one: skip them.
            let unlimited = budget.is_none() && self.shared.node_limit.is_none() && max_depth == u32::MAX;
            let reach = match (budget, unlimited) {
                (Some(_), _) => SOLVER_REACH,
                (None, false) => SOLVER_REACH_UNTIMED,
                (None, true) => usize::MAX,
            };
            depth = if moves_left <= reach && depth >= SOLVER_WARMUP { moves_left as u32 } else { depth + 1 };
            // The next iteration takes longer than all before it together: do not start one
            // that cannot finish.
            if budget.is_some_and(|budget| start.elapsed() * 2 > budget) {
                break;
            }
        }
        self.flush_nodes();
        result
    }

    /// Searches the root at `depth` with the window `(alpha, beta)`: the best value and move
    /// found, and whether every move was searched. `None` if stopped before the first move's
    /// value was known. The move is the first that reached the best value.
    fn root(&mut self, game: &mut G, depth: u32, alpha: i32, beta: i32) -> Option<(i32, G::Move, bool)> {
        let key = game.hash();
        let table_move = self.shared.table.probe(key).map_or(NO_MOVE, |entry| entry.best);
        let moves = self.ordered_moves(game, 0, table_move, reaches_end(depth, game.moves_left_at_most()));
        let mut best: Option<(i32, G::Move)> = None;
        let mut floor = alpha;
        for (index, &(_, mv)) in moves.iter().enumerate() {
            let value = self.search_child(game, mv, index == 0, depth, (floor, beta), 0, None).expect("unclaimed");
            if self.stopped {
                self.buffers[0] = moves;
                return best.map(|(value, mv)| (value, mv, false));
            }
            if best.is_none_or(|(best_value, _)| value > best_value) {
                best = Some((value, mv));
                floor = floor.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        self.buffers[0] = moves;
        let (value, mv) = best.expect("the root has moves");
        self.store(key, (value, game.value_banked()), (alpha, beta), depth, game.moves_left_at_most(), G::pack(mv));
        Some((value, mv, true))
    }

    /// Every root move's value at `depth`, each searched with an open window, best first; `None`
    /// if stopped before all were searched.
    pub(crate) fn rank_root(&mut self, game: &mut G, depth: u32) -> Option<Vec<(i32, G::Move)>> {
        let key = game.hash();
        let table_move = self.shared.table.probe(key).map_or(NO_MOVE, |entry| entry.best);
        let moves = self.ordered_moves(game, 0, table_move, reaches_end(depth, game.moves_left_at_most()));
        let mut ranked = Vec::with_capacity(moves.len());
        for &(_, mv) in &moves {
            let mover = game.mover();
            game.play(mv);
            let value = self.child(game, depth - 1, (-INFINITY, INFINITY), 1, mover);
            game.undo();
            if self.stopped {
                break;
            }
            ranked.push((value, mv));
        }
        self.buffers[0] = moves;
        if self.stopped {
            return None;
        }
        ranked.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
        Some(ranked)
    }

    /// Whether the side to move wins (1), draws (0) or loses (-1) `game` under perfect play:
    /// one exact search in the window around a draw, which proves far less than the margin.
    pub(crate) fn outcome(mut self, game: &mut G) -> i8 {
        let depth = u32::try_from(game.moves_left_at_most()).unwrap_or(u32::MAX);
        let value = self.negamax(game, depth, -1, 1, 0);
        self.flush_nodes();
        match value {
            1.. => 1,
            0 => 0,
            _ => -1,
        }
    }

    /// The side to move's value in the window around a draw (its sign is who wins) and a move
    /// that keeps it, unless stopped first (see [`Searcher::prove`](super::Searcher::prove)).
    /// Shallow searches first fill the table with the moves to try first, as before the exact
    /// search: Kulami's proofs from level 4's games (`PLAY=engine PROVE=1 examples/endgames`)
    /// took 9.9 s for 15 positions 26 plies from the end with them, 14.4 s without.
    pub(crate) fn prove(mut self, game: &mut G, cancel: Option<&'a AtomicBool>) -> Option<(i32, G::Move)> {
        if game.terminal_value().is_some() {
            return None;
        }
        self.cancel = cancel;
        let depth = u32::try_from(game.moves_left_at_most()).unwrap_or(u32::MAX);
        let warmed_up = (1..=SOLVER_WARMUP.min(depth.saturating_sub(1)))
            .all(|warm_up| self.root(game, warm_up, -INFINITY, INFINITY).is_some());
        let found = if warmed_up { self.root(game, depth, -1, 1) } else { None };
        // Counted even when stopped, so that a node limit sees every node searched.
        self.flush_nodes();
        found.filter(|&(_, _, complete)| complete).map(|(value, mv, _)| (value, mv))
    }

    /// The exact value, by searches in a window around `guess` that widens, doubling, toward
    /// where the value turned out to be. The window's bounds keep the tree small, and a few
    /// re-searches cost less than one search with an open window.
    fn solve(&mut self, game: &mut G, depth: u32, guess: i32) -> Option<(i32, G::Move, bool)> {
        let mut width = ASPIRATION;
        let (mut alpha, mut beta) = (guess - width, guess + width);
        loop {
            let (value, mv, complete) = self.root(game, depth, alpha, beta)?;
            if !complete {
                return None;
            }
            width *= 2;
            if value <= alpha && alpha > -INFINITY {
                (alpha, beta) = ((value - width).max(-INFINITY), value + 1);
            } else if value >= beta && beta < INFINITY {
                (alpha, beta) = (value - 1, (value + width).min(INFINITY));
            } else {
                return Some((value, mv, true));
            }
        }
    }

    fn negamax(&mut self, game: &mut G, depth: u32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.unflushed_nodes += 1;
        if self.unflushed_nodes >= CHECK_EVERY {
            self.flush_nodes();
            if self.shared.out_of_budget() || self.cancel.is_some_and(|cancel| cancel.load(Ordering::Relaxed)) {
                self.stopped = true;
            }
        }
        if self.stopped {
            return 0;
        }
        let moves_left = game.moves_left_at_most();
        if depth <= LEAN_DEPTH && reaches_end(depth, moves_left) {
            return self.lean_solve(game, depth, alpha, beta);
        }
        if let Some(value) = game.terminal_value() {
            return value;
        }
        if depth == 0 {
            return self.evaluator.evaluate(game);
        }
        let exact = reaches_end(depth, moves_left);
        if exact && let Some(bound) = bound_outside(game, alpha, beta) {
            return bound;
        }
        // Near the leaves a table lookup (a cache miss) costs more than searching again.
        let use_table = depth > if exact { EXACT_TABLE_MIN_DEPTH } else { TABLE_MIN_DEPTH };
        let key = if use_table { game.hash() } else { 0 };
        let mut table_move = NO_MOVE;
        if let Some(entry) = if use_table { self.shared.table.probe(key) } else { None } {
            table_move = entry.best;
            let value = entry.value + game.value_banked();
            if u32::from(entry.depth) >= depth {
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower if value >= beta => return value,
                    Bound::Upper if value <= alpha => return value,
                    _ => {}
                }
            }
        }
        let original_alpha = alpha;
        let mut moves = self.ordered_moves(game, ply, table_move, exact);
        if exact && depth >= EVALUATION_ORDER_MIN_DEPTH {
            self.order_by_evaluation(game, &mut moves, ply);
        }
        let mut best_value = -INFINITY;
        let mut best_move = None;
        // With several threads, moves after the first that another thread is searching wait for
        // a second pass (simplified ABDADA), so that the threads split the tree between them.
        let claims = if depth >= CLAIM_MIN_DEPTH { self.shared.claims.as_ref() } else { None };
        let mut deferred = false;
        'passes: for pass in 0..2 {
            for index in 0..moves.len() {
                let (order, mv) = moves[index];
                if pass == 1 && order != DEFERRED {
                    continue;
                }
                let claim = if pass == 0 && index > 0 { claims } else { None };
                let Some(value) = self.search_child(game, mv, index == 0, depth, (alpha, beta), ply, claim) else {
                    moves[index].0 = DEFERRED;
                    deferred = true;
                    continue;
                };
                if self.stopped {
                    self.buffers[ply] = moves;
                    return 0;
                }
                if value > best_value {
                    best_value = value;
                    best_move = Some(mv);
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            if !exact {
                                self.reward(game, ply, mv, depth);
                            }
                            break 'passes;
                        }
                    }
                }
            }
            if !deferred {
                break;
            }
        }
        self.buffers[ply] = moves;
        if use_table {
            let best = best_move.map_or(NO_MOVE, G::pack);
            self.store(key, (best_value, game.value_banked()), (original_alpha, beta), depth, moves_left, best);
        }
        best_value
    }

    /// The value of `mv` for the side to move, searched to `depth - 1` below it: with the full
    /// window for the first move, else a null window first and a re-search only if it lands
    /// inside `(alpha, beta)` (principal variation search). With `claims`, `None` if another
    /// thread is searching the position after `mv`; else this thread claims it while searching.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        game: &mut G,
        mv: G::Move,
        first: bool,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        claims: Option<&Claims>,
    ) -> Option<i32> {
        let mover = game.mover();
        game.play(mv);
        let claimed = claims.map(|claims| (claims, game.hash()));
        if let Some((claims, key)) = claimed
            && !claims.claim(key)
        {
            game.undo();
            return None;
        }
        let value = if first {
            self.child(game, depth - 1, (alpha, beta), ply + 1, mover)
        } else {
            let probe = self.child(game, depth - 1, (alpha, alpha + 1), ply + 1, mover);
            if probe > alpha && probe < beta && !self.stopped {
                self.child(game, depth - 1, (alpha, beta), ply + 1, mover)
            } else {
                probe
            }
        };
        if let Some((claims, key)) = claimed {
            claims.release(key);
        }
        game.undo();
        Some(value)
    }

    /// The value for `mover`, who just moved, of the position `game` reached, searched in
    /// `mover`'s window `(alpha, beta)`: negated through the other player's search, unless the
    /// move left `mover` to move again.
    fn child(&mut self, game: &mut G, depth: u32, (alpha, beta): (i32, i32), ply: usize, mover: u8) -> i32 {
        if game.mover() == mover {
            self.negamax(game, depth, alpha, beta, ply)
        } else {
            -self.negamax(game, depth, -beta, -alpha, ply)
        }
    }

    /// Stores a node's result; its bound follows from the window `(alpha, beta)` it was searched
    /// in, and a search that reached the end of the game is exact at any depth.
    /// `value` is kept net of the part `banked` already decided ([`SearchGame::value_banked`]).
    fn store(
        &self,
        key: u64,
        (value, banked): (i32, i32),
        (alpha, beta): (i32, i32),
        depth: u32,
        moves_left: usize,
        best: u16,
    ) {
        let bound = if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let depth = if reaches_end(depth, moves_left) { EXACT_DEPTH } else { depth as u8 };
        // The depth measures the work well enough: entries of one depth cost alike.
        self.shared.table.store(key, Entry { value: value - banked, bound, depth, best, work: 0 });
    }

    /// The exact value of a position with at most `depth` moves left, without ordering or
    /// bookkeeping: near the leaves, where most of an exact search's nodes are, they cost more
    /// than they save. A node finds its legal moves once: one without any is the end of the
    /// game, so only there is the game asked whether it is over (asked at every node first, that
    /// found the moves twice: 5% more instructions for Kulami's solver, by `callgrind` on
    /// `examples/endgames`).
    fn lean_solve(&mut self, game: &mut G, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(value) = game.endgame_value(alpha, beta) {
            return value;
        }
        if let Some(bound) = bound_outside(game, alpha, beta) {
            return bound;
        }
        let mut best = -INFINITY;
        let mover = game.mover();
        for mv in game.moves() {
            game.play(mv);
            self.unflushed_nodes += 1;
            let value = if depth == 1 {
                seen_by(game, mover, game.terminal_value().expect("no move is left after the last one"))
            } else if game.mover() == mover {
                self.lean_solve(game, depth - 1, alpha, beta)
            } else {
                -self.lean_solve(game, depth - 1, -beta, -alpha)
            };
            game.undo();
            if value > best {
                best = value;
                alpha = alpha.max(value);
                if best >= beta {
                    break;
                }
            }
        }
        // No game value reaches -INFINITY: no move was played.
        if best == -INFINITY { game.terminal_value().expect("a game without a legal move is over") } else { best }
    }

    /// Orders `moves` (the table's move stays first) by the evaluation of the position each
    /// reaches, the game's hint breaking ties.
    fn order_by_evaluation(&mut self, game: &mut G, moves: &mut [(i32, G::Move)], ply: usize) {
        let mover = game.mover();
        let mut ranked: Vec<((i32, i32), G::Move)> = moves
            .iter()
            .map(|&(order, mv)| {
                if order == TABLE_MOVE {
                    return ((INFINITY, order), mv);
                }
                game.play(mv);
                let value = self.child(game, 0, (-INFINITY, INFINITY), ply + 1, mover);
                game.undo();
                ((value, order), mv)
            })
            .collect();
        ranked.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (rank, (slot, (_, mv))) in moves.iter_mut().zip(ranked).enumerate() {
            // Descending, and never `DEFERRED`.
            *slot = (-(rank as i32), mv);
        }
    }

    /// Remembers a move that caused a cutoff: as a killer at this ply and in the history.
    fn reward(&mut self, game: &G, ply: usize, mv: G::Move, depth: u32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = usize::from(game.mover()) * G::MOVE_SLOTS + usize::from(G::pack(mv));
        // Saturating: a game with no bound on its length iterates as deep as it is allowed.
        let bonus = i32::try_from(depth.saturating_mul(depth)).unwrap_or(i32::MAX);
        self.history[slot] = self.history[slot].saturating_add(bonus).min(1 << 24);
    }

    /// The legal moves at `ply`, most promising first, in a reused buffer: the table's move, then
    /// in depth-limited nodes the killers and the history. Exact nodes use the game's hint alone:
    /// cutoffs found in other parts of the endgame mislead there (with them the solver searched
    /// 2.4 times the nodes at 22 plies left).
    fn ordered_moves(&mut self, game: &G, ply: usize, table_move: u16, exact: bool) -> Vec<(i32, G::Move)> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
            self.killers.resize(ply + 1, [None, None]);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let side = usize::from(game.mover()) * G::MOVE_SLOTS;
        let killers = self.killers[ply];
        let history = &self.history;
        game.hint_moves(|mv, hint| {
            let score = if G::pack(mv) == table_move {
                TABLE_MOVE
            } else if exact {
                hint
            } else if killers[0] == Some(mv) {
                KILLER[0]
            } else if killers[1] == Some(mv) {
                KILLER[1]
            } else {
                history[side + usize::from(G::pack(mv))] + hint
            };
            moves.push((score, mv));
        });
        moves.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        moves
    }

    /// The principal variation, starting with `best`: the moves stored in the table. When the
    /// root's value is exact, every move is checked to keep that value and found by small searches
    /// where the table has none (it skips shallow exact subtrees), so the line goes to the end.
    fn principal_variation(&mut self, game: &G, best: G::Move, exact_value: Option<i32>) -> Vec<G::Move> {
        let mut line = game.clone();
        let mut pv = vec![best];
        let mover = line.mover();
        line.play(best);
        let mut value = exact_value.map(|value| seen_by(&line, mover, value));
        while pv.len() < 64 && line.terminal_value().is_none() {
            let stored = self
                .shared
                .table
                .probe(line.hash())
                .and_then(|entry| G::unpack(entry.best))
                .filter(|&mv| line.moves().into_iter().any(|legal| legal == mv));
            let next = match value {
                Some(value) => self.move_keeping(&mut line, value, stored),
                None => stored,
            };
            let Some(mv) = next else { break };
            pv.push(mv);
            let mover = line.mover();
            line.play(mv);
            value = value.map(|value| seen_by(&line, mover, value));
        }
        pv
    }

    /// A move that keeps the exact value `value` of `game` (for the side to move), trying `first`
    /// first: each is searched to the end in a window that holds only `value`.
    fn move_keeping(&mut self, game: &mut G, value: i32, first: Option<G::Move>) -> Option<G::Move> {
        let others = game.moves().into_iter().filter(|&mv| Some(mv) != first);
        for mv in first.into_iter().chain(others) {
            let mover = game.mover();
            game.play(mv);
            let depth = game.moves_left_at_most() as u32;
            let reached = self.child(game, depth, (value - 1, value + 1), 1, mover);
            game.undo();
            if self.stopped {
                return None;
            }
            if reached == value {
                return Some(mv);
            }
        }
        None
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed_nodes, Ordering::Relaxed);
        self.unflushed_nodes = 0;
    }
}

/// `value`, from the point of view of the player to move in `game`, as `mover` sees it.
pub(crate) fn seen_by<G: SearchGame>(game: &G, mover: u8, value: i32) -> i32 {
    if game.mover() == mover { value } else { -value }
}

#[cfg(test)]
mod tests {
    use web_time::Instant;

    use super::{TABLE_MOVE, Worker};
    use crate::nim::{Nim, WIN};
    use crate::{Evaluator, Limits, Searcher};

    /// Knows Nim: the player to move with a multiple of four left loses.
    struct Knows;
    impl Evaluator<Nim> for Knows {
        fn evaluate(&self, nim: &Nim) -> i32 {
            if nim.counters().is_multiple_of(4) { -WIN / 2 } else { WIN / 2 }
        }
    }

    #[test]
    fn deep_exact_nodes_try_first_what_the_evaluation_likes_best_after_the_tables_move() {
        let shared = Searcher::new(1, 1).shared(Instant::now(), Limits::default());
        let mut worker = Worker::new(&shared, &Knows, 0);
        // From 18 counters taking two wins; the hint (none for Nim) leaves the takes as listed.
        let mut nim = Nim::new(18);
        let mut moves = vec![(0, 1), (0, 2), (0, 3)];
        worker.order_by_evaluation(&mut nim, &mut moves, 0);
        assert_eq!(moves[0].1, 2, "{moves:?}");
        assert!(moves.windows(2).all(|pair| pair[0].0 > pair[1].0), "descending orders: {moves:?}");
        // The table's move stays first, whatever the evaluation says of it.
        let mut moves = vec![(0, 1), (TABLE_MOVE, 3), (0, 2)];
        worker.order_by_evaluation(&mut nim, &mut moves, 0);
        assert_eq!(moves.iter().map(|&(_, take)| take).collect::<Vec<_>>(), [3, 2, 1]);
        assert_eq!(nim, Nim::new(18), "every take was undone");
    }
}
