//! The rules of Kulami, fast enough for deep search.
//!
//! - [`Layout`]: a validated board (tiles in the 10x10 frame), parsed from layout text.
//! - [`Position`]: marbles on a board; [`Position::legal_moves`] as a [`CellSet`] bitboard,
//!   checked [`Position::play`], and [`Position::play_unchecked`]/[`Position::undo`] for search.
//! - [`Position::score`]: the standard score and the Biggest Area and Lines variants.
//! - [`Game`] (undo and redo) and [`GameRecord`] (text, serde and binary forms).
//!
//! No I/O, no threads, no randomness: everything here is a pure function of its input, and input
//! from outside (layout text, cell names, move lists, records) gets an error, never a panic.
//!
//! ```
//! use std::sync::Arc;
//! use kulami_core::{Layout, Position, Scoring};
//!
//! let layout = Arc::new(Layout::parse(
//!     "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO",
//! ).unwrap());
//! let mut position = Position::new(layout);
//! // Each side plays its first legal hole until the game ends.
//! while let Some(cell) = position.legal_moves().first() {
//!     position.play(cell).unwrap();
//! }
//! let score = position.score(Scoring::Both);
//! println!("{position}\n{score}");
//! assert!(position.is_game_over());
//! ```

mod cell;
mod draw;
mod game;
mod layout;
pub mod notation;
mod position;
mod score;

pub use cell::{Cell, CellSet, CellSetIter, Direction, FRAME, FRAME_CELLS, ParseCellError};
#[cfg(feature = "serde")]
pub use game::DecodeRecordError;
pub use game::{Game, GameFromRecordError, GameRecord, ParseRecordError, RecordLineProblem};
pub use layout::{
    Layout, LayoutProblem, MAX_MARBLES_PER_PLAYER, MAX_TILES, MarblesError, ParseLayoutError,
    STANDARD_MARBLES_PER_PLAYER, TextPosition, Tile, TileShape,
};
pub use position::{Color, MoveError, Position, ReplayError};
pub use score::{
    ParseScoringError, PlayerScore, ScoreBreakdown, Scoring, Winner, largest_area, largest_group, line_cells, line_sum,
};
