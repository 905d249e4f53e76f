#![doc = include_str!("../README.md")]

mod cell;
mod draw;
mod game;
mod layout;
#[cfg(feature = "serde")]
mod layout_serde;
mod moves;
pub mod notation;
mod position;
mod score;

pub use cell::{Cell, CellSet, CellSetIter, Direction, FRAME, FRAME_CELLS, ParseCellError};
#[cfg(feature = "bincode")]
pub use game::DecodeRecordError;
pub use game::{Game, GameFromRecordError, GameRecord, ParseRecordError, RecordLineProblem};
pub use layout::{
    Layout, LayoutProblem, MAX_MARBLES_PER_PLAYER, MAX_TILES, MarblesError, ParseLayoutError,
    STANDARD_MARBLES_PER_PLAYER, TextPosition, Tile, TileShape,
};
pub use moves::{Move, ParseMoveError};
pub use position::{Color, MoveError, Position, ReplayError};
pub use score::{
    ParseScoringError, PlayerScore, ScoreBreakdown, Scoring, Winner, groups, largest_area, largest_group, line_cells,
    line_sum,
};
