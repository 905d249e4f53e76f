//! `kulami-server`: see `docs/ONLINE.md` and `docs/ONLINE.md`.

use std::net::SocketAddr;

use clap::Parser;

/// Online Kulami: accounts, invites, refereed games and ratings over HTTP.
#[derive(Debug, Parser)]
#[command(version)]
struct Arguments {
    /// Address to listen on (`127.0.0.1:0` picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// `sqlite:PATH` or `postgres://USER@HOST/DATABASE` (default: an SQLite file in the data
    /// directory).
    #[arg(long)]
    database: Option<String>,
    /// Seconds the sender of a real-time invite may be away (no event stream open) before the
    /// invite lapses.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    away_limit: u64,
    /// Turns off the rate limits and the cap on streams per address (for tests and benchmarks).
    #[arg(long)]
    no_rate_limit: bool,
    /// House bots: accounts bot-beginner, bot-casual, bot-club, bot-expert and bot-master
    /// accept every invite and play with the engine of that level.
    #[arg(long)]
    bots: bool,
    /// How many house-bot searches may run at once (default: one per core).
    #[arg(long, value_name = "N", requires = "bots")]
    bot_threads: Option<usize>,
    /// Serve the files of this directory at `/` (the browser edition's bundle).
    #[arg(long, value_name = "DIR")]
    web: Option<std::path::PathBuf>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let arguments = Arguments::parse();
    let config = kulami_server::Config {
        listen: arguments.listen,
        database: arguments.database.unwrap_or_else(kulami_server::default_database),
        away_limit: std::time::Duration::from_secs(arguments.away_limit),
        rate_limit: !arguments.no_rate_limit,
        web: arguments.web,
        bots: arguments.bots.then(|| {
            arguments.bot_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        }),
    };
    let server = kulami_server::Server::bind(config).await?;
    // The first line, which scripts and tests wait for: it accepts connections from now on.
    println!("listening on http://{}", server.address()?);
    server.run(shutdown_signal()).await
}

/// SIGINT or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("a SIGTERM handler");
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
