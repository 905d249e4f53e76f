//! `kulami bot`: connects a built-in level, or any program speaking the engine protocol, to a
//! `kulami-server` account that then accepts every invite and plays its games (as lichess-bot
//! does for lichess).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use kulami_ai::tournament::Player;
use kulami_ai::{Clock, Engine, EngineOptions, Level};
use kulami_cli::lines::recv_thinking;
use kulami_core::Scoring;

use crate::external::ExternalPlayer;
use crate::online::{Connection, GameWatch, color_of, position_of, watch_game};

/// Arguments of `kulami bot`.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The server, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// The bot account's token.
    #[arg(long)]
    token: String,
    /// Play with this built-in level (1 to 5).
    #[arg(long, default_value = "3", conflicts_with = "engine")]
    level: Level,
    /// Play with this program instead, which speaks the engine protocol (e.g. "kulami engine").
    #[arg(long)]
    engine: Option<String>,
    /// Stop after this many games (default: play on).
    #[arg(long)]
    games: Option<usize>,
    /// Think on the opponent's time, a core per game (level 5 only; an `--engine` program is
    /// given its own option, e.g. "kulami engine --ponder").
    #[arg(long, conflicts_with = "engine")]
    ponder: bool,
}

/// Runs the bot until the server closes its event stream or it has played `--games`.
pub fn run(args: &BotArgs) -> anyhow::Result<()> {
    let connection = Connection::new(&args.server, Some(args.token.clone()));
    let me = connection.call("GET", "/api/account", None)?["username"].as_str().context("no username")?.to_owned();
    eprintln!("kulami bot: playing as {me} on {}", args.server);
    let events = connection.stream("/api/stream/event")?;
    let playing: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut games = Vec::new();
    for event in events {
        let event = event?;
        match event["type"].as_str() {
            Some("challenge") if event["challenge"]["to"] == me.as_str() => {
                let id = event["challenge"]["id"].as_str().unwrap_or_default();
                if let Err(error) = connection.call("POST", &format!("/api/challenge/{id}/accept"), None) {
                    eprintln!("kulami bot: invite {id}: {error:#}");
                }
            }
            Some("gameStart") => {
                let id = event["game"]["id"].as_str().unwrap_or_default().to_owned();
                let mut playing = playing.lock().unwrap_or_else(PoisonError::into_inner);
                if playing.contains(&id) {
                    continue;
                }
                playing.push(id.clone());
                let player = player(args)?;
                let (connection, me, ponder) = (connection.clone(), me.clone(), args.ponder);
                games.push(std::thread::spawn(move || {
                    if let Err(error) = play_game(&connection, &me, &id, player, ponder) {
                        eprintln!("kulami bot: game {id}: {error:#}");
                    }
                }));
            }
            Some("gameFinish") => {
                let finished = games.len();
                if args.games.is_some_and(|limit| finished >= limit) {
                    break;
                }
            }
            _ => {}
        }
    }
    for game in games {
        let _ = game.join();
    }
    Ok(())
}

fn player(args: &BotArgs) -> anyhow::Result<Box<dyn Player>> {
    Ok(match &args.engine {
        Some(command) => {
            Box::new(ExternalPlayer::start(command, Duration::from_secs(600), None).map_err(|e| anyhow::anyhow!(e.0))?)
        }
        None => Box::new(Engine::new(args.level, EngineOptions::default().with_threads(1))),
    })
}

/// Plays one game: whenever the bot is to move, asks its player with the clock's time left;
/// with `ponder`, while the opponent is to move the player thinks until their move arrives.
fn play_game(
    connection: &Connection,
    me: &str,
    game: &str,
    mut player: Box<dyn Player>,
    ponder: bool,
) -> anyhow::Result<()> {
    let GameWatch { full, first, second, states: stream } = watch_game(connection, game)?;
    let scoring: Scoring = full["scoring"].as_str().context("no scoring")?.parse()?;
    player
        .new_game(&position_of(&full, &serde_json::json!({"moves": ""}))?, scoring)
        .map_err(|e| anyhow::anyhow!(e.0))?;
    let increment = Duration::from_secs(full["clock"]["increment"].as_u64().unwrap_or(0));
    let mut state = full["state"].clone();
    loop {
        if state["status"] != "started" {
            return Ok(());
        }
        let position = position_of(&full, &state)?;
        let side = position.side_to_move();
        let next = if color_of(me, &first, &second, &position) == Some(side) {
            let left = if side == kulami_core::Color::Red { &state["rtime"] } else { &state["btime"] };
            let clock = left.as_u64().map(|ms| Clock { remaining: Duration::from_millis(ms), increment });
            let chosen = player.choose(&position, scoring, clock).map_err(|e| anyhow::anyhow!(e.0))?;
            if let Err(error) = connection.call("POST", &format!("/api/board/game/{game}/move/{chosen}"), None) {
                eprintln!("kulami bot: game {game}: {chosen}: {error:#}");
            }
            stream.recv().ok()
        } else {
            recv_thinking(&stream, |cancel| {
                if ponder {
                    player.ponder(&position, scoring, cancel);
                }
            })
        };
        match next {
            Some(next) => state = next?,
            None => return Ok(()),
        }
    }
}
