//! The arguments every position command takes: `--layout`, `--moves` and `--swap`, or `--record`.

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
    /// The moves played so far: cell names separated by spaces or commas, e.g. "d4 d7 g7"
    /// (with --swap the second may be `swap`).
    #[arg(long, default_value = "", value_name = "MOVES")]
    pub moves: String,
    /// Play with the swap (pie) rule: the second player may answer the first marble with `swap`.
    #[arg(long)]
    pub swap: bool,
    /// A game record file (layout, marbles, scoring, swap rule and moves) instead of --layout,
    /// --moves and --swap.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["layout", "moves", "swap"])]
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
        let start = Position::new(Arc::new(board.into_layout())).with_swap_rule(self.swap);
        Ok((start.replay(&moves).context("--moves")?, None))
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
    Ok(kulami_layouts::files::read_game(path)?)
}
