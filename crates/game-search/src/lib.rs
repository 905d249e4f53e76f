#![doc = include_str!("../README.md")]

mod game;
pub mod matches;
pub mod mcts;
pub mod memory;
pub mod nim;
mod search;
mod solver;
pub mod stats;

pub use game::{Evaluator, Proven, SearchGame, minimax, pick_below, values_by_playing};
pub use search::{INFINITY, Limits, Proof, RankedMoves, SearchResult, Searcher};
pub use solver::{SolveProgress, Solved, Solver};
