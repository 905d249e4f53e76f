//! Whole games through the real server over HTTP, on every database: played to the end and
//! checked against `kulami-core`, refused moves, reconnects, a crash and restart, clocks.

mod server;

use std::sync::Arc;
use std::time::Duration;

use kulami_core::{Game, GameRecord, Layout, Move, Position, Scoring, notation};
use rand::{RngExt as _, SeedableRng as _};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::{Client, Server};

/// The position a `gameFull` object describes, replayed by `kulami-core`.
fn position(full: &Value) -> Position {
    let layout = Layout::parse(full["layout"].as_str().unwrap())
        .unwrap()
        .with_marbles_per_player(full["marbles"].as_u64().unwrap() as usize)
        .unwrap();
    let moves = notation::parse_moves(full["state"]["moves"].as_str().unwrap()).unwrap();
    Position::new(Arc::new(layout)).with_swap_rule(full["swap"].as_bool().unwrap()).replay(&moves).unwrap()
}

/// Picks a legal move, the swap among them, from a seeded generator.
fn pick(position: &Position, rng: &mut rand_pcg::Pcg64) -> Move {
    let mut moves: Vec<Move> = position.legal_moves().iter().map(Move::Place).collect();
    if position.can_swap() {
        moves.push(Move::Swap);
    }
    moves[rng.random_range(0..moves.len())]
}

/// The client whose turn it is: players alternate, the swap being a move.
fn to_move<'a>(full: &Value, position: &Position, players: &'a [Client; 2]) -> &'a Client {
    // The player who moved first is red unless the second swapped.
    let first_name = if position.swapped() { &full["black"]["username"] } else { &full["red"]["username"] };
    let first_to_move = position.move_count().is_multiple_of(2);
    players
        .iter()
        .find(|client| (client.name == *first_name) == first_to_move)
        .expect("one of the two players is to move")
}

/// Two players, an accepted invite with `settings`, and the game's id.
async fn start_game(server: &Server, names: [&str; 2], settings: Value) -> ([Client; 2], String) {
    let players = [server.register(names[0]).await, server.register(names[1]).await];
    let invite = players[0].invite(names[1], settings).await;
    let game = players[1].accept(&invite).await;
    (players, game)
}

/// Plays seeded random legal moves until the game ends or `limit` moves are made, checking the
/// watcher's stream after each; the last state seen.
async fn play_out(players: &[Client; 2], game: &str, seed: u64, limit: usize) -> Value {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut watcher = players[0].stream(&format!("/api/board/game/stream/{game}")).await;
    let full = watcher.expect().await;
    assert_eq!(full["type"], "gameFull");
    let mut state = full["state"].clone();
    for _ in 0..limit {
        if state["status"] != "started" {
            break;
        }
        let mut current = full.clone();
        current["state"] = state.clone();
        let position = position(&current);
        let played = pick(&position, &mut rng);
        to_move(&full, &position, players).play(game, &played.to_string(), StatusCode::OK).await;
        state = watcher.expect().await;
        assert_eq!(state["type"], "gameState");
        let mut expected = position.clone();
        expected.play_move(played).unwrap();
        let moves: Vec<Move> = expected.moves().collect();
        assert_eq!(state["moves"], notation::format_moves(&moves), "the stream shows the move just made");
    }
    state
}

#[tokio::test]
async fn a_game_played_to_the_end_has_the_rules_result_ratings_and_a_record() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let settings = json!({"layout": "easy", "color": "red", "swap": true, "clock": null, "scoring": "area"});
        let (players, game) = start_game(&server, ["alice", "bob"], settings).await;
        let state = play_out(&players, &game, 7, 1000).await;
        assert_eq!(state["status"], "finished", "{database}: {state}");

        let full = server.anonymous().get(&format!("/api/game/{game}")).await;
        let position = position(&full);
        assert!(position.is_game_over());
        let score = position.score(Scoring::Area);
        assert_eq!(full["state"]["winner"], score.winner.to_string());
        assert_eq!(full["state"]["score"], json!({"red": score.red.total, "black": score.black.total}));

        let profiles =
            [server.anonymous().get("/api/users/alice").await, server.anonymous().get("/api/users/BOB").await];
        for profile in &profiles {
            assert_eq!(profile["games"], 1, "{profile}");
            assert_eq!(profile["ratings"]["area"]["games"], 1, "rated in the game's scoring: {profile}");
        }
        let won = |profile: &Value| profile["wins"].as_i64().unwrap();
        assert_eq!(won(&profiles[0]) + won(&profiles[1]) + profiles[0]["draws"].as_i64().unwrap(), 1);

        let (status, text) = server.anonymous().text(&format!("/api/game/{game}/record")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(text.contains("# Red: ") && text.contains("# Result: "), "{text}");
        let replayed = Game::from_record(&GameRecord::from_text(&text).unwrap()).unwrap();
        assert_eq!(replayed.position().moves().collect::<Vec<_>>(), position.moves().collect::<Vec<_>>());
        assert_eq!(replayed.scoring(), Scoring::Area);

        // Nothing more happens to a finished game.
        for client in &players {
            let (status, answer) = client.send(Method::POST, &format!("/api/board/game/{game}/resign"), None).await;
            assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        }
        let mut late_watcher = players[1].stream(&format!("/api/board/game/stream/{game}")).await;
        assert_eq!(late_watcher.expect().await["state"]["status"], "finished");
        assert!(late_watcher.ends().await, "a finished game's stream ends after its one line");
        server.terminate().await;
    }
}

#[tokio::test]
async fn the_server_refuses_moves_by_the_wrong_player_stale_tokens_and_bad_input() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let (players, game) = start_game(&server, ["ann", "ben"], json!({"color": "red", "clock": null})).await;
        let [ann, ben] = &players;
        let carol = server.register("carol").await;

        let answer = ben.play(&game, "a1", StatusCode::FORBIDDEN).await;
        assert_eq!(answer["error"], "it is not your turn");
        carol.play(&game, "a1", StatusCode::FORBIDDEN).await;
        ann.play(&game, "z9", StatusCode::BAD_REQUEST).await;
        ann.play(&game, "a1", StatusCode::OK).await;
        let answer = ben.play(&game, "a1", StatusCode::CONFLICT).await;
        assert!(answer["error"].as_str().unwrap().contains("already holds a marble"), "{answer}");
        ben.play(&game, "swap", StatusCode::CONFLICT).await;
        let (status, _) = server.anonymous().send(Method::POST, &format!("/api/board/game/{game}/move/a2"), None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        ann.play("nosuchgm", "a2", StatusCode::NOT_FOUND).await;

        // A logged-out token no longer works; a new login does.
        let (status, _) = ben.send(Method::DELETE, "/api/token", None).await;
        assert_eq!(status, StatusCode::OK);
        ben.play(&game, "c1", StatusCode::UNAUTHORIZED).await;
        let login = json!({"username": "BEN", "password": server::password("ben")});
        let token = server.anonymous().post("/api/token", login, StatusCode::OK).await;
        let ben = ben.with_token(token["token"].as_str().unwrap());
        let wrong = json!({"username": "ben", "password": "not-the-password"});
        server.anonymous().post("/api/token", wrong, StatusCode::UNAUTHORIZED).await;

        let full = server.anonymous().get(&format!("/api/game/{game}")).await;
        let reply = position(&full).legal_moves().iter().next().unwrap().to_string();
        ben.play(&game, &reply, StatusCode::OK).await;
        let (status, answer) = ann.send(Method::POST, &format!("/api/board/game/{game}/abort"), None).await;
        assert_eq!(
            (status, answer["error"].as_str().unwrap()),
            (StatusCode::CONFLICT, "the game can no longer be aborted: both players have moved")
        );
        let (status, _) = carol.send(Method::POST, &format!("/api/board/game/{game}/resign"), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = ann.send(Method::POST, &format!("/api/board/game/{game}/resign"), None).await;
        assert_eq!(status, StatusCode::OK);
        let full = server.anonymous().get(&format!("/api/game/{game}")).await;
        assert_eq!((&full["state"]["status"], &full["state"]["winner"]), (&json!("resign"), &json!("black")));
        ben.play(&game, "h8", StatusCode::CONFLICT).await;

        // Accounts and bodies.
        let taken = json!({"username": "Ann", "password": "long enough"});
        server.anonymous().post("/api/account/register", taken, StatusCode::CONFLICT).await;
        let short = json!({"username": "dan", "password": "short"});
        server.anonymous().post("/api/account/register", short, StatusCode::BAD_REQUEST).await;
        let (status, answer) =
            server.anonymous().send_raw(Method::POST, "/api/account/register", b"{not json".to_vec()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        let (status, answer) = ann.send_raw(Method::POST, "/api/challenge/carol", vec![b' '; 100_000]).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
        let (status, answer) = server.anonymous().send(Method::GET, "/api/account", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{answer}");
        server.terminate().await;
    }
}

#[tokio::test]
async fn a_player_who_reconnects_gets_the_whole_game_at_once() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let (players, game) = start_game(&server, ["ria", "sam"], json!({"color": "black", "clock": null})).await;
        let before = play_out(&players, &game, 3, 6).await;
        let mut stream = players[1].stream(&format!("/api/board/game/stream/{game}")).await;
        let full = stream.expect().await;
        assert_eq!(full["state"]["moves"], before["moves"]);
        assert_eq!((&full["red"]["username"], &full["black"]["username"]), (&json!("sam"), &json!("ria")));
        server.terminate().await;
    }
}

#[tokio::test]
async fn after_a_crash_the_game_goes_on_from_the_last_acknowledged_move_with_its_clocks() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let settings = json!({"color": "red", "clock": {"limit": 600, "increment": 0}});
        let (players, game) = start_game(&server, ["kim", "lou"], settings).await;
        let before = play_out(&players, &game, 11, 9).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let clocks = server.anonymous().get(&format!("/api/game/{game}")).await["state"].clone();
        server.kill().await;
        // Down for a while: the time is not charged.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let server = Server::start(&database, &[]).await;
        let players = players.each_ref().map(|client| client.on(&server));
        let after = server.anonymous().get(&format!("/api/game/{game}")).await;
        assert_eq!(after["state"]["moves"], before["moves"]);
        assert_eq!(after["state"]["status"], "started");
        for side in ["rtime", "btime"] {
            let (then, now) = (clocks[side].as_i64().unwrap(), after["state"][side].as_i64().unwrap());
            // As of the last heartbeat, at most a second before the crash; the 3 s down are not charged.
            assert!((now - then).abs() <= 2_000, "{side}: {then} ms before the crash, {now} after");
        }
        let end = play_out(&players, &game, 12, 1000).await;
        assert_eq!(end["status"], "finished");
        server.terminate().await;
    }
}

#[tokio::test]
async fn a_player_whose_clock_runs_out_loses_on_time() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let settings = json!({"color": "red", "clock": {"limit": 1, "increment": 0}});
        let (players, game) = start_game(&server, ["uma", "vic"], settings).await;
        let mut watcher = players[1].stream(&format!("/api/board/game/stream/{game}")).await;
        assert_eq!(watcher.expect().await["state"]["rtime"], 1000);
        // Nobody's clock runs before the first move.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        players[0].play(&game, "a1", StatusCode::OK).await;
        assert_eq!(watcher.expect().await["rtime"], 1000);
        // Black thinks too long: the server alone ends the game.
        let end = watcher.expect().await;
        assert_eq!((&end["status"], &end["winner"], &end["btime"]), (&json!("timeout"), &json!("red"), &json!(0)));
        assert!(watcher.ends().await);
        let answer = players[1].play(&game, "a5", StatusCode::CONFLICT).await;
        assert!(answer["error"].as_str().unwrap().contains("timeout"), "{answer}");
        let profile = server.anonymous().get("/api/users/uma").await;
        assert_eq!((&profile["wins"], &profile["games"]), (&json!(1), &json!(1)));
        server.terminate().await;
    }
}

#[tokio::test]
async fn a_flood_of_sign_ins_meets_the_rate_limit_unless_it_is_turned_off() {
    let directory = tempfile::tempdir().unwrap();
    let database = &server::databases(directory.path())[0];
    let server = Server::start(database, &[]).await;
    let wrong = json!({"username": "nobody", "password": "wrong password"});
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(server.anonymous().send(Method::POST, "/api/token", Some(wrong.clone())).await);
    }
    assert!(statuses[..20].iter().all(|(status, _)| *status == StatusCode::UNAUTHORIZED), "{statuses:?}");
    let (status, answer) = &statuses[24];
    assert_eq!(*status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert!(answer["error"].as_str().unwrap().starts_with("too many sign-ins"), "{answer}");
    server.terminate().await;

    let unlimited = Server::start(database, &["--no-rate-limit"]).await;
    for _ in 0..25 {
        let (status, _) = unlimited.anonymous().send(Method::POST, "/api/token", Some(wrong.clone())).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    unlimited.terminate().await;
}
