#![doc = include_str!("../README.md")]

pub mod analysis;
pub mod baseline;
pub mod engine;
pub mod eval;
pub mod game;
pub mod kulami;
pub mod mcts;
pub mod puzzle;
pub mod search;
pub mod stats;
pub mod tournament;

pub use engine::{Engine, EngineOptions, Level, ParseLevelError};
pub use eval::KulamiEvaluator;
pub use game::{Evaluator, PackedMove, SearchGame};
pub use kulami::KulamiState;
pub use search::{Limits, RankedMoves, SearchResult, Searcher};
