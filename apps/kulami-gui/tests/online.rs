//! The online lobby driven like a player, against the real server (run in this test's process
//! on a free loopback port): sign up, an invite arrives live and is accepted, the game is
//! played on the board against moves arriving live with the clocks running, resigned with the
//! rating change shown, and an invite sent from the form is withdrawn.

mod support;

use std::time::Duration;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use kulami_gui::KulamiApp;
use serde_json::{Value, json};
use support::frame;
use support::wait_for;

fn type_into(harness: &mut Harness<'static, KulamiApp>, field: &str, text: &str) {
    let role = if field == "Password" { Role::PasswordInput } else { Role::TextInput };
    let node = harness.get_by_role_and_label(role, field);
    node.focus();
    harness.step();
    let node = harness.get_by_role_and_label(role, field);
    node.type_text(text);
    harness.step();
}

/// A request as a second player's program would send it.
fn call(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> Value {
    let mut request = match &body {
        Some(body) => ehttp::Request::post_json(url, body).unwrap(),
        None if method == "POST" => ehttp::Request::post(url, Vec::new()),
        None => ehttp::Request::get(url),
    };
    if let Some(token) = token {
        request.headers.insert("Authorization", format!("Bearer {token}"));
    }
    let response = ehttp::fetch_blocking(&request).unwrap();
    assert!(response.ok, "{method} {url}: {}", String::from_utf8_lossy(&response.bytes));
    serde_json::from_slice(&response.bytes).unwrap()
}

#[test]
fn a_player_signs_up_plays_an_invited_game_on_the_board_and_withdraws_an_invite() {
    let directory = tempfile::tempdir().unwrap();
    let config = kulami_server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: format!("sqlite:{}", directory.path().join("server.sqlite").display()),
        away_limit: Duration::from_secs(60),
        rate_limit: true,
        bots: None,
        web: None,
    };
    let base = format!("http://{}", kulami_server::start_in_background(config).unwrap());
    let bob = call(
        "POST",
        &format!("{base}/api/account/register"),
        None,
        Some(json!({"username": "bob", "password": "bob-password"})),
    );
    let bob_token = bob["token"].as_str().unwrap().to_owned();

    let mut app = KulamiApp::default();
    app.open_online();
    let mut harness = Harness::builder().with_size(egui::vec2(1000.0, 900.0)).build_ui_state(frame, app);
    harness.step();
    let server = harness.get_by_role_and_label(Role::TextInput, "Server");
    server.focus();
    harness.step();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    type_into(&mut harness, "Server", &base);
    type_into(&mut harness, "Name", "alice");
    type_into(&mut harness, "Password", "alice-password");
    harness.get_by_label("Register").click();
    wait_for(&mut harness, "Signed in as alice", 20);
    let account = harness.state().lobby().account().cloned().unwrap();
    assert_eq!((account.username.as_str(), account.server.as_str()), ("alice", base.as_str()));

    // Bob's invite arrives on alice's event stream and is accepted with a click: the game opens.
    call(
        "POST",
        &format!("{base}/api/challenge/alice"),
        Some(&bob_token),
        Some(json!({"clock": {"limit": 300, "increment": 0}, "color": "red"})),
    );
    wait_for(&mut harness, "Accept bob's invite", 20);
    harness.get_by_label("Accept bob's invite").click();
    wait_for(&mut harness, "Red (bob) 5:00.0", 20);
    let game = harness.state().online_game().unwrap().id().to_owned();
    assert_eq!(harness.state().lobby().started(), std::slice::from_ref(&game));

    // Bob's move arrives live; alice answers on the board; the server has both.
    call("POST", &format!("{base}/api/board/game/{game}/move/d4"), Some(&bob_token), None);
    wait_for(&mut harness, "d4 red", 20);
    wait_for(&mut harness, "Your move.", 20);
    let legal = harness.query_all_by_label_contains("empty, legal").next().unwrap();
    let cell = legal.accesskit_node().label().unwrap().split(' ').next().unwrap().to_owned();
    legal.click();
    wait_for(&mut harness, &format!("{cell} black"), 20);
    let state = call("GET", &format!("{base}/api/game/{game}"), None, None);
    assert_eq!(state["state"]["moves"], format!("d4 {cell}"));
    // Bob's clock runs now, counted down in the window between the server's lines.
    wait_for(&mut harness, "Waiting for your opponent's move.", 20);
    wait_for(&mut harness, "Red (bob) 4:59", 20);

    harness.get_by_label("Resign").click();
    wait_for(&mut harness, "bob (red) wins by resignation", 20);
    wait_for(&mut harness, "Your rating: 1500 -> ", 20);
    harness.get_by_label("Back to the lobby").click();
    wait_for(&mut harness, "Invite a player", 20);

    // An invite written in the form, then withdrawn.
    type_into(&mut harness, "Player", "bob");
    harness.get_by_label("Send invite").click();
    wait_for(&mut harness, "Cancel the invite to bob", 20);
    let open = call("GET", &format!("{base}/api/challenge"), Some(&bob_token), None);
    assert_eq!(open["in"][0]["from"], "alice", "{open}");
    harness.get_by_label("Cancel the invite to bob").click();
    wait_for(&mut harness, "Invite withdrawn", 20);
    let open = call("GET", &format!("{base}/api/challenge"), Some(&bob_token), None);
    assert_eq!(open["in"], json!([]), "{open}");
}
