//! `kulami match`: levels and external engines against each other, clocks, the SPRT, and
//! matches kept in a games file.

mod common;

use common::{fails, json, kulami, stdout};
use serde_json::Value;

#[test]
fn match_between_levels_and_an_external_engine() {
    let summary = json(&["match", "1", "3", "--random", "3", "--json"]);
    assert_eq!((summary["games"].as_u64(), summary["pairs"].as_u64()), (Some(6), Some(3)));
    assert_eq!(summary["results"].as_array().unwrap().len(), 6);
    assert_eq!(summary["results"][0]["a_color"], "red");
    assert_eq!(summary["results"][1]["a_color"], "black");
    assert!(
        summary["results"][0].get("clock_left_ms").is_none() && summary["mean_clock_left_a_ms"].is_null(),
        "no clock"
    );
    let wins =
        summary["wins"].as_u64().unwrap() + summary["draws"].as_u64().unwrap() + summary["losses"].as_u64().unwrap();
    assert_eq!(wins, 6);
    // By colour: three games each, whose points add up to the score.
    let number = |key: &str| summary[key].as_f64().unwrap();
    assert_eq!((number("a_red_games"), number("a_black_games")), (3.0, 3.0), "{summary}");
    assert!((number("a_red_points") + number("a_black_points") - 6.0 * number("score")).abs() < 1e-9, "{summary}");
    // The colour-neutral Elo is the mean of the two colours' Elo, where both are finite.
    let elo = |share: f64| -400.0 * (1.0 / share - 1.0).log10();
    let (red, black) = (number("a_red_points") / 3.0, number("a_black_points") / 3.0);
    match summary["elo_colour_neutral"].as_f64() {
        Some(neutral) => assert!((neutral - (elo(red) + elo(black)) / 2.0).abs() < 1e-6, "{summary}"),
        None => assert!([red, black].iter().any(|share| *share == 0.0 || *share == 1.0), "{summary}"),
    }
    let engine = format!("cmd:{} engine --level 2", env!("CARGO_BIN_EXE_kulami"));
    let summary = json(&["match", "2", &engine, "--boards", "easy,medium", "--json"]);
    assert_eq!(summary["games"], 4);
    assert!(summary["results"].as_array().unwrap().iter().all(|g| g["forfeit"].is_null()), "{summary}");
    // With the swap rule level 2 takes over the first marble it plays on this small board (c1),
    // as the built-in level and as the external engine alike (it is told `swap on`). On the
    // beginner board it no longer does since its evaluation weighs threats: there c2, the first
    // marble it plays, is a draw either way (docs/SOLVED.md).
    let swapped = json(&["match", "2", &engine, "--boards", "AAAB/AAAB/CCDD/EEFF", "--swap", "--json"]);
    for game in swapped["results"].as_array().unwrap() {
        let moves: Vec<&str> = game["moves"].as_str().unwrap().split(' ').collect();
        assert_eq!(moves.get(1), Some(&"swap"), "{game}");
        assert!(game["forfeit"].is_null(), "{game}");
    }
    let broken = json(&["match", "2", "cmd:/no/such/engine", "--random", "1", "--json"]);
    assert_eq!(broken["wins"], 2, "a player that cannot start forfeits");
    assert!(broken["results"][0]["forfeit"].as_str().unwrap().contains("cannot start"));
    fails(&["match", "2", "7"], 2);
}

#[test]
fn match_under_a_game_clock_reports_time_losses() {
    let engine = format!("cmd:{} engine --level 5", env!("CARGO_BIN_EXE_kulami"));
    let summary = json(&["match", "5", &engine, "--boards", "easy", "--tc", "2+0.1", "--json"]);
    assert_eq!(summary["tc"], "2+0.1");
    assert_eq!(summary["games"], 2);
    // Both keep to a two-second clock (level 5 thinks 1 s a move by itself).
    assert_eq!((summary["time_losses_a"].as_u64(), summary["time_losses_b"].as_u64()), (Some(0), Some(0)), "{summary}");
    assert!(summary["results"].as_array().unwrap().iter().all(|g| g["time_loss"] == false && g["forfeit"].is_null()));
    // What each had left, game by game and on average; never more than the clock and its increments.
    for game in summary["results"].as_array().unwrap() {
        let left = game["clock_left_ms"].as_array().unwrap_or_else(|| panic!("{game}"));
        let moves = game["moves"].as_str().unwrap().split(' ').count() as f64;
        assert!(left.iter().all(|ms| ms.as_f64().unwrap() <= 2000.0 + 100.0 * moves), "{game}");
    }
    for player in ["a", "b"] {
        let mean = summary[format!("mean_clock_left_{player}_ms")].as_f64().unwrap_or_else(|| panic!("{summary}"));
        assert!(mean > 0.0 && mean < 2000.0 + 100.0 * 18.0, "{player}: {mean}");
    }
    let text = stdout(&kulami(&["match", "1", "2", "--boards", "easy", "--tc", "5"]));
    assert!(text.contains("time losses: level 1 0, level 2 0"), "{text}");
    assert!(text.contains("clock left at the end, on average: level 1 "), "{text}");
    assert!(text.contains("by colour: level 1 as red (first) ") && text.contains("/1, as black "), "{text}");
    assert!(text.contains("; boards played both ways: 1)"), "the interval is the pair's: {text}");
    for bad in ["0", "x+1", "5+", "-3+1", "100000"] {
        let message = fails(&["match", "1", "2", &format!("--tc={bad}")], 2);
        assert!(message.contains("time control") || message.contains("limit"), "{bad}: {message}");
    }
    fails(&["match", "1", "2", "--tc", "5+1", "--movetime", "100"], 2);
}

#[test]
fn a_match_stops_once_its_sprt_decides() {
    // Level 3 is some 600 Elo above level 1: the test accepts "A is 100 stronger" long before
    // the 40 games are played.
    let summary = json(&["match", "3", "1", "--random", "20", "--sprt", "0,100", "--json"]);
    assert!(summary["sprt"].as_str().unwrap().contains("H1 accepted"), "{summary}");
    assert!(summary["games"].as_u64().unwrap() < 40, "{summary}");
    for bad in ["20,0", "5", "a,b", "0,inf"] {
        let message = fails(&["match", "1", "2", "--sprt", bad], 2);
        assert!(message.contains(bad), "{message}");
    }
}

#[test]
fn a_match_kept_in_a_games_file_plays_only_the_games_not_in_it() {
    let dir = std::env::temp_dir().join(format!("kulami-games-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.jsonl");
    let path = file.to_str().unwrap();
    let command = ["match", "1", "2", "--random", "2", "--games", path, "--json"];
    let lines = || -> Vec<String> { std::fs::read_to_string(&file).unwrap().lines().map(str::to_owned).collect() };
    let games =
        |lines: &[String]| -> Vec<Value> { lines[1..].iter().map(|l| serde_json::from_str(l).unwrap()).collect() };

    // Each game is written as it ends, after a first line with the match's settings.
    let whole = json(&command);
    let first = lines();
    assert_eq!(first.len(), 5, "{first:?}");
    let settings: Value = serde_json::from_str(&first[0]).unwrap();
    assert_eq!(settings["match"]["player_a"], "level 1");
    assert_eq!(settings["match"]["boards"].as_array().unwrap().len(), 2);
    let mut recorded = games(&first);
    recorded.sort_by_key(|game| (game["board"].as_u64(), game["a_color"] == "black"));
    assert_eq!(whole["results"].as_array().unwrap(), &recorded);

    // Stopped after two games, the match plays the other two and counts all four.
    std::fs::write(&file, first[..3].join("\n") + "\n").unwrap();
    let finished = json(&command);
    let now = lines();
    assert_eq!(now.len(), 5, "two games added, none played again: {now:?}");
    assert_eq!(now[..3], first[..3]);
    assert_eq!(finished["games"], 4);
    let results = finished["results"].as_array().unwrap();
    for kept in games(&first[..3]) {
        assert!(results.contains(&kept), "{kept} is counted");
    }
    let mut pairings: Vec<(u64, String)> =
        results.iter().map(|g| (g["board"].as_u64().unwrap(), g["a_color"].as_str().unwrap().to_owned())).collect();
    pairings.dedup();
    assert_eq!(pairings.len(), 4, "each board with each colour once: {pairings:?}");

    // A finished match plays nothing more and reports the same.
    assert_eq!(json(&command), finished);
    assert_eq!(lines(), now);
    let again = kulami(&command);
    let told = String::from_utf8_lossy(&again.stderr);
    assert!(told.contains("all 4 games played before") && !told.contains("the rest"), "{told}");

    // Another match's settings, and lines that are not its games, are refused, the file kept.
    let message = fails(&["match", "1", "2", "--random", "3", "--games", path], 1);
    assert!(message.contains("records another match") && message.contains("boards"), "{message}");
    let message = fails(&["match", "1", "3", "--random", "2", "--games", path, "--movetime", "50"], 1);
    assert!(message.contains("player B, time per move"), "{message}");
    assert_eq!(lines(), now);
    let off_the_match = now[1].replace("\"board\":1", "\"board\":7");
    let broken = [
        ("{\"board\":2,\"a_col", "line 6: not a game record"),
        (off_the_match.as_str(), "line 6: board 7 is not one of the match's 1 to 2"),
        (now[1].as_str(), "line 6: board 1 with A as red is recorded twice"),
    ];
    for (line, expected) in broken {
        std::fs::write(&file, now.join("\n") + "\n" + line + "\n").unwrap();
        let message = fails(&command, 1);
        assert!(message.contains(expected), "{message}");
    }
    std::fs::write(&file, "a list of games\n").unwrap();
    assert!(fails(&command, 1).contains("line 1: not the settings of a match"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn each_player_keeps_its_own_time_per_move() {
    // An external engine that logs what it is told: B's time per move reaches it, A's does not.
    let dir = std::env::temp_dir().join(format!("kulami-movetime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (log, script) = (dir.join("told.txt"), dir.join("engine.sh"));
    let body =
        format!("#!/bin/sh\ntee -a '{}' | exec '{}' engine --level 1\n", log.display(), env!("CARGO_BIN_EXE_kulami"));
    std::fs::write(&script, body).unwrap();
    let engine = format!("cmd:sh {}", script.display());
    let summary =
        json(&["match", "1", &engine, "--boards", "easy", "--movetime", "40", "--movetime-b", "37", "--json"]);
    assert_eq!((summary["movetime_a_ms"].as_u64(), summary["movetime_b_ms"].as_u64()), (Some(40), Some(37)));
    assert!(summary["results"].as_array().unwrap().iter().all(|g| g["forfeit"].is_null()), "{summary}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert_eq!(told.lines().filter(|line| *line == "movetime 37").count(), 2, "once a game: {told}");
    assert!(!told.contains("movetime 40"), "{told}");
    let text = stdout(&kulami(&["match", "1", "2", "--boards", "easy", "--movetime-b", "5000"]));
    assert!(text.contains("time per move: level 1 1000 ms, level 2 5000 ms"), "{text}");
    fails(&["match", "1", "2", "--tc", "5+1", "--movetime-b", "100"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
