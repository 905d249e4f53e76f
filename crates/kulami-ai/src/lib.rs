//! Search for Kulami: alpha-beta with an exact endgame solver, levels, hints and analysis.
//!
//! The search is written against [`SearchGame`] so other two-player games can reuse it;
//! [`KulamiState`] is Kulami's implementation and [`KulamiEvaluator`] its evaluation.

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
