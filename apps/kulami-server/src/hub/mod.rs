//! The live side of the server: games in play with their clocks and watchers, and who is online.
//! Every change is stored first and published after, so a watcher never sees a move that a crash
//! could take back.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use kulami_core::{Move, Winner};
use serde_json::Value;
use tokio::sync::{Notify, broadcast, watch};

use crate::auth::{new_id, random_bytes};
use crate::error::{ApiError, ApiResult};
use crate::referee::{Millis, Seat, Status, Table};
use crate::settings::ColorChoice;
use crate::store::{Challenge, GameInfo, GameRow, RatedResult, Store, StoreError, User};
use crate::views;

mod bots;
mod cluster;

use cluster::Signal;

/// An open invite lapses after a day.
const INVITE_LIFETIME_MS: Millis = 24 * 60 * 60 * 1000;
/// How often the server says it is alive, and so how much a crash can leave uncharged.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// How often lapsed invites are looked for.
const SWEEP: Duration = Duration::from_secs(5);
/// A server silent for this long is taken for dead, and its players for offline.
const SILENCE_MS: Millis = 5_000;

/// The time now, in milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> Millis {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// One line of a stream, and whether it is the stream's last.
#[derive(Clone, Debug)]
pub struct Line {
    /// The JSON object.
    pub text: Arc<str>,
    /// Whether the stream ends after it.
    pub last: bool,
}

impl Line {
    fn new(value: &Value, last: bool) -> Line {
        Line { text: value.to_string().into(), last }
    }
}

/// What a player does to a game.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    /// Plays a move.
    Move(Move),
    /// Resigns.
    Resign,
    /// Calls the game off.
    Abort,
}

/// A game in play, as every request about it shares it.
#[derive(Debug)]
pub struct LiveGame {
    /// Who plays.
    pub info: GameInfo,
    slot: tokio::sync::Mutex<Slot>,
    updates: broadcast::Sender<Line>,
    /// Tells the game's clock watcher that the position changed.
    wake: Notify,
}

#[derive(Debug)]
struct Slot {
    table: Table,
    /// The stored version `table` is at.
    version: i64,
}

#[derive(Debug)]
struct Presence {
    events: broadcast::Sender<Line>,
    streams: usize,
}

/// Work done in order after the request that caused it: presence in the database, and
/// signals to the other servers.
#[derive(Debug)]
enum Chore {
    /// A player's first stream opened (acknowledged once stored) or last one closed.
    Presence { user: i64, present: bool, stored: Option<tokio::sync::oneshot::Sender<()>> },
    /// Tell the other servers.
    Signal(Signal),
}

/// The live state of one server.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    /// This server's name among those sharing the database.
    instance: String,
    started_at: Millis,
    away_limit_ms: Millis,
    games: Mutex<HashMap<String, Arc<LiveGame>>>,
    presence: Mutex<HashMap<i64, Presence>>,
    chores: tokio::sync::mpsc::UnboundedSender<Chore>,
    chores_queue: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Chore>>>,
    bots: std::sync::OnceLock<bots::Bots>,
    shutdown: watch::Receiver<bool>,
}

/// Keeps a player counted as online while their event stream is open.
#[derive(Debug)]
pub struct PresenceGuard {
    hub: Arc<Hub>,
    user: i64,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let mut presence = self.hub.presence.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = presence.get_mut(&self.user) {
            entry.streams -= 1;
            if entry.streams == 0 {
                presence.remove(&self.user);
                let _ = self.hub.chores.send(Chore::Presence { user: self.user, present: false, stored: None });
            }
        }
    }
}

fn restore(row: GameRow) -> Result<(GameInfo, Slot), StoreError> {
    let table = Table::restore(row.settings, row.progress).map_err(|e| StoreError::Corrupt {
        table: "games",
        id: row.info.id.clone(),
        problem: e.to_string(),
    })?;
    Ok((row.info, Slot { table, version: row.version }))
}

impl Hub {
    /// A hub over `store`; a real-time invite lapses once its sender has been away for
    /// `away_limit`; streams end when `shutdown` turns true.
    #[must_use]
    pub fn new(store: Store, away_limit: Duration, shutdown: watch::Receiver<bool>) -> Arc<Hub> {
        let (chores, queue) = tokio::sync::mpsc::unbounded_channel();
        Arc::new(Hub {
            store,
            instance: new_id(),
            started_at: now_ms(),
            away_limit_ms: Millis::try_from(away_limit.as_millis()).unwrap_or(Millis::MAX),
            games: Mutex::default(),
            presence: Mutex::default(),
            chores,
            chores_queue: Mutex::new(Some(queue)),
            bots: std::sync::OnceLock::new(),
            shutdown,
        })
    }

    /// The database.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A receiver that turns true when the server shuts down.
    #[must_use]
    pub fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    /// Takes up the games in play (their clocks run on) and starts the background work: the
    /// heartbeat and the lapsing of invites.
    ///
    /// # Errors
    /// The database failed or holds a corrupt game.
    pub async fn start(self: &Arc<Hub>) -> Result<(), StoreError> {
        let forgiven = self.store.forgive_downtime(now_ms(), 2 * HEARTBEAT.as_millis() as Millis).await?;
        if forgiven > 0 {
            eprintln!("note: the servers were down for {} s: no clock is charged for it", forgiven / 1000);
        }
        self.store.beat(&self.instance, now_ms(), SILENCE_MS).await?;
        for row in self.store.running_games(None).await? {
            self.adopt(row)?;
        }
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(HEARTBEAT);
            loop {
                beat.tick().await;
                if let Err(error) = hub.store.beat(&hub.instance, now_ms(), SILENCE_MS).await {
                    eprintln!("error: heartbeat: {error}");
                }
            }
        });
        let queue = self.chores_queue.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(queue) = queue {
            tokio::spawn(Arc::clone(self).do_chores(queue));
        }
        if let Some(listener) = self.store.listen().await? {
            tokio::spawn(Arc::clone(self).follow_other_servers(listener));
        }
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let mut sweep = tokio::time::interval(SWEEP);
            loop {
                sweep.tick().await;
                if let Err(error) = hub.lapse_invites().await {
                    eprintln!("error: lapsing invites: {error}");
                }
            }
        });
        Ok(())
    }

    /// On shutting down: this server's players are no longer online through it.
    ///
    /// # Errors
    /// The database failed.
    pub async fn leave(&self) -> Result<(), StoreError> {
        self.store.forget_instance(&self.instance).await
    }

    /// Caches a running game and watches its clock; gives the cached one if another request
    /// was quicker.
    fn adopt(self: &Arc<Hub>, row: GameRow) -> Result<Arc<LiveGame>, StoreError> {
        let (info, slot) = restore(row)?;
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(live) = games.get(&info.id) {
            return Ok(Arc::clone(live));
        }
        let clocked = slot.table.settings().clock.is_some();
        let live = Arc::new(LiveGame {
            info,
            slot: tokio::sync::Mutex::new(slot),
            updates: broadcast::channel(16).0,
            wake: Notify::new(),
        });
        games.insert(live.info.id.clone(), Arc::clone(&live));
        if clocked {
            tokio::spawn(Arc::clone(self).watch_clock(Arc::clone(&live)));
        }
        Ok(live)
    }

    /// The game `id`: a running one shared by all, a finished one fresh from the database.
    ///
    /// # Errors
    /// The database failed or holds a corrupt game.
    pub async fn game(self: &Arc<Hub>, id: &str) -> Result<Option<Arc<LiveGame>>, StoreError> {
        if let Some(live) = self.games.lock().unwrap_or_else(PoisonError::into_inner).get(id) {
            return Ok(Some(Arc::clone(live)));
        }
        let Some(row) = self.store.game(id).await? else { return Ok(None) };
        if row.progress.status == Status::Started {
            return self.adopt(row).map(Some);
        }
        let (info, slot) = restore(row)?;
        Ok(Some(Arc::new(LiveGame {
            info,
            slot: tokio::sync::Mutex::new(slot),
            updates: broadcast::channel(1).0,
            wake: Notify::new(),
        })))
    }

    /// The game as `gameFull`.
    pub async fn snapshot(&self, live: &LiveGame) -> Value {
        let slot = live.slot.lock().await;
        views::game_full(&live.info, &slot.table, now_ms())
    }

    /// The game's record file.
    pub async fn record(&self, live: &LiveGame) -> String {
        let slot = live.slot.lock().await;
        views::record(&live.info, &slot.table)
    }

    /// The `gameFull` line and, while the game runs, the receiver of the lines after it.
    pub async fn watch_game(&self, live: &LiveGame) -> (Line, Option<broadcast::Receiver<Line>>) {
        let slot = live.slot.lock().await;
        let running = slot.table.is_running();
        // Subscribed under the lock: no change falls between the snapshot and the first update.
        let updates = running.then(|| live.updates.subscribe());
        (Line::new(&views::game_full(&live.info, &slot.table, now_ms()), !running), updates)
    }

    /// `seat` does `action` in the game; answered once the change is stored.
    ///
    /// # Errors
    /// 403 when it is not their turn, 409 when the game is over or the move illegal, 500 when the
    /// database failed.
    pub async fn act(self: &Arc<Hub>, live: &Arc<LiveGame>, seat: Seat, action: Action) -> ApiResult<()> {
        // Only another server sharing the database can get in between; then its move stands and
        // this one is judged again on the new position.
        for _ in 0..3 {
            let mut slot = live.slot.lock().await;
            let mut table = slot.table.clone();
            let now = now_ms();
            let outcome = match action {
                Action::Move(played) => table.play(seat, played, now),
                Action::Resign => table.resign(seat, now),
                Action::Abort => table.abort(now),
            };
            // A refused move may still end the game: the mover's time had run out.
            if outcome.is_err() && table.status() == slot.table.status() {
                return outcome.map_err(ApiError::from);
            }
            if self.commit(live, &mut slot, table, now).await? {
                return outcome.map_err(ApiError::from);
            }
        }
        Err(ApiError::conflict("the game kept changing under this request; send it again"))
    }

    /// Stores `table` as the game's new state if the game is still at `slot`'s version, then
    /// publishes it; `false` (and `slot` reloaded) if another server changed it first.
    async fn commit(
        self: &Arc<Hub>,
        live: &Arc<LiveGame>,
        slot: &mut Slot,
        table: Table,
        now: Millis,
    ) -> Result<bool, StoreError> {
        let rated = match (table.status(), table.winner()) {
            (Status::Started | Status::Aborted, _) | (_, None) => None,
            (_, Some(winner)) => Some(RatedResult {
                scoring: table.settings().scoring,
                players: live.info.players.each_ref().map(|user| user.id),
                first_score: match winner {
                    Winner::Draw => 0.5,
                    winner if winner == table.color_of(Seat::First).into() => 1.0,
                    _ => 0.0,
                },
            }),
        };
        if !self.store.save_progress(&live.info.id, slot.version, &table.progress(), now, rated).await? {
            if let Some(row) = self.store.game(&live.info.id).await? {
                *slot = restore(row)?.1;
            }
            return Ok(false);
        }
        *slot = Slot { table, version: slot.version + 1 };
        self.publish(live, slot, now);
        self.signal(Signal::Game { id: live.info.id.clone() });
        if !slot.table.is_running() {
            let event = Line::new(&views::game_event("gameFinish", &live.info, &slot.table), false);
            for player in &live.info.players {
                self.notify(player.id, &event);
            }
        }
        Ok(true)
    }

    /// Sends a game's new state to its watchers here; a finished game leaves the cache.
    fn publish(self: &Arc<Hub>, live: &Arc<LiveGame>, slot: &Slot, now: Millis) {
        let finished = !slot.table.is_running();
        let _ = live.updates.send(Line::new(&views::game_state(&slot.table, now), finished));
        live.wake.notify_one();
        if finished {
            self.games.lock().unwrap_or_else(PoisonError::into_inner).remove(&live.info.id);
        }
        self.bot_turn(live, &slot.table);
    }

    /// Ends the game on time when its player to move runs out, until it ends.
    async fn watch_clock(self: Arc<Hub>, live: Arc<LiveGame>) {
        loop {
            let (running, deadline) = {
                let slot = live.slot.lock().await;
                (slot.table.is_running(), slot.table.deadline())
            };
            if !running {
                return;
            }
            let Some(deadline) = deadline else {
                live.wake.notified().await;
                continue;
            };
            let wait = Duration::from_millis(u64::try_from(deadline - now_ms()).unwrap_or(0));
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = live.wake.notified() => continue,
            }
            let mut slot = live.slot.lock().await;
            let mut table = slot.table.clone();
            let now = now_ms();
            if table.flag(now)
                && let Err(error) = self.commit(&live, &mut slot, table, now).await
            {
                eprintln!("error: game {}: storing a timeout: {error}", live.info.id);
                drop(slot);
                tokio::time::sleep(HEARTBEAT).await;
            }
        }
    }

    /// Accepts `challenge` for its invitee and starts its game.
    ///
    /// # Errors
    /// 409 when the invite is no longer open, 500 when the database failed.
    pub async fn accept(self: &Arc<Hub>, challenge: &Challenge) -> ApiResult<String> {
        let sender_first = match challenge.color {
            ColorChoice::Red => true,
            ColorChoice::Black => false,
            ColorChoice::Random => random_bytes::<1>()[0] & 1 == 0,
        };
        let players = if sender_first {
            [challenge.from.clone(), challenge.to.clone()]
        } else {
            [challenge.to.clone(), challenge.from.clone()]
        };
        let scoring = challenge.game.scoring;
        let ratings = [
            self.store.rating(players[0].id, scoring).await?.rating,
            self.store.rating(players[1].id, scoring).await?.rating,
        ];
        let table = Table::new(challenge.game.clone());
        let row = GameRow {
            info: GameInfo { id: new_id(), players, ratings, board: challenge.board.clone() },
            settings: challenge.game.clone(),
            progress: table.progress(),
            version: 0,
            created_at: now_ms(),
        };
        if !self.store.accept_challenge(&challenge.id, &row).await? {
            return Err(ApiError::conflict("the invite is no longer open"));
        }
        let id = row.info.id.clone();
        let live = self.adopt(row)?;
        let slot = live.slot.lock().await;
        let event = Line::new(&views::game_event("gameStart", &live.info, &slot.table), false);
        for player in &live.info.players {
            self.notify(player.id, &event);
        }
        self.bot_turn(&live, &slot.table);
        Ok(id)
    }

    /// The `gameStart` events of a player's games in play, for a newly opened event stream.
    ///
    /// # Errors
    /// The database failed.
    pub async fn games_in_play(self: &Arc<Hub>, user: i64) -> Result<Vec<Line>, StoreError> {
        let mut lines = Vec::new();
        for row in self.store.running_games(Some(user)).await? {
            if let Some(live) = self.game(&row.info.id).await? {
                let slot = live.slot.lock().await;
                lines.push(Line::new(&views::game_event("gameStart", &live.info, &slot.table), false));
            }
        }
        Ok(lines)
    }

    /// Opens an event stream for `user`: they count as online until the guard drops.
    pub async fn open_events(self: &Arc<Hub>, user: &User) -> (broadcast::Receiver<Line>, PresenceGuard) {
        let (events, first) = {
            let mut presence = self.presence.lock().unwrap_or_else(PoisonError::into_inner);
            let entry =
                presence.entry(user.id).or_insert_with(|| Presence { events: broadcast::channel(64).0, streams: 0 });
            entry.streams += 1;
            (entry.events.subscribe(), entry.streams == 1)
        };
        let guard = PresenceGuard { hub: Arc::clone(self), user: user.id };
        if first {
            let (stored, done) = tokio::sync::oneshot::channel();
            let _ = self.chores.send(Chore::Presence { user: user.id, present: true, stored: Some(stored) });
            let _ = done.await;
        }
        (events, guard)
    }

    /// Sends an event to a player's open event streams, on every server.
    pub fn notify(&self, user: i64, line: &Line) {
        self.deliver(user, line);
        self.signal(Signal::User { user, line: line.text.to_string() });
    }

    /// Sends an event to a player's event streams on this server.
    fn deliver(&self, user: i64, line: &Line) {
        if let Some(entry) = self.presence.lock().unwrap_or_else(PoisonError::into_inner).get(&user) {
            let _ = entry.events.send(line.clone());
        }
    }

    fn signal(&self, signal: Signal) {
        if self.store.shares_database() {
            let _ = self.chores.send(Chore::Signal(signal));
        }
    }

    /// Sends an invite event to both its players.
    pub fn notify_challenge(&self, kind: &str, challenge: &Challenge) {
        let line = Line::new(&views::challenge_event(kind, challenge), false);
        self.notify(challenge.from.id, &line);
        self.notify(challenge.to.id, &line);
    }

    /// The players with an event stream open on any server.
    ///
    /// # Errors
    /// The database failed.
    pub async fn online(&self) -> Result<Vec<User>, StoreError> {
        self.store.online_users(now_ms() - SILENCE_MS).await
    }

    /// The ids of the players with a game in play.
    ///
    /// # Errors
    /// The database failed.
    pub async fn playing(&self) -> Result<HashSet<i64>, StoreError> {
        self.store.playing_users().await
    }

    /// Lapses the invites older than a day, and the real-time ones whose sender has been away
    /// (no event stream open on any server) for the away limit, counted at the earliest from
    /// when the invite was sent and this server started.
    async fn lapse_invites(&self) -> Result<(), StoreError> {
        let now = now_ms();
        let online: HashSet<i64> = self.online().await?.iter().map(|user| user.id).collect();
        for mut challenge in self.store.every_open_challenge().await? {
            let sender = challenge.from.id;
            let away_since = if challenge.game.clock.is_none() || online.contains(&sender) {
                None
            } else {
                let seen = self.store.seen_at(sender).await?.unwrap_or(0);
                Some(seen.max(challenge.created_at).max(self.started_at))
            };
            if lapsed(challenge.created_at, away_since, self.away_limit_ms, now)
                && self.store.close_challenge(&challenge.id, "expired", None).await?
            {
                "expired".clone_into(&mut challenge.status);
                self.notify_challenge("challengeCanceled", &challenge);
            }
        }
        Ok(())
    }
}

/// Whether an invite sent at `created_at` has lapsed at `now`: after a day, or once a
/// real-time invite's sender has been away (`away_since`, `None` when online or for a
/// correspondence invite) for `away_limit`.
fn lapsed(created_at: Millis, away_since: Option<Millis>, away_limit: Millis, now: Millis) -> bool {
    now - created_at >= INVITE_LIFETIME_MS || away_since.is_some_and(|since| now - since >= away_limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invites_lapse_after_a_day_or_once_a_real_time_sender_has_been_away() {
        let minute = 60_000;
        assert!(!lapsed(0, None, minute, INVITE_LIFETIME_MS - 1), "a correspondence invite waits a day");
        assert!(lapsed(0, None, minute, INVITE_LIFETIME_MS));
        assert!(!lapsed(0, Some(5_000), minute, 5_000 + minute - 1));
        assert!(lapsed(0, Some(5_000), minute, 5_000 + minute));
    }
}
