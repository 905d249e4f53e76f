//! Invites and presence through the real server, on every database: every path an invite can
//! take, the events each player's stream shows, who is online, and two servers on one database.

mod server;

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;
use server::Server;

#[tokio::test]
async fn every_invite_path_answers_and_tells_both_players() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &[]).await;
        let [ann, ben, cat] =
            [server.register("ann").await, server.register("ben").await, server.register("cat").await];
        let mut ann_events = ann.stream("/api/stream/event").await;
        let mut ben_events = ben.stream("/api/stream/event").await;

        // Sent with every setting: both see it, the invitee in "in", the sender in "out".
        let settings = json!({"layout": {"random": 5, "shape": "irregular"}, "scoring": "lines", "color": "black",
            "swap": true, "clock": {"limit": 180, "increment": 2}});
        let declined = ann.invite("ben", settings).await;
        for events in [&mut ann_events, &mut ben_events] {
            let event = events.expect().await;
            assert_eq!((&event["type"], &event["challenge"]["id"]), (&json!("challenge"), &json!(declined)));
            assert_eq!(event["challenge"]["board"], "random 5 irregular");
            assert_eq!(event["challenge"]["clock"], json!({"limit": 180, "increment": 2}));
        }
        let lists = ben.get("/api/challenge").await;
        assert_eq!((lists["in"][0]["from"].as_str(), lists["out"].as_array().unwrap().len()), (Some("ann"), 0));
        assert_eq!(ann.get("/api/challenge").await["out"][0]["id"], json!(declined));

        // Only the invitee accepts or declines, only the sender cancels.
        for (client, action) in [(&ann, "accept"), (&ann, "decline"), (&ben, "cancel"), (&cat, "accept")] {
            let (status, answer) =
                client.send(Method::POST, &format!("/api/challenge/{declined}/{action}"), None).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{} {action}: {answer}", client.name);
        }
        let reason = json!({"reason": "not now, thanks"});
        ben.post(&format!("/api/challenge/{declined}/decline"), reason, StatusCode::OK).await;
        for events in [&mut ann_events, &mut ben_events] {
            let event = events.expect().await;
            assert_eq!(event["type"], "challengeDeclined");
            assert_eq!(
                (&event["challenge"]["reason"], &event["challenge"]["status"]),
                (&json!("not now, thanks"), &json!("declined"))
            );
        }

        let canceled = ann.invite("ben", json!({})).await;
        ann.post(&format!("/api/challenge/{canceled}/cancel"), json!({}), StatusCode::OK).await;
        ben_events.expect().await;
        assert_eq!(ben_events.expect().await["type"], "challengeCanceled");

        let accepted = ben.invite("ann", json!({"color": "red", "clock": null})).await;
        let game = ann.accept(&accepted).await;
        // No invite is answered twice.
        for id in [&declined, &canceled, &accepted] {
            for (client, action) in [(&ben, "accept"), (&ben, "decline"), (&ann, "cancel")] {
                let (status, answer) = client.send(Method::POST, &format!("/api/challenge/{id}/{action}"), None).await;
                assert_eq!(status, StatusCode::CONFLICT, "{id} {action}: {answer}");
                assert!(answer["error"].as_str().unwrap().starts_with("the invite is no longer open"), "{answer}");
            }
        }
        let (status, answer) = ann.send(Method::POST, &format!("/api/challenge/{accepted}/accept"), None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        let started = loop {
            let event = ben_events.expect().await;
            if event["type"] == "gameStart" {
                break event;
            }
        };
        assert_eq!((&started["game"]["id"], &started["game"]["red"]), (&json!(game), &json!("ben")));
        assert!(ann.get("/api/challenge").await["in"].as_array().unwrap().is_empty());

        // A new event stream begins with what is open: the game in play and an open invite.
        let open = cat.invite("ann", json!({})).await;
        let mut again = ann.stream("/api/stream/event").await;
        let first = [again.expect().await, again.expect().await];
        assert!(
            first.iter().any(|event| event["type"] == "challenge" && event["challenge"]["id"] == json!(open)),
            "{first:?}"
        );
        assert!(
            first.iter().any(|event| event["type"] == "gameStart" && event["game"]["id"] == json!(game)),
            "{first:?}"
        );

        // Bad invites.
        let (status, answer) = ann.send(Method::POST, "/api/challenge/nobody", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
        let (status, _) = ann.send(Method::POST, "/api/challenge/ann", None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let answer = ann.post("/api/challenge/ben", json!({"scoring": "most"}), StatusCode::BAD_REQUEST).await;
        assert!(answer["error"].as_str().unwrap().starts_with("`scoring`"), "{answer}");
        ann.post("/api/challenge/ben", json!({"colour": "red"}), StatusCode::BAD_REQUEST).await;
        let (status, _) = server.anonymous().send(Method::POST, "/api/challenge/ben", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = ann.send(Method::POST, "/api/challenge/nosuchid/accept", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        server.terminate().await;
    }
}

#[tokio::test]
async fn who_is_online_and_playing_and_invites_that_lapse() {
    let directory = tempfile::tempdir().unwrap();
    for database in server::databases(directory.path()) {
        let server = Server::start(&database, &["--away-limit", "2"]).await;
        let [dee, eve] = [server.register("dee").await, server.register("eve").await];
        let anonymous = server.anonymous();
        assert_eq!(anonymous.get("/api/users/online").await, json!({"users": []}));
        let mut dee_events = dee.stream("/api/stream/event").await;
        let online = anonymous.get("/api/users/online").await;
        assert_eq!(online["users"][0]["username"], "dee");
        assert_eq!((&online["users"][0]["playing"], online["users"].as_array().unwrap().len()), (&json!(false), 1));
        assert_eq!(anonymous.get("/api/users/dee").await["online"], true);
        assert_eq!(anonymous.get("/api/users/eve").await["online"], false);

        // A correspondence invite waits; a real-time one lapses once its sender is away.
        let waits = eve.invite("dee", json!({"clock": null})).await;
        let lapses = eve.invite("dee", json!({})).await;
        dee_events.expect().await;
        dee_events.expect().await;
        let event = dee_events.expect().await;
        assert_eq!((&event["type"], &event["challenge"]["id"]), (&json!("challengeCanceled"), &json!(lapses)));
        assert_eq!(event["challenge"]["status"], "expired");
        let (status, _) = dee.send(Method::POST, &format!("/api/challenge/{lapses}/accept"), None).await;
        assert_eq!(status, StatusCode::CONFLICT);

        let game = dee.accept(&waits).await;
        assert_eq!(anonymous.get("/api/users/online").await["users"][0]["playing"], true);
        assert_eq!(anonymous.get("/api/users/eve").await["playing"], true);
        let (status, _) = eve.send(Method::POST, &format!("/api/board/game/{game}/abort"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(anonymous.get("/api/users/eve").await["playing"], false);

        // Closing the last stream takes the player offline.
        drop(dee_events);
        let deadline = tokio::time::Instant::now() + server::PATIENCE;
        while anonymous.get("/api/users/dee").await["online"] == true {
            assert!(tokio::time::Instant::now() < deadline, "dee is still online after closing the stream");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        server.terminate().await;
    }
}

#[tokio::test]
async fn two_servers_on_one_postgresql_database_play_a_game_across_them() {
    let directory = tempfile::tempdir().unwrap();
    let Some(database) = server::databases(directory.path()).into_iter().find(|url| url.starts_with("postgres")) else {
        eprintln!("note: PostgreSQL left out: the two-server game did not run");
        return;
    };
    let [north, south] = [Server::start(&database, &[]).await, Server::start(&database, &[]).await];
    let fay = north.register("fay").await;
    let gus = south.register("gus").await;
    let mut gus_events = gus.stream("/api/stream/event").await;
    // The invite is sent on one server and reaches the invitee's stream on the other.
    let invite = fay.invite("gus", json!({"color": "red", "clock": {"limit": 300, "increment": 0}})).await;
    assert_eq!(gus_events.expect().await["challenge"]["id"], json!(invite));
    let online = north.anonymous().get("/api/users/online").await;
    assert_eq!(online["users"][0]["username"], "gus", "presence crosses servers: {online}");
    let game = gus.accept(&invite).await;

    let mut fay_watch = fay.stream(&format!("/api/board/game/stream/{game}")).await;
    let mut gus_watch = gus.stream(&format!("/api/board/game/stream/{game}")).await;
    let full = fay_watch.expect().await;
    gus_watch.expect().await;
    let layout = std::sync::Arc::new(kulami_core::Layout::parse(full["layout"].as_str().unwrap()).unwrap());
    let mut position = kulami_core::Position::new(layout);
    let mut turn = 0;
    while !position.is_game_over() {
        let cell = position.legal_moves().iter().next().unwrap();
        let mover = if turn % 2 == 0 { &fay } else { &gus };
        mover.play(&game, &cell.to_string(), StatusCode::OK).await;
        position.play(cell).unwrap();
        turn += 1;
        // Each move reaches both watchers, whichever server they are on.
        for watch in [&mut fay_watch, &mut gus_watch] {
            let state = watch.expect().await;
            assert_eq!(state["moves"].as_str().unwrap().split(' ').count(), turn, "{state}");
        }
    }
    let end = north.anonymous().get(&format!("/api/game/{game}")).await;
    assert_eq!(end["state"]["status"], "finished");
    assert_eq!(end["state"]["winner"], position.score(kulami_core::Scoring::Standard).winner.to_string());
    assert!(fay_watch.ends().await && gus_watch.ends().await);
    let finished = loop {
        let event = gus_events.expect().await;
        if event["type"] == "gameFinish" {
            break event;
        }
    };
    assert_eq!(finished["game"]["id"], json!(game));
    north.terminate().await;
    south.terminate().await;
}
