//! The one query layer: every SQL statement the server runs, the same text for SQLite and
//! PostgreSQL through sqlx's `Any` driver (`$1` parameters, `INSERT ... ON CONFLICT`, `RETURNING`),
//! with a schema migration for each.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use kulami_core::{Layout, Scoring, Winner, notation};
use skillratings::glicko2::Glicko2Rating;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{MigrateDatabase as _, Migrator};
use sqlx::{AnyPool, Executor as _, Row as _};

use crate::referee::{ClockSettings, GameSettings, Millis, Progress, Seat, Status};
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

    // Accounts.

    /// Creates an account; `None` when the name (without regard to case) is taken.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_user(
        &self,
        username: &str,
        password_hash: &str,
        bot: bool,
        now: Millis,
    ) -> Result<Option<User>, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO users (username, username_key, password_hash, bot, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (username_key) DO NOTHING RETURNING id",
        )
        .bind(username)
        .bind(username.to_lowercase())
        .bind(password_hash)
        .bind(i64::from(bot))
        .bind(now)
        .fetch_optional(&self.writer)
        .await?;
        Ok(inserted.map(|row| User { id: row.get(0), username: username.to_owned(), bot }))
    }

    /// The account called `username` (any case) and its password hash.
    ///
    /// # Errors
    /// The database failed.
    pub async fn credentials(&self, username: &str) -> Result<Option<(User, String)>, StoreError> {
        let row =
            sqlx::query(concat!("SELECT ", user_columns!(), ", password_hash FROM users WHERE username_key = $1"))
                .bind(username.to_lowercase())
                .fetch_optional(&self.reader)
                .await?;
        Ok(row.map(|row| (user(&row, ""), row.get("password_hash"))))
    }

    /// The account called `username` (any case).
    ///
    /// # Errors
    /// The database failed.
    pub async fn user_by_name(&self, username: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users WHERE username_key = $1"))
            .bind(username.to_lowercase())
            .fetch_optional(&self.reader)
            .await?;
        Ok(row.map(|row| user(&row, "")))
    }

    /// Stores a token's hash for `user`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn insert_token(&self, token_hash: &str, user: i64, now: Millis) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO tokens (token_hash, user_id, created_at) VALUES ($1, $2, $3)")
            .bind(token_hash)
            .bind(user)
            .bind(now)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The account a token hash belongs to.
    ///
    /// # Errors
    /// The database failed.
    pub async fn user_by_token(&self, token_hash: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.username, u.bot FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.reader)
        .await?;
        Ok(row.map(|row| user(&row, "")))
    }

    /// Ends a token.
    ///
    /// # Errors
    /// The database failed.
    pub async fn delete_token(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM tokens WHERE token_hash = $1").bind(token_hash).execute(&self.writer).await?;
        Ok(())
    }

    /// A player's standing in each scoring variant they have played.
    ///
    /// # Errors
    /// The database failed.
    pub async fn standings(&self, user: i64) -> Result<Vec<(Scoring, Standing)>, StoreError> {
        let rows = sqlx::query(rating_select!()).bind(user).fetch_all(&self.reader).await?;
        rows.iter()
            .map(|row| {
                let name: String = row.get("scoring");
                let scoring = Scoring::from_str(&name).map_err(|e| corrupt("ratings", user, e))?;
                Ok((scoring, standing(row)))
            })
            .collect()
    }

    /// A player's rating in one scoring variant (the starting rating if they have none).
    ///
    /// # Errors
    /// The database failed.
    pub async fn rating(&self, user: i64, scoring: Scoring) -> Result<Glicko2Rating, StoreError> {
        let row = sqlx::query(concat!(rating_select!(), " AND scoring = $2"))
            .bind(user)
            .bind(scoring.to_string())
            .fetch_optional(&self.reader)
            .await?;
        Ok(row.map(|row| standing(&row).rating).unwrap_or_default())
    }

    // Invites.

    /// Stores a new invite.
    ///
    /// # Errors
    /// The database failed.
    pub async fn insert_challenge(&self, challenge: &Challenge) -> Result<(), StoreError> {
        let game = &challenge.game;
        sqlx::query(
            "INSERT INTO challenges (id, from_id, to_id, board, layout, marbles, scoring, color, swap, clock_limit_ms, \
             clock_increment_ms, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&challenge.id)
        .bind(challenge.from.id)
        .bind(challenge.to.id)
        .bind(&challenge.board)
        .bind(game.layout.to_one_line())
        .bind(marbles(&game.layout))
        .bind(game.scoring.to_string())
        .bind(challenge.color.as_str())
        .bind(i64::from(game.swap))
        .bind(game.clock.map(|clock| clock.limit_ms))
        .bind(game.clock.map(|clock| clock.increment_ms))
        .bind(&challenge.status)
        .bind(challenge.created_at)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The invite `id`.
    ///
    /// # Errors
    /// The database failed, or the row is corrupt.
    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        let row =
            sqlx::query(concat!(challenge_select!(), " WHERE c.id = $1")).bind(id).fetch_optional(&self.reader).await?;
        row.as_ref().map(challenge).transpose()
    }

    /// The open invites a player has received and sent.
    ///
    /// # Errors
    /// The database failed, or a row is corrupt.
    pub async fn open_challenges(&self, user: i64) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(concat!(
            challenge_select!(),
            " WHERE c.status = 'created' AND (c.to_id = $1 OR c.from_id = $1) ORDER BY c.created_at"
        ))
        .bind(user)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(challenge).collect()
    }

    /// Every open invite, oldest first.
    ///
    /// # Errors
    /// The database failed, or a row is corrupt.
    pub async fn every_open_challenge(&self) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(concat!(challenge_select!(), " WHERE c.status = 'created' ORDER BY c.created_at"))
            .fetch_all(&self.reader)
            .await?;
        rows.iter().map(challenge).collect()
    }

    /// Closes an open invite with `status`; `false` if it was no longer open.
    ///
    /// # Errors
    /// The database failed.
    pub async fn close_challenge(&self, id: &str, status: &str, reason: Option<&str>) -> Result<bool, StoreError> {
        let result = sqlx::query("UPDATE challenges SET status = $1, reason = $2 WHERE id = $3 AND status = 'created'")
            .bind(status)
            .bind(reason)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Accepts an open invite and starts its game, in one transaction; `false` if the invite was
    /// no longer open.
    ///
    /// # Errors
    /// The database failed.
    pub async fn accept_challenge(&self, challenge: &str, game: &GameRow) -> Result<bool, StoreError> {
        let mut transaction = self.writer.begin().await?;
        let accepted =
            sqlx::query("UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2 AND status = 'created'")
                .bind(&game.info.id)
                .bind(challenge)
                .execute(&mut *transaction)
                .await?;
        if accepted.rows_affected() != 1 {
            return Ok(false);
        }
        let settings = &game.settings;
        let progress = &game.progress;
        sqlx::query(
            "INSERT INTO games (id, first_id, second_id, first_rating, second_rating, board, layout, marbles, scoring, \
             swap, clock_limit_ms, clock_increment_ms, moves, first_ms, second_ms, turn_started_at, status, winner, \
             version, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
        )
        .bind(&game.info.id)
        .bind(game.info.players[0].id)
        .bind(game.info.players[1].id)
        .bind(game.info.ratings[0])
        .bind(game.info.ratings[1])
        .bind(&game.info.board)
        .bind(settings.layout.to_one_line())
        .bind(marbles(&settings.layout))
        .bind(settings.scoring.to_string())
        .bind(i64::from(settings.swap))
        .bind(settings.clock.map(|clock| clock.limit_ms))
        .bind(settings.clock.map(|clock| clock.increment_ms))
        .bind(notation::format_moves(&progress.moves))
        .bind(progress.clocks.map(|clocks| clocks[0]))
        .bind(progress.clocks.map(|clocks| clocks[1]))
        .bind(progress.turn_started)
        .bind(progress.status.as_str())
        .bind(progress.winner.map(|winner| winner.to_string()))
        .bind(game.version)
        .bind(game.created_at)
        .execute(&mut *transaction)
        .await?;
        transaction.commit().await?;
        Ok(true)
    }

    // Games.

    /// The game `id`.
    ///
    /// # Errors
    /// The database failed, or the row is corrupt.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row =
            sqlx::query(concat!(game_select!(), " WHERE g.id = $1")).bind(id).fetch_optional(&self.reader).await?;
        row.as_ref().map(game).transpose()
    }

    /// The games being played, all of them or those of one player.
    ///
    /// # Errors
    /// The database failed, or a row is corrupt.
    pub async fn running_games(&self, player: Option<i64>) -> Result<Vec<GameRow>, StoreError> {
        let rows = match player {
            None => sqlx::query(concat!(game_select!(), " WHERE g.status = 'started'")).fetch_all(&self.reader).await?,
            Some(user) => {
                sqlx::query(concat!(
                    game_select!(),
                    " WHERE g.status = 'started' AND (g.first_id = $1 OR g.second_id = $1)"
                ))
                .bind(user)
                .fetch_all(&self.reader)
                .await?
            }
        };
        rows.iter().map(game).collect()
    }

    /// Stores a game's new progress, and with a rated result both players' new ratings, in one
    /// transaction; `false` (and nothing stored) if the game is no longer at `version`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn save_progress(
        &self,
        id: &str,
        version: i64,
        progress: &Progress,
        now: Millis,
        rated: Option<RatedResult>,
    ) -> Result<bool, StoreError> {
        let mut transaction = self.writer.begin().await?;
        let finished_at = (progress.status != Status::Started).then_some(now);
        let updated = sqlx::query(
            "UPDATE games SET moves = $1, first_ms = $2, second_ms = $3, turn_started_at = $4, status = $5, \
             winner = $6, finished_at = $7, version = version + 1 WHERE id = $8 AND version = $9",
        )
        .bind(notation::format_moves(&progress.moves))
        .bind(progress.clocks.map(|clocks| clocks[0]))
        .bind(progress.clocks.map(|clocks| clocks[1]))
        .bind(progress.turn_started)
        .bind(progress.status.as_str())
        .bind(progress.winner.map(|winner| winner.to_string()))
        .bind(finished_at)
        .bind(id)
        .bind(version)
        .execute(&mut *transaction)
        .await?;
        if updated.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(result) = rated {
            self.rate(&mut transaction, result).await?;
        }
        transaction.commit().await?;
        Ok(true)
    }

    async fn rate(
        &self,
        transaction: &mut sqlx::Transaction<'_, sqlx::Any>,
        result: RatedResult,
    ) -> Result<(), StoreError> {
        let scoring = result.scoring.to_string();
        let mut standings = [Standing::default(); 2];
        for (seat, standing_slot) in Seat::BOTH.iter().zip(&mut standings) {
            let player = result.players[seat.index()];
            sqlx::query(
                "INSERT INTO ratings (user_id, scoring, rating, deviation, volatility, games, wins, draws, losses) \
                 VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) ON CONFLICT (user_id, scoring) DO NOTHING",
            )
            .bind(player)
            .bind(&scoring)
            .bind(Glicko2Rating::default().rating)
            .bind(Glicko2Rating::default().deviation)
            .bind(Glicko2Rating::default().volatility)
            .execute(&mut **transaction)
            .await?;
            // PostgreSQL: lock the row, so that two games ending at once both count. (SQLite has
            // one writer at a time.)
            let select = match self.backend {
                Backend::Postgres => concat!(rating_select!(), " AND scoring = $2 FOR UPDATE"),
                Backend::Sqlite => concat!(rating_select!(), " AND scoring = $2"),
            };
            let row = sqlx::query(select).bind(player).bind(&scoring).fetch_one(&mut **transaction).await?;
            *standing_slot = standing(&row);
        }
        let updated = crate::rating::update(standings, result.first_score);
        for (seat, standing) in Seat::BOTH.iter().zip(updated) {
            sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, wins = $5, draws = $6, \
                 losses = $7 WHERE user_id = $8 AND scoring = $9",
            )
            .bind(standing.rating.rating)
            .bind(standing.rating.deviation)
            .bind(standing.rating.volatility)
            .bind(standing.games)
            .bind(standing.wins)
            .bind(standing.draws)
            .bind(standing.losses)
            .bind(result.players[seat.index()])
            .bind(&scoring)
            .execute(&mut **transaction)
            .await?;
        }
        Ok(())
    }

    // Liveness.

    /// Says the server `instance` is alive at `now`, and forgets the players of servers that
    /// have been silent for `silence`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn beat(&self, instance: &str, now: Millis, silence: Millis) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin().await?;
        sqlx::query("UPDATE heartbeat SET at = $1 WHERE id = 1 AND at < $1")
            .bind(now)
            .execute(&mut *transaction)
            .await?;
        sqlx::query("INSERT INTO instances (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET seen_at = $2")
            .bind(instance)
            .bind(now)
            .execute(&mut *transaction)
            .await?;
        sqlx::query("DELETE FROM presence WHERE instance_id IN (SELECT id FROM instances WHERE seen_at < $1)")
            .bind(now - silence)
            .execute(&mut *transaction)
            .await?;
        sqlx::query("DELETE FROM instances WHERE seen_at < $1").bind(now - silence).execute(&mut *transaction).await?;
        transaction.commit().await?;
        Ok(())
    }

    /// Forgets a server that is shutting down, and who was online through it.
    ///
    /// # Errors
    /// The database failed.
    pub async fn forget_instance(&self, instance: &str) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin().await?;
        sqlx::query("DELETE FROM presence WHERE instance_id = $1").bind(instance).execute(&mut *transaction).await?;
        sqlx::query("DELETE FROM instances WHERE id = $1").bind(instance).execute(&mut *transaction).await?;
        transaction.commit().await?;
        Ok(())
    }

    /// Records that `user` has (or no longer has) an event stream open on `instance`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn set_present(&self, instance: &str, user: i64, present: bool, now: Millis) -> Result<(), StoreError> {
        if present {
            sqlx::query(
                "INSERT INTO presence (instance_id, user_id) VALUES ($1, $2) ON CONFLICT (instance_id, user_id) DO NOTHING",
            )
            .bind(instance)
            .bind(user)
            .execute(&self.writer)
            .await?;
        } else {
            let mut transaction = self.writer.begin().await?;
            sqlx::query("DELETE FROM presence WHERE instance_id = $1 AND user_id = $2")
                .bind(instance)
                .bind(user)
                .execute(&mut *transaction)
                .await?;
            sqlx::query("UPDATE users SET seen_at = $1 WHERE id = $2")
                .bind(now)
                .bind(user)
                .execute(&mut *transaction)
                .await?;
            transaction.commit().await?;
        }
        Ok(())
    }

    /// The players with an event stream open on a server seen alive since `since`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn online_users(&self, since: Millis) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT u.id, u.username, u.bot FROM presence p JOIN instances i ON i.id = p.instance_id \
             JOIN users u ON u.id = p.user_id WHERE i.seen_at >= $1 ORDER BY u.username",
        )
        .bind(since)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows.iter().map(|row| user(row, "")).collect())
    }

    /// When the player's last event stream closed, if it ever did.
    ///
    /// # Errors
    /// The database failed.
    pub async fn seen_at(&self, user: i64) -> Result<Option<Millis>, StoreError> {
        let row =
            sqlx::query("SELECT seen_at FROM users WHERE id = $1").bind(user).fetch_optional(&self.reader).await?;
        Ok(row.and_then(|row| row.get(0)))
    }

    /// On starting: if no server has been alive for more than `gap`, moves every running clock's
    /// start on by the time since, so the time the servers were down is charged to nobody.
    /// Returns the time forgiven.
    ///
    /// # Errors
    /// The database failed.
    pub async fn forgive_downtime(&self, now: Millis, gap: Millis) -> Result<Millis, StoreError> {
        let mut transaction = self.writer.begin().await?;
        sqlx::query("INSERT INTO heartbeat (id, at) VALUES (1, $1) ON CONFLICT (id) DO NOTHING")
            .bind(now)
            .execute(&mut *transaction)
            .await?;
        let last: i64 = sqlx::query("SELECT at FROM heartbeat WHERE id = 1").fetch_one(&mut *transaction).await?.get(0);
        let down = now - last;
        if down <= gap {
            transaction.commit().await?;
            return Ok(0);
        }
        // Only the server whose update wins forgives, should several start at once.
        let claimed = sqlx::query("UPDATE heartbeat SET at = $1 WHERE id = 1 AND at = $2")
            .bind(now)
            .bind(last)
            .execute(&mut *transaction)
            .await?;
        if claimed.rows_affected() != 1 {
            transaction.commit().await?;
            return Ok(0);
        }
        sqlx::query(
            "UPDATE games SET turn_started_at = turn_started_at + $1 WHERE status = 'started' \
             AND turn_started_at IS NOT NULL",
        )
        .bind(down)
        .execute(&mut *transaction)
        .await?;
        transaction.commit().await?;
        Ok(down)
    }
}

fn marbles(layout: &Layout) -> i64 {
    i64::try_from(layout.marbles_per_player()).expect("a small count")
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

fn standing(row: &AnyRow) -> Standing {
    Standing {
        rating: Glicko2Rating {
            rating: row.get("rating"),
            deviation: row.get("deviation"),
            volatility: row.get("volatility"),
        },
        games: row.get("games"),
        wins: row.get("wins"),
        draws: row.get("draws"),
        losses: row.get("losses"),
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

fn challenge(row: &AnyRow) -> Result<Challenge, StoreError> {
    let id: String = row.get("id");
    let color: String = row.get("color");
    Ok(Challenge {
        game: game_settings(row, "challenges", &id)?,
        color: ColorChoice::from_name(&color).ok_or_else(|| corrupt("challenges", &id, "bad colour"))?,
        from: user(row, "from"),
        to: user(row, "to"),
        board: row.get("board"),
        status: row.get("status"),
        reason: row.get("reason"),
        game_id: row.get("game_id"),
        created_at: row.get("created_at"),
        id,
    })
}

fn game(row: &AnyRow) -> Result<GameRow, StoreError> {
    let id: String = row.get("id");
    let moves: String = row.get("moves");
    let moves = notation::parse_moves(&moves).map_err(|e| corrupt("games", &id, e))?;
    let status: String = row.get("status");
    let status = Status::from_name(&status).ok_or_else(|| corrupt("games", &id, "bad status"))?;
    let winner: Option<String> = row.get("winner");
    let winner = match winner.as_deref() {
        None => None,
        Some("red") => Some(Winner::Red),
        Some("black") => Some(Winner::Black),
        Some("draw") => Some(Winner::Draw),
        Some(other) => return Err(corrupt("games", &id, format!("bad winner {other}"))),
    };
    let first_ms: Option<i64> = row.get("first_ms");
    let second_ms: Option<i64> = row.get("second_ms");
    Ok(GameRow {
        settings: game_settings(row, "games", &id)?,
        progress: Progress {
            moves,
            clocks: first_ms.zip(second_ms).map(|(first, second)| [first, second]),
            turn_started: row.get("turn_started_at"),
            status,
            winner,
        },
        version: row.get("version"),
        created_at: row.get("created_at"),
        info: GameInfo {
            players: [user(row, "first"), user(row, "second")],
            ratings: [row.get("first_rating"), row.get("second_rating")],
            board: row.get("board"),
            id,
        },
    })
}
