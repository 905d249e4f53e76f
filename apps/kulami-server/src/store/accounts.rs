//! Accounts, tokens and ratings.

use std::str::FromStr as _;

use kulami_core::Scoring;
use skillratings::glicko2::Glicko2Rating;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::{Standing, Store, StoreError, User, corrupt, user};
use crate::referee::Millis;

impl Store {
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
}

pub(super) fn standing(row: &AnyRow) -> Standing {
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
