//! `kulami layout ...`: board files.

use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Subcommand;
use kulami_core::TileShape;
use kulami_layouts::{Board, ParseBoardError, ReadBoardError};

/// Subcommands of `kulami layout`.
#[derive(Subcommand, Debug)]
pub enum LayoutCommand {
    /// Check a layout file: exit 0 when it is a valid board, else list every problem.
    Validate {
        /// The layout file.
        file: PathBuf,
        /// Also require exactly the standard 17 tiles.
        #[arg(long)]
        standard: bool,
    },
}

pub fn run(command: &LayoutCommand) -> anyhow::Result<()> {
    match command {
        LayoutCommand::Validate { file, standard } => validate(file, *standard),
    }
}

fn validate(file: &Path, standard: bool) -> anyhow::Result<()> {
    let board = match Board::read(file) {
        Ok(board) => board,
        Err(ReadBoardError::Invalid { path, error: ParseBoardError::Layout(error) }) if error.problems().len() > 1 => {
            let lines: Vec<String> = error.problems().iter().map(|p| format!("{}: {p}", path.display())).collect();
            bail!("invalid layout, {} problems:\n{}", lines.len(), lines.join("\n"));
        }
        Err(error) => return Err(error.into()),
    };
    let layout = board.layout();
    if standard && !layout.uses_standard_set() {
        let counts: Vec<String> = TileShape::ALL
            .iter()
            .rev()
            .map(|&shape| {
                let found = layout.tiles().iter().filter(|tile| tile.shape() == shape).count();
                format!("{found} of {shape} (standard {})", shape.standard_count())
            })
            .collect();
        bail!("{}: not the standard set: {}", file.display(), counts.join(", "));
    }
    println!(
        "{}: valid, {} tiles, {} holes, {} marbles per player{}",
        file.display(),
        layout.tiles().len(),
        layout.holes().len(),
        layout.marbles_per_player(),
        if layout.uses_standard_set() { ", standard set" } else { "" }
    );
    Ok(())
}
