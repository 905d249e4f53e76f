//! `kulami kalah`: Kalah(m, n) on the command line (`docs/FORMATS.md`, "Kalah on the command line").

use std::io::Write as _;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use kalah::endgame::EndgameTable;
use kalah::search::{SolveProgress, SolverMemory};
use kalah::{Capture, End, Move, Position, Rules, Side};
use serde_json::json;

use crate::output::outln;
use crate::terminal_game::{Player, ask_move, left_after, print_perft};

/// The commands of `kulami kalah`.
#[derive(Subcommand, Debug)]
pub enum KalahCommand {
    /// Count the sowing sequences of a given length (a game that ends sooner is not counted).
    Perft(PerftArgs),
    /// The exact value under perfect play: South's store minus North's at the end.
    Solve(SolveArgs),
    /// Play in the terminal: people type pit numbers, the engine plays at a level.
    Play(PlayArgs),
}

/// Arguments of `kulami kalah play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays South (moves first): `human` or a level 1-5.
    #[arg(long, default_value = "human", value_name = "human|1-5")]
    south: Player,
    /// Who plays North: `human` or a level 1-5.
    #[arg(long, default_value = "3", value_name = "human|1-5")]
    north: Player,
}

/// The board, the rules and the moves so far: the options of every `kulami kalah` command.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// Pits a side (1-6).
    #[arg(long, default_value_t = 6)]
    pits: u8,
    /// Seeds a pit at the start (1-6).
    #[arg(long, default_value_t = 4)]
    seeds: u8,
    /// What a last seed in an empty pit of one's own captures: `standard` (only with seeds
    /// opposite) or `empty` (the last seed alone, too).
    #[arg(long, default_value = "standard")]
    capture: Capture,
    /// When the game ends: `site` (the player to move has no seeds) or `irving` (a sowing
    /// leaves either side empty).
    #[arg(long, default_value = "site")]
    end: End,
    /// The pie rule: North may answer South's opening turn with `swap`.
    #[arg(long)]
    pie: bool,
    /// The moves so far: pit numbers (1 is the mover's pit farthest from its store), and `swap`.
    #[arg(long, default_value = "")]
    moves: String,
}

impl GameArgs {
    fn position(&self) -> anyhow::Result<Position> {
        let rules = Rules::new(self.pits, self.seeds)?.with_capture(self.capture).with_end(self.end).with_pie(self.pie);
        let moves = kalah::parse_moves(&self.moves).context("--moves")?;
        Position::start(rules).replay(&moves).context("--moves")
    }
}

/// Arguments of `kulami kalah perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Sowings (and swaps) to count.
    #[arg(long)]
    depth: u32,
}

/// Arguments of `kulami kalah solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Print one JSON object: `{"value", "best"}`.
    #[arg(long)]
    json: bool,
    /// The solver's table in MiB. Without it, what the board was solved fastest with: 256 MiB
    /// up to Kalah(6,4)'s 48 seeds, 1024 for Kalah(5,5), 4096 for larger boards.
    #[arg(long)]
    table_mb: Option<usize>,
    /// An endgame database of every position with up to this many seeds in the pits (one byte
    /// a position), filled as the search reaches its positions. Without it, 16 seeds up to
    /// Kalah(5,5), 26 for larger boards (2.5 GiB for six pits).
    #[arg(long, value_name = "SEEDS")]
    endgame_seeds: Option<u8>,
    /// Threads of the search.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// Runs a `kulami kalah` command.
pub fn run(command: &KalahCommand) -> anyhow::Result<()> {
    match command {
        KalahCommand::Perft(args) => {
            let position = args.game.position()?;
            print_perft(args.depth, |depth| position.perft(depth))?;
        }
        KalahCommand::Play(args) => play(args)?,
        KalahCommand::Solve(args) => {
            let position = args.game.position()?;
            let rules = position.rules();
            let memory = solver_memory(args, rules)?;
            if !args.json {
                outln!(
                    "solving with a {} MiB table and an endgame database of up to {} seeds in the pits ({} MiB)",
                    memory.table_megabytes,
                    memory.endgame_seeds,
                    EndgameTable::bytes(rules, memory.endgame_seeds).div_ceil(1 << 20)
                );
            }
            let start = Instant::now();
            let endgame = std::sync::Arc::new(EndgameTable::new(rules, memory.endgame_seeds));
            // Each null-window search narrows the value: a large board's solve takes minutes.
            let report = |progress: SolveProgress| {
                if !args.json && progress.lower < progress.upper {
                    // A closed pipe is left to the answer's lines below, which end quietly on it.
                    let _ = writeln!(
                        std::io::stdout(),
                        "South's store minus North's at the end: {} to {} ({:.2} s, {} positions)",
                        progress.lower,
                        progress.upper,
                        progress.time.as_secs_f64(),
                        progress.nodes
                    );
                }
            };
            let solution = kalah::search::solve_with(&position, memory.table_megabytes, args.threads, endgame, report);
            let end = position.replay(&solution.line).context("the solver's line")?;
            let value = end.margin();
            let best: Vec<serde_json::Value> = solution
                .best
                .iter()
                .map(|mv| match mv {
                    Move::Pit(pit) => json!(pit),
                    Move::Swap => json!("swap"),
                })
                .collect();
            if args.json {
                outln!("{}", json!({ "value": value, "best": best }));
            } else {
                let turn: Vec<String> = solution.best.iter().map(Move::to_string).collect();
                let line: Vec<String> = solution.line.iter().map(Move::to_string).collect();
                outln!(
                    "solved in {:.2} s ({} positions); South's store minus North's at the end: {value}",
                    start.elapsed().as_secs_f64(),
                    solution.nodes
                );
                outln!(
                    "best turn: {}",
                    if turn.is_empty() { "none (the game is over)".to_owned() } else { turn.join(" ") }
                );
                outln!("a perfect line: {}", line.join(" "));
            }
        }
    }
    Ok(())
}

/// The solver's memory: the flags, and for what they leave out what the board is solved fastest
/// with; refused if the machine has less free.
fn solver_memory(args: &SolveArgs, rules: Rules) -> anyhow::Result<SolverMemory> {
    let fastest = SolverMemory::for_rules(rules);
    let memory = SolverMemory {
        table_megabytes: args.table_mb.unwrap_or(fastest.table_megabytes),
        // More seeds than the game has would only cost memory.
        endgame_seeds: args.endgame_seeds.unwrap_or(fastest.endgame_seeds).min(2 * rules.pits() * rules.seeds()),
    };
    let flags = format!("--table-mb {} and --endgame-seeds {}", memory.table_megabytes, memory.endgame_seeds);
    crate::memory::ensure_free(memory.bytes(rules), &flags)?;
    Ok(memory)
}

/// The game in the terminal: the board before every move, a person's move read from stdin
/// (asked again after a bad one), the engine's announced.
fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let mut position = args.game.position()?;
    let mut input = std::io::stdin().lines();
    let mut played = 0;
    while let Some(side) = position.to_move() {
        // After the pie rule's swap the player who opened sits North.
        let player = if (side == Side::South) != position.swapped() { args.south } else { args.north };
        outln!("{position}");
        let mv = match player {
            Player::Engine(level) => {
                let mv = kalah::search::engine_move(&position, level).context("the engine found no move")?;
                outln!("{side} (level {level}) plays {mv}");
                mv
            }
            Player::Human => match ask_move(&mut input, &side.to_string(), &position.legal_moves())? {
                Some(mv) => mv,
                None => {
                    outln!("{}", left_after(played));
                    return Ok(());
                }
            },
        };
        position.play(mv)?;
        played += 1;
    }
    outln!("{position}");
    let (south, north) = (position.store(Side::South), position.store(Side::North));
    let result = match position.margin() {
        0 => "a draw".to_owned(),
        margin if margin > 0 => format!("South wins by {margin}"),
        margin => format!("North wins by {}", -margin),
    };
    outln!("Game over: South {south}, North {north}: {result}.");
    Ok(())
}
