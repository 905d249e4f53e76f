//! `kulami play`: a game in the terminal, two people at one keyboard.

use crate::output::{out, outln};
use std::io::{BufRead as _, Write as _};
use std::sync::Arc;

use clap::Args;
use kulami_core::{Cell, Game, Scoring, Winner};
use kulami_layouts::Board;

use crate::render::{self, ColorChoice};

/// Arguments of `kulami play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A preset name, a layout file, or layout text on one line.
    #[arg(long, default_value = "classic", value_name = "PRESET|FILE|ONE-LINE")]
    layout: String,
    /// Which bonuses count.
    #[arg(long, default_value = "standard")]
    scoring: Scoring,
    /// Colour the drawing.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

const HELP: &str = "Type a hole such as d4 to place a marble; `undo`, `redo`, `moves`, `help` or `quit`.";

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let board = Board::resolve(&args.layout)?;
    let mut game = Game::new(Arc::new(board.into_layout()), args.scoring);
    outln!("Kulami, {} scoring. {HELP}", args.scoring);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let position = game.position();
        outln!("\n{}{}", render::board(position, args.color), render::status(position));
        if position.is_game_over() {
            break;
        }
        out!("{} > ", render::title(position.side_to_move()));
        std::io::stdout().flush()?;
        let Some(line) = lines.next().transpose()? else {
            outln!();
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => outln!("{HELP}"),
            "undo" => {
                if game.undo().is_none() {
                    outln!("Nothing to undo.");
                }
            }
            "redo" => {
                if game.redo().is_none() {
                    outln!("Nothing to redo.");
                }
            }
            "moves" => outln!("{}", kulami_core::notation::format_moves(game.position().moves())),
            text => match text.parse::<Cell>() {
                Ok(cell) => {
                    if let Err(error) = game.play(cell) {
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
