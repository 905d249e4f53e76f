//! `kulami-server`: online Kulami. Accounts, invites, games refereed by `kulami-core` with the
//! server's clock, Glicko-2 ratings, on SQLite or PostgreSQL. The interface is `docs/ONLINE.md`'s.
//!
//! The binary is the usual way in; [`Server`] runs the same server inside another program.

mod api;
mod auth;
mod error;
pub mod fuzzing;
mod hub;
mod limits;
mod rating;
mod referee;
mod settings;
mod store;
mod views;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on; port 0 picks a free one.
    pub listen: SocketAddr,
    /// `sqlite:PATH` or `postgres://...`.
    pub database: String,
    /// How long the sender of a real-time invite may be away before it lapses.
    pub away_limit: std::time::Duration,
    /// Whether requests and streams are limited per address and account.
    pub rate_limit: bool,
    /// With house bots, how many of their searches may run at once; `None`: no house bots.
    pub bots: Option<usize>,
    /// A directory served at `/` (the browser edition); `None`: a short page on how to play.
    pub web: Option<PathBuf>,
}

/// The embedded database's default place: `kulami/server.sqlite` in the platform's data
/// directory.
#[must_use]
pub fn default_database() -> String {
    let directory = dirs::data_dir().unwrap_or_else(|| PathBuf::from(".")).join("kulami");
    format!("sqlite:{}", directory.join("server.sqlite").display())
}

/// A server bound to its address, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    hub: std::sync::Arc<hub::Hub>,
    store: store::Store,
    stop: watch::Sender<bool>,
    rate_limit: bool,
    web: Option<PathBuf>,
}

impl Server {
    /// Opens (creating and migrating) the database, takes up the games in play, enlists the
    /// house bots if asked, and binds the address.
    ///
    /// # Errors
    /// The database cannot be opened or migrated, or the address cannot be bound.
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        let store = store::Store::open(&config.database)
            .await
            .with_context(|| format!("cannot open the database {}", config.database))?;
        let (stop, stopped) = watch::channel(false);
        let hub = hub::Hub::new(store.clone(), config.away_limit, stopped);
        hub.start().await.context("cannot take up the games in play")?;
        if let Some(thinking) = config.bots {
            hub.enlist_bots(thinking).await.context("cannot enlist the house bots")?;
        }
        let listener =
            TcpListener::bind(config.listen).await.with_context(|| format!("cannot listen on {}", config.listen))?;
        if let Some(web) = config.web.as_ref().filter(|web| !web.is_dir()) {
            anyhow::bail!("--web {}: not a directory", web.display());
        }
        Ok(Server { listener, hub, store, stop, rate_limit: config.rate_limit, web: config.web })
    }

    /// The address it listens on.
    ///
    /// # Errors
    /// The socket has no address (never, once bound).
    pub fn address(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` resolves, then ends the streams and signs this server off.
    ///
    /// # Errors
    /// Serving or signing off failed.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let Server { listener, hub, store, stop, rate_limit, web } = self;
        let limits = rate_limit.then(limits::Limits::new);
        if let Some(limits) = limits.clone() {
            tokio::spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    limits.forget_quiet();
                }
            });
        }
        let app = api::router(api::AppState { hub: std::sync::Arc::clone(&hub), limits }, web.as_deref());
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move {
                shutdown.await;
                // Streams end, so that open connections close.
                let _ = stop.send(true);
            })
            .await
            .context("the server failed")?;
        hub.leave().await.context("cannot sign this server off")?;
        store.close().await;
        Ok(())
    }
}

/// Starts a server on a runtime of its own, in the background of another program (its tests,
/// say), and gives its address once it listens. It runs until the program ends.
///
/// # Errors
/// The server could not be bound (see [`Server::bind`]).
pub fn start_in_background(config: Config) -> anyhow::Result<SocketAddr> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
            Ok(runtime) => runtime,
            Err(error) => return drop(sender.send(Err(anyhow::Error::new(error)))),
        };
        runtime.block_on(async move {
            let server = match Server::bind(config).await {
                Ok(server) => server,
                Err(error) => return drop(sender.send(Err(error))),
            };
            let _ = sender.send(server.address().map_err(anyhow::Error::new));
            if let Err(error) = server.run(std::future::pending()).await {
                eprintln!("kulami-server: {error:#}");
            }
        });
    });
    receiver.recv().context("the server's thread ended before it listened")?
}
