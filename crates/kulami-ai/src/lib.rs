#![doc = include_str!("../README.md")]

pub mod analysis;
mod baseline;
mod engine;
pub mod eval;
mod game;
mod kulami;
pub mod mcts;
pub mod puzzle;
mod search;
pub mod stats;
pub mod tournament;

pub use engine::{Clock, Engine, EngineOptions, Level, ParseLevelError, ParseSeatError, Seat, TimeControl};
pub use eval::KulamiEvaluator;
pub use game::{Evaluator, PackedMove, SearchGame};
pub use kulami::{KulamiState, POINT};
pub use search::{Limits, RankedMoves, SearchResult, Searcher};
