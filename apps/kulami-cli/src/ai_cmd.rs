//! `kulami hint` and `kulami analyse`: the engine's view of a position or a whole game.

use std::time::Duration;

use clap::Args;
use kulami_ai::analysis::{analyse, hints};
use kulami_ai::{Limits, Searcher};
use kulami_core::{Color, Position, Scoring};
use serde::Serialize;

use crate::board_args::PositionArgs;
use crate::output::outln;

/// Arguments of `kulami hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Scoring (default: the record's, else standard).
    #[arg(long)]
    scoring: Option<Scoring>,
    /// Thinking time in milliseconds.
    #[arg(long, default_value = "1000", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// How many moves to suggest.
    #[arg(long, default_value_t = 3)]
    count: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Arguments of `kulami analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Scoring (default: the record's, else standard).
    #[arg(long)]
    scoring: Option<Scoring>,
    /// Thinking time per move, in milliseconds.
    #[arg(long, default_value = "300", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// How many of the costliest moves to list.
    #[arg(long, default_value_t = 3)]
    worst: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Hundredths of a point as points.
fn points(value: i32) -> f64 {
    f64::from(value) / 100.0
}

#[derive(Serialize)]
struct HintJson {
    cell: String,
    value: f64,
    exact: bool,
}

#[derive(Serialize)]
struct HintsJson {
    to_move: Option<Color>,
    hints: Vec<HintJson>,
    /// When the swap is legal: its value for the player who would swap (the first marble's
    /// owner then), the negative of the best hole's.
    #[serde(skip_serializing_if = "Option::is_none")]
    swap: Option<f64>,
}

pub fn hint(args: &HintArgs) -> anyhow::Result<()> {
    let (position, scoring) = args.position.position_and_scoring(args.scoring)?;
    let mut searcher = Searcher::new(32, 1);
    let found = hints(&mut searcher, &position, scoring, Limits::time(args.movetime), args.count);
    // Swapping leaves the board as it is with the other player to move: worth minus the best hole.
    let swap = found.first().filter(|_| position.can_swap()).map(|best| points(-best.value));
    if args.json {
        let hints = found
            .iter()
            .map(|h| HintJson { cell: h.cell.to_string(), value: points(h.value), exact: h.exact })
            .collect();
        let to_move = (!position.is_game_over()).then(|| position.side_to_move());
        outln!("{}", serde_json::to_string(&HintsJson { to_move, hints, swap })?);
        return Ok(());
    }
    if found.is_empty() {
        outln!("game over: no move to suggest");
    }
    for (rank, hint) in found.iter().enumerate() {
        let kind = if hint.exact { "exact final margin" } else { "expected margin" };
        outln!("{}. {}  {:+.2} ({kind} for {})", rank + 1, hint.cell, points(hint.value), position.side_to_move());
    }
    if let Some(value) = swap {
        outln!("or swap  {value:+.2} (the first marble becomes yours, and you play red)");
    }
    Ok(())
}

#[derive(Serialize)]
struct ReviewJson {
    number: usize,
    mover: Color,
    played: String,
    value_for_red: f64,
    best: String,
    loss: f64,
    exact: bool,
}

pub fn analyse_game(args: &AnalyseArgs) -> anyhow::Result<()> {
    let (end, scoring) = args.position.position_and_scoring(args.scoring)?;
    let start = Position::new(end.layout().clone()).with_swap_rule(end.swap_rule());
    let moves: Vec<_> = end.moves().collect();
    let reviews = analyse(&mut Searcher::new(64, 1), &start, &moves, scoring, Limits::time(args.movetime));
    let mut worst: Vec<_> = reviews.iter().filter(|r| r.loss > 0).collect();
    worst.sort_by_key(|r| std::cmp::Reverse(r.loss));
    worst.truncate(args.worst);
    if args.json {
        let json = |r: &kulami_ai::analysis::MoveReview| ReviewJson {
            number: r.number,
            mover: r.mover,
            played: r.played.to_string(),
            value_for_red: points(r.value_for_red),
            best: r.best.to_string(),
            loss: points(r.loss),
            exact: r.exact,
        };
        let moves: Vec<ReviewJson> = reviews.iter().map(json).collect();
        let worst: Vec<usize> = worst.iter().map(|r| r.number).collect();
        outln!("{}", serde_json::json!({ "moves": moves, "worst": worst }));
        return Ok(());
    }
    outln!(" no. mover  played  eval (red)  best   loss");
    for r in &reviews {
        let best = if r.loss > 0 { r.best.to_string() } else { String::new() };
        let loss = if r.loss > 0 { format!("{:.2}", points(r.loss)) } else { String::new() };
        outln!(
            "{:>3}. {:<6} {:<7} {:>+10.2}  {:<5}  {loss}",
            r.number,
            r.mover,
            r.played,
            points(r.value_for_red),
            best
        );
    }
    if worst.is_empty() {
        outln!("\nNo move lost anything against the engine's choice.");
    } else {
        outln!("\nCostliest moves:");
        for r in worst {
            outln!(
                "  move {} ({} {}): lost {:.2} points; {} was better",
                r.number,
                r.mover,
                r.played,
                points(r.loss),
                r.best
            );
        }
    }
    Ok(())
}
