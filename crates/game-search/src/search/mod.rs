//! Iterative-deepening alpha-beta (principal variation search) over any [`SearchGame`], with a
//! shared transposition table, killer and history move ordering, time, depth and node limits, and
//! Lazy SMP on several threads. When the depth reaches the end of the game the result is exact:
//! the search is then the endgame solver.

pub(crate) mod alphabeta;

pub use alphabeta::INFINITY;
pub(crate) mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::game::{Evaluator, Proven, SearchGame};
use alphabeta::Worker;
use tt::TranspositionTable;

/// What may end a search. With none set the search runs until the game is solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes, summed over threads. With one thread and no time limit the search is deterministic.
    pub nodes: Option<u64>,
}

impl Limits {
    /// A time limit only.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }

    /// A depth limit only.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A node limit only (deterministic on one thread).
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// The same limits with this time limit (`None`: none).
    #[must_use]
    pub fn with_time(self, time: Option<Duration>) -> Limits {
        Limits { time, ..self }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best: Option<M>,
    /// Its value for the side to move, in hundredths of a point.
    pub value: i32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The last completed iteration's depth.
    pub depth: u32,
    /// Whether `value` is the exact final margin under best play (the game was solved).
    pub exact: bool,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl<M> SearchResult<M> {
    /// The same findings with each move converted by `convert`.
    #[must_use]
    pub fn map<N>(self, convert: impl Fn(M) -> N) -> SearchResult<N> {
        let SearchResult { best, value, pv, depth, exact, nodes, time } = self;
        SearchResult {
            best: best.map(&convert),
            value,
            pv: pv.into_iter().map(convert).collect(),
            depth,
            exact,
            nodes,
            time,
        }
    }
}

/// What [`Searcher::prove`] proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// The outcome for the side to move.
    pub outcome: Proven,
    /// A move that keeps it.
    pub best: M,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Every legal move with its value for the side to move, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMoves<M> {
    /// `(move, value)` pairs, best first.
    pub moves: Vec<(M, i32)>,
    /// The depth of the values (0 if the limits allowed no complete ranking).
    pub depth: u32,
    /// Whether the values are exact final margins.
    pub exact: bool,
}

/// A searcher: a transposition table and settings, reused from move to move.
#[derive(Debug)]
pub struct Searcher {
    table: Arc<TranspositionTable>,
    threads: usize,
}

/// Time kept back from the budget for thread start-up and the reply.
const TIME_RESERVE: Duration = Duration::from_millis(8);

/// Shared by the threads of one search.
pub(crate) struct Shared {
    pub table: Arc<TranspositionTable>,
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    pub deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    /// Positions being searched, when there is more than one thread.
    pub claims: Option<Claims>,
}

/// The positions that threads are searching right now, so that the others can leave them for
/// later (simplified ABDADA): a small lossy set of keys, one per slot. A lost claim only costs
/// some work done twice.
pub(crate) struct Claims {
    slots: Vec<AtomicU64>,
}

impl Claims {
    const SLOTS: usize = 1 << 15;

    pub(crate) fn new() -> Claims {
        Claims { slots: (0..Claims::SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (Claims::SLOTS - 1)]
    }

    /// Claims the position with `key`: false if another thread holds it.
    pub(crate) fn claim(&self, key: u64) -> bool {
        let slot = self.slot(key);
        if slot.load(Ordering::Relaxed) == key {
            return false;
        }
        slot.store(key, Ordering::Relaxed);
        true
    }

    /// Gives up the claim on `key`, unless another position took its slot since.
    pub(crate) fn release(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl Shared {
    /// Whether the search must stop now.
    pub(crate) fn out_of_budget(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        let over = self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
            || self.node_limit.is_some_and(|limit| self.nodes.load(Ordering::Relaxed) >= limit);
        if over {
            self.stop.store(true, Ordering::Relaxed);
        }
        over
    }
}

/// Proves who wins positions near the end of a game, for the tree search's leaves: exact
/// searches with a small table of their own and no limits (they must be short).
pub(crate) struct OutcomeProver {
    shared: Shared,
}

impl OutcomeProver {
    pub(crate) fn new(table_megabytes: usize) -> OutcomeProver {
        let table = Arc::new(TranspositionTable::new(table_megabytes));
        let shared = Shared {
            table,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: None,
            node_limit: None,
            claims: None,
        };
        OutcomeProver { shared }
    }

    /// Whether the side to move wins (1), draws (0) or loses (-1) `game` under perfect play.
    /// `evaluator` orders the moves far from the end.
    pub(crate) fn outcome<G, E>(&self, game: &mut G, evaluator: &E) -> i8
    where
        G: SearchGame,
        E: Evaluator<G> + ?Sized,
    {
        Worker::new(&self.shared, evaluator, 0).outcome(game)
    }
}

impl Searcher {
    /// A searcher with a table of `table_megabytes` MiB using `threads` threads (at least one).
    #[must_use]
    pub fn new(table_megabytes: usize, threads: usize) -> Searcher {
        Searcher { table: Arc::new(TranspositionTable::new(table_megabytes)), threads: threads.max(1) }
    }

    /// Forgets what earlier searches stored (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    pub(crate) fn shared(&self, start: Instant, limits: Limits) -> Shared {
        self.table.new_search();
        Shared {
            table: Arc::clone(&self.table),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            // A time too long for the clock to add is no limit.
            deadline: limits.time.and_then(|time| start.checked_add(time.saturating_sub(TIME_RESERVE))),
            node_limit: limits.nodes,
            claims: (self.threads > 1).then(Claims::new),
        }
    }

    /// Every legal move with its value, best first, from the deepest search the limits allow
    /// (one thread). Slower than [`Searcher::search`], which only proves the best move best.
    pub fn rank_moves<G, E>(&mut self, game: &G, evaluator: &E, limits: Limits) -> RankedMoves<G::Move>
    where
        G: SearchGame,
        E: Evaluator<G>,
    {
        let start = Instant::now();
        let shared = self.shared(start, limits);
        let (moves, depth, exact) =
            Worker::new(&shared, evaluator, 0).rank(&mut game.clone(), limits.depth.unwrap_or(u32::MAX), None);
        RankedMoves { moves: moves.into_iter().map(|(value, mv)| (mv, value)).collect(), depth, exact }
    }

    /// Searches `game` within `limits`, returning early when `cancel` is set.
    pub fn search<G, E>(
        &mut self,
        game: &G,
        evaluator: &E,
        limits: Limits,
        cancel: Option<&AtomicBool>,
    ) -> SearchResult<G::Move>
    where
        G: SearchGame,
        E: Evaluator<G>,
    {
        let start = Instant::now();
        let shared = self.shared(start, limits);
        let max_depth = limits.depth.unwrap_or(u32::MAX);
        let mut result =
            self.on_threads(game, evaluator, &shared, |worker, game| worker.iterate(game, max_depth, start, cancel));
        result.nodes = shared.nodes.load(Ordering::Relaxed);
        result.time = start.elapsed();
        result
    }

    /// Who wins `game` under perfect play and a move that keeps that outcome, if the search
    /// proves it within `limits` (`None` once they end it, `cancel` is set or the game is over).
    /// After shallow searches that order the moves, one exact search in the window around a
    /// draw: it proves far less than the final margin [`Searcher::search`] finds, and so reaches
    /// further from the end in the same time.
    ///
    /// ```
    /// use game_search::nim::Nim;
    /// use game_search::{Evaluator, Limits, Proven, Searcher};
    /// /// Nothing is known before the end: every unfinished pile looks even.
    /// struct Even;
    /// impl Evaluator<Nim> for Even {
    ///     fn evaluate(&self, _: &Nim) -> i32 {
    ///         0
    ///     }
    /// }
    /// // Ten counters, take one to three: taking two leaves a multiple of four, which wins.
    /// let proof = Searcher::new(1, 1).prove(&Nim::new(10), &Even, Limits::default(), None).unwrap();
    /// assert_eq!((proof.outcome, proof.best), (Proven::Won, 2));
    /// ```
    pub fn prove<G, E>(
        &mut self,
        game: &G,
        evaluator: &E,
        limits: Limits,
        cancel: Option<&AtomicBool>,
    ) -> Option<Proof<G::Move>>
    where
        G: SearchGame,
        E: Evaluator<G>,
    {
        let start = Instant::now();
        let shared = self.shared(start, limits);
        let (value, best) = self.on_threads(game, evaluator, &shared, |worker, game| worker.prove(game, cancel))?;
        let nodes = shared.nodes.load(Ordering::Relaxed);
        Some(Proof { outcome: Proven::of_sign(value), best, nodes, time: start.elapsed() })
    }

    /// Runs `work` on this thread and on the searcher's helper threads, which share `shared`'s
    /// table and fill it for this thread until it is done: its result is the search's.
    fn on_threads<G, E, R>(
        &self,
        game: &G,
        evaluator: &E,
        shared: &Shared,
        work: impl Fn(Worker<'_, G, E>, &mut G) -> R + Sync,
    ) -> R
    where
        G: SearchGame,
        E: Evaluator<G>,
    {
        std::thread::scope(|scope| {
            for helper in 1..self.threads {
                let mut game = game.clone();
                let work = &work;
                scope.spawn(move || {
                    work(Worker::new(shared, evaluator, helper), &mut game);
                });
            }
            let result = work(Worker::new(shared, evaluator, 0), &mut game.clone());
            shared.stop.store(true, Ordering::Relaxed);
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Claims;

    #[test]
    fn a_claimed_position_is_refused_until_released() {
        let claims = Claims::new();
        assert!(claims.claim(42));
        assert!(!claims.claim(42), "another thread holds it");
        assert!(claims.claim(43));
        claims.release(42);
        assert!(claims.claim(42));
        // A key sharing the slot takes it over; the old key's release leaves the new claim.
        let rival = 42 + Claims::SLOTS as u64;
        assert!(claims.claim(rival));
        claims.release(42);
        assert!(!claims.claim(rival));
    }
}
