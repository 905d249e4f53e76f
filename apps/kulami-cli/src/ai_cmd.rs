//! `kulami hint`, `kulami analyse` and `kulami solve`: the engine's view of a position or a
//! whole game, and the exact values of a position's moves.

use std::time::Duration;

use clap::Args;
use kulami_ai::analysis::{SolvedMove, analyse, hints, solve, solve_best};
use kulami_ai::{Limits, Searcher};
use kulami_core::{Color, Scoring};
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

/// Arguments of `kulami solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Scoring (default: the record's, else standard).
    #[arg(long)]
    scoring: Option<Scoring>,
    /// Threads of the search.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The search's table in MiB (16 bytes a position).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=65536))]
    table_mb: u32,
    /// Prove the position's value and one best hole only (one search, far quicker than
    /// valuing every hole).
    #[arg(long)]
    best_only: bool,
    /// Print one JSON object at the end instead of each hole as it is solved.
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
    let start = end.start();
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

#[derive(Serialize)]
struct SolvedJson {
    cell: String,
    value: f64,
    nodes: u64,
    seconds: f64,
}

impl From<&SolvedMove> for SolvedJson {
    fn from(proved: &SolvedMove) -> SolvedJson {
        SolvedJson {
            cell: proved.cell.to_string(),
            value: points(proved.value),
            nodes: proved.nodes,
            seconds: proved.time.as_secs_f64(),
        }
    }
}

pub fn solve_position(args: &SolveArgs) -> anyhow::Result<()> {
    let (position, scoring) = args.position.position_and_scoring(args.scoring)?;
    let to_move = (!position.is_game_over()).then(|| position.side_to_move());
    let start = std::time::Instant::now();
    crate::memory::ensure_free(u64::from(args.table_mb) << 20, &format!("--table-mb {}", args.table_mb))?;
    let mut searcher = Searcher::new(args.table_mb as usize, usize::from(args.threads));
    if let Some(mover) = to_move.filter(|_| !args.json) {
        let marbles = position.marbles_left(Color::Red) + position.marbles_left(Color::Black);
        let what = if args.best_only { "the value and a best hole" } else { "every hole" };
        outln!("solving {what} for {mover} ({marbles} marbles left to place), {} thread(s):", args.threads);
    }
    // Each hole as its proof ends: a solve from early in the game takes minutes.
    let mut shown = Ok(());
    let mut show = |proved: &SolvedMove| {
        if !args.json && shown.is_ok() {
            shown = show_solved(proved);
        }
    };
    let solution = if args.best_only {
        let solution = solve_best(&mut searcher, &position, scoring);
        solution.moves.iter().for_each(&mut show);
        solution
    } else {
        solve(&mut searcher, &position, scoring, show)
    };
    shown?;
    let seconds = start.elapsed().as_secs_f64();
    let nodes: u64 = solution.moves.iter().map(|proved| proved.nodes).sum();
    let value = solution.moves.first().map(|best| best.value);
    // Swapping leaves the board as it is with the other player to move: worth minus the best hole.
    let swap = value.filter(|_| position.can_swap()).map(|value| points(-value));
    let line: Vec<String> = solution.line.iter().map(ToString::to_string).collect();
    if args.json {
        let moves: Vec<SolvedJson> = solution.moves.iter().map(SolvedJson::from).collect();
        let json = serde_json::json!({
            "to_move": to_move,
            "value": value.map(points),
            "moves": moves,
            "swap": swap,
            "line": line,
            "nodes": nodes,
            "seconds": seconds,
        });
        outln!("{json}");
        return Ok(());
    }
    let (Some(mover), Some(value)) = (to_move, value) else {
        outln!("game over: nothing to solve");
        return Ok(());
    };
    outln!("value under perfect play: {:+.2} for {mover} (the final margin)", points(value));
    let best: Vec<String> = solution
        .moves
        .iter()
        .take_while(|proved| proved.value == value)
        .map(|proved| proved.cell.to_string())
        .collect();
    outln!("best: {}", best.join(" "));
    if let Some(swap) = swap {
        outln!("or swap  {swap:+.2} (the first marble becomes yours, and you play red)");
    }
    outln!("a perfect line: {}", line.join(" "));
    outln!("solved in {seconds:.1} s ({nodes} positions)");
    Ok(())
}

fn show_solved(proved: &SolvedMove) -> std::io::Result<()> {
    let seconds = proved.time.as_secs_f64();
    outln!(
        "  {:<4} {:+.2}  ({seconds:.1} s, {} positions)",
        proved.cell.to_string(),
        points(proved.value),
        proved.nodes
    );
    Ok(())
}
