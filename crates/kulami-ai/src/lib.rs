#![doc = include_str!("../README.md")]

pub mod analysis;
mod baseline;
mod engine;
pub mod eval;
mod kulami;
mod level;
pub mod puzzle;
mod time_control;
pub mod tournament;

pub use engine::{CONTEMPT_MAX_TIME, Engine, EngineOptions, PONDER_MOVES, TREE_SEARCH, tree_search_options};
pub use eval::KulamiEvaluator;
pub use game_search::{Evaluator, Limits, RankedMoves, SearchGame, SearchResult, Searcher, mcts, stats};
pub use kulami::{KulamiState, POINT};
pub use level::{Level, ParseLevelError, ParseSeatError, Seat};
pub use time_control::{Clock, TimeControl};
