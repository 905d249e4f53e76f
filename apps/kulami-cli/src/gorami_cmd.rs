//! `kulami gorami`: GORami on the command line (`docs/FORMATS.md`, "GORami on the command line").

use anyhow::Context as _;
use clap::{Args, Subcommand};
use gorami::board::Shape;
use gorami::{Player as Colour, Position};

use crate::output::outln;
use crate::terminal_game::{Player, ask_move, left_after, print_perft};

/// The commands of `kulami gorami`.
#[derive(Subcommand, Debug)]
pub enum GoramiCommand {
    /// Count the move sequences of a given length (a game that ends sooner is not counted).
    Perft(PerftArgs),
    /// Play in the terminal: people type moves (`2@7`: the disc 2 on field 7), the engine plays
    /// at a level.
    Play(PlayArgs),
}

/// The board and the moves so far: the options of every `kulami gorami` command.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// The board, by its fields: 16 (a triangle), 22 (a triangle without its corners) or 24
    /// (a hexagon).
    #[arg(long, default_value = "16")]
    board: Shape,
    /// The moves so far: `DISC@FIELD` (fields numbered from 1, row by row from the top) and
    /// `pass`.
    #[arg(long, default_value = "")]
    moves: String,
}

impl GameArgs {
    fn position(&self) -> anyhow::Result<Position> {
        let moves = gorami::parse_moves(&self.moves).context("--moves")?;
        Position::start(self.board).replay(&moves).context("--moves")
    }
}

/// Arguments of `kulami gorami perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to count.
    #[arg(long)]
    depth: u32,
}

/// Arguments of `kulami gorami play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays yellow (moves first): `human` or a level 1-5.
    #[arg(long, default_value = "human", value_name = "human|1-5")]
    yellow: Player,
    /// Who plays blue: `human` or a level 1-5.
    #[arg(long, default_value = "3", value_name = "human|1-5")]
    blue: Player,
}

/// Runs a `kulami gorami` command.
pub fn run(command: &GoramiCommand) -> anyhow::Result<()> {
    match command {
        GoramiCommand::Perft(args) => {
            let position = args.game.position()?;
            print_perft(args.depth, |depth| position.perft(depth))?;
        }
        GoramiCommand::Play(args) => play(args)?,
    }
    Ok(())
}

/// The game in the terminal: the board and both supplies before every move, a person's move
/// read from stdin (asked again after a bad one), the engine's announced with what it turned.
fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let mut position = args.game.position()?;
    let mut input = std::io::stdin().lines();
    let mut played = 0;
    while !position.is_over() {
        let colour = position.to_move();
        let player = if colour == Colour::Yellow { args.yellow } else { args.blue };
        outln!("{position}");
        outln!("{}", supplies(&position));
        let mv = match player {
            Player::Engine(level) => {
                let mv = gorami::search::engine_move(&position, level).context("the engine found no move")?;
                outln!("{colour} (level {level}) plays {mv}");
                mv
            }
            Player::Human => match ask_move(&mut input, &colour.to_string(), &position.legal_moves())? {
                Some(mv) => mv,
                None => {
                    outln!("{}", left_after(played));
                    return Ok(());
                }
            },
        };
        let turned = position.play(mv)?;
        if turned != 0 {
            let fields: Vec<String> = (0..32).filter(|i| turned & 1 << i != 0).map(|i| (i + 1).to_string()).collect();
            outln!(
                "{colour} turns the disc{} on field {}",
                if fields.len() == 1 { "" } else { "s" },
                fields.join(", ")
            );
        }
        played += 1;
    }
    outln!("{position}");
    let score = position.score();
    let result = match score.leader() {
        None => "a draw".to_owned(),
        Some(winner) if score.fish[0] == score.fish[1] => format!("{winner} wins on the middle fields"),
        Some(winner) => format!("{winner} wins"),
    };
    outln!(
        "Game over: stripes Yellow {}, Blue {}; middle fields Yellow {}, Blue {}: {result}.",
        score.fish[0],
        score.fish[1],
        score.middle[0],
        score.middle[1]
    );
    Ok(())
}

/// What each player has left to place.
fn supplies(position: &Position) -> String {
    let left = |colour: Colour| {
        gorami::DISCS.map(|disc| format!("{}x{disc}", position.supply(colour, disc))).collect::<Vec<_>>().join(" ")
    };
    format!("Discs left: Yellow {}; Blue {}", left(Colour::Yellow), left(Colour::Blue))
}
