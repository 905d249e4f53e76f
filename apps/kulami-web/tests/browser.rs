//! The browser edition in a real browser: the test builds the site (`cargo xtask web`), serves it
//! with the real server, and drives headless Chromium through chromedriver (Debian's `chromium`
//! and `chromium-driver`; `.ci/run` installs them). It waits for the first frame, plays a game
//! against the engine by clicking the canvas, then an online game against a second client of the
//! server, reading the page through its `window.kulami.probe()` hook, and fails on a blank
//! screenshot. What it measures it prints (`cargo test -p kulami-web -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

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
const PATIENCE: Duration = Duration::from_secs(60);

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds the site with `cargo xtask web` in a target directory of its own (the test's cargo
/// holds the workspace's), and returns its folder.
fn build_site() -> PathBuf {
    let target = root().join("target/browser-test");
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
        cargo.args(["xtask", "web"]).env("CARGO_TARGET_DIR", &target).current_dir(root()).status().expect("cargo runs");
    assert!(status.success(), "`cargo xtask web` failed ({status}): see its output above");
    target.join("site")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|listener| listener.local_addr()).expect("a free port").port()
}

/// chromedriver on a free port, ended with the test.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        let port = free_port();
        // Its own process group, which the browsers it starts join: ended together in `drop`,
        // even when the test fails before it closes its session.
        let child = Command::new("chromedriver")
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

/// Headless Chromium, as the machine's closed network needs it: no background connections.
async fn browser(driver: &Driver, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new", "--no-sandbox", "--enable-unsafe-swiftshader", "--window-size=1280,800",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
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
struct Page {
    client: Client,
}

impl Page {
    /// What `window.kulami.probe()` says, `Null` before the program has started.
    async fn probe(&self) -> Value {
        self.client
            .execute("return window.kulami ? window.kulami.probe() : null;", vec![])
            .await
            .expect("the page runs scripts")
    }

    /// Waits until `ready` holds of the probe, and returns that probe.
    async fn wait_for(&self, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let probe = self.probe().await;
            if ready(&probe) {
                return probe;
            }
            assert!(Instant::now() < deadline, "the page never showed {what}; last probe: {probe:#}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A left click at `x`, `y` (CSS pixels from the page's top left), as a mouse does it.
    async fn click(&self, x: f64, y: f64) {
        let mouse = MouseActions::new("mouse".to_owned())
            .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(30)), x, y })
            .then(PointerAction::Pause { duration: Duration::from_millis(30) })
            .then(PointerAction::Down { button: 0 })
            .then(PointerAction::Up { button: 0 });
        self.client.perform_actions(mouse).await.expect("the click is performed");
    }

    /// Clicks the spot named `name` in the probe's list `list` (`holes` or `controls`).
    async fn click_spot(&self, list: &str, name: &str) {
        let probe = self.wait_for(&format!("{name} in {list}"), |probe| spot(probe, list, name).is_some()).await;
        let (x, y) = spot(&probe, list, name).expect("just seen");
        self.click(x, y).await;
    }

    /// Clicks the hole `name` of the online game until its move `number` is on the board: under
    /// software rendering a frame can take over a second, and egui takes a press and a release
    /// that far apart for a long press rather than a click, as it should. A second click after a
    /// click that did count is refused by the page (not the player's turn), so it cannot play twice.
    async fn click_hole_until_played(&self, name: &str, number: usize) {
        for _ in 0..5 {
            self.click_spot("holes", name).await;
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if moves(&self.probe().await, &["app", "online", "moves"]).len() >= number {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            eprintln!("note: the click on {name} was not taken; clicking again");
        }
        panic!("five clicks on {name} did not play it");
    }

    /// The page's screenshot, checked not to be blank, saved as `name` in the target folder.
    async fn screenshot(&self, name: &str) {
        let bytes = self.client.screenshot().await.expect("a screenshot");
        let colors = distinct_colors(&bytes);
        std::fs::write(root().join("target").join(name), &bytes).expect("the screenshot is saved");
        assert!(colors > 50, "the screenshot {name} is blank: {colors} colours");
    }
}

/// The place of `name` in the probe's `list`.
fn spot(probe: &Value, list: &str, name: &str) -> Option<(f64, f64)> {
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

fn moves(probe: &Value, path: &[&str]) -> Vec<String> {
    let value = path.iter().fold(probe, |value, key| &value[key]);
    value
        .as_array()
        .map(|moves| moves.iter().filter_map(|played| played.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// A player of the server, through its HTTP interface.
struct Player {
    http: reqwest::Client,
    base: String,
    name: String,
    token: String,
}

impl Player {
    async fn register(base: &str, name: &str) -> Player {
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

    async fn post(&self, path: &str, body: Value) -> Value {
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

    async fn game(&self, id: &str) -> Value {
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

/// The legal placements in the online game `snapshot` (a `GET /api/game/{id}`), by the rules.
fn legal_online(snapshot: &Value) -> Vec<String> {
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
    let game = Game::from_record(&record).expect("the server's game follows the rules");
    game.position().legal_moves().iter().map(|cell| cell.to_string()).collect()
}

fn online_moves(snapshot: &Value) -> usize {
    snapshot["state"]["moves"].as_str().unwrap_or_default().split_whitespace().count()
}

/// Starts timing the page's thread: a timer every 10 ms notes how late it runs.
const WATCH_THE_PAGE: &str = "window.longestGap = 0; let last = performance.now();
    clearInterval(window.gapTimer);
    window.gapTimer = setInterval(() => {
        const now = performance.now(); window.longestGap = Math.max(window.longestGap, now - last - 10); last = now;
    }, 10);";

/// Stops timing and says the longest pause of the page's thread, in whole milliseconds.
const LONGEST_GAP: &str = "clearInterval(window.gapTimer); return Math.round(window.longestGap);";

/// The engine's worker, as the page starts it, thinks for a second on the classic board while the
/// page's own thread stays free: were the search on that thread, it would stop for the second.
async fn worker_leaves_the_page_free(page: &Page) {
    use kulami_gui::background::{Answer, Find, Work};
    let classic = std::sync::Arc::new(kulami_layouts::preset("classic").expect("a preset").into_layout());
    let work = Work {
        game: GameRecord::of(&kulami_core::Position::new(classic), kulami_core::Scoring::Standard),
        find: Find::EngineMove { level: kulami_ai::Level::Master, move_time: Duration::from_secs(1) },
    };
    page.client.execute(WATCH_THE_PAGE, vec![]).await.expect("the page runs scripts");
    let answer = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const worker = new Worker('./worker.js', {type: 'module'});
             worker.onmessage = (event) => { worker.terminate(); done(event.data); };
             worker.postMessage(arguments[0]);",
            vec![json!(serde_json::to_string(&work).expect("work serializes"))],
        )
        .await
        .expect("the worker answers");
    let gap = page.client.execute(LONGEST_GAP, vec![]).await.expect("the page runs scripts");
    let answer: Answer = serde_json::from_str(answer.as_str().expect("an answer as text")).expect("an answer");
    assert!(matches!(answer, Answer::EngineMove(Some(_))), "{answer:?}");
    eprintln!("measured: while the worker searched for 1 s, the page's thread paused at most {gap} ms");
    assert!(
        gap.as_f64().is_some_and(|gap| gap < 500.0),
        "the page's thread stopped for {gap} ms: the search ran on it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_edition_plays_the_engine_and_an_online_game() {
    let site = build_site();
    let data = tempfile::tempdir().expect("a scratch folder");
    let address = kulami_server::start_in_background(kulami_server::Config {
        listen: "127.0.0.1:0".parse().expect("an address"),
        database: format!("sqlite:{}", data.path().join("server.sqlite").display()),
        away_limit: Duration::from_secs(60),
        rate_limit: false,
        bots: None,
        web: Some(site),
    })
    .expect("the server starts");
    let base = format!("http://{address}");
    let driver = Driver::start();
    let page = Page { client: browser(&driver, &data.path().join("chromium")).await };

    // Load: the first frame, then a game against the engine's strongest level.
    let loading = Instant::now();
    page.client.goto(&base).await.expect("the page loads");
    let first = page.wait_for("its first frame", |probe| probe["frames"].as_u64() > Some(0)).await;
    eprintln!(
        "measured: first frame {:.0} ms after navigation began ({} ms for the test to see it)",
        first["first_frame_ms"].as_f64().unwrap_or_default(),
        loading.elapsed().as_millis()
    );
    assert_eq!(first["app"]["screen"], "start");
    worker_leaves_the_page_free(&page).await;
    page.screenshot("browser-start.png").await;
    page.click_spot("controls", "Master").await;
    page.click_spot("controls", "Play the computer").await;
    let board =
        page.wait_for("the board", |probe| probe["app"]["screen"] == "game" && probe["first_board_ms"].is_f64()).await;
    eprintln!(
        "measured: first board drawn {:.0} ms after navigation began",
        board["first_board_ms"].as_f64().unwrap_or_default()
    );
    assert_eq!(board["app"]["moves"], json!([]), "a new game");

    // Three moves each: click a legal hole, and the engine answers from its web worker.
    for turn in 0..3 {
        let probe = page.probe().await;
        let legal = moves(&probe, &["app", "legal"]);
        let hole = legal[(turn * 7) % legal.len()].clone();
        page.client.execute(WATCH_THE_PAGE, vec![]).await.expect("the page runs scripts");
        page.click_spot("holes", &hole).await;
        let answered =
            page.wait_for("the engine's move", |probe| moves(probe, &["app", "moves"]).len() == 2 * turn + 2).await;
        assert_eq!(moves(&answered, &["app", "moves"])[2 * turn], hole, "the click placed a marble at {hole}");
        let gaps = page.client.execute(LONGEST_GAP, vec![]).await.expect("the page runs scripts");
        let frame_ms: Vec<f64> =
            answered["frame_ms"].as_array().expect("frame times").iter().filter_map(Value::as_f64).collect();
        eprintln!(
            "measured: the engine's move {}: the page's frames took at most {:.1} ms to compute; its thread's longest \
             pause {} ms (drawing included)",
            turn + 1,
            frame_ms.iter().copied().fold(0.0, f64::max),
            gaps
        );
    }
    page.screenshot("browser-game.png").await;

    // Online: the page's player (signed in from the page's storage, as a returning player is)
    // accepts an invite from a second client and they play through the server.
    let web = Player::register(&base, "webplayer").await;
    let rival = Player::register(&base, "rival").await;
    let mut saved = kulami_gui::saved::Saved::capture(&kulami_gui::state::GameState::default(), Default::default());
    saved.online = Some(kulami_gui::online::Account {
        server: base.clone(),
        username: web.name.clone(),
        token: web.token.clone(),
    });
    page.client
        .execute("localStorage.setItem('kulami.autosave', arguments[0]);", vec![json!(saved.to_text())])
        .await
        .expect("the page's storage takes the account");
    page.client.refresh().await.expect("the page reloads");
    page.wait_for("the start screen again", |probe| probe["app"]["screen"] == "start").await;
    page.click_spot("controls", "Play online").await;
    page.wait_for("the lobby, signed in", |probe| probe["app"]["online"]["user"] == "webplayer").await;
    let invite = rival
        .post("/api/challenge/webplayer", json!({"color": "black", "clock": {"limit": 600, "increment": 2}}))
        .await;
    assert_eq!(invite["status"], "created");
    page.click_spot("controls", "Accept rival's invite").await;
    let opened = page.wait_for("the online game", |probe| probe["app"]["screen"] == "online-game").await;
    let id = opened["app"]["online"]["game"].as_str().expect("a game id").to_owned();

    // Red (the page) and black (the rival) take turns for eight moves; the page's moves are clicks.
    for number in 0..8 {
        let snapshot = rival.game(&id).await;
        assert_eq!(online_moves(&snapshot), number, "every move so far is stored");
        let legal = legal_online(&snapshot);
        let chosen = legal[(number * 5) % legal.len()].clone();
        if number % 2 == 0 {
            page.wait_for("the page's turn", |probe| probe["app"]["online"]["my_turn"] == true).await;
            page.click_hole_until_played(&chosen, number + 1).await;
        } else {
            rival.post(&format!("/api/board/game/{id}/move/{chosen}"), json!({})).await;
        }
        let seen = page
            .wait_for(&format!("move {} ({chosen})", number + 1), |probe| {
                moves(probe, &["app", "online", "moves"]).len() == number + 1
            })
            .await;
        assert_eq!(moves(&seen, &["app", "online", "moves"]).last(), Some(&chosen));
    }
    assert_eq!(online_moves(&rival.game(&id).await), 8, "the server has all eight moves");
    page.screenshot("browser-online.png").await;
    rival.post(&format!("/api/board/game/{id}/resign"), json!({})).await;
    let ended = page.wait_for("the result", |probe| probe["app"]["online"]["result"].is_string()).await;
    let result = ended["app"]["online"]["result"].as_str().expect("a result");
    assert!(result.contains("webplayer") && result.contains("resignation"), "{result}");
    eprintln!("the page shows: {result}");
    page.client.close().await.expect("the browser closes");
}
