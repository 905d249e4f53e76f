//! One online game as a model apart from its drawing: the position the server's stream says,
//! both clocks (counting down between the server's lines), whose turn it is, the player's
//! moves, resignation and abort, and the result with the rating change. A broken stream is
//! opened again after a pause, and its first line brings the whole game back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use web_time::Instant;

use kulami_core::{Color, Layout, Move, Position, Scoring, notation};
use serde_json::Value;

use crate::background::Wake;
use crate::net::{Arrival, Net, Stream, Ticket};
use crate::online::Account;
use crate::state::Tone;

/// How long a broken game stream waits before it is opened again.
const RECONNECT_AFTER: Duration = Duration::from_secs(2);

/// The game's fixed facts, from the stream's `gameFull` line.
#[derive(Clone, Debug)]
struct Setup {
    start: Position,
    scoring: Scoring,
    /// The players in the order they move, and their ratings at the start.
    players: [(String, f64); 2],
    /// The clock's increment, if there is a clock.
    clocked: bool,
}

/// The latest `gameState`, and when it came.
#[derive(Clone, Debug)]
struct Latest {
    position: Position,
    /// Red's and black's time left, in milliseconds, as of `at`.
    times: Option<[i64; 2]>,
    status: String,
    winner: Option<String>,
    score: [u64; 2],
    at: Instant,
}

#[derive(Clone, Copy, Debug)]
enum Purpose {
    Move,
    Resign,
    Abort,
    Rating,
}

/// An online game.
#[derive(Debug)]
pub struct OnlineGame {
    id: String,
    account: Account,
    setup: Option<Setup>,
    latest: Option<Latest>,
    message: Option<(Tone, String)>,
    /// The rating after the game, once asked for.
    rating_after: Option<f64>,
    stream: Option<Stream>,
    broken_at: Option<Instant>,
    awaiting: HashMap<Ticket, Purpose>,
    net: Net,
}

impl OnlineGame {
    /// Opens game `id` as `account`'s player (or spectator).
    #[must_use]
    pub fn open(account: Account, id: &str, wake: Wake) -> OnlineGame {
        OnlineGame {
            id: id.to_owned(),
            account,
            setup: None,
            latest: None,
            message: None,
            rating_after: None,
            stream: None,
            broken_at: None,
            awaiting: HashMap::new(),
            net: Net::new(wake),
        }
    }

    /// The game's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Sets what arrivals wake.
    pub fn set_wake(&mut self, wake: Wake) {
        self.net.set_wake(wake);
    }

    /// The position, once the server has sent it.
    #[must_use]
    pub fn position(&self) -> Option<&Position> {
        self.latest.as_ref().map(|latest| &latest.position)
    }

    /// The last thing to tell the player.
    #[must_use]
    pub fn message(&self) -> Option<&(Tone, String)> {
        self.message.as_ref()
    }

    /// Whether the game is still being played.
    #[must_use]
    pub fn running(&self) -> bool {
        self.latest.as_ref().is_some_and(|latest| latest.status == "started")
    }

    /// Whether the stream is down and being reopened.
    #[must_use]
    pub fn reconnecting(&self) -> bool {
        self.stream.is_none() && self.running()
    }

    /// The player playing `color` now (after a swap the first player plays black).
    #[must_use]
    pub fn player(&self, color: Color) -> Option<&str> {
        let setup = self.setup.as_ref()?;
        let swapped = self.position().is_some_and(Position::swapped);
        let first_color = if swapped { Color::Black } else { Color::Red };
        Some(&setup.players[usize::from(color != first_color)].0)
    }

    /// The colour the signed-in player plays, if they play.
    #[must_use]
    pub fn my_color(&self) -> Option<Color> {
        Color::BOTH.into_iter().find(|&color| self.player(color) == Some(self.account.username.as_str()))
    }

    /// Whether it is the signed-in player's turn.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.running() && self.position().map(Position::side_to_move) == self.my_color()
    }

    /// `color`'s time left at `now`: the server's figure, counted down on the side to move's
    /// clock since it came (`None` without a clock).
    #[must_use]
    pub fn time_left(&self, color: Color, now: Instant) -> Option<Duration> {
        let latest = self.latest.as_ref()?;
        let stored = latest.times?[color.index()];
        let running =
            latest.status == "started" && latest.position.move_count() > 0 && latest.position.side_to_move() == color;
        let elapsed = if running { now.duration_since(latest.at) } else { Duration::ZERO };
        Some(Duration::from_millis(u64::try_from(stored).unwrap_or(0)).saturating_sub(elapsed))
    }

    /// Whether the game has a clock.
    #[must_use]
    pub fn clocked(&self) -> bool {
        self.setup.as_ref().is_some_and(|setup| setup.clocked)
    }

    /// The result in words, once the game is over: who won, how, the score and the player's
    /// rating change.
    #[must_use]
    pub fn result(&self) -> Option<String> {
        let latest = self.latest.as_ref().filter(|latest| latest.status != "started")?;
        let how = match latest.status.as_str() {
            "resign" => " by resignation",
            "timeout" => " on time",
            _ => "",
        };
        let outcome = match latest.winner.as_deref() {
            None => "The game was aborted.".to_owned(),
            Some("draw") => format!("A draw, {} to {}.", latest.score[0], latest.score[1]),
            Some(winner) => {
                let color = if winner == "red" { Color::Red } else { Color::Black };
                let name = self.player(color).unwrap_or(winner);
                // The winner's score first, as a local game's result says it.
                let [red, black] = latest.score;
                let (theirs, other) = if color == Color::Red { (red, black) } else { (black, red) };
                format!("{name} ({winner}) wins{how}, {theirs} to {other}.")
            }
        };
        let before = self.setup.as_ref().and_then(|setup| {
            setup.players.iter().find(|(name, _)| *name == self.account.username).map(|(_, rating)| *rating)
        });
        let change = match (before, self.rating_after) {
            (Some(before), Some(after)) if latest.winner.is_some() => {
                format!(" Your rating: {before:.0} -> {after:.0} ({:+.0}).", after - before)
            }
            _ => String::new(),
        };
        Some(outcome + &change)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.account.server.trim_end_matches('/'))
    }

    fn post(&mut self, path: &str, purpose: Purpose) {
        let url = self.url(path);
        let ticket = self.net.call("POST", &url, Some(&self.account.token.clone()), None);
        self.awaiting.insert(ticket, purpose);
    }

    /// Plays `played`, if it is the player's turn (the server judges it).
    pub fn play(&mut self, played: Move) {
        if self.my_turn() {
            self.post(&format!("/api/board/game/{}/move/{played}", self.id), Purpose::Move);
        }
    }

    /// Resigns.
    pub fn resign(&mut self) {
        self.post(&format!("/api/board/game/{}/resign", self.id), Purpose::Resign);
    }

    /// Calls the game off (possible until both have moved).
    pub fn abort(&mut self) {
        self.post(&format!("/api/board/game/{}/abort", self.id), Purpose::Abort);
    }

    /// Applies what arrived and keeps the stream open while the game runs.
    pub fn poll(&mut self, now: Instant) {
        for arrival in self.net.arrivals() {
            match arrival {
                Arrival::Answer { ticket, result } => match (self.awaiting.remove(&ticket), result) {
                    (Some(Purpose::Rating), Ok(profile)) => {
                        let scoring = self.setup.as_ref().map_or(Scoring::Standard, |setup| setup.scoring);
                        self.rating_after = profile["ratings"][scoring.to_string()]["rating"].as_f64();
                    }
                    (Some(_), Err(error)) => self.message = Some((Tone::Problem, error)),
                    _ => {}
                },
                Arrival::Line { ticket, value } if self.is_stream(ticket) => self.line(&value, now),
                Arrival::Ended { ticket, error } if self.is_stream(ticket) => {
                    self.stream = None;
                    if self.running() || self.latest.is_none() {
                        self.broken_at = Some(now);
                        let why = error.unwrap_or_else(|| "the server closed the connection".to_owned());
                        self.message = Some((Tone::Problem, format!("Connection lost ({why}); reconnecting...")));
                    }
                }
                Arrival::Line { .. } | Arrival::Ended { .. } => {}
            }
        }
        let finished = self.latest.as_ref().is_some_and(|latest| latest.status != "started");
        if !finished
            && self.stream.is_none()
            && self.broken_at.is_none_or(|broken| now.duration_since(broken) >= RECONNECT_AFTER)
        {
            let url = self.url(&format!("/api/board/game/stream/{}", self.id));
            self.stream = Some(self.net.stream(&url, None));
        }
    }

    fn is_stream(&self, ticket: Ticket) -> bool {
        self.stream.as_ref().is_some_and(|stream| stream.ticket() == ticket)
    }

    fn line(&mut self, value: &Value, now: Instant) {
        let state = match value["type"].as_str() {
            Some("gameFull") => match setup_of(value) {
                Some(setup) => {
                    self.setup = Some(setup);
                    // A reconnect's first line: the whole game again.
                    if self.broken_at.take().is_some() {
                        self.message = Some((Tone::Good, "Reconnected.".to_owned()));
                    }
                    &value["state"]
                }
                None => {
                    self.message = Some((Tone::Problem, "The server sent a game this version cannot read.".to_owned()));
                    return;
                }
            },
            Some("gameState") => value,
            _ => return,
        };
        let Some(setup) = &self.setup else { return };
        let Some(latest) = latest_of(setup, state, now) else {
            self.message = Some((Tone::Problem, "The server sent moves this board does not allow.".to_owned()));
            return;
        };
        let ended = latest.status != "started" && self.latest.as_ref().is_none_or(|known| known.status == "started");
        self.latest = Some(latest);
        if ended && self.my_color().is_some() {
            let url = self.url(&format!("/api/users/{}", self.account.username));
            let ticket = self.net.call("GET", &url, None, None);
            self.awaiting.insert(ticket, Purpose::Rating);
        }
    }
}

fn setup_of(full: &Value) -> Option<Setup> {
    let marbles = usize::try_from(full["marbles"].as_u64()?).ok()?;
    let layout = Layout::parse(full["layout"].as_str()?).ok()?.with_marbles_per_player(marbles).ok()?;
    let start = Position::new(Arc::new(layout)).with_swap_rule(full["swap"] == true);
    let moves = notation::parse_moves(full["state"]["moves"].as_str()?).ok()?;
    let swapped = start.clone().replay(&moves).ok()?.swapped();
    let player = |color: &str| Some((full[color]["username"].as_str()?.to_owned(), full[color]["rating"].as_f64()?));
    // The players in the order they move: red first, unless a swap has already exchanged them.
    let (red, black) = (player("red")?, player("black")?);
    let players = if swapped { [black, red] } else { [red, black] };
    Some(Setup { start, scoring: full["scoring"].as_str()?.parse().ok()?, players, clocked: !full["clock"].is_null() })
}

fn latest_of(setup: &Setup, state: &Value, now: Instant) -> Option<Latest> {
    let moves = notation::parse_moves(state["moves"].as_str()?).ok()?;
    let position = setup.start.clone().replay(&moves).ok()?;
    let times = state["rtime"].as_i64().zip(state["btime"].as_i64()).map(|(red, black)| [red, black]);
    Some(Latest {
        position,
        times,
        status: state["status"].as_str()?.to_owned(),
        winner: state["winner"].as_str().map(str::to_owned),
        score: [state["score"]["red"].as_u64()?, state["score"]["black"].as_u64()?],
        at: now,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn game(full: &Value) -> OnlineGame {
        let account =
            Account { server: "http://127.0.0.1:1".to_owned(), username: "alice".to_owned(), token: "t".to_owned() };
        let mut game = OnlineGame::open(account, "g", Arc::new(|| {}));
        game.line(full, Instant::now());
        game
    }

    fn full(moves: &str, status: &str, swap: bool) -> Value {
        json!({"type": "gameFull", "id": "g", "layout": "AABB/CCDD", "marbles": 4, "scoring": "standard", "swap": swap,
            "red": {"username": "bob", "rating": 1500.0}, "black": {"username": "alice", "rating": 1500.0},
            "clock": {"limit": 60, "increment": 0},
            "state": {"type": "gameState", "moves": moves, "rtime": 60000, "btime": 50000, "status": status,
                "winner": null, "score": {"red": 0, "black": 0}}})
    }

    #[test]
    fn the_clock_of_the_side_to_move_counts_down_from_the_server_s_figure() {
        let game = game(&full("a1", "started", false));
        let later = Instant::now() + Duration::from_secs(3);
        assert_eq!(game.my_color(), Some(Color::Black));
        assert!(game.my_turn());
        let left = game.time_left(Color::Black, later).unwrap();
        assert!(left <= Duration::from_secs(47) && left > Duration::from_secs(46), "{left:?}");
        assert_eq!(game.time_left(Color::Red, later), Some(Duration::from_secs(60)), "red's clock is stopped");
    }

    #[test]
    fn after_a_swap_the_names_follow_the_marbles() {
        // Bob moved first and alice swapped: alice is red now, and bob (black) is to move.
        let game = game(
            &json!({"type": "gameFull", "id": "g", "layout": "AABB/CCDD", "marbles": 4, "scoring": "standard",
            "swap": true, "red": {"username": "alice", "rating": 1500.0}, "black": {"username": "bob", "rating": 1500.0},
            "clock": null, "state": {"type": "gameState", "moves": "a1 swap", "rtime": null, "btime": null,
                "status": "started", "winner": null, "score": {"red": 1, "black": 0}}}),
        );
        assert_eq!((game.player(Color::Red), game.my_color()), (Some("alice"), Some(Color::Red)));
        assert!(!game.my_turn());
        assert_eq!(game.time_left(Color::Red, Instant::now()), None);
    }

    #[test]
    fn a_finished_game_says_who_won_and_how() {
        let mut value = full("a1 c1", "resign", false);
        value["state"]["winner"] = json!("black");
        value["state"]["score"] = json!({"red": 5, "black": 3});
        let game = game(&value);
        assert!(!game.running() && !game.my_turn());
        assert_eq!(game.result().unwrap(), "alice (black) wins by resignation, 3 to 5.", "the winner's score first");
    }
}
