//! The server's load benchmark: starts the real `kulami-server` on a fresh SQLite database,
//! plays many concurrent games of seeded random legal moves over loopback, then holds many idle
//! streams. Prints committed moves per second, the latency from a move's POST to the line on
//! the opponent's stream, and the server's memory.
//!
//! ```sh
//! cargo build --release -p kulami-server --example bench
//! target/release/examples/bench --games 1000 --idle 10000
//! ```

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Parser;
use futures_util::StreamExt as _;
use kulami_core::{Layout, Move, Position};
use rand::{RngExt as _, SeedableRng as _};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, BufReader};

/// Load benchmark of kulami-server.
#[derive(Debug, Parser)]
struct Arguments {
    /// Games played at once.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Accounts sharing those games (each plays several at once).
    #[arg(long, default_value_t = 100)]
    players: usize,
    /// Moves a second over all games, each game pausing between moves to keep to it (0: every
    /// game moves as soon as its last move is seen, which measures the most the server takes).
    #[arg(long, default_value_t = 2000.0)]
    rate: f64,
    /// Idle event streams held open after the games.
    #[arg(long, default_value_t = 10_000)]
    idle: usize,
    /// Seed of the moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The database (default: a fresh SQLite file); a PostgreSQL URL must name a new database.
    #[arg(long)]
    database: Option<String>,
    /// The server binary (default: `kulami-server` beside this example's directory).
    #[arg(long)]
    server: Option<std::path::PathBuf>,
}

struct Player {
    name: String,
    token: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let arguments = Arguments::parse();
    let binary = match &arguments.server {
        Some(path) => path.clone(),
        None => std::env::current_exe()?
            .parent()
            .and_then(|examples| examples.parent())
            .context("target directory")?
            .join("kulami-server"),
    };
    if !binary.is_file() {
        bail!("no server binary at {}: build it with `cargo build --release -p kulami-server`", binary.display());
    }
    let directory = tempfile::tempdir()?;
    let database = arguments
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite:{}", directory.path().join("bench.sqlite").display()));
    let mut server = tokio::process::Command::new(&binary)
        .args(["--listen", "127.0.0.1:0", "--database", &database, "--no-rate-limit"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .context("starting the server")?;
    let pid = server.id().context("server pid")?;
    let mut lines = BufReader::new(server.stdout.take().context("stdout")?).lines();
    let first = lines.next_line().await?.context("the server's first line")?;
    let base = first.strip_prefix("listening on ").context("a `listening on` line")?.to_owned();
    println!(
        "kulami-server bench: {} concurrent games ({} game streams) among {} players, {}, rate limits off, {}",
        arguments.games,
        2 * arguments.games,
        arguments.players,
        if database.starts_with("sqlite:") { "SQLite" } else { "PostgreSQL" },
        if arguments.rate > 0.0 {
            format!("offered {} moves/s", arguments.rate)
        } else {
            "as fast as it goes".to_owned()
        }
    );

    let http = reqwest::Client::builder().pool_max_idle_per_host(4096).build()?;
    let mut players = Vec::new();
    for index in 0..arguments.players {
        let name = format!("bench{index}");
        let answer: Value = http
            .post(format!("{base}/api/account/register"))
            .json(&json!({"username": name, "password": "bench-password"}))
            .send()
            .await?
            .json()
            .await?;
        let token = answer["token"].as_str().with_context(|| format!("registering {name}: {answer}"))?.to_owned();
        players.push(Arc::new(Player { name, token }));
    }

    // Every game: red invites black, black accepts; both watch the game's stream.
    let mut games = Vec::new();
    for index in 0..arguments.games {
        let red = Arc::clone(&players[index % players.len()]);
        let black = Arc::clone(&players[(index + 1 + index / players.len()) % players.len()]);
        let black = if black.name == red.name { Arc::clone(&players[(index + 1) % players.len()]) } else { black };
        let invite: Value = http
            .post(format!("{base}/api/challenge/{}", black.name))
            .bearer_auth(&red.token)
            .json(&json!({"color": "red", "clock": null}))
            .send()
            .await?
            .json()
            .await?;
        let id = invite["id"].as_str().with_context(|| format!("invite: {invite}"))?;
        let accepted: Value = http
            .post(format!("{base}/api/challenge/{id}/accept"))
            .bearer_auth(&black.token)
            .send()
            .await?
            .json()
            .await?;
        let game = accepted["game"].as_str().with_context(|| format!("accept: {accepted}"))?.to_owned();
        games.push((game, red, black));
    }

    // Each game moves every `pause`, from a seeded offset, so that together they offer `rate`.
    let pause = (arguments.rate > 0.0).then(|| Duration::from_secs_f64(arguments.games as f64 / arguments.rate));
    let start = Arc::new(tokio::sync::Barrier::new(games.len() + 1));
    let mut tasks = Vec::new();
    for (index, (game, red, black)) in games.into_iter().enumerate() {
        let (http, base, start) = (http.clone(), base.clone(), Arc::clone(&start));
        let seed = arguments.seed.wrapping_add(index as u64);
        tasks.push(tokio::spawn(async move { play(&http, &base, &game, [red, black], seed, pause, &start).await }));
    }
    start.wait().await;
    let began = Instant::now();
    let mut moves = Vec::new();
    let mut first_end = None::<Instant>;
    for task in tasks {
        let game = task.await??;
        let end = game.last().map(|(done, _)| *done).context("a game without moves")?;
        first_end = Some(first_end.map_or(end, |first: Instant| first.min(end)));
        moves.extend(game);
    }
    let elapsed = began.elapsed();
    // While every game was still being played: the rate the server kept up with under full load.
    let full_load = first_end.context("no games")?.duration_since(began);
    let during_full_load = moves.iter().filter(|(done, _)| done.duration_since(began) <= full_load).count();
    let mut latencies: Vec<Duration> = moves.iter().map(|(_, latency)| *latency).collect();
    latencies.sort_unstable();
    let percentile = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1000.0;
    println!(
        "played {} games, {} moves in {:.1} s; while all {} games were in play ({:.1} s): {:.0} committed moves/s",
        arguments.games,
        latencies.len(),
        elapsed.as_secs_f64(),
        arguments.games,
        full_load.as_secs_f64(),
        during_full_load as f64 / full_load.as_secs_f64()
    );
    println!(
        "move POST -> opponent's stream line: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(0.5),
        percentile(0.99),
        percentile(1.0)
    );
    println!("server memory after the games: {}", memory(pid));

    if arguments.idle > 0 {
        let mut streams = Vec::new();
        for index in 0..arguments.idle {
            let player = &players[index % players.len()];
            let response = http.get(format!("{base}/api/stream/event")).bearer_auth(&player.token).send().await?;
            if !response.status().is_success() {
                bail!("idle stream {index}: {}", response.status());
            }
            streams.push(response.bytes_stream());
        }
        // Every stream must still be served: each sends its keep-alive line within 10 s.
        let kept = futures_util::future::join_all(streams.iter_mut().map(|stream| async move {
            matches!(tokio::time::timeout(Duration::from_secs(15), stream.next()).await, Ok(Some(Ok(_))))
        }))
        .await;
        let alive = kept.iter().filter(|alive| **alive).count();
        println!(
            "idle event streams: {} opened, {alive} sent their keep-alive; server memory: {}",
            arguments.idle,
            memory(pid)
        );
        if alive != arguments.idle {
            bail!("{} idle streams went quiet", arguments.idle - alive);
        }
    }
    server.kill().await?;
    Ok(())
}

/// Plays one game to its end; when each move was seen by the opponent, and its latency.
async fn play(
    http: &reqwest::Client,
    base: &str,
    game: &str,
    players: [Arc<Player>; 2],
    seed: u64,
    pause: Option<Duration>,
    start: &tokio::sync::Barrier,
) -> anyhow::Result<Vec<(Instant, Duration)>> {
    let mut streams = Vec::new();
    for player in &players {
        let response =
            http.get(format!("{base}/api/board/game/stream/{game}")).bearer_auth(&player.token).send().await?;
        streams.push(Lines { body: Box::pin(response.bytes_stream()), buffer: Vec::new() });
    }
    let full = streams[0].next().await?;
    streams[1].next().await?;
    let layout = Layout::parse(full["layout"].as_str().context("layout")?)?;
    let mut position = Position::new(Arc::new(layout));
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut latencies = Vec::new();
    start.wait().await;
    let mut next =
        tokio::time::Instant::now() + pause.map_or(Duration::ZERO, |pause| pause.mul_f64(rng.random::<f64>()));
    while !position.is_game_over() {
        if let Some(pause) = pause {
            tokio::time::sleep_until(next).await;
            next += pause;
        }
        let moves: Vec<_> = position.legal_moves().iter().collect();
        let cell = moves[rng.random_range(0..moves.len())];
        let mover = position.move_count() % 2;
        let sent = Instant::now();
        let answer = http
            .post(format!("{base}/api/board/game/{game}/move/{cell}"))
            .bearer_auth(&players[mover].token)
            .send()
            .await?;
        if !answer.status().is_success() {
            bail!("game {game}: move {cell}: {}", answer.text().await?);
        }
        streams[1 - mover].next().await?;
        latencies.push((Instant::now(), sent.elapsed()));
        streams[mover].next().await?;
        position.play_move(Move::Place(cell))?;
    }
    Ok(latencies)
}

type Body = std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>;

struct Lines {
    body: Body,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next non-empty JSON line.
    async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Ok(serde_json::from_slice(&line)?);
            }
            let chunk = self.body.next().await.context("the stream ended")??;
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

/// The server's resident memory now and at its peak, from /proc.
fn memory(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status.lines().find_map(|line| line.strip_prefix(name)).map_or("?".to_owned(), |value| {
            let kib: u64 = value.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
            format!("{} MiB", kib / 1024)
        })
    };
    format!("{} resident (peak {})", field("VmRSS:"), field("VmHWM:"))
}
