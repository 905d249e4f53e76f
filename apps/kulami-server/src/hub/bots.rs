//! House bots (`--bots`): one engine account per level of `kulami-ai`, which accepts every
//! invite and plays in the server itself, a bounded number of searches at a time.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use kulami_ai::{Clock, Engine, EngineOptions, Level, TimeControl};
use tokio::sync::Semaphore;

use super::{Action, Hub, LiveGame, now_ms};
use crate::auth::{self, random_bytes};
use crate::referee::Table;
use crate::store::{Challenge, Store, StoreError};

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

impl Hub {
    /// If a house bot is to move, has it think (once a search slot is free) and play.
    pub(super) fn bot_turn(self: &Arc<Hub>, live: &Arc<LiveGame>, table: &Table) {
        let Some(bots) = self.bots.get() else { return };
        let seat = table.seat_to_move();
        let player = live.info.players[seat.index()].id;
        let Some(level) = bots.level(player).filter(|_| table.is_running()) else { return };
        let ply = table.position().move_count();
        let (hub, live, thinking) = (Arc::clone(self), Arc::clone(live), Arc::clone(&bots.thinking));
        tokio::spawn(async move {
            let Ok(_permit) = thinking.acquire_owned().await else { return };
            // The clock ran while the bot waited for a slot: read it now.
            let (position, scoring, clock) = {
                let slot = live.slot.lock().await;
                let table = &slot.table;
                if !table.is_running() || table.position().move_count() != ply {
                    return;
                }
                let increment = table.settings().clock.map_or(0, |clock| clock.increment_ms);
                let clock = table.remaining(seat, now_ms()).map(|left| (left, increment));
                (table.position().clone(), table.settings().scoring, clock)
            };
            let seed = u64::from_le_bytes(random_bytes());
            let chosen =
                tokio::task::spawn_blocking(move || engine(level, clock, seed).choose(&position, scoring, None).best)
                    .await;
            let Ok(Some(chosen)) = chosen else { return };
            if let Err(error) = hub.act(&live, seat, Action::Move(chosen)).await {
                eprintln!("note: bot in game {}: {error}", live.info.id);
            }
        });
    }

    /// Enlists the house bots: they accept every invite and play their games.
    ///
    /// # Errors
    /// The database failed.
    pub async fn enlist_bots(self: &Arc<Hub>, thinking: usize) -> Result<(), StoreError> {
        let bots = Bots::enlist(&self.store, thinking).await?;
        // The bots are online through this server, for as long as it runs.
        for bot in bots.accounts() {
            self.store.set_present(&self.instance, bot, true, now_ms()).await?;
        }
        let _ = self.bots.set(bots);
        // Invites sent while the bots were away, and games in which they are to move.
        for challenge in self.store.every_open_challenge().await? {
            self.answer_for_bot(&challenge).await;
        }
        let games: Vec<Arc<LiveGame>> =
            self.games.lock().unwrap_or_else(PoisonError::into_inner).values().cloned().collect();
        for live in games {
            let slot = live.slot.lock().await;
            self.bot_turn(&live, &slot.table);
        }
        Ok(())
    }

    /// A house bot accepts an invite sent to it.
    pub async fn answer_for_bot(self: &Arc<Hub>, challenge: &Challenge) {
        let Some(bots) = self.bots.get() else { return };
        if bots.level(challenge.to.id).is_some()
            && let Err(error) = self.accept(challenge).await
        {
            eprintln!("note: bot accepting invite {}: {error}", challenge.id);
        }
    }
}
