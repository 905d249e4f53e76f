//! `kulami play`: a game in the terminal, two people at one keyboard.

use crate::output::{out, outln};
use std::io::Write as _;
use std::sync::Arc;

use clap::Args;
use std::time::Duration;

use kulami_ai::{Engine, EngineOptions, Searcher, Seat, TimeControl};
use kulami_cli::lines::{Line, next_line_thinking, read_stdin_in_the_background};
use kulami_cli::protocol::MAX_LINE;
use kulami_core::notation::format_moves;
use kulami_core::{Color, Game, Move, Position, Scoring, Winner};
use kulami_layouts::Board;

use crate::render::{self, ColorChoice};

/// Arguments of `kulami play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Who plays red: `human` or a level 1-5.
    #[arg(long, default_value = "human")]
    red: Seat,
    /// Who plays black: `human` or a level 1-5.
    #[arg(long, default_value = "human")]
    black: Seat,
    /// The engine's thinking time per move at level 5, in milliseconds.
    #[arg(long, default_value = "1000", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// A preset name, a layout file, or layout text on one line.
    #[arg(long, default_value = "classic", value_name = "PRESET|FILE|ONE-LINE")]
    layout: String,
    /// Which bonuses count.
    #[arg(long, default_value = "standard")]
    scoring: Scoring,
    /// Play with the swap (pie) rule: the second player may answer the first marble with
    /// `swap` and take it over (the players then exchange colours).
    #[arg(long)]
    swap: bool,
    /// Colour the drawing.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

const HELP: &str = "Type a hole such as d4 to place a marble (or `swap` when the swap rule allows); `hint`, `undo`, `redo`, `moves`, `help` or `quit`.";

/// The seat (0 for the player who began as red, 1 for the other) that plays `side` now: after a
/// swap the players have exchanged colours.
fn seat_of(position: &Position, side: Color) -> usize {
    if position.swapped() { side.other().index() } else { side.index() }
}

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let board = Board::resolve(&args.layout)?;
    let mut game = Game::new(Arc::new(board.into_layout()), args.scoring).with_swap_rule(args.swap);
    let options = EngineOptions::default().with_time(TimeControl::PerMove(args.movetime));
    let mut searcher = Searcher::new(32, 1);
    let mut engines = [args.red, args.black].map(|seat| match seat {
        Seat::Engine(level) => Some(Engine::new(level, options)),
        Seat::Human => None,
    });
    outln!("Kulami, {} scoring. {HELP}", args.scoring);
    let lines = read_stdin_in_the_background(MAX_LINE);
    loop {
        let position = game.position();
        outln!("\n{}{}", render::board(position, args.color), render::status(position));
        if position.is_game_over() {
            break;
        }
        let side = position.side_to_move();
        if let Some(engine) = &mut engines[seat_of(position, side)] {
            outln!("{}, {}, is thinking...", render::title(side), engine.level());
            let choice = engine.choose(position, game.scoring(), None);
            let chosen = choice.best.expect("a live game has a legal move");
            game.play_move(chosen).expect("the engine plays legal moves");
            match chosen {
                Move::Swap => {
                    outln!("{} swaps: the first marble is its own now, and it plays red.", render::title(side))
                }
                Move::Place(cell) => outln!("{} plays {cell}.", render::title(side)),
            }
            continue;
        }
        out!("{} > ", render::title(side));
        std::io::stdout().flush()?;
        // While the person thinks, the engine that answers them thinks too (level 5 only).
        let answering = &mut engines[seat_of(position, side.other())];
        let line = next_line_thinking(&lines, |cancel| {
            if let Some(engine) = answering {
                engine.ponder(position, game.scoring(), cancel);
            }
        });
        let line = match line? {
            Line::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Line::TooLong => {
                outln!("That line is too long to be a move or a command.");
                continue;
            }
            Line::End => {
                outln!();
                return Ok(());
            }
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => outln!("{HELP}"),
            "undo" => {
                // Against the engine, take back its reply too, so that it is your turn again.
                let steps = if engines.iter().any(Option::is_some) { 2 } else { 1 };
                if (0..steps).filter_map(|_| game.undo()).count() == 0 {
                    outln!("Nothing to undo.");
                }
                while engines[seat_of(game.position(), game.position().side_to_move())].is_some()
                    && game.undo().is_some()
                {}
            }
            "hint" => {
                let limits = kulami_ai::Limits::time(Duration::from_millis(500));
                let hints = kulami_ai::analysis::hints(&mut searcher, game.position(), game.scoring(), limits, 3);
                for (rank, hint) in hints.iter().enumerate() {
                    outln!("{}. {} ({:+.2})", rank + 1, hint.cell, f64::from(hint.value) / 100.0);
                }
            }
            "redo" => {
                if game.redo().is_none() {
                    outln!("Nothing to redo.");
                }
            }
            "moves" => outln!("{}", format_moves(&game.position().moves().collect::<Vec<_>>())),
            text => match text.parse::<Move>() {
                Ok(played) => {
                    if let Err(error) = game.play_move(played) {
                        outln!("Illegal: {error}.");
                    }
                }
                Err(error) => outln!("{error}. {HELP}"),
            },
        }
    }
    let score = game.score();
    outln!("{score}");
    outln!(
        "{}",
        match score.winner {
            Winner::Draw => "The game is a draw.".to_owned(),
            winner => format!(
                "{winner} wins, {} to {}.",
                score.red.total.max(score.black.total),
                score.red.total.min(score.black.total)
            ),
        }
    );
    Ok(())
}
