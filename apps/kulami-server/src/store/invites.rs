//! Invites, and the game an accepted one starts.

use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::{Challenge, GameRow, Store, StoreError, bind_progress, bind_settings, corrupt, game_settings, user};
use crate::settings::ColorChoice;

impl Store {
    /// Stores a new invite.
    ///
    /// # Errors
    /// The database failed.
    pub async fn insert_challenge(&self, challenge: &Challenge) -> Result<(), StoreError> {
        let game = &challenge.game;
        let statement = sqlx::query(
            "INSERT INTO challenges (id, from_id, to_id, board, layout, marbles, scoring, swap, clock_limit_ms, \
             clock_increment_ms, color, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&challenge.id)
        .bind(challenge.from.id)
        .bind(challenge.to.id)
        .bind(&challenge.board);
        bind_settings(statement, game)
            .bind(challenge.color.as_str())
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
        let statement = sqlx::query(
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
        .bind(&game.info.board);
        bind_progress(bind_settings(statement, &game.settings), &game.progress)
            .bind(game.version)
            .bind(game.created_at)
            .execute(&mut *transaction)
            .await?;
        transaction.commit().await?;
        Ok(true)
    }
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
