#![doc = include_str!("../README.md")]

pub mod analysis;
mod baseline;
mod engine;
pub mod eval;
mod kulami;
pub mod puzzle;
pub mod tournament;

pub use engine::{
    Clock, Engine, EngineOptions, Level, ParseLevelError, ParseSeatError, Seat, TREE_SEARCH, TimeControl,
};
pub use eval::KulamiEvaluator;
pub use game_search::{Evaluator, Limits, RankedMoves, SearchGame, SearchResult, Searcher, mcts, stats};
pub use kulami::{KulamiState, POINT};
