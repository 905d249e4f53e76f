//! `kulami online ...`: an account on a `kulami-server`, invites, and games in the terminal,
//! through the server's HTTP interface (`docs/ONLINE.md`).

use std::io::{BufRead as _, BufReader, IsTerminal as _, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};
use kulami_ai::tournament::GameClock;
use kulami_core::{Color, Layout, Move, Position, notation};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::output::{out, outln};
use crate::render::{self, ColorChoice};

/// The server a fresh configuration talks to.
const DEFAULT_SERVER: &str = "http://127.0.0.1:8080";
/// The longest stream line read: far more than any game's state.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// Arguments of `kulami online`.
#[derive(Debug, Args)]
pub struct OnlineArgs {
    /// The server (remembered after `register` or `login`; default http://127.0.0.1:8080).
    #[arg(long, global = true)]
    server: Option<String>,
    #[command(subcommand)]
    command: OnlineCommand,
}

#[derive(Debug, Subcommand)]
enum OnlineCommand {
    /// Create an account and sign in (the password is asked for, or read from stdin).
    Register {
        /// The name to play under: 3 to 20 of A-Z a-z 0-9 _ -.
        name: String,
    },
    /// Sign in to an existing account; the token is kept in the configuration directory.
    Login {
        /// The account's name.
        name: String,
    },
    /// Sign out: the server forgets the token, and so does this computer.
    Logout,
    /// Who is online, and who is playing.
    Who,
    /// Invite a player to a game.
    Invite(InviteArgs),
    /// The open invites sent to you and by you.
    Invites,
    /// Accept an invite.
    Accept {
        /// The invite's id.
        id: String,
        /// Play the game at once.
        #[arg(long)]
        play: bool,
    },
    /// Decline an invite.
    Decline {
        /// The invite's id.
        id: String,
        /// A reason the sender will see.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Withdraw an invite you sent.
    Cancel {
        /// The invite's id.
        id: String,
    },
    /// Play (or watch) a game in the terminal, with the clocks shown.
    Play {
        /// The game's id.
        game: String,
        /// Colour the board: auto, always or never.
        #[arg(long, default_value = "auto")]
        color: ColorChoice,
    },
}

#[derive(Debug, Args)]
struct InviteArgs {
    /// The player to invite.
    name: String,
    /// A preset board or a one-line layout (default: classic).
    #[arg(long, conflicts_with = "random")]
    layout: Option<String>,
    /// A random board from this seed instead.
    #[arg(long)]
    random: Option<u64>,
    /// The random board's shape: square or irregular.
    #[arg(long, default_value = "square", requires = "random")]
    shape: String,
    /// Scoring: standard, area, lines or both.
    #[arg(long, default_value = "standard")]
    scoring: String,
    /// The colour you play: red (moves first), black or random.
    #[arg(long, default_value = "random")]
    color: String,
    /// Play with the swap (pie) rule.
    #[arg(long)]
    swap: bool,
    /// The clock, LIMIT+INC in seconds (e.g. 300+3), or `none` for a correspondence game.
    #[arg(long, default_value = "300+3")]
    clock: String,
    /// Wait for the answer and play the game at once.
    #[arg(long)]
    play: bool,
}

/// What `register` and `login` remember.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Account {
    server: String,
    username: String,
    token: String,
}

fn account_file() -> anyhow::Result<PathBuf> {
    Ok(dirs::config_dir().context("no configuration directory on this system")?.join("kulami").join("online.json"))
}

fn load_account() -> Option<Account> {
    let text = std::fs::read_to_string(account_file().ok()?).ok()?;
    serde_json::from_str(&text).ok()
}

fn save_account(account: &Account) -> anyhow::Result<()> {
    let path = account_file()?;
    std::fs::create_dir_all(path.parent().expect("a file in a directory"))?;
    let text = serde_json::to_string_pretty(account)?;
    #[cfg(unix)]
    {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        // The token is a password: only its owner may read it.
        let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&path)?;
        file.write_all(text.as_bytes())?;
    }
    #[cfg(not(unix))]
    std::fs::write(&path, text)?;
    Ok(())
}

/// A connection to a server, signed in or not.
#[derive(Clone)]
pub struct Connection {
    agent: ureq::Agent,
    server: String,
    token: Option<String>,
}

impl Connection {
    /// A connection to `server` with `token`.
    pub fn new(server: &str, token: Option<String>) -> Connection {
        // Statuses are answers here: the server's `{"error"}` says what went wrong.
        let agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        Connection { agent, server: server.trim_end_matches('/').to_owned(), token }
    }

    /// Sends a request; the JSON answer of a 2xx status, else the server's error as an error.
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> anyhow::Result<Value> {
        let url = format!("{}{path}", self.server);
        let request = ureq::http::Request::builder().method(method).uri(&url);
        let request = match &self.token {
            Some(token) => request.header("Authorization", format!("Bearer {token}")),
            None => request,
        };
        let response = match body {
            Some(body) => self.agent.run(request.header("Content-Type", "application/json").body(body.to_string())?),
            None => self.agent.run(request.body(())?),
        }
        .with_context(|| format!("cannot reach the server at {}", self.server))?;
        let status = response.status();
        let answer: Value = response.into_body().read_json().unwrap_or(Value::Null);
        if !status.is_success() {
            let message = answer["error"].as_str().unwrap_or("no reason given");
            bail!("the server said {}: {message}", status.as_u16());
        }
        Ok(answer)
    }

    /// Opens an NDJSON stream: its objects arrive on the receiver (keep-alives skipped) until
    /// it ends.
    pub fn stream(&self, path: &str) -> anyhow::Result<mpsc::Receiver<anyhow::Result<Value>>> {
        let url = format!("{}{path}", self.server);
        let mut request = self.agent.get(&url);
        if let Some(token) = &self.token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let response = request.call().with_context(|| format!("cannot reach the server at {}", self.server))?;
        if !response.status().is_success() {
            let status = response.status().as_u16();
            let answer: Value = response.into_body().read_json().unwrap_or(Value::Null);
            bail!("the server said {status}: {}", answer["error"].as_str().unwrap_or("no reason given"));
        }
        let reader = response.into_body().into_reader();
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(reader.take(u64::MAX));
            let mut line = String::new();
            loop {
                line.clear();
                match (&mut lines).take(MAX_LINE_BYTES as u64).read_line(&mut line) {
                    Ok(0) => return,
                    Ok(_) if line.trim().is_empty() => {}
                    Ok(_) => {
                        let value = serde_json::from_str(line.trim()).context("a stream line that is not JSON");
                        if sender.send(value).is_err() {
                            return;
                        }
                    }
                    Err(error) => {
                        let _ = sender.send(Err(anyhow::Error::new(error).context("the stream broke off")));
                        return;
                    }
                }
            }
        });
        Ok(receiver)
    }
}

/// The connection of a signed-in command: the remembered account (on `--server` if given).
fn signed_in(server: Option<&str>) -> anyhow::Result<(Connection, String)> {
    let account =
        load_account().context("not signed in: run `kulami online register NAME` or `kulami online login NAME`")?;
    let server = server.unwrap_or(&account.server);
    Ok((Connection::new(server, Some(account.token)), account.username))
}

fn read_password(prompt: &str) -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        return rpassword::prompt_password(prompt).context("cannot read the password");
    }
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).context("cannot read the password from stdin")?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

/// Runs `kulami online ...`.
pub fn run(args: &OnlineArgs) -> anyhow::Result<()> {
    let server = args.server.as_deref();
    match &args.command {
        OnlineCommand::Register { name } | OnlineCommand::Login { name } => {
            let register = matches!(args.command, OnlineCommand::Register { .. });
            let server = server.map_or_else(
                || load_account().map_or_else(|| DEFAULT_SERVER.to_owned(), |account| account.server),
                str::to_owned,
            );
            let password = read_password(&format!("password for {name}: "))?;
            let connection = Connection::new(&server, None);
            let body = json!({"username": name, "password": password});
            let path = if register { "/api/account/register" } else { "/api/token" };
            let answer = connection.call("POST", path, Some(&body))?;
            let token = answer["token"].as_str().context("the server sent no token")?.to_owned();
            save_account(&Account { server: server.clone(), username: name.clone(), token })?;
            outln!("signed in as {name} on {server}");
        }
        OnlineCommand::Logout => {
            let (connection, name) = signed_in(server)?;
            connection.call("DELETE", "/api/token", None)?;
            std::fs::remove_file(account_file()?)?;
            outln!("signed out {name}");
        }
        OnlineCommand::Who => {
            let (connection, _) = signed_in(server)?;
            let answer = connection.call("GET", "/api/users/online", None)?;
            let users = answer["users"].as_array().cloned().unwrap_or_default();
            if users.is_empty() {
                outln!("nobody is online");
            }
            for user in users {
                let doing = if user["playing"] == true { "playing" } else { "free" };
                let bot = if user["bot"] == true { " (bot)" } else { "" };
                outln!("{:<20} {:>5}  {doing}{bot}", user["username"].as_str().unwrap_or("?"), user["rating"]);
            }
        }
        OnlineCommand::Invite(invite) => {
            let (connection, me) = signed_in(server)?;
            let answer =
                connection.call("POST", &format!("/api/challenge/{}", invite.name), Some(&settings(invite)?))?;
            let id = answer["id"].as_str().context("the server sent no invite id")?.to_owned();
            outln!("invited {} ({id}): {}", invite.name, describe(&answer));
            if invite.play {
                outln!("waiting for {} to answer...", invite.name);
                let game = wait_for_answer(&connection, &id, &invite.name)?;
                play(&connection, &me, &game, ColorChoice::Auto)?;
            }
        }
        OnlineCommand::Invites => {
            let (connection, _) = signed_in(server)?;
            let answer = connection.call("GET", "/api/challenge", None)?;
            for (list, heading, whom) in [("in", "invites to you", "from"), ("out", "invites you sent", "to")] {
                let invites = answer[list].as_array().cloned().unwrap_or_default();
                outln!("{heading}: {}", if invites.is_empty() { "none" } else { "" });
                for invite in invites {
                    outln!(
                        "  {}  {whom} {}: {}",
                        invite["id"].as_str().unwrap_or("?"),
                        invite[whom].as_str().unwrap_or("?"),
                        describe(&invite)
                    );
                }
            }
        }
        OnlineCommand::Accept { id, play: at_once } => {
            let (connection, me) = signed_in(server)?;
            let answer = connection.call("POST", &format!("/api/challenge/{id}/accept"), None)?;
            let game = answer["game"].as_str().context("the server sent no game id")?.to_owned();
            outln!("game {game} started; play it with `kulami online play {game}`");
            if *at_once {
                play(&connection, &me, &game, ColorChoice::Auto)?;
            }
        }
        OnlineCommand::Decline { id, reason } => {
            let (connection, _) = signed_in(server)?;
            connection.call("POST", &format!("/api/challenge/{id}/decline"), Some(&json!({"reason": reason})))?;
            outln!("declined {id}");
        }
        OnlineCommand::Cancel { id } => {
            let (connection, _) = signed_in(server)?;
            connection.call("POST", &format!("/api/challenge/{id}/cancel"), None)?;
            outln!("cancelled {id}");
        }
        OnlineCommand::Play { game, color } => {
            let (connection, me) = signed_in(server)?;
            play(&connection, &me, game, *color)?;
        }
    }
    Ok(())
}

/// The invite's settings as the server takes them.
fn settings(invite: &InviteArgs) -> anyhow::Result<Value> {
    let layout = match (&invite.layout, invite.random) {
        (_, Some(seed)) => json!({"random": seed, "shape": invite.shape}),
        (Some(layout), None) => json!(layout),
        (None, None) => json!("classic"),
    };
    let clock = if invite.clock == "none" {
        Value::Null
    } else {
        let GameClock { limit, increment } =
            crate::match_cmd::parse_time_control(&invite.clock).map_err(anyhow::Error::msg)?;
        json!({"limit": limit.as_secs(), "increment": increment.as_secs()})
    };
    Ok(json!({"layout": layout, "scoring": invite.scoring, "color": invite.color, "swap": invite.swap, "clock": clock}))
}

/// "classic, standard scoring, you play red, swap rule, 300+3".
fn describe(invite: &Value) -> String {
    let clock = match &invite["clock"] {
        Value::Null => "correspondence".to_owned(),
        clock => format!("{}+{}", clock["limit"], clock["increment"]),
    };
    let swap = if invite["swap"] == true { ", swap rule" } else { "" };
    format!(
        "{}, {} scoring, sender plays {}{swap}, {clock}",
        invite["board"].as_str().unwrap_or("?"),
        invite["scoring"].as_str().unwrap_or("?"),
        invite["color"].as_str().unwrap_or("?")
    )
}

/// Waits on the event stream until `to` accepts (the game's id) or turns the invite down.
fn wait_for_answer(connection: &Connection, invite: &str, to: &str) -> anyhow::Result<String> {
    let events = connection.stream("/api/stream/event")?;
    for event in events {
        let event = event?;
        match event["type"].as_str() {
            Some("gameStart") if event["game"]["red"] == to || event["game"]["black"] == to => {
                if let Some(game) = event["game"]["id"].as_str() {
                    return Ok(game.to_owned());
                }
            }
            Some(kind @ ("challengeDeclined" | "challengeCanceled")) if event["challenge"]["id"] == invite => {
                let reason = event["challenge"]["reason"].as_str().map(|r| format!(": {r}")).unwrap_or_default();
                bail!(
                    "{to} did not take the invite ({}){reason}",
                    if kind == "challengeDeclined" { "declined" } else { "it lapsed" }
                );
            }
            _ => {}
        }
    }
    bail!("the server closed the event stream")
}

/// The position of a `gameFull` object with the moves of a `gameState`.
pub fn position_of(full: &Value, state: &Value) -> anyhow::Result<Position> {
    let layout = Layout::parse(full["layout"].as_str().context("no layout")?)?;
    let marbles = full["marbles"].as_u64().context("no marbles")?;
    let layout = layout.with_marbles_per_player(usize::try_from(marbles)?)?;
    let moves = notation::parse_moves(state["moves"].as_str().context("no moves")?)?;
    let start = Position::new(Arc::new(layout)).with_swap_rule(full["swap"] == true);
    Ok(start.replay(&moves)?)
}

/// The name of the player who moved first, from a `gameFull` object.
fn first_player(full: &Value) -> anyhow::Result<String> {
    let position = position_of(full, &full["state"])?;
    let first = if position.swapped() { &full["black"] } else { &full["red"] };
    Ok(first["username"].as_str().context("no player name")?.to_owned())
}

/// The colour `name` plays in `position`, if they play.
pub fn color_of(name: &str, first: &str, second: &str, position: &Position) -> Option<Color> {
    let first_color = if position.swapped() { Color::Black } else { Color::Red };
    if name == first {
        Some(first_color)
    } else if name == second {
        Some(first_color.other())
    } else {
        None
    }
}

fn clock_text(milliseconds: &Value) -> String {
    milliseconds
        .as_i64()
        .map_or_else(|| "no clock".to_owned(), |ms| format!("{}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10))
}

enum Happening {
    State(anyhow::Result<Value>),
    Typed(String),
    StreamEnded,
}

/// A game's stream, opened: its `gameFull` line, the players in the order they move, and the
/// lines to come.
pub struct GameWatch {
    /// The `gameFull` object.
    pub full: Value,
    /// The player who moved (or moves) first.
    pub first: String,
    /// The other player.
    pub second: String,
    /// The `gameState` lines after it.
    pub states: mpsc::Receiver<anyhow::Result<Value>>,
}

/// Opens the stream of `game` and reads its first line.
pub fn watch_game(connection: &Connection, game: &str) -> anyhow::Result<GameWatch> {
    let states = connection.stream(&format!("/api/board/game/stream/{game}"))?;
    let full = states.recv().context("the server sent nothing")??;
    let first = first_player(&full)?;
    let second = [&full["red"]["username"], &full["black"]["username"]]
        .into_iter()
        .filter_map(Value::as_str)
        .find(|name| *name != first)
        .context("no second player")?
        .to_owned();
    Ok(GameWatch { full, first, second, states })
}

/// Plays (or, for someone else's game, watches) `game` in the terminal.
fn play(connection: &Connection, me: &str, game: &str, color: ColorChoice) -> anyhow::Result<()> {
    let GameWatch { full, first, second, states: stream } = watch_game(connection, game)?;
    let (sender, happenings) = mpsc::channel();
    let states = sender.clone();
    std::thread::spawn(move || {
        for state in stream {
            if states.send(Happening::State(state)).is_err() {
                return;
            }
        }
        let _ = states.send(Happening::StreamEnded);
    });
    std::thread::spawn(move || {
        for line in std::io::stdin().lines().map_while(Result::ok) {
            if sender.send(Happening::Typed(line)).is_err() {
                return;
            }
        }
    });
    outln!(
        "game {game}: {first} moves first against {second}; type a hole (d4), swap, resign, abort, or quit to leave"
    );
    let mut state = full["state"].clone();
    loop {
        let position = position_of(&full, &state)?;
        let mine = color_of(me, &first, &second, &position);
        outln!("\n{}", render::board(&position, color));
        outln!("red {}   black {}", clock_text(&state["rtime"]), clock_text(&state["btime"]));
        if state["status"] != "started" {
            let winner = state["winner"].as_str().unwrap_or("nobody");
            outln!(
                "game over ({}): {winner} {}; red {} - black {}",
                state["status"].as_str().unwrap_or("?"),
                if winner == "draw" { "" } else { "wins" },
                state["score"]["red"],
                state["score"]["black"]
            );
            return Ok(());
        }
        let side = position.side_to_move();
        let to_move = if mine == Some(side) { "your move" } else { "waiting" };
        outln!("{} - {to_move}", render::status(&position));
        if mine == Some(side) {
            out!("{} > ", render::title(side));
        }
        loop {
            match happenings.recv().context("the terminal and the stream both closed")? {
                Happening::State(next) => {
                    state = next?;
                    break;
                }
                Happening::StreamEnded => bail!("the server ended the game stream"),
                Happening::Typed(line) => {
                    let line = line.trim();
                    let (path, done) = match line {
                        "" => continue,
                        "quit" => return Ok(()),
                        "resign" | "abort" => (format!("/api/board/game/{game}/{line}"), line.to_owned()),
                        text => match text.parse::<Move>() {
                            Ok(played) => (format!("/api/board/game/{game}/move/{played}"), played.to_string()),
                            Err(error) => {
                                outln!("{error}");
                                continue;
                            }
                        },
                    };
                    if let Err(error) = connection.call("POST", &path, None) {
                        outln!("{done}: {error}");
                    }
                }
            }
        }
    }
}
