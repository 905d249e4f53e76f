//! `show`, `legal`, `score` and `perft`: the rules on a position given by arguments.

use crate::output::{out, outln};
use std::time::Instant;

use clap::Args;
use kulami_core::{Color, Position, ScoreBreakdown, Scoring};
use serde::Serialize;

use crate::board_args::PositionArgs;
use crate::render::{self, ColorChoice};

/// Arguments of `kulami show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Scoring used for the score line (default: the record's, else standard).
    #[arg(long)]
    scoring: Option<Scoring>,
    /// Colour the drawing.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

/// Arguments of `kulami legal`.
#[derive(Args, Debug)]
pub struct LegalArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Arguments of `kulami score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Which bonuses count (default: the record's, else standard).
    #[arg(long)]
    scoring: Option<Scoring>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Arguments of `kulami perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let (position, scoring) = args.position.position_and_scoring(args.scoring)?;
    out!("{}", render::board(&position, args.color));
    outln!("{}", render::status(&position));
    outln!("{}", position.score(scoring));
    Ok(())
}

#[derive(Serialize)]
struct LegalJson {
    to_move: Option<Color>,
    legal: Vec<String>,
    game_over: bool,
    /// Whether `swap` is legal now; only in games with the swap rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    swap: Option<bool>,
}

pub fn legal(args: &LegalArgs) -> anyhow::Result<()> {
    let position = args.position.position()?;
    let legal: Vec<String> = position.legal_moves().iter().map(|cell| cell.to_string()).collect();
    let game_over = position.is_game_over();
    if args.json {
        let to_move = (!game_over).then(|| position.side_to_move());
        let swap = position.swap_rule().then(|| position.can_swap());
        outln!("{}", serde_json::to_string(&LegalJson { to_move, legal, game_over, swap })?);
    } else if game_over {
        outln!("game over");
    } else {
        let swap = if position.can_swap() { " swap" } else { "" };
        outln!("{} to move: {}{swap}", position.side_to_move(), legal.join(" "));
    }
    Ok(())
}

#[derive(Serialize)]
struct ScoreJson {
    #[serde(flatten)]
    breakdown: ScoreBreakdown,
    game_over: bool,
}

pub fn score(args: &ScoreArgs) -> anyhow::Result<()> {
    let (position, scoring) = args.position.position_and_scoring(args.scoring)?;
    let breakdown = position.score(scoring);
    let game_over = position.is_game_over();
    if args.json {
        outln!("{}", serde_json::to_string(&ScoreJson { breakdown, game_over })?);
    } else {
        outln!("{breakdown}");
        outln!("{}", if game_over { "game over" } else { "game in progress" });
    }
    Ok(())
}

#[derive(Serialize)]
struct PerftJson {
    depth: u32,
    nodes: u64,
}

pub fn perft(args: &PerftArgs) -> anyhow::Result<()> {
    let mut position: Position = args.position.position()?;
    let start = Instant::now();
    let nodes = position.perft(args.depth);
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        outln!("{}", serde_json::to_string(&PerftJson { depth: args.depth, nodes })?);
    } else {
        outln!(
            "depth {}: {:.3} s, {:.1} million leaves/s",
            args.depth,
            seconds,
            nodes as f64 / seconds.max(1e-9) / 1e6
        );
        outln!("{nodes}");
    }
    Ok(())
}
