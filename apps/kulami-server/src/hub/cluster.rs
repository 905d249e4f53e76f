//! Servers sharing a PostgreSQL database tell each other of moves and player events
//! (LISTEN/NOTIFY); chores done in order after the request that caused them.

use std::sync::{Arc, PoisonError};

use serde_json::Value;

use super::{Chore, HEARTBEAT, Hub, Line, restore};
use crate::hub::now_ms;
use crate::store::StoreError;

impl Hub {
    /// Stores presence changes and sends signals, in the order they happened.
    pub(super) async fn do_chores(self: Arc<Hub>, mut queue: tokio::sync::mpsc::UnboundedReceiver<Chore>) {
        while let Some(chore) = queue.recv().await {
            let done = match chore {
                Chore::Presence { user, present, stored } => {
                    let done = self.store.set_present(&self.instance, user, present, now_ms()).await;
                    if let Some(stored) = stored {
                        let _ = stored.send(());
                    }
                    done
                }
                Chore::Signal(signal) => self.store.signal(&signal.to_payload(&self.instance)).await,
            };
            // Once shutting down, the pools close under the last chores: nothing is lost, as the
            // server's presence goes with it.
            if let Err(error) = done
                && !*self.shutdown.borrow()
            {
                eprintln!("error: {error}");
            }
        }
    }

    /// Applies what the other servers sharing the database signal: their moves in games
    /// watched here, and events for players connected here.
    pub(super) async fn follow_other_servers(self: Arc<Hub>, mut listener: crate::store::Listener) {
        loop {
            let payload = match listener.recv().await {
                Ok(payload) => payload,
                Err(error) => {
                    eprintln!("error: listening to the other servers: {error}");
                    tokio::time::sleep(HEARTBEAT).await;
                    continue;
                }
            };
            let Some((from, signal)) = Signal::from_payload(&payload) else { continue };
            if from == self.instance {
                continue;
            }
            match signal {
                Signal::User { user, line } => self.deliver(user, &Line { text: line.into(), last: false }),
                Signal::Game { id } => {
                    if let Err(error) = self.reload(&id).await {
                        eprintln!("error: game {id}: {error}");
                    }
                }
            }
        }
    }

    /// Takes the stored state of a game watched here that another server changed.
    async fn reload(self: &Arc<Hub>, id: &str) -> Result<(), StoreError> {
        let live = self.games.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned();
        let Some(live) = live else { return Ok(()) };
        let mut slot = live.slot.lock().await;
        let Some(row) = self.store.game(id).await? else { return Ok(()) };
        if row.version <= slot.version {
            return Ok(());
        }
        *slot = restore(row)?.1;
        self.publish(&live, &slot, now_ms());
        Ok(())
    }
}

/// What one server tells the others sharing its database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The game changed: reload it.
    Game {
        /// Its id.
        id: String,
    },
    /// An event for a player's streams.
    User {
        /// The player.
        user: i64,
        /// The event's JSON.
        line: String,
    },
}

impl Signal {
    fn to_payload(&self, from: &str) -> String {
        match self {
            Signal::Game { id } => serde_json::json!({"from": from, "game": id}),
            Signal::User { user, line } => serde_json::json!({"from": from, "user": user, "line": line}),
        }
        .to_string()
    }

    fn from_payload(payload: &str) -> Option<(String, Signal)> {
        let value: Value = serde_json::from_str(payload).ok()?;
        let from = value["from"].as_str()?.to_owned();
        let signal = match (value["game"].as_str(), value["user"].as_i64(), value["line"].as_str()) {
            (Some(id), _, _) => Signal::Game { id: id.to_owned() },
            (None, Some(user), Some(line)) => Signal::User { user, line: line.to_owned() },
            _ => return None,
        };
        Some((from, signal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_cross_as_json_and_anything_else_is_ignored() {
        for signal in [Signal::Game { id: "abc".into() }, Signal::User { user: 7, line: "{\"type\":\"x\"}".into() }] {
            assert_eq!(Signal::from_payload(&signal.to_payload("me")), Some(("me".to_owned(), signal)));
        }
        assert_eq!(Signal::from_payload("{\"from\": \"me\"}"), None);
        assert_eq!(Signal::from_payload("not json"), None);
    }
}
