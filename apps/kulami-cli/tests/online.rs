//! `kulami online` and `kulami bot` against the real server, run in this test's process on a
//! free loopback port with a fresh SQLite file.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

/// Starts a server; its base URL. It runs until the test process ends.
fn start_server(directory: &Path) -> String {
    let config = kulami_server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: format!("sqlite:{}", directory.join("server.sqlite").display()),
        away_limit: Duration::from_secs(60),
        rate_limit: true,
        bots: None,
        web: None,
    };
    format!("http://{}", kulami_server::start_in_background(config).unwrap())
}

/// A player's own configuration directory, as on their own computer.
struct Person {
    home: PathBuf,
}

impl Person {
    fn new(directory: &Path, name: &str) -> Person {
        let home = directory.join(name);
        std::fs::create_dir_all(&home).unwrap();
        Person { home }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kulami"));
        command.args(args).env("XDG_CONFIG_HOME", &self.home).env("HOME", &self.home);
        command
    }

    /// Runs `kulami ARGS` with `input` on stdin.
    fn run(&self, args: &[&str], input: &str) -> Output {
        let mut child =
            self.command(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    }

    /// Runs `kulami ARGS`, which must succeed; its stdout.
    fn ok(&self, args: &[&str], input: &str) -> String {
        let output = self.run(args, input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "kulami {args:?}: {stderr}");
        String::from_utf8(output.stdout).unwrap()
    }

    /// The remembered account's token, as a bot or a script is given it.
    fn token(&self) -> String {
        self.account()["token"].as_str().unwrap().to_owned()
    }

    /// The remembered account.
    fn account(&self) -> Value {
        let path = self.home.join("kulami/online.json");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "the token file is readable by others: {mode:o}");
        }
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }
}

fn game(base: &str, id: &str) -> Value {
    ureq::get(&format!("{base}/api/game/{id}")).call().unwrap().into_body().read_json().unwrap()
}

/// The word after `marker` in `text`.
fn word_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let start = text.find(marker).unwrap_or_else(|| panic!("no `{marker}` in {text}")) + marker.len();
    text[start..].split(|c: char| c.is_whitespace() || c == ')' || c == ';').next().unwrap()
}

#[test]
fn two_people_register_invite_accept_and_play_from_the_terminal() {
    let directory = tempfile::tempdir().unwrap();
    let base = start_server(directory.path());
    let [alice, bob] = [Person::new(directory.path(), "alice"), Person::new(directory.path(), "bob")];
    assert!(
        alice
            .ok(&["online", "register", "alice", "--server", &base], "alice-password\n")
            .contains("signed in as alice")
    );
    bob.ok(&["online", "register", "bob", "--server", &base], "bob-password\n");
    assert_eq!(alice.account()["username"], "alice");

    // A wrong password is one clear error; the right one signs in again.
    let wrong = bob.run(&["online", "login", "bob"], "not-bobs\n");
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("401: wrong username or password"));
    bob.ok(&["online", "login", "bob"], "bob-password\n");

    let invited = alice.ok(&["online", "invite", "bob", "--color", "red", "--clock", "none", "--layout", "easy"], "");
    let invite = word_after(&invited, "invited bob (");
    assert!(invited.contains("easy, standard scoring, sender plays red, correspondence"), "{invited}");
    let listed = bob.ok(&["online", "invites"], "");
    assert!(listed.contains(invite) && listed.contains("from alice"), "{listed}");

    let accepted = bob.ok(&["online", "accept", invite], "");
    let game_id = word_after(&accepted, "game ").to_owned();
    let refused = bob.run(&["online", "accept", invite], "");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("409"), "an invite is accepted once");

    // Alice plays a1 at her terminal and leaves; the server has the move.
    let shown = alice.ok(&["online", "play", &game_id, "--color", "never"], "a1\nquit\n");
    assert!(shown.contains("your move") && shown.contains("red no clock"), "{shown}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while game(&base, &game_id)["state"]["moves"] != "a1" {
        assert!(Instant::now() < deadline, "a1 never reached the server");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Bob's illegal answer is refused with the rules' reason; then he resigns.
    let illegal = bob.ok(&["online", "play", &game_id, "--color", "never"], "a1\nresign\n");
    assert!(illegal.contains("already holds a marble"), "{illegal}");
    while game(&base, &game_id)["state"]["status"] != "resign" {
        assert!(Instant::now() < deadline, "the resignation never reached the server");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(alice.ok(&["online", "logout"], "").contains("signed out alice"));
    let gone = alice.run(&["online", "invites"], "");
    assert!(String::from_utf8_lossy(&gone.stderr).contains("not signed in"));
}

/// Starts `kulami bot` for `person`'s account, to play one game with `player` (its options).
fn start_bot(base: &str, person: &Person, player: &[&str]) -> Child {
    let token = person.token();
    let mut args = vec!["bot", "--server", base, "--token", &token, "--games", "1"];
    args.extend_from_slice(player);
    person.command(&args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Waits for a bot to end, which it must do with success before `deadline`.
fn wait_for_bot(bot: &mut Child, deadline: Instant) {
    loop {
        if let Some(status) = bot.try_wait().unwrap() {
            let mut errors = String::new();
            std::io::Read::read_to_string(bot.stderr.as_mut().unwrap(), &mut errors).unwrap();
            assert!(status.success(), "a bot failed: {errors}");
            return;
        }
        assert!(Instant::now() < deadline, "the bot did not finish its game");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn two_bots_one_built_in_one_external_accept_and_play_a_clocked_game() {
    let directory = tempfile::tempdir().unwrap();
    let base = start_server(directory.path());
    let [first, second] = [Person::new(directory.path(), "botone"), Person::new(directory.path(), "bottwo")];
    first.ok(&["online", "register", "botone", "--server", &base], "botone-password\n");
    second.ok(&["online", "register", "bottwo", "--server", &base], "bottwo-password\n");
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_kulami"));
    let mut bots = [start_bot(&base, &first, &["--level", "2"]), start_bot(&base, &second, &["--engine", &engine])];
    // Once both listen, an invite between them is accepted and played out by the bots.
    std::thread::sleep(Duration::from_millis(500));
    let invited = first.ok(&["online", "invite", "bottwo", "--color", "red", "--clock", "30+1", "--swap"], "");
    assert!(invited.contains("swap rule, 30+1"), "{invited}");
    let deadline = Instant::now() + Duration::from_secs(120);
    for bot in &mut bots {
        wait_for_bot(bot, deadline);
    }
    let profile: Value =
        ureq::get(&format!("{base}/api/users/botone")).call().unwrap().into_body().read_json().unwrap();
    assert_eq!(profile["games"], 1, "the game was played to a rated end: {profile}");
}

#[test]
fn a_level_5_bot_told_to_ponder_thinks_on_its_opponents_time_and_still_answers_in_its_own() {
    let directory = tempfile::tempdir().unwrap();
    let base = start_server(directory.path());
    let [carol, ponderer, idler] = ["carol", "ponderer", "idler"].map(|name| {
        let person = Person::new(directory.path(), name);
        person.ok(&["online", "register", name, "--server", &base], &format!("{name}-password\n"));
        person
    });
    let level_5 = ["--level", "5"];
    let mut bots =
        [start_bot(&base, &ponderer, &[&level_5[..], &["--ponder"]].concat()), start_bot(&base, &idler, &level_5)];
    std::thread::sleep(Duration::from_millis(500));
    // Carol's event stream names each game as its bot accepts (the bots move first, as red).
    let bearer = format!("Bearer {}", carol.token());
    let events = ureq::get(&format!("{base}/api/stream/event"))
        .header("Authorization", &bearer)
        .call()
        .unwrap()
        .into_body()
        .into_reader();
    for bot in ["ponderer", "idler"] {
        carol.ok(&["online", "invite", bot, "--color", "black", "--clock", "30+1"], "");
    }
    let mut game_of = std::collections::HashMap::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(events)) {
        let event: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if event["type"] == "gameStart" {
            game_of.insert(
                event["game"]["red"].as_str().unwrap().to_owned(),
                event["game"]["id"].as_str().unwrap().to_owned(),
            );
            if game_of.len() == 2 {
                break;
            }
        }
    }
    let moves_in = |bot: &str| game(&base, &game_of[bot])["state"]["moves"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(30);
    while moves_in("ponderer").is_empty() || moves_in("idler").is_empty() {
        assert!(Instant::now() < deadline, "the bots did not make their first moves");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Carol thinks for a second in both games; only the bot told to ponder uses it.
    let before = bots.each_ref().map(|bot| common::processor_ticks(bot.id()));
    std::thread::sleep(Duration::from_secs(1));
    let [pondering, idle] = [0, 1].map(|seat| common::processor_ticks(bots[seat].id()) - before[seat]);
    assert!(pondering >= 30, "{pondering} ticks of thought on the opponent's second");
    assert!(idle <= 10, "{idle} ticks used on the opponent's second without --ponder");
    // Her move stops the pondering: the reply takes the bot's own time (about 1.8 s on this
    // clock), not the four times as long that pondering runs unasked.
    let game_id = &game_of["ponderer"];
    let snapshot = game(&base, game_id);
    let layout = kulami_core::Layout::parse(snapshot["layout"].as_str().unwrap()).unwrap();
    let moves = kulami_core::notation::parse_moves(&moves_in("ponderer")).unwrap();
    let position = kulami_core::Position::from_moves(layout.into(), &moves).unwrap();
    let reply = position.legal_moves().into_iter().next().unwrap();
    let act = |game_id: &str, action: &str| {
        ureq::post(&format!("{base}/api/board/game/{game_id}/{action}"))
            .header("Authorization", &bearer)
            .send_empty()
            .unwrap();
    };
    act(game_id, &format!("move/{reply}"));
    let moved = Instant::now();
    while moves_in("ponderer").split_whitespace().count() < 3 {
        assert!(moved.elapsed() < Duration::from_secs(4), "no answer after {:?}", moved.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    for bot in ["ponderer", "idler"] {
        act(&game_of[bot], "resign");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    for bot in &mut bots {
        wait_for_bot(bot, deadline);
    }
}
