//! Games: reading them and storing each change, with the ratings of a finished one.

use kulami_core::{Winner, notation};
use skillratings::glicko2::Glicko2Rating;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::accounts::standing;
use super::{
    Backend, GameInfo, GameRow, RatedResult, Standing, Store, StoreError, bind_progress, corrupt, game_settings, user,
};
use crate::referee::{Millis, Progress, Seat, Status};

impl Store {
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
        let statement = sqlx::query(
            "UPDATE games SET moves = $1, first_ms = $2, second_ms = $3, turn_started_at = $4, status = $5, \
             winner = $6, finished_at = $7, version = version + 1 WHERE id = $8 AND version = $9",
        );
        let updated = bind_progress(statement, progress)
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
