//! One whole online game between the desktop game and the browser edition, through one server,
//! as two people on two machines play it: the test starts an X server of its own (Xvfb), the
//! desktop game's program in it (reading it through its `--probe` file and clicking it with
//! `xdotool`), Chromium in a window beside it (through chromedriver), and the real server. The
//! desktop player invites the page's player from the list of players online, the page accepts,
//! and they play every move by clicks until the game ends; both windows must show every move and
//! the same result. The screen is saved as `target/desktop-and-browser-*.png` and must not be blank.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code, reason = "each test uses its part of the harness")]
mod support;

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};
use support::{Driver, Page, Player, Screen, Window, moves, online_game, online_moves, save_with_account};

/// The screen of the test's X server, wide enough for the two windows side by side.
const SCREEN: (u32, u32) = (1900, 1000);

/// An X server of the test's own, ended with the test.
struct Display {
    child: Child,
    /// Its name for `DISPLAY`, like `:3`.
    name: String,
}

impl Display {
    fn start() -> Display {
        // Xvfb picks a free display itself and names it on the descriptor `-displayfd` gives,
        // once it takes connections.
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", &format!("{}x{}x24", SCREEN.0, SCREEN.1), "-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is installed (Debian's xvfb; .ci/run installs it)");
        let mut number = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut number)
            .expect("Xvfb names its display");
        assert!(!number.trim().is_empty(), "Xvfb did not start");
        Display { child, name: format!(":{}", number.trim()) }
    }

    /// The whole screen as a PNG, checked not to be blank and saved as `name` in the target folder.
    fn screenshot(&self, name: &str) {
        let shot = Command::new("import")
            .args(["-display", &self.name, "-window", "root", "png:-"])
            .output()
            .expect("ImageMagick's import is installed (.ci/run installs it)");
        assert!(shot.status.success(), "import failed: {}", String::from_utf8_lossy(&shot.stderr));
        support::keep_screenshot(name, &shot.stdout);
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The desktop game's program, running on a [`Display`] and ended with the test.
struct Desktop {
    child: Child,
    display: String,
    probe: PathBuf,
    /// Its window, as `xdotool` names it.
    window: String,
}

impl Desktop {
    /// Starts `program` with its settings and saves in `home`, as big as the left half of the screen.
    fn start(program: &Path, display: &Display, home: &Path) -> Desktop {
        let probe = home.join("probe.json");
        let child = Command::new(program)
            .args(["--size", "940x980", "--probe"])
            .arg(&probe)
            .env("DISPLAY", &display.name)
            .env("XDG_DATA_HOME", home)
            .stdout(Stdio::null())
            .spawn()
            .expect("the desktop game starts");
        let found = Command::new("xdotool")
            .args(["search", "--sync", "--onlyvisible", "--pid", &child.id().to_string(), "--name", "^Kulami$"])
            .env("DISPLAY", &display.name)
            .output()
            .expect("xdotool is installed (.ci/run installs it)");
        let window = String::from_utf8_lossy(&found.stdout).lines().next().unwrap_or_default().to_owned();
        assert!(!window.is_empty(), "the desktop game's window did not appear");
        Desktop { child, display: display.name.clone(), probe, window }
    }
}

impl Screen for Desktop {
    const NAME: &str = "desktop game";

    /// What the program last wrote to its `--probe` file.
    async fn probe(&self) -> Value {
        std::fs::read_to_string(&self.probe)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null)
    }

    /// In the window's points, which the X server counts in pixels.
    async fn click(&self, x: f64, y: f64) {
        let scale = self.probe().await["pixels_per_point"].as_f64().unwrap_or(1.0);
        let (x, y) = ((x * scale).round().to_string(), (y * scale).round().to_string());
        let status = tokio::process::Command::new("xdotool")
            .args(["mousemove", "--window", &self.window, &x, &y, "click", "1"])
            .env("DISPLAY", &self.display)
            .status()
            .await
            .expect("xdotool runs");
        assert!(status.success(), "xdotool could not click the desktop game");
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The name of the player to move in the online game `snapshot`.
fn player_to_move(snapshot: &Value) -> String {
    let color = online_game(snapshot).position().side_to_move();
    let color = serde_json::to_value(color).expect("a colour");
    snapshot[color.as_str().expect("a colour's name")]["username"].as_str().expect("a player").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desktop_game_and_the_browser_edition_play_a_whole_game() {
    let program = support::build_desktop_game();
    let data = tempfile::tempdir().expect("a scratch folder");
    let base = support::serve_site(data.path());
    let desk = Player::register(&base, "deskplayer").await;
    let web = Player::register(&base, "webplayer").await;

    let display = Display::start();
    let home = data.path().join("desktop");
    std::fs::create_dir_all(home.join("kulami")).expect("the desktop's folder");
    std::fs::write(home.join("kulami/autosave.json"), save_with_account(&base, &desk)).expect("the desktop's save");
    let desktop = Desktop::start(&program, &display, &home);
    let driver = Driver::start(Some(&display.name));
    let window = Window::At { x: 950, y: 0, width: SCREEN.0 - 950, height: SCREEN.1 };
    let page = Page { client: support::browser(&driver, &data.path().join("chromium"), window).await };
    page.client.goto(&base).await.expect("the page loads");
    page.wait_for("its first frame", |probe| probe["frames"].as_u64() > Some(0)).await;
    page.client
        .execute("localStorage.setItem('kulami.autosave', arguments[0]);", vec![json!(save_with_account(&base, &web))])
        .await
        .expect("the page's storage takes the account");
    page.client.refresh().await.expect("the page reloads");

    // Both go online; the desktop player invites the page's player from the list of players online.
    page.click_spot("controls", "Play online").await;
    page.wait_for("the lobby, signed in", |probe| probe["app"]["online"]["user"] == "webplayer").await;
    desktop.click_spot("controls", "Play online").await;
    desktop.wait_for("the lobby, signed in", |probe| probe["app"]["online"]["user"] == "deskplayer").await;
    desktop.click_spot("controls", "Invite webplayer").await;
    desktop.click_spot("controls", "Send invite").await;
    page.click_spot("controls", "Accept deskplayer's invite").await;
    let opened = page.wait_for("the online game", |probe| probe["app"]["screen"] == "online-game").await;
    let id = opened["app"]["online"]["game"].as_str().expect("a game id").to_owned();
    desktop.wait_for("the same game", |probe| probe["app"]["online"]["game"] == id.as_str()).await;

    // Every move is a click in the window of the player to move, on a legal hole chosen by the
    // rules; both windows show it before the next.
    let started = Instant::now();
    let mut snapshot = desk.game(&id).await;
    while snapshot["state"]["status"] == "started" {
        let number = online_moves(&snapshot);
        let legal: Vec<String> =
            online_game(&snapshot).position().legal_moves().iter().map(|cell| cell.to_string()).collect();
        let chosen = legal[(number * 7 + 3) % legal.len()].clone();
        if player_to_move(&snapshot) == desk.name {
            desktop.wait_for("its turn", |probe| probe["app"]["online"]["my_turn"] == true).await;
            desktop.click_hole_until_played(&chosen, number + 1).await;
        } else {
            page.wait_for("its turn", |probe| probe["app"]["online"]["my_turn"] == true).await;
            page.click_hole_until_played(&chosen, number + 1).await;
        }
        let shown = |probe: &Value| moves(probe, &["app", "online", "moves"]).len() == number + 1;
        for seen in [desktop.wait_for(&format!("move {}", number + 1), shown).await, page.wait_for("it", shown).await] {
            assert_eq!(moves(&seen, &["app", "online", "moves"]).last(), Some(&chosen));
        }
        if number == 20 {
            display.screenshot("desktop-and-browser-playing.png");
        }
        snapshot = desk.game(&id).await;
    }
    let played = online_moves(&snapshot);
    eprintln!("measured: {played} moves by clicks in {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(snapshot["state"]["status"], "finished", "the game was played out: {snapshot:#}");
    assert!(online_game(&snapshot).position().is_game_over(), "the rules agree that it is over");

    // Both windows show the whole game, the same result and each player's new rating.
    let over =
        |probe: &Value| probe["app"]["online"]["result"].as_str().is_some_and(|result| result.contains("Your rating"));
    let (on_desktop, on_page) = (desktop.wait_for("the result", over).await, page.wait_for("the result", over).await);
    let mut outcomes = Vec::new();
    for seen in [&on_desktop, &on_page] {
        assert_eq!(moves(seen, &["app", "online", "moves"]).len(), played);
        let result = seen["app"]["online"]["result"].as_str().expect("a result");
        eprintln!("a window shows: {result}");
        outcomes.push(result.split(" Your rating").next().expect("an outcome").to_owned());
    }
    assert_eq!(outcomes[0], outcomes[1], "both windows say how it ended");
    eprintln!("the server: {}", snapshot["state"]);
    display.screenshot("desktop-and-browser-over.png");
    page.client.close().await.expect("the browser closes");
}
