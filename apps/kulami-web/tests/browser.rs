//! The browser edition in a real browser: the test builds the site (`cargo xtask web`), serves it
//! with the real server, and drives headless Chromium through chromedriver (Debian's `chromium`
//! and `chromium-driver`; `.ci/run` installs them). It waits for the first frame, plays a game
//! against the engine by clicking the canvas, then an online game against a second client of the
//! server, reading the page through its `window.kulami.probe()` hook, and fails on a blank
//! screenshot. What it measures it prints (`cargo test -p kulami-web -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code, reason = "each test uses its part of the harness")]
mod support;

use std::time::{Duration, Instant};

use kulami_core::GameRecord;
use serde_json::{Value, json};
use support::{Driver, Page, Player, Screen as _, Window, legal_online, moves, online_moves, save_with_account};

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
    let work = Work::Kulami {
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

/// For comparison with the frames while the engine thinks: two seconds of the online game's
/// board while the page waits for the rival's move (its clocks repaint it ten times a second).
async fn drawing_without_the_engine(page: &Page) {
    let frames = |probe: Value| probe["frames"].as_u64().unwrap_or_default();
    page.client.execute(WATCH_THE_PAGE, vec![]).await.expect("the page runs scripts");
    let before = frames(page.probe().await);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let drawn = frames(page.probe().await) - before;
    let gap = page.client.execute(LONGEST_GAP, vec![]).await.expect("the page runs scripts");
    eprintln!("measured: with nobody thinking, {drawn} frames in 2 s; the page's thread paused at most {gap} ms");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_edition_plays_the_engine_and_an_online_game() {
    let data = tempfile::tempdir().expect("a scratch folder");
    let base = support::serve_site(data.path());
    let driver = Driver::start(None);
    let page = Page { client: support::browser(&driver, &data.path().join("chromium"), Window::Headless).await };

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
    page.screenshot("browser-start.png").await;
    page.click_spot("controls", "Master").await;
    page.click_until_taken("controls", "Play the computer", |probe| probe["app"]["screen"] != "start").await;
    let board = page
        .wait_for("the board", |probe| probe["app"]["screen"] == "game" && probe["first_board_ms"].is_number())
        .await;
    eprintln!(
        "measured: first board drawn {:.0} ms after navigation began (the start screen, then the test's two clicks)",
        board["first_board_ms"].as_f64().unwrap_or_default()
    );
    assert_eq!(board["app"]["moves"], json!([]), "a new game");

    // Three moves each: click a legal hole, and the engine answers from its web worker.
    for turn in 0..3 {
        let probe = page.probe().await;
        let legal = moves(&probe, &["app", "legal"]);
        let hole = legal[(turn * 7) % legal.len()].clone();
        page.client.execute(WATCH_THE_PAGE, vec![]).await.expect("the page runs scripts");
        let (frames_before, clicked) = (probe["frames"].as_u64().unwrap_or_default(), Instant::now());
        page.click_spot("holes", &hole).await;
        let answered =
            page.wait_for("the engine's move", |probe| moves(probe, &["app", "moves"]).len() == 2 * turn + 2).await;
        assert_eq!(moves(&answered, &["app", "moves"])[2 * turn], hole, "the click placed a marble at {hole}");
        let gaps = page.client.execute(LONGEST_GAP, vec![]).await.expect("the page runs scripts");
        // The frames since the click (the page keeps the latest few hundred).
        let drawn = answered["frames"].as_u64().unwrap_or_default().saturating_sub(frames_before);
        let kept: Vec<f64> =
            answered["frame_ms"].as_array().expect("frame times").iter().filter_map(Value::as_f64).collect();
        let mut frame_ms = kept[kept.len().saturating_sub(drawn as usize)..].to_vec();
        frame_ms.sort_by(f64::total_cmp);
        let at =
            |share: f64| frame_ms.get(((frame_ms.len() as f64 - 1.0) * share) as usize).copied().unwrap_or_default();
        eprintln!(
            "measured: the engine's move {}: {drawn} frames in {:.2} s; computing a frame took {:.1} ms (median), \
             {:.1} ms (95th percentile), {:.1} ms (most); the page's thread paused at most {gaps} ms (drawing included)",
            turn + 1,
            clicked.elapsed().as_secs_f64(),
            at(0.5),
            at(0.95),
            at(1.0),
        );
    }
    page.screenshot("browser-game.png").await;
    worker_leaves_the_page_free(&page).await;

    // Online: the page's player (signed in from the page's storage, as a returning player is)
    // accepts an invite from a second client and they play through the server.
    let web = Player::register(&base, "webplayer").await;
    let rival = Player::register(&base, "rival").await;
    page.client
        .execute("localStorage.setItem('kulami.autosave', arguments[0]);", vec![json!(save_with_account(&base, &web))])
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
            if number == 1 {
                drawing_without_the_engine(&page).await;
            }
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

    // Kalah from the start screen: a sowing, and the engine's answer from the web worker.
    page.client.goto(&base).await.expect("the page loads again");
    page.wait_for("the start screen", |probe| probe["app"]["screen"] == "start").await;
    page.click_until_taken("controls", "Kalah", |probe| probe["app"]["screen"] == "kalah").await;
    page.click_until_taken("controls", "South's pit 1", |probe| !moves(probe, &["app", "table_moves"]).is_empty())
        .await;
    let answered = page.wait_for("the engine's sowing", |probe| moves(probe, &["app", "table_moves"]).len() >= 2).await;
    let sown = moves(&answered, &["app", "table_moves"]);
    assert_eq!(sown[0], "1", "the click sowed pit 1: {sown:?}");
    eprintln!("the page's Kalah game: {}", sown.join(" "));
    page.screenshot("browser-kalah.png").await;
    page.client.close().await.expect("the browser closes");
}
