//! House bots (`--bots`): one engine account per level of `kulami-ai`, which accepts every
//! invite and plays in the server itself, a bounded number of searches at a time.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use kulami_ai::{Clock, Engine, EngineOptions, Level, TimeControl};
use tokio::sync::Semaphore;

use crate::auth;
use crate::hub::now_ms;
use crate::store::{Store, StoreError};

/// Thinking time per move without a clock.
const CORRESPONDENCE_MOVE: Duration = Duration::from_secs(1);

/// The house bots.
#[derive(Debug)]
pub struct Bots {
    levels: HashMap<i64, Level>,
    /// Searches that may run at once: each takes a core while it thinks.
    pub thinking: Arc<Semaphore>,
}

/// A bot's account name for a level: `bot-beginner` ... `bot-master`.
fn account_name(level: Level) -> String {
    let name = match level.number() {
        Some(1) => "beginner",
        Some(2) => "casual",
        Some(3) => "club",
        Some(4) => "expert",
        _ => "master",
    };
    format!("bot-{name}")
}

impl Bots {
    /// Makes (or finds) an account for each level; at most `thinking` searches run at once.
    ///
    /// # Errors
    /// The database failed, or a bot's name belongs to a person.
    pub async fn enlist(store: &Store, thinking: usize) -> Result<Bots, StoreError> {
        let mut levels = HashMap::new();
        for level in Level::LADDER {
            let name = account_name(level);
            let user = match store.user_by_name(&name).await? {
                Some(user) => user,
                // Nobody can sign in as a bot: its password is random and thrown away.
                None => {
                    let hash = tokio::task::spawn_blocking(|| auth::hash_password(&auth::new_token()))
                        .await
                        .expect("hashing does not panic");
                    match store.create_user(&name, &hash, true, now_ms()).await? {
                        Some(user) => user,
                        None => store.user_by_name(&name).await?.expect("just taken by another server"),
                    }
                }
            };
            if !user.bot {
                return Err(StoreError::Corrupt {
                    table: "users",
                    id: name,
                    problem: "a person holds the house bot's name".to_owned(),
                });
            }
            levels.insert(user.id, level);
        }
        Ok(Bots { levels, thinking: Arc::new(Semaphore::new(thinking.max(1))) })
    }

    /// The bots' accounts.
    pub fn accounts(&self) -> impl Iterator<Item = i64> + '_ {
        self.levels.keys().copied()
    }

    /// The level of a house bot's account.
    #[must_use]
    pub fn level(&self, user: i64) -> Option<Level> {
        self.levels.get(&user).copied()
    }
}

/// A house bot's engine for one move: the clock's time left and increment when there is a
/// clock (as the engine protocol's `time_left`), else a second; one thread, as searches share
/// the cores through [`Bots::thinking`].
#[must_use]
pub fn engine(level: Level, clock: Option<(i64, i64)>, seed: u64) -> Engine {
    let millis = |ms: i64| Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    let time = match clock {
        Some((remaining, increment)) => {
            TimeControl::Clock(Clock { remaining: millis(remaining), increment: millis(increment) })
        }
        None => TimeControl::PerMove(CORRESPONDENCE_MOVE),
    };
    Engine::new(
        level,
        EngineOptions::default().with_time(time).with_threads(1).with_table_megabytes(16).with_seed(seed),
    )
}
