//! The arguments every position command takes: `--layout` and `--moves`, or `--record`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use kulami_core::{Game, Position, Scoring, notation::parse_moves};
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
    /// A game record file (layout, marbles, scoring and moves) instead of --layout and --moves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["layout", "moves"])]
    pub record: Option<PathBuf>,
}

impl PositionArgs {
    /// The position, and the record's scoring if it came from a record.
    pub fn load(&self) -> anyhow::Result<(Position, Option<Scoring>)> {
        if let Some(path) = &self.record {
            let game = read_record(path)?;
            return Ok((game.position().clone(), Some(game.scoring())));
        }
        let board = Board::resolve(&self.layout)?;
        let moves = parse_moves(&self.moves).context("--moves")?;
        Ok((Position::from_moves(Arc::new(board.into_layout()), &moves).context("--moves")?, None))
    }

    /// The position after the moves, or an error naming the bad board or the first illegal move.
    pub fn position(&self) -> anyhow::Result<Position> {
        Ok(self.load()?.0)
    }

    /// The position and the scoring: `scoring` if given, else the record's, else standard.
    pub fn position_and_scoring(&self, scoring: Option<Scoring>) -> anyhow::Result<(Position, Scoring)> {
        let (position, recorded) = self.load()?;
        Ok((position, scoring.or(recorded).unwrap_or_default()))
    }
}

/// Reads a game record's text form and replays it.
pub fn read_record(path: &std::path::Path) -> anyhow::Result<Game> {
    Ok(kulami_layouts::read_game(path)?)
}
