//! Playing strength: levels from a beginner to the full engine, and the engine that plays them.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kulami_core::{Cell, Position, Scoring};
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng as _, SeedableRng as _};

use crate::baseline;
use crate::eval::KulamiEvaluator;
use crate::game::{Evaluator, SearchGame};
use crate::kulami::{KulamiState, POINT};
use crate::mcts::{self, MctsLimits, MctsOptions};
use crate::search::{Limits, SearchResult, Searcher};

/// How an engine chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Level 1, a beginner: looks one move ahead at the tile score only, and often plays a
    /// plausible but worse move (within two points of the best, chosen at random), and now and
    /// then any legal move at all.
    Beginner,
    /// Level 2, a casual player: 2 plies with the full evaluation, and picks at random among
    /// the moves within one point of the best.
    Casual,
    /// Level 3, a club player: 4 plies with the full evaluation, exact in the last 10 plies.
    Club,
    /// Level 4, an expert: Monte-Carlo tree search with RAVE for 100 ms per move on one thread,
    /// and the exact solver in the last 20 plies.
    Expert,
    /// Level 5, the full engine: Monte-Carlo tree search with RAVE for the given time per move,
    /// one tree per thread, and the exact solver once the end is within its reach (22 plies at
    /// 1 s per move).
    Master,
    /// The reproduction of the public engine: fixed-depth schedule, tile score only.
    Baseline,
    /// Plain Monte-Carlo tree search (UCT, random playouts) for the given time per move on one
    /// thread: the method of the other public program, kept to measure the levels against.
    Mcts,
}

impl Level {
    /// Levels 1 to 5, weakest first.
    pub const LADDER: [Level; 5] = [Level::Beginner, Level::Casual, Level::Club, Level::Expert, Level::Master];

    /// The level's number (1 to 5), or `None` for the baseline.
    #[must_use]
    pub fn number(self) -> Option<usize> {
        Level::LADDER.iter().position(|&level| level == self).map(|index| index + 1)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number() {
            Some(number) => write!(f, "level {number}"),
            None if *self == Level::Mcts => f.write_str("mcts"),
            None => f.write_str("baseline"),
        }
    }
}

/// A level name that is not 1 to 5 or `baseline`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a level: expected 1 to 5, baseline or mcts")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let name = text.strip_prefix("level").unwrap_or(text).trim_start_matches([' ', '-', ':']);
        match name {
            "baseline" => Ok(Level::Baseline),
            "mcts" => Ok(Level::Mcts),
            _ => name
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| Level::LADDER.get(i).copied())
                .ok_or_else(|| ParseLevelError(text.to_owned())),
        }
    }
}

/// Settings of an [`Engine`] beyond its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Time per move of the master level (others ignore it).
    pub move_time: Duration,
    /// Threads of the master level.
    pub threads: usize,
    /// Transposition table size.
    pub table_megabytes: usize,
    /// Seed of the random choices of the weaker levels and of the tree search's playouts.
    pub seed: u64,
    /// Deterministic mode: search this many nodes (playouts for levels 4 and 5) on one thread
    /// instead of for a time, so that the same seed always gives the same move.
    pub nodes: Option<u64>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions { move_time: Duration::from_secs(1), threads: 2, table_megabytes: 64, seed: 0, nodes: None }
    }
}

/// A player of a given level.
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::{Engine, EngineOptions, Level};
/// use kulami_core::{Layout, Position, Scoring};
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut engine = Engine::new(Level::Club, EngineOptions::default());
/// let position = Position::new(layout);
/// let choice = engine.choose(&position, Scoring::Standard, None);
/// assert!(position.legal_moves().contains(choice.best.unwrap()));
/// ```
pub struct Engine {
    level: Level,
    options: EngineOptions,
    searcher: Searcher,
    evaluator: KulamiEvaluator,
    rng: Pcg64Mcg,
}

impl Engine {
    /// An engine of `level`.
    #[must_use]
    pub fn new(level: Level, options: EngineOptions) -> Engine {
        let threads = if level == Level::Master && options.nodes.is_none() { options.threads } else { 1 };
        let evaluator = if matches!(level, Level::Beginner | Level::Baseline) {
            KulamiEvaluator::tiles_only()
        } else {
            KulamiEvaluator::default()
        };
        Engine {
            level,
            options,
            searcher: Searcher::new(options.table_megabytes, threads),
            evaluator,
            rng: Pcg64Mcg::seed_from_u64(options.seed),
        }
    }

    /// The engine's level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Forgets the previous game (the transposition table) and restarts the random choices.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.rng = Pcg64Mcg::seed_from_u64(self.options.seed);
    }

    /// The move to play in `position`, with the search's findings. Setting `cancel` makes the
    /// search return at once with the best move so far.
    pub fn choose(&mut self, position: &Position, scoring: Scoring, cancel: Option<&AtomicBool>) -> SearchResult<Cell> {
        let state = KulamiState::new(position.clone(), scoring);
        match self.level {
            Level::Beginner => {
                let mut result = self.search(&state, Limits::depth(1), cancel);
                if self.rng.next_u64().is_multiple_of(8) {
                    result.best = self.pick(&state, |_| true);
                } else {
                    result.best = self.pick_near_best(&state, 1, 2 * POINT);
                }
                result
            }
            Level::Casual => {
                let mut result = self.search(&state, Limits::depth(2), cancel);
                result.best = self.pick_near_best(&state, 2, POINT);
                result
            }
            Level::Club => {
                let depth = if state.moves_left_at_most() <= 10 { 10 } else { 4 };
                self.search(&state, Limits::depth(depth), cancel)
            }
            Level::Expert => self.tree_search(&state, Duration::from_millis(100), 1, cancel),
            Level::Master => self.tree_search(&state, self.options.move_time, self.options.threads, cancel),
            Level::Mcts => {
                let start = std::time::Instant::now();
                let limits = self.mcts_limits(self.options.move_time, 1);
                let found = mcts::search(&state, MctsOptions::PLAIN, limits, self.rng.next_u64(), cancel);
                one_move_result(found.best.map(|mv| (mv, 0)), 0, false, found.playouts, start)
            }
            Level::Baseline => {
                let mut game = state.clone();
                let depth = baseline::scheduled_depth(game.moves_left_at_most());
                let start = std::time::Instant::now();
                let found = baseline::best_move(&mut game, &self.evaluator, depth);
                one_move_result(found, depth, depth as usize >= state.moves_left_at_most(), 0, start)
            }
        }
    }

    /// Whether to take the opponent's first marble as one's own (the swap, or pie, rule), as the
    /// second player right after the first move: yes if a short search says the first player
    /// stands better. Every level judges alike; the swap is a matter of the opening, not of skill.
    pub fn wants_swap(&mut self, position: &Position, scoring: Scoring) -> bool {
        let state = KulamiState::new(position.clone(), scoring);
        let depth = if state.moves_left_at_most() <= 10 { 10 } else { 4 };
        let searched = self.searcher.search(&state, &KulamiEvaluator::default(), Limits::depth(depth), None);
        searched.value < 0
    }

    /// Levels 4 and 5: Monte-Carlo tree search, and the exact alpha-beta solver once the end is
    /// within the reach it can solve in `time`.
    fn tree_search(
        &mut self,
        state: &KulamiState,
        time: Duration,
        threads: usize,
        cancel: Option<&AtomicBool>,
    ) -> SearchResult<Cell> {
        if state.moves_left_at_most() <= solver_reach(time) {
            let limits = match self.options.nodes {
                Some(nodes) => Limits::nodes(nodes),
                None => Limits::time(time),
            };
            return self.search(state, limits, cancel);
        }
        let start = std::time::Instant::now();
        let limits = self.mcts_limits(time, threads);
        let found = mcts::search(state, MctsOptions::STRONG, limits, self.rng.next_u64(), cancel);
        one_move_result(found.best.map(|mv| (mv, 0)), 0, false, found.playouts, start)
    }

    /// The tree search's limits: `time` on `threads`, or a fixed number of playouts on one
    /// thread in deterministic mode.
    fn mcts_limits(&self, time: Duration, threads: usize) -> MctsLimits {
        match self.options.nodes {
            Some(playouts) => MctsLimits { time: Duration::MAX, playouts, threads: 1 },
            None => MctsLimits { time, playouts: u64::MAX, threads },
        }
    }

    fn search(&mut self, state: &KulamiState, limits: Limits, cancel: Option<&AtomicBool>) -> SearchResult<Cell> {
        self.searcher.search(state, &self.evaluator, limits, cancel)
    }

    /// A random move among those whose `depth`-ply value is within `slack` of the best.
    fn pick_near_best(&mut self, state: &KulamiState, depth: u32, slack: i32) -> Option<Cell> {
        let mut game = state.clone();
        let values: Vec<(Cell, i32)> = game
            .moves()
            .into_iter()
            .map(|cell| {
                game.play(cell);
                let value = -self.value_at_depth(&mut game, depth - 1);
                game.undo();
                (cell, value)
            })
            .collect();
        let best = values.iter().map(|&(_, value)| value).max()?;
        self.pick(state, |cell| values.iter().any(|&(c, value)| c == cell && value >= best - slack))
    }

    fn value_at_depth(&self, game: &mut KulamiState, depth: u32) -> i32 {
        if let Some(value) = game.terminal_value() {
            return value;
        }
        if depth == 0 {
            return self.evaluator.evaluate(game);
        }
        baseline::best_move(game, &self.evaluator, depth).map_or(0, |(_, value)| value)
    }

    /// A uniformly random legal move among those `allowed`.
    fn pick(&mut self, state: &KulamiState, allowed: impl Fn(Cell) -> bool) -> Option<Cell> {
        let candidates: Vec<Cell> = state.moves().into_iter().filter(|&cell| allowed(cell)).collect();
        if candidates.is_empty() {
            return None;
        }
        Some(candidates[(self.rng.next_u64() % candidates.len() as u64) as usize])
    }
}

/// The most plies left at which the alpha-beta solver nearly always proves the exact result in
/// `time` on one core (`cargo run --release -p kulami-ai --example endgames -- 18 20 22`, the
/// slowest of 15 positions: 18 plies left 15 ms, 20 plies 37 ms, 22 plies 0.23 s).
fn solver_reach(time: Duration) -> usize {
    match time.as_millis() {
        1000.. => 22,
        100.. => 20,
        40.. => 18,
        _ => 16,
    }
}

/// The result of a player that finds a move but no principal variation (baseline, MCTS).
fn one_move_result(
    found: Option<(Cell, i32)>,
    depth: u32,
    exact: bool,
    nodes: u64,
    start: std::time::Instant,
) -> SearchResult<Cell> {
    SearchResult {
        best: found.map(|(mv, _)| mv),
        value: found.map_or(0, |(_, value)| value),
        pv: found.map(|(mv, _)| vec![mv]).unwrap_or_default(),
        depth,
        exact,
        nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_parse() {
        assert_eq!("1".parse(), Ok(Level::Beginner));
        assert_eq!("level5".parse(), Ok(Level::Master));
        assert_eq!("level-3".parse(), Ok(Level::Club));
        assert_eq!("baseline".parse(), Ok(Level::Baseline));
        assert!("6".parse::<Level>().is_err());
        assert!("0".parse::<Level>().is_err());
        assert_eq!(Level::Expert.to_string(), "level 4");
    }

    #[test]
    fn the_engine_swaps_exactly_when_the_first_move_is_winning() {
        // Five marbles each: after the first move 9 plies are left, so the search is exact and
        // the engine must swap exactly when the player to move is lost.
        let layout = std::sync::Arc::new(
            kulami_core::Layout::parse("AAB/CCB/DEE/DFF").unwrap().with_marbles_per_player(5).unwrap(),
        );
        let mut engine = Engine::new(Level::Beginner, EngineOptions::default());
        let mut swaps = 0;
        for first in Position::new(layout.clone()).legal_moves() {
            let position = Position::from_moves(layout.clone(), &[first]).unwrap();
            let state = KulamiState::new(position.clone(), Scoring::Standard);
            let exact = Searcher::new(1, 1).search(&state, &KulamiEvaluator::default(), Limits::default(), None);
            assert!(exact.exact);
            let swap = engine.wants_swap(&position, Scoring::Standard);
            assert_eq!(swap, exact.value < 0, "after {first}");
            swaps += usize::from(swap);
        }
        assert!(swaps > 0, "some first move on this board is worth taking over");
    }
}
