//! The servers sharing the database: heartbeats, downtime, and who is online through which.

use sqlx::Row as _;

use super::{Store, StoreError, User, user};
use crate::referee::Millis;

impl Store {
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
