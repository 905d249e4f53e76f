//! `kulami`: play Kulami in the terminal and drive the rules from scripts.
//!
//! Machine-readable commands and their JSON follow `docs/FORMATS.md`.

mod ai_cmd;
mod board_args;
mod bot;
mod engine_cmd;
mod external;
mod gorami_cmd;
mod kalah_cmd;
mod layout_cmd;
mod match_cmd;
mod match_record;
mod memory;
mod online;
mod output;
mod play;
mod puzzle_cmd;
mod render;
mod rules_cmd;
mod terminal_game;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Kulami: place marbles, claim tiles, force your opponent's hand.
#[derive(Parser)]
#[command(name = "kulami", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal, two people taking turns at one keyboard.
    Play(play::PlayArgs),
    /// Draw a position: the board, whose turn it is, and the score.
    Show(rules_cmd::ShowArgs),
    /// List the legal holes of a position.
    Legal(rules_cmd::LegalArgs),
    /// Score a position (finished or not).
    Score(rules_cmd::ScoreArgs),
    /// Count legal move sequences to a depth (perft), for testing move generators.
    Perft(rules_cmd::PerftArgs),
    /// Speak the engine protocol on stdin and stdout, for GUIs and tournament managers.
    Engine(engine_cmd::EngineArgs),
    /// Suggest the strongest moves of a position.
    Hint(ai_cmd::HintArgs),
    /// Review a game move by move: the evaluation after each move and the costliest ones.
    Analyse(ai_cmd::AnalyseArgs),
    /// Solve a position: the exact final margin of every legal hole under perfect play.
    Solve(ai_cmd::SolveArgs),
    /// Play a match between two players (built-in levels or external engines).
    Match(match_cmd::MatchArgs),
    /// The daily puzzle: find the best move (`--answer` checks one).
    Puzzle(puzzle_cmd::PuzzleArgs),
    /// Boards: list, show, generate, validate and measure them.
    #[command(subcommand)]
    Layout(layout_cmd::LayoutCommand),
    /// Play on a kulami-server: an account, who is online, invites, and games in the terminal.
    Online(online::OnlineArgs),
    /// Connect an engine (a built-in level or a program) to a server account that accepts
    /// invites and plays them.
    Bot(bot::BotArgs),
    /// Kalah(m, n), the sowing game: count move sequences and solve positions.
    #[command(subcommand)]
    Kalah(kalah_cmd::KalahCommand),
    /// GORami, numbered discs on a board of triangles: count move sequences and play.
    #[command(subcommand)]
    Gorami(gorami_cmd::GoramiCommand),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // One line, not clap's page of usage: scripts read stderr too.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("kulami: {} (see kulami --help)", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Show(args) => rules_cmd::show(&args),
        Command::Legal(args) => rules_cmd::legal(&args),
        Command::Score(args) => rules_cmd::score(&args),
        Command::Perft(args) => rules_cmd::perft(&args),
        Command::Layout(command) => layout_cmd::run(&command),
        Command::Kalah(command) => kalah_cmd::run(&command),
        Command::Gorami(command) => gorami_cmd::run(&command),
        Command::Online(args) => online::run(&args),
        Command::Bot(args) => bot::run(&args),
        Command::Engine(args) => engine_cmd::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Hint(args) => ai_cmd::hint(&args),
        Command::Analyse(args) => ai_cmd::analyse_game(&args),
        Command::Solve(args) => ai_cmd::solve_position(&args),
        Command::Puzzle(args) => match puzzle_cmd::run(&args) {
            // A wrong answer is an answer, not an error: the verdict is on stdout.
            Ok(false) => return ExitCode::FAILURE,
            other => other.map(drop),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader stopped reading (`| head`): nothing is wrong, and nobody is left to tell.
        Err(error) if output::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kulami: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod command_line {
    use clap::CommandFactory as _;

    use super::Cli;

    #[test]
    fn the_definition_is_sound() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_and_argument_has_help() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>, seen: &mut usize) {
            let path = format!("{path} {}", command.get_name());
            *seen += 1;
            if command.get_about().is_none() {
                missing.push(format!("`{path}` has no description"));
            }
            for argument in command.get_arguments() {
                let builtin = matches!(argument.get_id().as_str(), "help" | "version");
                if !builtin && argument.get_help().is_none() {
                    missing.push(format!("`{path}` argument `{}` has no help", argument.get_id()));
                }
            }
            for sub in command.get_subcommands().filter(|sub| sub.get_name() != "help") {
                walk(sub, path.trim(), missing, seen);
            }
        }
        let (mut missing, mut seen) = (Vec::new(), 0);
        walk(&Cli::command(), "", &mut missing, &mut seen);
        assert!(missing.is_empty(), "{}", missing.join("\n"));
        assert!(seen >= 16, "the walk reached {seen} commands: the command tree was not walked");
    }
}
