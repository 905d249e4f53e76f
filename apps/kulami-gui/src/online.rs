//! The online lobby as a model apart from its drawing: the account on a `kulami-server`, who is
//! online, the invites to and from the player, and the games they start. Requests go through
//! [`Net`]; each answer is applied only to what its request was for.

use std::collections::HashMap;
use std::time::Duration;

use web_time::Instant;

use kulami_core::Scoring;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::background::Wake;
use crate::net::{Arrival, Net, Stream, Ticket};
use crate::state::Tone;

/// The server a new player is offered: a local one on the desktop, and in a browser the site
/// that served the page.
#[must_use]
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(origin) = web_sys::window().and_then(|window| window.location().origin().ok()) {
        return origin;
    }
    "http://127.0.0.1:8080".to_owned()
}
/// How often the list of players online is asked for while the lobby is shown.
const PLAYERS_EVERY: Duration = Duration::from_secs(5);
/// How long a broken event stream waits before it is opened again.
const RECONNECT_AFTER: Duration = Duration::from_secs(2);

/// A signed-in account, kept with the settings (the token, never the password).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// The server's address.
    pub server: String,
    /// The player's name.
    pub username: String,
    /// The bearer token.
    pub token: String,
}

/// A player in the list of who is online.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlinePlayer {
    /// Their name.
    pub username: String,
    /// Their rating in standard scoring.
    pub rating: f64,
    /// Whether they are in a game.
    pub playing: bool,
    /// Whether they are a bot.
    pub bot: bool,
}

/// An open invite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    /// Its id.
    pub id: String,
    /// The sender.
    pub from: String,
    /// The invitee.
    pub to: String,
    /// Board, scoring, colours, swap rule and clock, in words.
    pub summary: String,
}

impl Invite {
    fn from_json(value: &Value) -> Option<Invite> {
        let text = |key: &str| value[key].as_str().map(str::to_owned);
        let clock = match &value["clock"] {
            Value::Null => "no clock".to_owned(),
            clock => format!("{}+{}", clock["limit"], clock["increment"]),
        };
        let swap = if value["swap"] == true { ", swap rule" } else { "" };
        let summary =
            format!("{}, {} scoring, sender plays {}{swap}, {clock}", text("board")?, text("scoring")?, text("color")?);
        Some(Invite { id: text("id")?, from: text("from")?, to: text("to")?, summary })
    }
}

/// The settings of an invite to send, as the invite form holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InviteForm {
    /// Whom to invite.
    pub to: String,
    /// A preset board's name.
    pub board: String,
    /// The scoring.
    pub scoring: Scoring,
    /// The sender's colour: `red`, `black` or `random`.
    pub color: String,
    /// The swap rule.
    pub swap: bool,
    /// Minutes and seconds of increment, or `None` for no clock.
    pub clock: Option<(u64, u64)>,
}

impl Default for InviteForm {
    fn default() -> InviteForm {
        InviteForm {
            to: String::new(),
            board: "classic".to_owned(),
            scoring: Scoring::Standard,
            color: "random".to_owned(),
            swap: false,
            clock: Some((5, 3)),
        }
    }
}

impl InviteForm {
    /// The body of `POST /api/challenge/{name}`.
    #[must_use]
    pub fn body(&self) -> Value {
        let clock = self
            .clock
            .map_or(Value::Null, |(minutes, increment)| json!({"limit": minutes * 60, "increment": increment}));
        json!({"layout": self.board, "scoring": self.scoring.to_string(), "color": self.color, "swap": self.swap, "clock": clock})
    }
}

/// What the player does in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnlineAction {
    /// Creates an account on the server and signs in.
    Register {
        /// The name.
        name: String,
        /// The password, sent once and not kept.
        password: String,
    },
    /// Signs in.
    Login {
        /// The name.
        name: String,
        /// The password, sent once and not kept.
        password: String,
    },
    /// Signs out.
    Logout,
    /// Sends an invite.
    Invite(InviteForm),
    /// Accepts an invite.
    Accept(String),
    /// Declines an invite.
    Decline(String),
    /// Withdraws an invite.
    Cancel(String),
}

/// What a request in flight was for.
#[derive(Clone, Debug)]
enum Purpose {
    SignIn { server: String, name: String },
    Logout,
    Players,
    Invite,
    Answer { id: String, verb: &'static str },
}

/// The lobby.
#[derive(Debug)]
pub struct Lobby {
    /// The server address in the form (used by the next sign-in).
    pub server: String,
    account: Option<Account>,
    players: Vec<OnlinePlayer>,
    incoming: Vec<Invite>,
    outgoing: Vec<Invite>,
    started: Vec<String>,
    message: Option<(Tone, String)>,
    awaiting: HashMap<Ticket, Purpose>,
    events: Option<Stream>,
    /// When the event stream broke, to open it again a little later.
    broken_at: Option<Instant>,
    players_asked: Option<Instant>,
    net: Net,
}

impl Lobby {
    /// A lobby signed in as `account` (if any); arrivals call `wake`.
    #[must_use]
    pub fn new(account: Option<Account>, wake: Wake) -> Lobby {
        Lobby {
            server: account.as_ref().map_or_else(default_server, |account| account.server.clone()),
            account,
            players: Vec::new(),
            incoming: Vec::new(),
            outgoing: Vec::new(),
            started: Vec::new(),
            message: None,
            awaiting: HashMap::new(),
            events: None,
            broken_at: None,
            players_asked: None,
            net: Net::new(wake),
        }
    }

    /// Sets what arrivals wake.
    pub fn set_wake(&mut self, wake: Wake) {
        self.net.set_wake(wake);
    }

    /// The signed-in account.
    #[must_use]
    pub fn account(&self) -> Option<&Account> {
        self.account.as_ref()
    }

    /// Who is online (as last asked), the player excluded.
    #[must_use]
    pub fn players(&self) -> &[OnlinePlayer] {
        &self.players
    }

    /// The open invites to the player.
    #[must_use]
    pub fn incoming(&self) -> &[Invite] {
        &self.incoming
    }

    /// The open invites the player sent.
    #[must_use]
    pub fn outgoing(&self) -> &[Invite] {
        &self.outgoing
    }

    /// The games started since the lobby opened, newest last.
    #[must_use]
    pub fn started(&self) -> &[String] {
        &self.started
    }

    /// The last thing to tell the player.
    #[must_use]
    pub fn message(&self) -> Option<&(Tone, String)> {
        self.message.as_ref()
    }

    /// Whether a request is on its way.
    #[must_use]
    pub fn busy(&self) -> bool {
        !self.awaiting.is_empty()
    }

    fn url(&self, path: &str) -> String {
        let server = self.account.as_ref().map_or(self.server.as_str(), |account| account.server.as_str());
        format!("{}{path}", server.trim_end_matches('/'))
    }

    fn send(&mut self, method: &str, path: &str, body: Option<&Value>, purpose: Purpose) {
        let url = self.url(path);
        let token = self.account.as_ref().map(|account| account.token.clone());
        let ticket = self.net.call(method, &url, token.as_deref(), body);
        self.awaiting.insert(ticket, purpose);
    }

    /// Does what the player asked.
    pub fn act(&mut self, action: OnlineAction) {
        match action {
            OnlineAction::Register { name, password } => self.sign_in("/api/account/register", name, &password),
            OnlineAction::Login { name, password } => self.sign_in("/api/token", name, &password),
            OnlineAction::Logout => {
                self.send("DELETE", "/api/token", None, Purpose::Logout);
                self.sign_out_here();
                self.message = Some((Tone::Good, "Signed out.".to_owned()));
            }
            OnlineAction::Invite(form) => {
                let path = format!("/api/challenge/{}", form.to.trim());
                self.send("POST", &path, Some(&form.body()), Purpose::Invite);
            }
            OnlineAction::Accept(id) => self.answer(id, "accept"),
            OnlineAction::Decline(id) => self.answer(id, "decline"),
            OnlineAction::Cancel(id) => self.answer(id, "cancel"),
        }
    }

    fn sign_in(&mut self, path: &str, name: String, password: &str) {
        // A new sign-in starts from nothing: the old account's stream and lists go.
        self.sign_out_here();
        let server = self.server.trim().trim_end_matches('/').to_owned();
        let body = json!({"username": name, "password": password});
        let ticket = self.net.call("POST", &format!("{server}{path}"), None, Some(&body));
        self.awaiting.insert(ticket, Purpose::SignIn { server, name });
    }

    fn answer(&mut self, id: String, verb: &'static str) {
        self.send("POST", &format!("/api/challenge/{id}/{verb}"), None, Purpose::Answer { id, verb });
    }

    /// Forgets the account here: its stream, lists and requests in flight.
    fn sign_out_here(&mut self) {
        self.account = None;
        self.events = None;
        self.broken_at = None;
        self.players.clear();
        self.incoming.clear();
        self.outgoing.clear();
        self.awaiting.retain(|_, purpose| matches!(purpose, Purpose::Logout));
    }

    /// Applies what arrived, keeps the event stream open (reopening a broken one after a pause)
    /// and, while `showing`, the list of players fresh. The window calls it before every frame.
    pub fn poll(&mut self, now: Instant, showing: bool) {
        for arrival in self.net.arrivals() {
            match arrival {
                Arrival::Answer { ticket, result } => {
                    if let Some(purpose) = self.awaiting.remove(&ticket) {
                        self.answered(purpose, result);
                    }
                }
                Arrival::Line { ticket, value } if self.is_events(ticket) => self.event(&value),
                Arrival::Ended { ticket, error } if self.is_events(ticket) => {
                    self.events = None;
                    self.broken_at = Some(now);
                    let why = error.unwrap_or_else(|| "the server closed the connection".to_owned());
                    self.message = Some((Tone::Problem, format!("Connection lost ({why}); reconnecting...")));
                }
                // A stream since closed or replaced: nobody asked for this any more.
                Arrival::Line { .. } | Arrival::Ended { .. } => {}
            }
        }
        let Some(account) = &self.account else { return };
        if self.events.is_none() && self.broken_at.is_none_or(|broken| now.duration_since(broken) >= RECONNECT_AFTER) {
            let url = format!("{}/api/stream/event", account.server);
            let token = account.token.clone();
            self.events = Some(self.net.stream(&url, Some(&token)));
        }
        let asking = self.awaiting.values().any(|purpose| matches!(purpose, Purpose::Players));
        if showing && !asking && self.players_asked.is_none_or(|asked| now.duration_since(asked) >= PLAYERS_EVERY) {
            self.players_asked = Some(now);
            self.send("GET", "/api/users/online", None, Purpose::Players);
        }
    }

    /// Asks for the players online at the next poll.
    pub fn refresh(&mut self) {
        self.players_asked = None;
    }

    fn is_events(&self, ticket: Ticket) -> bool {
        self.events.as_ref().is_some_and(|stream| stream.ticket() == ticket)
    }

    fn answered(&mut self, purpose: Purpose, result: Result<Value, String>) {
        let answer = match result {
            Ok(answer) => answer,
            Err(error) => {
                // Signing out is done here whatever the server says.
                if !matches!(purpose, Purpose::Logout) {
                    self.message = Some((Tone::Problem, capitalised(&error)));
                }
                return;
            }
        };
        match purpose {
            Purpose::SignIn { server, name } => {
                let Some(token) = answer["token"].as_str() else {
                    self.message = Some((Tone::Problem, "The server sent no token.".to_owned()));
                    return;
                };
                self.account = Some(Account { server, username: name.clone(), token: token.to_owned() });
                self.message = Some((Tone::Good, format!("Signed in as {name}.")));
                self.players_asked = None;
            }
            Purpose::Logout => {}
            Purpose::Players => {
                let me = self.account.as_ref().map(|account| account.username.clone());
                self.players = answer["users"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|user| {
                        Some(OnlinePlayer {
                            username: user["username"].as_str()?.to_owned(),
                            rating: user["rating"].as_f64().unwrap_or(1500.0),
                            playing: user["playing"] == true,
                            bot: user["bot"] == true,
                        })
                    })
                    .filter(|player| me.as_deref() != Some(player.username.as_str()))
                    .collect();
            }
            Purpose::Invite => {
                if let Some(invite) = Invite::from_json(&answer) {
                    self.message = Some((Tone::Good, format!("Invited {}.", invite.to)));
                    upsert(&mut self.outgoing, invite);
                }
            }
            Purpose::Answer { id, verb } => {
                self.incoming.retain(|invite| invite.id != id);
                self.outgoing.retain(|invite| invite.id != id);
                let done = match verb {
                    "accept" => "Accepted: the game is starting.",
                    "decline" => "Declined.",
                    _ => "Invite withdrawn.",
                };
                self.message = Some((Tone::Good, done.to_owned()));
            }
        }
    }

    /// One event of the player's stream.
    fn event(&mut self, value: &Value) {
        let me = self.account.as_ref().map(|account| account.username.clone()).unwrap_or_default();
        match value["type"].as_str() {
            Some("challenge") => {
                if let Some(invite) = Invite::from_json(&value["challenge"]) {
                    if invite.to == me {
                        upsert(&mut self.incoming, invite);
                    } else {
                        upsert(&mut self.outgoing, invite);
                    }
                }
            }
            Some(kind @ ("challengeCanceled" | "challengeDeclined")) => {
                let challenge = &value["challenge"];
                let id = challenge["id"].as_str().unwrap_or_default();
                let was_mine = self.outgoing.iter().any(|invite| invite.id == id);
                self.incoming.retain(|invite| invite.id != id);
                self.outgoing.retain(|invite| invite.id != id);
                if was_mine && kind == "challengeDeclined" {
                    let reason = challenge["reason"].as_str().map(|reason| format!(": {reason}")).unwrap_or_default();
                    let to = challenge["to"].as_str().unwrap_or("the player");
                    self.message = Some((Tone::Problem, format!("{to} declined{reason}.")));
                }
            }
            Some("gameStart") => {
                let game = &value["game"];
                if let Some(id) = game["id"].as_str().filter(|id| !self.started.iter().any(|started| started == id)) {
                    let opponent = [&game["red"], &game["black"]]
                        .into_iter()
                        .filter_map(Value::as_str)
                        .find(|name| *name != me)
                        .unwrap_or("?");
                    self.message = Some((Tone::Good, format!("Game {id} with {opponent} has started.")));
                    self.started.push(id.to_owned());
                }
            }
            _ => {}
        }
    }
}

fn upsert(invites: &mut Vec<Invite>, invite: Invite) {
    match invites.iter_mut().find(|known| known.id == invite.id) {
        Some(known) => *known = invite,
        None => invites.push(invite),
    }
}

fn capitalised(text: &str) -> String {
    let mut characters = text.chars();
    let sentence: String =
        characters.next().map(|first| first.to_uppercase().chain(characters).collect()).unwrap_or_default();
    if sentence.ends_with('.') { sentence } else { format!("{sentence}.") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_reads_from_the_server_s_json_in_words() {
        let json = json!({"id": "abc", "from": "bob", "to": "alice", "board": "easy", "scoring": "area",
            "color": "red", "swap": true, "clock": {"limit": 180, "increment": 2}});
        let invite = Invite::from_json(&json).unwrap();
        assert_eq!(invite.summary, "easy, area scoring, sender plays red, swap rule, 180+2");
        assert_eq!(Invite::from_json(&json!({"id": "abc"})), None, "an incomplete invite is left out");
    }

    #[test]
    fn the_form_sends_minutes_as_seconds_and_no_clock_as_null() {
        let mut form = InviteForm { to: "bob".to_owned(), ..InviteForm::default() };
        assert_eq!(form.body()["clock"], json!({"limit": 300, "increment": 3}));
        assert_eq!(form.body()["layout"], "classic");
        form.clock = None;
        assert_eq!(form.body()["clock"], Value::Null);
    }

    #[test]
    fn server_errors_read_as_sentences() {
        assert_eq!(capitalised("the username `bob` is taken"), "The username `bob` is taken.");
        assert_eq!(capitalised("done."), "Done.");
    }
}
