//! The `--layout` and `--moves` arguments every position command takes.

use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use kulami_core::{Position, notation::parse_moves};
use kulami_layouts::Board;

/// A board and the moves played on it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// A preset name, a layout file, or layout text on one line (rows joined by `/`).
    #[arg(long, default_value = "classic", value_name = "PRESET|FILE|ONE-LINE")]
    pub layout: String,
    /// The moves played so far: cell names separated by spaces or commas, e.g. "d4 d7 g7".
    #[arg(long, default_value = "", value_name = "CELLS")]
    pub moves: String,
}

impl PositionArgs {
    /// The position after the moves, or an error naming the bad board or the first illegal move.
    pub fn position(&self) -> anyhow::Result<Position> {
        let board = Board::resolve(&self.layout)?;
        let moves = parse_moves(&self.moves).context("--moves")?;
        Position::from_moves(Arc::new(board.into_layout()), &moves).context("--moves")
    }
}
