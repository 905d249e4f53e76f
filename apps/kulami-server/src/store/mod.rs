//! The one query layer: every SQL statement the server runs, the same text for SQLite and
//! PostgreSQL through sqlx's `Any` driver (`$1` parameters, `INSERT ... ON CONFLICT`, `RETURNING`),
//! with a schema migration for each.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use kulami_core::{Layout, Scoring};
use skillratings::glicko2::Glicko2Rating;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{MigrateDatabase as _, Migrator};
use sqlx::{AnyPool, Executor as _, Row as _};

use crate::referee::{ClockSettings, GameSettings, Millis, Progress, Seat};
use crate::settings::ColorChoice;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Which database the server runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, one server.
    Sqlite,
    /// Shared by several servers.
    Postgres,
}

/// Why the database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed or refused.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A URL that names neither database.
    #[error("`{0}` is not a database URL: expected sqlite:PATH or postgres://...")]
    Url(String),
    /// A stored row that does not make sense.
    #[error("corrupt row in {table} {id}: {problem}")]
    Corrupt {
        /// The table.
        table: &'static str,
        /// The row's key.
        id: String,
        /// What is wrong.
        problem: String,
    },
}

/// A player as other tables refer to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The row id.
    pub id: i64,
    /// The name as registered.
    pub username: String,
    /// Whether the account is a house bot.
    pub bot: bool,
}

/// A player's Glicko-2 rating and results in one scoring variant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// The rating.
    pub rating: Glicko2Rating,
    /// Rated games played.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// An invite as stored.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The sender.
    pub from: User,
    /// The invitee.
    pub to: User,
    /// What the board was asked as.
    pub board: String,
    /// The game to start.
    pub game: GameSettings,
    /// The sender's colour.
    pub color: ColorChoice,
    /// `created`, `accepted`, `declined`, `canceled` or `expired`.
    pub status: String,
    /// Why it was declined.
    pub reason: Option<String>,
    /// The game it started.
    pub game_id: Option<String>,
    /// When it was sent.
    pub created_at: Millis,
}

/// A game's fixed facts beside its table: who plays and how they were rated at the start.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// The game's id.
    pub id: String,
    /// The players by seat.
    pub players: [User; 2],
    /// Their ratings in the game's scoring when it started.
    pub ratings: [f64; 2],
    /// What the board was asked as.
    pub board: String,
}

impl GameInfo {
    /// The seat `user` plays, if they play.
    #[must_use]
    pub fn seat_of_user(&self, user: i64) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|seat| self.players[seat.index()].id == user)
    }
}

/// A game as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Who plays, and the game's id.
    pub info: GameInfo,
    /// Board, scoring, swap rule, clock.
    pub settings: GameSettings,
    /// Moves, clocks, result.
    pub progress: Progress,
    /// Bumped by every stored change.
    pub version: i64,
    /// When it started.
    pub created_at: Millis,
}

/// A finished game's rating changes, stored with its result.
#[derive(Clone, Copy, Debug)]
pub struct RatedResult {
    /// The scoring variant rated.
    pub scoring: Scoring,
    /// The players, by seat.
    pub players: [i64; 2],
    /// The first seat's score: 1 win, 0.5 draw, 0 loss.
    pub first_score: f64,
}

/// The database, with the pools the server reads and writes through.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    /// SQLite takes one writer at a time: one connection writes, so that writers queue in the
    /// pool rather than spin on SQLite's lock. PostgreSQL: the same pool as `reader`.
    writer: AnyPool,
    reader: AnyPool,
    /// Where the database is, for the PostgreSQL listener.
    url: String,
}

/// The channel the servers sharing a PostgreSQL database signal each other on.
const SIGNAL_CHANNEL: &str = "kulami";

/// Receives the other servers' signals (PostgreSQL's LISTEN).
#[derive(Debug)]
pub struct Listener(sqlx::postgres::PgListener);

impl Listener {
    /// The next signal's payload; after a lost connection it reconnects (signals sent
    /// meanwhile are lost, which a reconnecting client makes good by reading the full state).
    ///
    /// # Errors
    /// The connection failed and could not be made again.
    pub async fn recv(&mut self) -> Result<String, StoreError> {
        Ok(self.0.recv().await?.payload().to_owned())
    }
}

// Macros rather than constants so that `concat!` builds each statement as a `&'static str`:
// sqlx takes only static SQL without an explicit audit.
macro_rules! user_columns {
    () => {
        "id, username, bot"
    };
}
macro_rules! challenge_select {
    () => {
        "SELECT c.id, c.board, c.layout, c.marbles, c.scoring, c.color, c.swap, \
    c.clock_limit_ms, c.clock_increment_ms, c.status, c.reason, c.game_id, c.created_at, \
    f.id AS from_id, f.username AS from_name, f.bot AS from_bot, t.id AS to_id, t.username AS to_name, t.bot AS to_bot \
    FROM challenges c JOIN users f ON f.id = c.from_id JOIN users t ON t.id = c.to_id"
    };
}
macro_rules! game_select {
    () => {
        "SELECT g.id, g.first_rating, g.second_rating, g.board, g.layout, g.marbles, g.scoring, \
    g.swap, g.clock_limit_ms, g.clock_increment_ms, g.moves, g.first_ms, g.second_ms, g.turn_started_at, g.status, \
    g.winner, g.version, g.created_at, \
    f.id AS first_id, f.username AS first_name, f.bot AS first_bot, s.id AS second_id, s.username AS second_name, \
    s.bot AS second_bot FROM games g JOIN users f ON f.id = g.first_id JOIN users s ON s.id = g.second_id"
    };
}
macro_rules! rating_select {
    () => {
        "SELECT scoring, rating, deviation, volatility, games, wins, draws, losses FROM ratings WHERE user_id = $1"
    };
}

// After the macros, which the statements in these modules use.
mod accounts;
mod games;
mod invites;
mod servers;

impl Store {
    /// Opens (creating a SQLite file if need be) and migrates the database at `url`.
    ///
    /// # Errors
    /// An unknown URL, a database that cannot be reached, or a failed migration.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        if let Some(path) = url.strip_prefix("sqlite:") {
            let path = path.trim_start_matches("//");
            let path = path.split('?').next().unwrap_or(path);
            if let Some(parent) = std::path::Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
            }
            let url = if url.contains('?') { url.to_owned() } else { format!("{url}?mode=rwc") };
            let options = || {
                AnyPoolOptions::new().after_connect(|connection, _| {
                    Box::pin(async move {
                        // WAL: readers never wait for the writer. NORMAL: a commit survives a crash of
                        // the process (SIGKILL); only a power cut may lose the last moments.
                        connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL").await?;
                        Ok(())
                    })
                })
            };
            let writer = options().max_connections(1).connect(&url).await?;
            SQLITE_MIGRATIONS.run(&writer).await?;
            let reader = options().max_connections(8).connect(&url).await?;
            Ok(Store { backend: Backend::Sqlite, writer, reader, url })
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // Created on first start, as the SQLite file is.
            if !sqlx::Any::database_exists(url).await? {
                sqlx::Any::create_database(url).await?;
            }
            let pool =
                AnyPoolOptions::new().max_connections(16).acquire_timeout(Duration::from_secs(10)).connect(url).await?;
            POSTGRES_MIGRATIONS.run(&pool).await?;
            Ok(Store { backend: Backend::Postgres, writer: pool.clone(), reader: pool, url: url.to_owned() })
        } else {
            Err(StoreError::Url(url.to_owned()))
        }
    }

    /// Whether other servers may share the database (PostgreSQL); an SQLite file has one.
    #[must_use]
    pub fn shares_database(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// Listens to the other servers' signals, where there can be other servers.
    ///
    /// # Errors
    /// The database cannot be reached.
    pub async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        if !self.shares_database() {
            return Ok(None);
        }
        let mut listener = sqlx::postgres::PgListener::connect(&self.url).await?;
        listener.listen(SIGNAL_CHANNEL).await?;
        Ok(Some(Listener(listener)))
    }

    /// Signals the other servers (PostgreSQL's NOTIFY).
    ///
    /// # Errors
    /// The database failed.
    pub async fn signal(&self, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)").bind(SIGNAL_CHANNEL).bind(payload).execute(&self.writer).await?;
        Ok(())
    }

    /// The ids of the players with a game in play.
    ///
    /// # Errors
    /// The database failed.
    pub async fn playing_users(&self) -> Result<std::collections::HashSet<i64>, StoreError> {
        let rows = sqlx::query("SELECT first_id, second_id FROM games WHERE status = 'started'")
            .fetch_all(&self.reader)
            .await?;
        Ok(rows.iter().flat_map(|row| [row.get::<i64, _>(0), row.get::<i64, _>(1)]).collect())
    }

    /// Closes the pools, waiting for running statements.
    pub async fn close(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }
}

/// A statement of the `Any` driver being bound.
type Statement<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// Binds a game's settings in the column order `layout, marbles, scoring, swap,
/// clock_limit_ms, clock_increment_ms`, shared by invites and games.
fn bind_settings<'q>(statement: Statement<'q>, settings: &GameSettings) -> Statement<'q> {
    let marbles = i64::try_from(settings.layout.marbles_per_player()).expect("a small count");
    statement
        .bind(settings.layout.to_one_line())
        .bind(marbles)
        .bind(settings.scoring.to_string())
        .bind(i64::from(settings.swap))
        .bind(settings.clock.map(|clock| clock.limit_ms))
        .bind(settings.clock.map(|clock| clock.increment_ms))
}

/// Binds a game's progress in the column order `moves, first_ms, second_ms,
/// turn_started_at, status, winner`, shared by starting a game and storing each change.
fn bind_progress<'q>(statement: Statement<'q>, progress: &Progress) -> Statement<'q> {
    statement
        .bind(kulami_core::notation::format_moves(&progress.moves))
        .bind(progress.clocks.map(|clocks| clocks[0]))
        .bind(progress.clocks.map(|clocks| clocks[1]))
        .bind(progress.turn_started)
        .bind(progress.status.as_str())
        .bind(progress.winner.map(|winner| winner.to_string()))
}

fn corrupt(table: &'static str, id: impl ToString, problem: impl ToString) -> StoreError {
    StoreError::Corrupt { table, id: id.to_string(), problem: problem.to_string() }
}

/// A user from columns `{prefix}id`, `{prefix}name`/`username` and `{prefix}bot`.
fn user(row: &AnyRow, prefix: &str) -> User {
    if prefix.is_empty() {
        User { id: row.get("id"), username: row.get("username"), bot: row.get::<i64, _>("bot") != 0 }
    } else {
        User {
            id: row.get(format!("{prefix}_id").as_str()),
            username: row.get(format!("{prefix}_name").as_str()),
            bot: row.get::<i64, _>(format!("{prefix}_bot").as_str()) != 0,
        }
    }
}

/// Board, marbles, scoring, swap rule and clock from their columns.
fn game_settings(row: &AnyRow, table: &'static str, id: &str) -> Result<GameSettings, StoreError> {
    let layout_text: String = row.get("layout");
    let marbles: i64 = row.get("marbles");
    let layout = Layout::parse(&layout_text)
        .map_err(|e| corrupt(table, id, e))?
        .with_marbles_per_player(usize::try_from(marbles).unwrap_or(0))
        .map_err(|e| corrupt(table, id, e))?;
    let scoring: String = row.get("scoring");
    let scoring = Scoring::from_str(&scoring).map_err(|e| corrupt(table, id, e))?;
    let limit: Option<i64> = row.get("clock_limit_ms");
    let increment: Option<i64> = row.get("clock_increment_ms");
    let clock = limit.map(|limit_ms| ClockSettings { limit_ms, increment_ms: increment.unwrap_or(0) });
    Ok(GameSettings { layout: Arc::new(layout), scoring, swap: row.get::<i64, _>("swap") != 0, clock })
}
