//! `kulami online` and `kulami bot` against the real server, run in this test's process on a
//! free loopback port with a fresh SQLite file.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

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

#[test]
fn two_bots_one_built_in_one_external_accept_and_play_a_clocked_game() {
    let directory = tempfile::tempdir().unwrap();
    let base = start_server(directory.path());
    let [first, second] = [Person::new(directory.path(), "botone"), Person::new(directory.path(), "bottwo")];
    first.ok(&["online", "register", "botone", "--server", &base], "botone-password\n");
    second.ok(&["online", "register", "bottwo", "--server", &base], "bottwo-password\n");
    let token = |person: &Person| person.account()["token"].as_str().unwrap().to_owned();
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_kulami"));
    let spawn = |person: &Person, player: &[&str]| -> Child {
        let token = token(person);
        let mut args = vec!["bot", "--server", &base, "--token", &token, "--games", "1"];
        args.extend_from_slice(player);
        person.command(&args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
    };
    let mut bots = [spawn(&first, &["--level", "2"]), spawn(&second, &["--engine", &engine])];
    // Once both listen, an invite between them is accepted and played out by the bots.
    std::thread::sleep(Duration::from_millis(500));
    let invited = first.ok(&["online", "invite", "bottwo", "--color", "red", "--clock", "30+1", "--swap"], "");
    assert!(invited.contains("swap rule, 30+1"), "{invited}");
    let deadline = Instant::now() + Duration::from_secs(120);
    for bot in &mut bots {
        loop {
            if let Some(status) = bot.try_wait().unwrap() {
                let mut errors = String::new();
                std::io::Read::read_to_string(bot.stderr.as_mut().unwrap(), &mut errors).unwrap();
                assert!(status.success(), "a bot failed: {errors}");
                break;
            }
            assert!(Instant::now() < deadline, "the bots did not finish their game");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let profile: Value =
        ureq::get(&format!("{base}/api/users/botone")).call().unwrap().into_body().read_json().unwrap();
    assert_eq!(profile["games"], 1, "the game was played to a rated end: {profile}");
}
