//! `kulami match`: a tournament between two players, in the spirit of cutechess and fastchess.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context as _, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kulami_ai::stats::{MatchTally, SprtVerdict, colour_split};
use kulami_ai::tournament::{GameClock, GameOutcome, MatchPlan, Player, PlayerError, run_match};
use kulami_ai::{Engine, EngineOptions, Level, TimeControl};
use kulami_core::{Color, Layout, Scoring};
use kulami_layouts::{Board, Shape};
use serde::Serialize;

use crate::external::ExternalPlayer;
use crate::match_record::{GameRecord, GamesFile, MatchSettings};
use crate::output::outln;

/// Arguments of `kulami match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first player (A): a level 1-5, `baseline`, `mcts` or `cmd:<engine command line>`.
    player_a: PlayerSpec,
    /// The second player (B), likewise.
    player_b: PlayerSpec,
    /// Boards: presets, files or one-line layouts, comma-separated. Without it, random boards.
    #[arg(long, value_delimiter = ',')]
    boards: Vec<String>,
    /// Number of random boards (each played twice, colours swapped).
    #[arg(long, default_value_t = 50)]
    random: u64,
    /// Shape of the random boards.
    #[arg(long, default_value = "square")]
    shape: Shape,
    /// First seed of the random boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Scoring of every game.
    #[arg(long, default_value = "standard")]
    scoring: Scoring,
    /// Play every game with the swap (pie) rule.
    #[arg(long)]
    swap: bool,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Time per move of levels 4 and 5 and external engines, in milliseconds.
    #[arg(long, default_value = "1000", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// Player B's time per move, where it differs from A's (`--movetime`): to measure what
    /// time is worth, a level against itself given more time.
    #[arg(long, value_name = "MOVETIME", value_parser = kulami_cli::protocol::parse_move_time, conflicts_with = "tc")]
    movetime_b: Option<Duration>,
    /// A game clock instead of a time per move: LIMIT seconds for each player plus INC seconds
    /// after each move, e.g. `300+3` or `60` (every player keeps to it; running out loses).
    #[arg(long, value_name = "LIMIT+INC", value_parser = parse_time_control, conflicts_with = "movetime")]
    tc: Option<GameClock>,
    /// Search threads of each level-5 engine.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Stop early by a sequential probability ratio test of "A is ELO0 stronger" against
    /// "A is ELO1 stronger", e.g. `--sprt 0,20`.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// Error rates of the test (false positive, false negative).
    #[arg(long, default_value_t = 0.05)]
    sprt_error: f64,
    /// Print one JSON object with the summary and every game, instead of text.
    #[arg(long)]
    json: bool,
    /// Write every game to FILE as it ends (JSON Lines: the match's settings, then a game a
    /// line). Given a FILE that holds games of the same match, play only the games not in it.
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,
}

/// Who plays.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// A built-in level.
    Builtin(Level),
    /// Another program speaking the engine protocol.
    External(String),
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        match text.strip_prefix("cmd:") {
            Some(command) if !command.trim().is_empty() => Ok(PlayerSpec::External(command.trim().to_owned())),
            Some(_) => Err("`cmd:` needs an engine command line after it".to_owned()),
            None => {
                text.parse().map(PlayerSpec::Builtin).map_err(|error: kulami_ai::ParseLevelError| error.to_string())
            }
        }
    }
}

impl PlayerSpec {
    /// The player for `args`' match, thinking `movetime` a move unless the match has a clock.
    fn build(&self, movetime: Duration, args: &MatchArgs, timeout: Duration) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Builtin(level) => {
                let options = EngineOptions::default().with_time(TimeControl::PerMove(movetime));
                Box::new(Engine::new(*level, options.with_threads(args.threads)))
            }
            PlayerSpec::External(command) => {
                Box::new(ExternalPlayer::start(command, timeout, args.tc.is_none().then_some(movetime))?)
            }
        })
    }

    fn name(&self) -> String {
        match self {
            PlayerSpec::Builtin(level) => level.to_string(),
            PlayerSpec::External(command) => command.clone(),
        }
    }
}

/// `ELO0,ELO1`, the two hypotheses of the test, ELO0 below ELO1: `0,20`.
fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bounds =
        text.split_once(',').and_then(|(elo0, elo1)| Some((elo0.trim().parse().ok()?, elo1.trim().parse().ok()?)));
    match bounds {
        Some((elo0, elo1)) if f64::is_finite(elo0) && f64::is_finite(elo1) && elo0 < elo1 => Ok((elo0, elo1)),
        Some(_) => Err(format!("`{text}`: ELO0 must be below ELO1")),
        None => Err(format!("`{text}` is not ELO0,ELO1 (two numbers, like 0,20)")),
    }
}

/// The longest clock accepted: a day.
const MAX_CLOCK_SECONDS: f64 = 86_400.0;

/// `LIMIT+INC` or `LIMIT`, in seconds (decimals allowed): `300+3`, `0.5+0.05`.
pub(crate) fn parse_time_control(text: &str) -> Result<GameClock, String> {
    let (limit, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| match part.trim().parse::<f64>() {
        Ok(value) if (0.0..=MAX_CLOCK_SECONDS).contains(&value) => Ok(Duration::from_secs_f64(value)),
        _ => Err(format!("`{text}` is not a time control: expected LIMIT+INC in seconds, like 300+3")),
    };
    let clock = GameClock { limit: seconds(limit)?, increment: seconds(increment)? };
    if clock.limit.is_zero() {
        return Err(format!("`{text}`: the clock's limit must be more than 0 s"));
    }
    Ok(clock)
}

#[derive(Serialize)]
struct SummaryJson {
    player_a: String,
    player_b: String,
    games: u32,
    /// The boards both of whose games were played: the Elo interval and the SPRT count them.
    pairs: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: f64,
    /// The estimate and its 95% interval; JSON has no infinity, so an unbounded one is null.
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    sprt: Option<String>,
    /// The clock, as given to `--tc`; null for a time per move.
    tc: Option<String>,
    /// Each player's time per move in milliseconds; null under a clock.
    movetime_a_ms: Option<u128>,
    movetime_b_ms: Option<u128>,
    /// Games each player lost on time.
    time_losses_a: usize,
    time_losses_b: usize,
    /// What each player had left on its clock at the end of a game, in milliseconds, on
    /// average over the games that kept it; null without a clock.
    mean_clock_left_a_ms: Option<f64>,
    mean_clock_left_b_ms: Option<f64>,
    /// Player A's games and points with each colour.
    a_red_games: usize,
    a_red_points: f64,
    a_black_games: usize,
    a_black_points: f64,
    /// A's Elo apart from who moves first, and what moving first is worth (see
    /// [`colour_split`]); null if A won or lost every game of a colour.
    elo_colour_neutral: Option<f64>,
    elo_first_move: Option<f64>,
    results: Vec<GameRecord>,
}

/// Player A's games and points with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ColourScore {
    games: usize,
    points: f64,
}

impl ColourScore {
    fn of(games: &[GameRecord], colour: Color) -> ColourScore {
        let games: Vec<f64> = games.iter().filter(|game| game.a_color == colour).map(|game| game.a_points).collect();
        ColourScore { games: games.len(), points: games.iter().sum() }
    }

    fn share(self) -> f64 {
        self.points / self.games.max(1) as f64
    }
}

/// A game clock as `--tc` takes it: `300+3`.
fn format_clock(clock: GameClock) -> String {
    format!("{}+{}", clock.limit.as_secs_f64(), clock.increment.as_secs_f64())
}

/// What player A (`player_a`) or B had left on its clock at the end of a game, in
/// milliseconds, on average over the games that kept it; `None` if none did.
fn mean_clock_left(games: &[GameRecord], player_a: bool) -> Option<f64> {
    let left: Vec<u64> =
        games.iter().filter_map(|game| game.clock_left_ms).map(|[a, b]| if player_a { a } else { b }).collect();
    (!left.is_empty()).then(|| left.iter().sum::<u64>() as f64 / left.len() as f64)
}

/// Games that player A (`player_a`) or B lost on time.
fn time_losses(games: &[GameRecord], player_a: bool) -> usize {
    games.iter().filter(|game| game.time_loss && (game.a_points == 0.0) == player_a).count()
}

fn boards(args: &MatchArgs) -> anyhow::Result<Vec<Arc<Layout>>> {
    if args.boards.is_empty() {
        if args.random == 0 {
            bail!("--random must be at least 1");
        }
        return Ok((args.seed..args.seed.saturating_add(args.random))
            .map(|seed| Arc::new(kulami_layouts::generate(seed, args.shape)))
            .collect());
    }
    args.boards
        .iter()
        .map(|board| Board::resolve(board).map(|b| Arc::new(b.into_layout())).with_context(|| "--boards"))
        .collect()
}

pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    if args.concurrency == 0 || args.threads == 0 {
        bail!("--concurrency and --threads must be at least 1");
    }
    let movetimes = [args.movetime, args.movetime_b.unwrap_or(args.movetime)];
    let (name_a, name_b) = (args.player_a.name(), args.player_b.name());
    let boards = boards(args)?;
    let settings = MatchSettings {
        player_a: name_a.clone(),
        player_b: name_b.clone(),
        boards: boards.iter().map(|board| board.to_one_line()).collect(),
        scoring: args.scoring.to_string(),
        swap: args.swap,
        tc: args.tc.map(format_clock),
        movetime_a_ms: args.tc.is_none().then(|| movetimes[0].as_millis()),
        movetime_b_ms: args.tc.is_none().then(|| movetimes[1].as_millis()),
        threads: args.threads,
    };
    let (games_file, mut games) = match &args.games {
        Some(path) => {
            let (file, recorded) = GamesFile::open(path, &settings)?;
            let planned = boards.len() * 2;
            if recorded.len() >= planned {
                eprintln!("{}: all {planned} games played before", path.display());
            } else if !recorded.is_empty() {
                eprintln!(
                    "{}: {} of the {planned} games played before; playing the rest",
                    path.display(),
                    recorded.len()
                );
            }
            (Some(file), recorded)
        }
        None => (None, Vec::new()),
    };
    let plan = MatchPlan {
        boards,
        scoring: args.scoring,
        concurrency: args.concurrency,
        clock: args.tc,
        swap_rule: args.swap,
        played: games.iter().map(GameRecord::pairing).collect(),
    };
    // An external engine that stays silent much longer than it may think has failed.
    let timeout = args.tc.map_or(movetimes[0].max(movetimes[1]) * 10, |clock| clock.limit + clock.increment)
        + Duration::from_secs(10);
    let progress = if args.json { ProgressBar::hidden() } else { ProgressBar::new(plan.boards.len() as u64 * 2) };
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, eta {eta}]")
            .expect("a valid template"),
    );
    progress.set_position(games.len() as u64);
    let mut recorded = MatchTally::default();
    for game in &games {
        recorded.add(game.pairing().0, game.a_points);
    }
    let tally = Mutex::new(recorded);
    let sprt = |tally: &MatchTally| {
        args.sprt.and_then(|(elo0, elo1)| tally.sprt(elo0, elo1, args.sprt_error, args.sprt_error))
    };
    let verdict = Mutex::new(sprt(&tally.lock().expect("not poisoned")));
    let write_error = Mutex::new(None);
    if verdict.lock().expect("not poisoned").is_none() {
        let outcomes = run_match(
            &plan,
            |side| [&args.player_a, &args.player_b][side].build(movetimes[side], args, timeout),
            |outcome: &GameOutcome| {
                if let Some(file) = &games_file
                    && let Err(error) = file.append(&GameRecord::of(outcome))
                {
                    *write_error.lock().expect("not poisoned") = Some(error);
                    return ControlFlow::Break(());
                }
                let mut tally = tally.lock().expect("not poisoned");
                tally.add(outcome.board, outcome.a_points);
                let (low, elo, high) = tally.elo();
                progress.set_message(format!(
                    "{name_a} +{} ={} -{} against {name_b}, Elo {elo:+.0} [{low:+.0}, {high:+.0}]",
                    tally.games.wins, tally.games.draws, tally.games.losses
                ));
                progress.inc(1);
                if let Some(forfeit) = &outcome.forfeit {
                    progress.println(format!("game on board {}: {forfeit}", outcome.board + 1));
                }
                if let Some(found) = sprt(&tally) {
                    *verdict.lock().expect("not poisoned") = Some(found);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            },
        );
        games.extend(outcomes.iter().map(GameRecord::of));
    }
    progress.finish_and_clear();
    if let Some(error) = write_error.into_inner().expect("not poisoned") {
        return Err(error);
    }
    games.sort_by_key(GameRecord::pairing);
    let tally = tally.into_inner().expect("not poisoned");
    let (low, elo, high) = tally.elo();
    let verdict = verdict.into_inner().expect("not poisoned");
    let (as_red, as_black) = (ColourScore::of(&games, Color::Red), ColourScore::of(&games, Color::Black));
    let split = colour_split(as_red.share(), as_black.share());
    let sprt_text = args.sprt.map(|(elo0, elo1)| {
        let result = match verdict {
            Some(SprtVerdict::Stronger) => "H1 accepted: A is stronger",
            Some(SprtVerdict::NotStronger) => "H0 accepted: A is not stronger",
            None => "no decision yet",
        };
        format!("SPRT elo0 {elo0} elo1 {elo1}: LLR {:.2}, {result}", tally.llr(elo0, elo1))
    });
    if args.json {
        let summary = SummaryJson {
            player_a: settings.player_a,
            player_b: settings.player_b,
            games: tally.games.games(),
            pairs: tally.pairs.pairs(),
            wins: tally.games.wins,
            draws: tally.games.draws,
            losses: tally.games.losses,
            score: tally.games.score(),
            elo,
            elo_low: low,
            elo_high: high,
            sprt: sprt_text,
            tc: settings.tc,
            movetime_a_ms: settings.movetime_a_ms,
            movetime_b_ms: settings.movetime_b_ms,
            time_losses_a: time_losses(&games, true),
            time_losses_b: time_losses(&games, false),
            mean_clock_left_a_ms: mean_clock_left(&games, true),
            mean_clock_left_b_ms: mean_clock_left(&games, false),
            a_red_games: as_red.games,
            a_red_points: as_red.points,
            a_black_games: as_black.games,
            a_black_points: as_black.points,
            elo_colour_neutral: split.map(|(strength, _)| strength),
            elo_first_move: split.map(|(_, edge)| edge),
            results: games,
        };
        outln!("{}", serde_json::to_string(&summary)?);
    } else {
        outln!(
            "{name_a} vs {name_b}: {} games, +{} ={} -{}, score {:.1}%",
            tally.games.games(),
            tally.games.wins,
            tally.games.draws,
            tally.games.losses,
            100.0 * tally.games.score()
        );
        let pairs = tally.pairs.pairs();
        let counted = if pairs == 0 { String::new() } else { format!("; boards played both ways: {pairs}") };
        outln!("Elo difference: {elo:+.0} (95% interval {low:+.0} to {high:+.0}{counted})");
        outln!(
            "by colour: {name_a} as red (first) {}/{}, as black {}/{}",
            as_red.points,
            as_red.games,
            as_black.points,
            as_black.games
        );
        if let Some((strength, edge)) = split {
            outln!("Elo apart from the first move: {strength:+.0} (moving first is worth {edge:+.0})");
        }
        if args.tc.is_none() && movetimes[0] != movetimes[1] {
            let [a, b] = movetimes.map(|movetime| movetime.as_millis());
            outln!("time per move: {name_a} {a} ms, {name_b} {b} ms");
        }
        if args.tc.is_some() {
            outln!("time losses: {name_a} {}, {name_b} {}", time_losses(&games, true), time_losses(&games, false));
            if let (Some(a), Some(b)) = (mean_clock_left(&games, true), mean_clock_left(&games, false)) {
                outln!("clock left at the end, on average: {name_a} {:.1} s, {name_b} {:.1} s", a / 1000.0, b / 1000.0);
            }
        }
        if let Some(text) = sprt_text {
            outln!("{text}");
        }
    }
    Ok(())
}
