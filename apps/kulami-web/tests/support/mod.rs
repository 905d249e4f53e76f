//! What the browser tests share: the site and the desktop game built, the real server's players,
//! chromedriver and the page it drives, and the checks on screenshots.

use std::net::TcpListener;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource as _, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder};
use kulami_core::{Game, GameRecord};
use serde_json::{Value, json};

/// How long the test waits for what the page or the server should do soon.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The target directory of what the tests build: one of their own, since the test's cargo holds
/// the workspace's.
pub fn test_target() -> PathBuf {
    root().join("target/browser-test")
}

/// Runs `cargo args` in the workspace with [`test_target`], failing the test if it fails.
fn cargo(args: &[&str]) {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    // Without what `cargo test` set for this test, or the build would differ from one run by
    // hand and start from scratch each time.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if (name.starts_with("CARGO_") && name != "CARGO_HOME") || name == "LD_LIBRARY_PATH" {
            cargo.env_remove(&*name);
        }
    }
    let status =
        cargo.args(args).env("CARGO_TARGET_DIR", test_target()).current_dir(root()).status().expect("cargo runs");
    assert!(status.success(), "`cargo {}` failed ({status}): see its output above", args.join(" "));
}

/// Builds the site with `cargo xtask web`, and returns its folder.
fn build_site() -> PathBuf {
    cargo(&["xtask", "web"]);
    test_target().join("site")
}

/// Builds the site and serves it with the real server (its database in `data`); returns the
/// server's address, `http://127.0.0.1:PORT`.
pub fn serve_site(data: &Path) -> String {
    let site = build_site();
    let address = kulami_server::start_in_background(kulami_server::Config {
        listen: "127.0.0.1:0".parse().expect("an address"),
        database: format!("sqlite:{}", data.join("server.sqlite").display()),
        away_limit: Duration::from_secs(60),
        rate_limit: false,
        bots: None,
        web: Some(site),
    })
    .expect("the server starts");
    format!("http://{address}")
}

/// Builds the desktop game, and returns its program.
pub fn build_desktop_game() -> PathBuf {
    cargo(&["build", "-p", "kulami-gui", "--bin", "kulami-gui"]);
    test_target().join("debug/kulami-gui")
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|listener| listener.local_addr()).expect("a free port").port()
}

/// chromedriver on a free port, ended with the test.
pub struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    /// chromedriver, whose browsers open on the X display `display` (`:99`) if there is one.
    pub fn start(display: Option<&str>) -> Driver {
        let port = free_port();
        // Its own process group, which the browsers it starts join: ended together in `drop`,
        // even when the test fails before it closes its session.
        let mut chromedriver = Command::new("chromedriver");
        if let Some(display) = display {
            chromedriver.env("DISPLAY", display);
        }
        let child = chromedriver
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is installed (Debian's chromium-driver; .ci/run installs it)");
        Driver { child, url: format!("http://127.0.0.1:{port}") }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where Chromium shows the page.
#[derive(Clone, Copy, Debug)]
pub enum Window {
    /// Nowhere: headless, 1280x800.
    Headless,
    /// A window on [`Driver`]'s display, its top left corner at `x`, `y`, `width` by `height`.
    At { x: u32, y: u32, width: u32, height: u32 },
}

/// Chromium, as the machine's closed network needs it: no background connections.
pub async fn browser(driver: &Driver, profile: &Path, window: Window) -> Client {
    let mut args = vec![
        "--no-sandbox".to_owned(),
        "--enable-unsafe-swiftshader".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-quic".to_owned(),
        format!("--user-data-dir={}", profile.display()),
    ];
    match window {
        Window::Headless => args.extend(["--headless=new".to_owned(), "--window-size=1280,800".to_owned()]),
        Window::At { x, y, width, height } => {
            args.extend([format!("--window-position={x},{y}"), format!("--window-size={width},{height}")]);
        }
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".to_owned(), json!({ "binary": "/usr/bin/chromium", "args": args }));
    let deadline = Instant::now() + PATIENCE;
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(capabilities.clone()).connect(&driver.url).await {
            Ok(client) => return client,
            Err(error) if Instant::now() < deadline => {
                eprintln!("waiting for chromedriver: {error}");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            Err(error) => panic!("chromedriver did not start a browser: {error}"),
        }
    }
}

/// The page, through WebDriver.
pub struct Page {
    pub client: Client,
}

/// A window a test drives like a player: it reads what the app shows through its probe (the same
/// JSON from the page and from the desktop game) and clicks where the probe says.
pub trait Screen {
    /// Which window, in messages.
    const NAME: &str;

    /// The app's probe, `Null` before the program has started.
    async fn probe(&self) -> Value;

    /// A left click at `x`, `y` (in the app's points from the window's top left), as a mouse does it.
    async fn click(&self, x: f64, y: f64);

    /// Waits until `ready` holds of the probe, and returns that probe.
    async fn wait_for(&self, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let probe = self.probe().await;
            if ready(&probe) {
                return probe;
            }
            assert!(
                Instant::now() < deadline,
                "the {} never showed {what}; last probe: {:#}",
                Self::NAME,
                brief(&probe)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Clicks the spot named `name` in the probe's list `list` (`holes` or `controls`).
    async fn click_spot(&self, list: &str, name: &str) {
        let probe = self.wait_for(&format!("{name} in {list}"), |probe| spot(probe, list, name).is_some()).await;
        let (x, y) = spot(&probe, list, name).expect("just seen");
        self.click(x, y).await;
    }

    /// Clicks the spot `name` in `list` until the probe shows that the click was `taken`: under
    /// software rendering a frame can take over a second, and egui takes a press and a release
    /// that far apart for a long press rather than a click, as it should. A click after one that
    /// did count is refused by the app or lands elsewhere, so nothing happens twice.
    async fn click_until_taken(&self, list: &str, name: &str, taken: impl Fn(&Value) -> bool) {
        for _ in 0..5 {
            self.click_spot(list, name).await;
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if taken(&self.probe().await) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            eprintln!("note: the click on {name} in the {} was not taken; clicking again", Self::NAME);
        }
        panic!("five clicks on {name} in the {} were not taken", Self::NAME);
    }

    /// Clicks the hole `name` of the online game until its move `number` is on the board (a
    /// click on a hole when it is not the player's turn is refused, so it cannot play twice).
    async fn click_hole_until_played(&self, name: &str, number: usize) {
        self.click_until_taken("holes", name, |probe| moves(probe, &["app", "online", "moves"]).len() >= number).await;
    }
}

impl Screen for Page {
    const NAME: &str = "page";

    /// What `window.kulami.probe()` says.
    async fn probe(&self) -> Value {
        self.client
            .execute("return window.kulami ? window.kulami.probe() : null;", vec![])
            .await
            .expect("the page runs scripts")
    }

    /// CSS pixels from the page's top left.
    async fn click(&self, x: f64, y: f64) {
        let mouse = MouseActions::new("mouse".to_owned())
            .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(30)), x, y })
            .then(PointerAction::Pause { duration: Duration::from_millis(30) })
            .then(PointerAction::Down { button: 0 })
            .then(PointerAction::Up { button: 0 });
        self.client.perform_actions(mouse).await.expect("the click is performed");
    }
}

impl Page {
    /// The page's screenshot, checked not to be blank, saved as `name` in the target folder.
    pub async fn screenshot(&self, name: &str) {
        let bytes = self.client.screenshot().await.expect("a screenshot");
        keep_screenshot(name, &bytes);
    }
}

/// Saves the PNG `bytes` as `name` in the target folder, and fails if it is blank.
pub fn keep_screenshot(name: &str, bytes: &[u8]) {
    let colors = distinct_colors(bytes);
    std::fs::write(root().join("target").join(name), bytes).expect("the screenshot is saved");
    assert!(colors > 50, "the screenshot {name} is blank: {colors} colours");
}

/// `probe` with its long lists (the holes, the legal moves, the frame times) as their lengths, so
/// that a failure's message shows the screen, the controls and the rest.
fn brief(probe: &Value) -> Value {
    let mut brief = probe.clone();
    for list in [&["app", "holes"][..], &["app", "legal"], &["frame_ms"]] {
        let Some((last, path)) = list.split_last() else { continue };
        let parent = path.iter().try_fold(&mut brief, |value, key| value.get_mut(*key));
        if let Some(entry) = parent.and_then(|parent| parent.get_mut(*last))
            && let Some(items) = entry.as_array().map(Vec::len)
        {
            *entry = json!(format!("{items} entries"));
        }
    }
    brief
}

/// The place of `name` in the probe's `list`.
pub fn spot(probe: &Value, list: &str, name: &str) -> Option<(f64, f64)> {
    probe["app"][list]
        .as_array()?
        .iter()
        .find(|spot| spot["name"] == name)
        .map(|spot| (spot["x"].as_f64().unwrap_or_default(), spot["y"].as_f64().unwrap_or_default()))
}

/// How many different colours a PNG has (a blank page has one or two).
fn distinct_colors(png_bytes: &[u8]) -> usize {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().expect("a PNG");
    let mut pixels = vec![0; decoder.output_buffer_size().expect("a size")];
    let frame = decoder.next_frame(&mut pixels).expect("a frame");
    let channels = frame.color_type.samples();
    let mut colors: Vec<&[u8]> = pixels[..frame.buffer_size()].chunks(channels).collect();
    colors.sort_unstable();
    colors.dedup();
    colors.len()
}

pub fn moves(probe: &Value, path: &[&str]) -> Vec<String> {
    let value = path.iter().fold(probe, |value, key| &value[key]);
    value
        .as_array()
        .map(|moves| moves.iter().filter_map(|played| played.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// A player of the server, through its HTTP interface.
pub struct Player {
    http: reqwest::Client,
    base: String,
    pub name: String,
    pub token: String,
}

impl Player {
    pub async fn register(base: &str, name: &str) -> Player {
        let http = reqwest::Client::new();
        let answer: Value = http
            .post(format!("{base}/api/account/register"))
            .json(&json!({"username": name, "password": "correct horse"}))
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("JSON");
        let token = answer["token"].as_str().expect("a token").to_owned();
        Player { http, base: base.to_owned(), name: name.to_owned(), token }
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .expect("the server answers");
        assert!(response.status().is_success(), "POST {path}: {}", response.status());
        response.json().await.expect("JSON")
    }

    pub async fn game(&self, id: &str) -> Value {
        self.http
            .get(format!("{}/api/game/{id}", self.base))
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("JSON")
    }
}

/// The text of an app's save with `player` signed in to the server at `base`, as a returning
/// player's is: for the desktop game's save file and the page's storage alike.
pub fn save_with_account(base: &str, player: &Player) -> String {
    let mut saved = kulami_gui::saved::Saved::capture(&kulami_gui::state::GameState::default(), Default::default());
    saved.online = Some(kulami_gui::online::Account {
        server: base.to_owned(),
        username: player.name.clone(),
        token: player.token.clone(),
    });
    saved.to_text()
}

/// The online game `snapshot` (a `GET /api/game/{id}`), replayed by the rules.
pub fn online_game(snapshot: &Value) -> Game {
    let record = GameRecord {
        layout: snapshot["layout"].as_str().expect("a layout").to_owned(),
        marbles_per_player: snapshot["marbles"].as_u64().map(|marbles| marbles as usize),
        scoring: serde_json::from_value(snapshot["scoring"].clone()).expect("a scoring"),
        moves: snapshot["state"]["moves"]
            .as_str()
            .unwrap_or_default()
            .split_whitespace()
            .map(|played| played.parse().expect("a move"))
            .collect(),
        swap: snapshot["swap"].as_bool().unwrap_or_default(),
    };
    Game::from_record(&record).expect("the server's game follows the rules")
}

/// The legal placements in the online game `snapshot`.
pub fn legal_online(snapshot: &Value) -> Vec<String> {
    online_game(snapshot).position().legal_moves().iter().map(|cell| cell.to_string()).collect()
}

pub fn online_moves(snapshot: &Value) -> usize {
    snapshot["state"]["moves"].as_str().unwrap_or_default().split_whitespace().count()
}
