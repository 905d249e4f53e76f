//! House bots (`--bots`) through the real server: they accept invites at once and play whole
//! games on the clock.

mod server;

use std::sync::Arc;

use kulami_core::{Layout, Move, Position, notation};
use reqwest::StatusCode;
use serde_json::json;
use server::Server;

#[tokio::test]
async fn a_newcomer_plays_a_house_bot_to_the_end_and_the_bot_keeps_to_its_clock() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &["--bots", "--bot-threads", "1"]).await;
        let profile = server.anonymous().get("/api/users/bot-expert").await;
        assert_eq!((&profile["bot"], &profile["online"]), (&json!(true), &json!(true)), "{profile}");
        // A newcomer always finds someone to play: every level is online.
        let online = server.anonymous().get("/api/users/online").await;
        let bots: Vec<&str> = online["users"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|user| user["bot"] == true)
            .map(|user| user["username"].as_str().unwrap())
            .collect();
        assert_eq!(bots, ["bot-beginner", "bot-casual", "bot-club", "bot-expert", "bot-master"], "{online}");

        let newcomer = server.register("newcomer").await;
        let mut events = newcomer.stream("/api/stream/event").await;
        // The bot moves first, on a short clock it must manage.
        let settings = json!({"color": "black", "clock": {"limit": 20, "increment": 0}, "swap": true});
        let invite = newcomer.invite("bot-expert", settings).await;
        assert_eq!(events.expect().await["challenge"]["id"], json!(invite));
        let started = events.expect().await;
        assert_eq!(started["type"], "gameStart", "the bot accepts at once: {started}");
        let game = started["game"]["id"].as_str().unwrap().to_owned();

        let mut stream = newcomer.stream(&format!("/api/board/game/stream/{game}")).await;
        let full = stream.expect().await;
        assert_eq!((&full["red"]["username"], &full["red"]["bot"]), (&json!("bot-expert"), &json!(true)));
        let layout = Arc::new(Layout::parse(full["layout"].as_str().unwrap()).unwrap());
        let mut state = full["state"].clone();
        while state["status"] == "started" {
            let moves = notation::parse_moves(state["moves"].as_str().unwrap()).unwrap();
            let position = Position::new(Arc::clone(&layout)).with_swap_rule(true).replay(&moves).unwrap();
            // The newcomer moves second: on odd move counts (the swap counts as a move).
            if !position.move_count().is_multiple_of(2) {
                let cell = position.legal_moves().iter().next().unwrap();
                newcomer.play(&game, &Move::Place(cell).to_string(), StatusCode::OK).await;
            }
            state = stream.expect().await;
        }
        assert_eq!(state["status"], "finished", "the bot never runs out of time: {state}");
        assert!(state["rtime"].as_i64().unwrap() > 0, "the bot (red: the newcomer never swaps) has time left");
        let bot = server.anonymous().get("/api/users/bot-expert").await;
        assert_eq!(bot["games"], 1, "{bot}");
        server.terminate().await;
    }
}
