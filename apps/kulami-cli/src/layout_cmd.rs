//! `kulami layout ...`: boards: list the presets, show, generate, validate, measure.

use crate::output::{out, outln};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::bail;
use clap::Subcommand;
use kulami_core::{Layout, Position, TileShape};
use kulami_layouts::playability::{median, random_game_lengths, single_tile_lines};
use kulami_layouts::{Board, ParseBoardError, ReadBoardError, Shape};

use crate::render::{self, ColorChoice};

/// Subcommands of `kulami layout`.
#[derive(Subcommand, Debug)]
pub enum LayoutCommand {
    /// List the preset boards.
    List,
    /// Show a board: its file text and a drawing.
    Show {
        /// A preset name, a layout file, or layout text on one line.
        board: String,
    },
    /// Print a random board of the standard set; the same seed and shape give the same board.
    Generate {
        /// The seed; without it one is drawn and printed with the board.
        #[arg(long)]
        seed: Option<u64>,
        /// The board's shape.
        #[arg(long, default_value = "square")]
        shape: Shape,
        /// Print the layout on one line (rows joined by `/`), without the comment line.
        #[arg(long)]
        one_line: bool,
    },
    /// Check a layout file: exit 0 when it is a valid board, else list every problem.
    Validate {
        /// The layout file.
        file: PathBuf,
        /// Also require exactly the standard 17 tiles.
        #[arg(long)]
        standard: bool,
    },
    /// Generate many boards and report speed, variety and playability.
    Stats {
        /// The boards' shape.
        #[arg(long, default_value = "square")]
        shape: Shape,
        /// How many boards (seeds `first-seed` onward).
        #[arg(long, default_value_t = 1000)]
        count: u64,
        /// The first seed.
        #[arg(long, default_value_t = 0)]
        first_seed: u64,
    },
}

pub fn run(command: &LayoutCommand) -> anyhow::Result<()> {
    match command {
        LayoutCommand::List => list(),
        LayoutCommand::Show { board } => show(board),
        LayoutCommand::Generate { seed, shape, one_line } => generate(*seed, *shape, *one_line),
        LayoutCommand::Validate { file, standard } => validate(file, *standard),
        LayoutCommand::Stats { shape, count, first_seed } => stats(*shape, *count, *first_seed),
    }
}

fn list() -> anyhow::Result<()> {
    for name in kulami_layouts::preset_names() {
        let board = kulami_layouts::preset(name).expect("listed presets exist");
        let layout = board.layout();
        outln!(
            "{name:<16} {:>2} tiles {:>2} holes {:>2} marbles  {}",
            layout.tiles().len(),
            layout.holes().len(),
            layout.marbles_per_player(),
            board.description().unwrap_or("")
        );
    }
    Ok(())
}

fn show(argument: &str) -> anyhow::Result<()> {
    let board = Board::resolve(argument)?;
    out!("{}", board.to_file_text());
    outln!();
    out!("{}", render::board(&Position::new(Arc::new(board.into_layout())), ColorChoice::Never));
    Ok(())
}

fn generate(seed: Option<u64>, shape: Shape, one_line: bool) -> anyhow::Result<()> {
    let seed = seed.unwrap_or_else(kulami_layouts::fresh_seed);
    let layout = kulami_layouts::generate(seed, shape);
    if one_line {
        outln!("{}", layout.to_one_line());
    } else {
        outln!("# {shape} board, seed {seed}");
        out!("{layout}");
    }
    Ok(())
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
    outln!(
        "{}: valid, {} tiles, {} holes, {} marbles per player{}",
        file.display(),
        layout.tiles().len(),
        layout.holes().len(),
        layout.marbles_per_player(),
        if layout.uses_standard_set() { ", standard set" } else { "" }
    );
    Ok(())
}

/// Empty cells inside the bounding box that no edge path through empty cells links to its border.
fn enclosed_gaps(layout: &Layout) -> usize {
    let (rows, columns) = layout.extent();
    let inside: kulami_core::CellSet =
        (0..rows).flat_map(|r| (0..columns).filter_map(move |c| kulami_core::Cell::new(r, c))).collect();
    let gaps = inside & !layout.holes();
    let border: kulami_core::CellSet = gaps
        .iter()
        .filter(|cell| cell.row() == 0 || cell.column() == 0 || cell.row() == rows - 1 || cell.column() == columns - 1)
        .collect();
    (gaps & !border.flood_fill(gaps)).len()
}

fn stats(shape: Shape, count: u64, first_seed: u64) -> anyhow::Result<()> {
    if count == 0 {
        bail!("--count must be at least 1");
    }
    let seeds = first_seed..first_seed.saturating_add(count);
    let start = Instant::now();
    let boards: Vec<Layout> = seeds.clone().map(|seed| kulami_layouts::generate(seed, shape)).collect();
    let seconds = start.elapsed().as_secs_f64();
    let distinct: std::collections::HashSet<String> = boards.iter().map(Layout::to_one_line).collect();
    let mut boxes = std::collections::BTreeMap::<(usize, usize), usize>::new();
    let mut single_tile = 0;
    let mut with_enclosed_gaps = 0;
    let mut medians = Vec::new();
    for (seed, layout) in seeds.zip(&boards) {
        *boxes.entry(layout.extent()).or_default() += 1;
        single_tile += usize::from(single_tile_lines(layout) > 0);
        with_enclosed_gaps += usize::from(enclosed_gaps(layout) > 0);
        medians.push(median(&random_game_lengths(&Arc::new(layout.clone()), 31, seed)));
    }
    let share = |n: usize| 100.0 * n as f64 / boards.len() as f64;
    outln!("{} {shape} boards in {seconds:.3} s: {:.0} boards/s", boards.len(), boards.len() as f64 / seconds);
    outln!("distinct boards: {}", distinct.len());
    let boxes: Vec<String> = boxes.iter().map(|((r, c), n)| format!("{r}x{c}: {n}")).collect();
    outln!("bounding boxes (rows x columns): {}", boxes.join(", "));
    outln!("boards with a single-tile row or column: {:.1}%", share(single_tile));
    outln!("boards with enclosed empty cells: {:.1}%", share(with_enclosed_gaps));
    medians.sort_unstable();
    let percentile = |p: usize| medians[(medians.len() - 1) * p / 100];
    outln!(
        "median length of random games (31 per board): lowest {}, 10th percentile {}, median {}, highest {}",
        medians[0],
        percentile(10),
        percentile(50),
        medians[medians.len() - 1]
    );
    Ok(())
}
