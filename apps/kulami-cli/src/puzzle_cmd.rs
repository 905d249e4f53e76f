//! `kulami puzzle`: the daily puzzle, and the verdict on an answer.

use clap::Args;
use kulami_ai::puzzle::{Date, Verdict, daily};
use kulami_core::Cell;
use kulami_core::notation::format_moves;
use serde::Serialize;

use crate::output::{out, outln};
use crate::render::{self, ColorChoice};

/// Arguments of `kulami puzzle`.
#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The puzzle of this date, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    date: Option<Date>,
    /// Check an answer: right exits 0, wrong exits 1 and shows the refutation.
    #[arg(long)]
    answer: Option<Cell>,
    /// Print one JSON object (with the answer) instead of the board.
    #[arg(long)]
    json: bool,
    /// Colour the drawing.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

#[derive(Serialize)]
struct PuzzleJson {
    date: String,
    layout: String,
    marbles: usize,
    moves: String,
    to_move: kulami_core::Color,
    scoring: kulami_core::Scoring,
    answer: String,
    margin: i32,
    difficulty: u8,
    variation: String,
}

/// Shows the puzzle, or judges an answer; `Ok(false)` for a wrong answer.
pub fn run(args: &PuzzleArgs) -> anyhow::Result<bool> {
    let date = args.date.unwrap_or_else(Date::today);
    let puzzle = daily(date);
    let position = puzzle.position();
    let side = position.side_to_move();
    if let Some(answer) = args.answer {
        return Ok(match puzzle.check(answer) {
            Verdict::Right => {
                outln!("Right: {answer} is the best move; {side} ends {:+} with best play.", puzzle.margin);
                outln!("The line: {}", format_moves(&puzzle.variation));
                true
            }
            Verdict::Wrong { refutation, margin } => {
                outln!("Wrong: after {answer} best play ends {margin:+} for {side}: {}", format_moves(&refutation));
                outln!(
                    "{} was best: it ends {:+}, by {}",
                    puzzle.answer,
                    puzzle.margin,
                    format_moves(&puzzle.variation)
                );
                false
            }
            Verdict::Illegal(error) => {
                outln!("Wrong: {answer} is not a legal move here ({error}).");
                false
            }
        });
    }
    if args.json {
        let json = PuzzleJson {
            date: date.to_string(),
            layout: puzzle.layout.to_one_line(),
            marbles: puzzle.layout.marbles_per_player(),
            moves: format_moves(&puzzle.moves),
            to_move: side,
            scoring: puzzle.scoring,
            answer: puzzle.answer.to_string(),
            margin: puzzle.margin,
            difficulty: puzzle.difficulty,
            variation: format_moves(&puzzle.variation),
        };
        outln!("{}", serde_json::to_string(&json)?);
        return Ok(true);
    }
    outln!("Puzzle of {date}, difficulty {}/5, {} scoring", puzzle.difficulty, puzzle.scoring);
    out!("{}", render::board(&position, args.color));
    outln!("{side} to move: find the best move. Check it with `kulami puzzle --date {date} --answer <cell>`.");
    Ok(true)
}
