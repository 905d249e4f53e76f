//! The `kulami` binary as scripts and people use it: output formats of `docs/FORMATS.md`, exit codes,
//! and one clear line on stderr for every kind of bad input.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";

fn kulami(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kulami")).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(args: &[&str]) -> Value {
    let output = kulami(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

/// Bad input: the given exit code, nothing on stdout, exactly one line on stderr.
fn fails(args: &[&str], code: i32) -> String {
    let output = kulami(args);
    assert_eq!(output.status.code(), Some(code), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} printed {}", stdout(&output));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    message
}

#[test]
fn legal_json_at_start_middle_and_end() {
    let start = json(&["legal", "--json"]);
    assert_eq!(start["to_move"], "red");
    assert_eq!(start["legal"].as_array().unwrap().len(), 64);
    assert_eq!(start["game_over"], false);

    let middle = json(&["legal", "--layout", "classic", "--moves", "d4 d7", "--json"]);
    assert_eq!(
        middle,
        json!({"to_move": "red", "legal": ["d1", "d2", "d5", "d6", "a7", "b7", "c7", "g7", "h7"], "game_over": false})
    );

    let end = json(&["legal", "--layout", "AABB", "--moves", "a1,c1", "--json"]);
    assert_eq!(end, json!({"to_move": null, "legal": [], "game_over": true}));
}

#[test]
fn the_swap_rule_on_the_command_line() {
    let after_first = json(&["legal", "--swap", "--moves", "d4", "--json"]);
    assert_eq!(after_first["swap"], true);
    assert_eq!(after_first["to_move"], "black");
    assert!(!after_first["legal"].as_array().unwrap().contains(&json!("swap")), "cells only");
    let later = json(&["legal", "--swap", "--moves", "d4 swap d7", "--json"]);
    assert_eq!(later["swap"], false);
    assert_eq!(later["to_move"], "red");
    assert_eq!(later["legal"], json(&["legal", "--moves", "d4 d7", "--json"])["legal"], "the swap changes no marble");
    assert!(json(&["legal", "--moves", "d4", "--json"]).get("swap").is_none(), "no key without the rule");
    let text = stdout(&kulami(&["legal", "--swap", "--moves", "d4"]));
    assert!(text.starts_with("black to move: ") && text.trim_end().ends_with(" swap"), "{text}");
    let message = fails(&["legal", "--moves", "d4 swap"], 1);
    assert!(message.contains("move 2 (swap): the swap rule is off in this game"), "{message}");
    let message = fails(&["score", "--swap", "--moves", "d4 d7 swap"], 1);
    assert!(message.contains("move 3 (swap): a swap is only legal as the second move of the game"), "{message}");
    let perft = json(&["perft", "--swap", "--depth", "2", "--json"]);
    assert_eq!(perft["nodes"], 752 + 64, "each first marble can also be swapped");
    let hint = json(&["hint", "--swap", "--layout", "AABB/CCDD/EEFF", "--moves", "a1", "--json"]);
    assert_eq!(hint["swap"].as_f64(), hint["hints"][0]["value"].as_f64().map(|value| -value));
    fails(&["legal", "--swap", "--record", "game.txt"], 2);
}

#[test]
fn score_json_has_every_field() {
    let score = json(&["score", "--layout", CLASSIC, "--moves", "a1 a3 c3", "--scoring", "both", "--json"]);
    assert_eq!(
        score,
        json!({
            "red": {"tiles": 8, "largest_area": 1, "lines": 0, "area_bonus": 0, "line_bonus": 0, "total": 8},
            "black": {"tiles": 4, "largest_area": 1, "lines": 0, "area_bonus": 0, "line_bonus": 0, "total": 4},
            "winner": "red",
            "game_over": false
        })
    );
    // A finished game on a small board: red holds A (a1 b1) and D (c2 d2), black C and B;
    // every group is a pair, since b1-c2 and b2-c1 touch only at corners.
    let end =
        json(&["score", "--layout", "AABB/CCDD", "--moves", "a1 a2 d2 d1 b1 b2 c2 c1", "--scoring", "area", "--json"]);
    assert_eq!(end["game_over"], true);
    assert_eq!((end["red"]["tiles"].as_u64(), end["black"]["tiles"].as_u64()), (Some(4), Some(4)));
    assert_eq!((end["red"]["largest_area"].as_u64(), end["red"]["area_bonus"].as_u64()), (Some(2), Some(0)));
    assert_eq!(end["black"]["largest_area"], 2);
    assert_eq!(end["winner"], "draw");
}

#[test]
fn perft_prints_the_count_last_or_as_json() {
    assert_eq!(json(&["perft", "--depth", "3", "--json"]), json!({"depth": 3, "nodes": 7320}));
    let output = kulami(&["perft", "--depth", "4", "--moves", "d4"]);
    assert!(output.status.success());
    let nodes = json(&["perft", "--depth", "4", "--moves", "d4", "--json"])["nodes"].to_string();
    assert_eq!(stdout(&output).lines().last(), Some(nodes.as_str()));
    assert_eq!(json(&["perft", "--depth", "0", "--json"])["nodes"], 1);
    assert_eq!(json(&["perft", "--layout", "AABB", "--moves", "a1 c1", "--depth", "2", "--json"])["nodes"], 0);
}

#[test]
fn illegal_moves_name_number_cell_and_rule() {
    let message = fails(&["legal", "--moves", "d4 e5"], 1);
    assert!(message.contains("move 2 (e5)") && message.contains("not in the row or column"), "{message}");
    let message = fails(&["score", "--moves", "d4 d3"], 1);
    assert!(
        message.contains("move 2 (d3)") && message.contains("same tile as the opponent's last marble"),
        "{message}"
    );
    let message = fails(&["perft", "--depth", "1", "--moves", "a1 a3 c3 c1 a1"], 1);
    assert!(message.contains("move 5 (a1): a1 already holds a marble"), "{message}");
    let message = fails(&["legal", "--moves", "d4 q9"], 1);
    assert!(message.contains("move 2: `q9` is not a move"), "{message}");
}

#[test]
fn bad_layouts_and_options_get_one_line() {
    let message = fails(&["legal", "--layout", "AAB/CCX"], 1);
    assert!(message.contains("line 1, column 3: tile 'B' is 1x1"), "{message}");
    let message = fails(&["legal", "--layout", "no-such-board"], 1);
    assert!(message.contains("not a preset name, not a file"), "{message}");
    let message = fails(&["legal", "--frobnicate"], 2);
    assert!(message.contains("--frobnicate"), "{message}");
    let message = fails(&["score", "--scoring", "most"], 2);
    assert!(message.contains("most"), "{message}");
}

#[test]
fn layout_validate_reports_every_problem() {
    let dir = std::env::temp_dir().join(format!("kulami-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, CLASSIC.replace('/', "\n")).unwrap();
    let output = kulami(&["layout", "validate", good.to_str().unwrap(), "--standard"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("valid, 17 tiles, 64 holes, 28 marbles per player, standard set"));

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# a board\nAAB\nC*B\n").unwrap();
    let output = kulami(&["layout", "validate", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("line 3, column 1: tile 'C' is 1x1"), "{message}");
    assert!(message.contains("line 3, column 2: '*' is not a tile name"), "{message}");

    let small = dir.join("small.txt");
    std::fs::write(&small, "AABB\nCCDD\n").unwrap();
    let message = fails(&["layout", "validate", small.to_str().unwrap(), "--standard"], 1);
    assert!(message.contains("not the standard set: 0 of 2x3 (standard 4)"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_draws_plain_text_when_piped() {
    let output = kulami(&["show", "--moves", "d4 d7"]);
    let text = stdout(&output);
    assert!(!text.contains('\x1b'), "no colour codes in a pipe");
    assert!(text.contains(" 4 | .   . | .   X |"), "{text}");
    assert!(text.contains("[O]"), "last move marked: {text}");
    assert!(text.contains("red to move (9 legal holes, 27 marbles left; black has 27)"), "{text}");
    let coloured = stdout(&kulami(&["show", "--color", "always"]));
    assert!(coloured.contains('\x1b'));
}

fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kulami"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn play_skips_an_overlong_line_and_goes_on() {
    let input = format!("{}\na1\nquit\n", "x".repeat(1 << 20));
    let text = play(&["--layout", "AABB/CCDD"], &input);
    assert!(text.contains("That line is too long to be a move or a command."), "{}", &text[..text.len().min(500)]);
    assert!(text.contains("Black"), "the game went on after it");
}

#[test]
fn play_answers_illegal_input_and_finishes_a_game() {
    let text = play(&["--layout", "AABB/CCDD"], "a1\nb1\nzz\na2\nundo\nredo\nd2\nd1\nb1\nb2\nc2\nc1\n");
    assert!(text.contains("Illegal: b1 is on the same tile as the opponent's last marble (a1)."), "{text}");
    assert!(text.contains("`zz` is not a move"), "{text}");
    assert!(text.contains("game over"), "{text}");
    assert!(text.contains("winner:"), "{text}");
    // Quitting or closing the input ends cleanly mid-game.
    let text = play(&[], "d4\nquit\n");
    assert!(text.contains("Black (O) >"));
    assert!(!text.contains("winner:"));
}

#[test]
fn layout_generate_is_reproducible_and_prints_its_seed() {
    for shape in ["square", "irregular"] {
        let first = stdout(&kulami(&["layout", "generate", "--seed", "12", "--shape", shape]));
        assert!(first.starts_with(&format!("# {shape} board, seed 12\n")), "{first}");
        assert_eq!(first, stdout(&kulami(&["layout", "generate", "--seed", "12", "--shape", shape])));
        let one_line = stdout(&kulami(&["layout", "generate", "--seed", "12", "--shape", shape, "--one-line"]));
        assert_eq!(one_line.trim(), first.lines().skip(1).collect::<Vec<_>>().join("/"));
        // The printed board is a valid layout for the other commands.
        assert_eq!(json(&["legal", "--layout", one_line.trim(), "--json"])["legal"].as_array().unwrap().len(), 64);
    }
    let drawn = stdout(&kulami(&["layout", "generate", "--shape", "irregular"]));
    let seed: u64 = drawn.lines().next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    let again = stdout(&kulami(&["layout", "generate", "--shape", "irregular", "--seed", &seed.to_string()]));
    assert_eq!(drawn, again, "a drawn seed recreates its board");
    let message = fails(&["layout", "generate", "--shape", "round"], 2);
    assert!(message.contains("round"), "{message}");
}

#[test]
fn layout_list_and_show() {
    let list = stdout(&kulami(&["layout", "list"]));
    assert!(
        list.lines().any(|line| line.starts_with("classic") && line.contains("17 tiles 64 holes 28 marbles")),
        "{list}"
    );
    let shown = stdout(&kulami(&["layout", "show", "classic"]));
    assert!(shown.starts_with("# name: classic\n"), "{shown}");
    assert!(shown.contains("AABBCCCD\n") && shown.contains(" 8 | .   .   . |"), "{shown}");
    fails(&["layout", "show", "nowhere"], 1);
}

#[test]
fn layout_stats_reports_speed_variety_and_playability() {
    let text = stdout(&kulami(&["layout", "stats", "--shape", "irregular", "--count", "40"]));
    assert!(text.starts_with("40 irregular boards in "), "{text}");
    assert!(text.contains("distinct boards: 40"), "{text}");
    assert!(text.contains("boards with a single-tile row or column: 0.0%"), "{text}");
    fails(&["layout", "stats", "--count", "0"], 1);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kulami"))
        .args(["layout", "stats", "--count", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kulami"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn engine_protocol_over_stdin() {
    let input = "name\n\nlayout AABB/CCDD/EEFF\nplay a1\ngenmove\nbogus\nfinal_score\nquit\nname\n";
    let output = with_input(&["engine", "--level", "3"], input);
    assert!(output.status.success());
    let text = stdout(&output);
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 7, "nothing after quit: {text:?}");
    assert_eq!(replies[0], "= kulami");
    assert_eq!(replies[1], "= ");
    assert_eq!(replies[2], "= ");
    let answer: kulami_core::Cell = replies[3].trim_start_matches("= ").parse().unwrap();
    assert!(answer.row() == 0 || answer.column() == 0, "{answer} answers a1");
    assert_eq!(replies[4], "? unknown command");
    assert!(replies[5].starts_with("= red 2 black "), "{}", replies[5]);
    let long = format!("{}\nname\n", "x".repeat(100_000));
    let text = stdout(&with_input(&["engine"], &long));
    assert_eq!(text, "? line longer than 4096 bytes\n\n= kulami\n\n");
    // The swap and a clock, as a controller sends them.
    // A marble in the corner is worth taking over (the engine's view).
    let input = "swap on\nplay a1\nlegal\ntime_left 2000 100\ngenmove\ngenmove\nquit\n";
    let text = stdout(&with_input(&["engine", "--level", "4"], input));
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert!(replies[2].ends_with(" swap"), "{}", replies[2]);
    assert_eq!(replies[3], "= ");
    assert_eq!(replies[4], "= swap", "the first marble is worth taking");
    assert!(replies[5].trim_start_matches("= ").parse::<kulami_core::Cell>().is_ok(), "{}", replies[5]);
}

#[test]
fn match_between_levels_and_an_external_engine() {
    let summary = json(&["match", "1", "3", "--random", "3", "--json"]);
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["results"].as_array().unwrap().len(), 6);
    assert_eq!(summary["results"][0]["a_color"], "red");
    assert_eq!(summary["results"][1]["a_color"], "black");
    let wins =
        summary["wins"].as_u64().unwrap() + summary["draws"].as_u64().unwrap() + summary["losses"].as_u64().unwrap();
    assert_eq!(wins, 6);
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
    let text = stdout(&kulami(&["match", "1", "2", "--boards", "easy", "--tc", "5"]));
    assert!(text.contains("time losses: level 1 0, level 2 0"), "{text}");
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

#[test]
fn hint_and_analyse() {
    let hints = json(&["hint", "--layout", "AABB/CCDD/EEFF", "--json"]);
    assert_eq!(hints["to_move"], "red");
    let list = hints["hints"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert!(list.iter().all(|h| h["exact"] == true));
    let dir = std::env::temp_dir().join(format!("kulami-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    std::fs::write(&record, "layout: AABB/CCDD/EEFF\nscoring: both\nmoves: a1 a3 c3 c1 c2 b2\n").unwrap();
    let review = json(&["analyse", "--record", record.to_str().unwrap(), "--json"]);
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert!(moves.iter().all(|m| m["loss"].as_f64().unwrap() >= 0.0));
    std::fs::write(&record, "layout: AABB/CCDD/EEFF\nmoves: a1 b1\n").unwrap();
    let message = fails(&["analyse", "--record", record.to_str().unwrap()], 1);
    assert!(message.contains("move 2 (b1)"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_values_every_hole_exactly() {
    const BOARD: &str = "AABBB/AACCD/EEFFD";
    let solved = json(&["solve", "--layout", BOARD, "--table-mb", "1", "--json"]);
    assert_eq!(solved["to_move"], "red");
    let moves = solved["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 15, "every hole is legal at the start");
    let values: Vec<f64> = moves.iter().map(|m| m["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|pair| pair[0] >= pair[1]), "best first: {values:?}");
    assert_eq!(solved["value"].as_f64(), Some(values[0]));
    // The time-limited hint reaches the end of so small a game: the same value.
    let hint = json(&["hint", "--layout", BOARD, "--count", "1", "--json"]);
    assert_eq!(
        (hint["hints"][0]["exact"].as_bool(), hint["hints"][0]["value"].as_f64()),
        (Some(true), Some(values[0]))
    );
    // The perfect line is legal and plays to the end of the game.
    let line: Vec<&str> = solved["line"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(line[0], moves[0]["cell"]);
    let end = json(&["legal", "--layout", BOARD, "--moves", &line.join(" "), "--json"]);
    assert_eq!(end["game_over"], true);
    // With the swap rule the second player may take the first marble: minus the best hole.
    let swap = json(&["solve", "--layout", BOARD, "--swap", "--moves", "a1", "--table-mb", "1", "--json"]);
    assert_eq!(swap["swap"].as_f64(), swap["value"].as_f64().map(|value| -value));
    let best = json(&["solve", "--layout", BOARD, "--best-only", "--table-mb", "1", "--json"]);
    assert_eq!(best["value"], solved["value"]);
    assert_eq!(best["moves"].as_array().unwrap().len(), 1, "one best hole");
    let best_hole = moves.iter().find(|m| m["cell"] == best["moves"][0]["cell"]).unwrap();
    assert_eq!(best_hole["value"], solved["value"], "the hole it proves is a best one");
    let text = stdout(&kulami(&["solve", "--layout", BOARD, "--moves", "c1", "--table-mb", "1"]));
    assert!(text.contains("value under perfect play") && text.contains("a perfect line: "), "{text}");
    let message = fails(&["solve", "--layout", BOARD, "--moves", "a1 b1"], 1);
    assert!(message.contains("move 2 (b1)"), "{message}");
    fails(&["solve", "--layout", BOARD, "--threads", "0"], 2);
    // A table larger than the free memory is refused with one line, not an aborted allocation.
    let message = fails(&["solve", "--layout", BOARD, "--table-mb", "65536"], 1);
    assert!(message.contains("--table-mb 65536: 64.0 GiB, more than the"), "{message}");
}

#[test]
fn play_against_the_engine() {
    let output = with_input(&["play", "--black", "3", "--layout", "AABB/CCDD/EEFF"], "a1\nhint\nundo\na1\nquit\n");
    let text = stdout(&output);
    assert!(text.contains("Black (O), level 3, is thinking..."), "{text}");
    assert!(text.matches("Black (O) plays").count() == 2, "{text}");
    assert!(text.contains("1. "), "a hint is shown: {text}");
    let both_engines = with_input(&["play", "--red", "2", "--black", "1", "--layout", "easy"], "");
    assert!(stdout(&both_engines).contains("winner:"));
}

#[test]
fn the_daily_puzzle_is_the_same_for_the_same_date_and_judges_answers() {
    let puzzle = json(&["puzzle", "--date", "2026-11-30", "--json"]);
    assert_eq!(puzzle, json(&["puzzle", "--date", "2026-11-30", "--json"]));
    assert_ne!(puzzle, json(&["puzzle", "--date", "2026-12-01", "--json"]));
    for key in ["date", "layout", "moves", "to_move", "scoring", "answer", "difficulty"] {
        assert!(puzzle.get(key).is_some(), "no {key} in {puzzle}");
    }
    assert_eq!(puzzle["date"], "2026-11-30");
    // The answer is legal in the position, and right.
    let (layout, moves, answer) =
        (puzzle["layout"].as_str().unwrap(), puzzle["moves"].as_str().unwrap(), puzzle["answer"].as_str().unwrap());
    let legal = json(&["legal", "--layout", layout, "--moves", moves, "--json"]);
    assert!(legal["legal"].as_array().unwrap().iter().any(|cell| cell == answer));
    assert_eq!(legal["to_move"], puzzle["to_move"]);
    let right = kulami(&["puzzle", "--date", "2026-11-30", "--answer", answer]);
    assert_eq!(right.status.code(), Some(0));
    assert!(stdout(&right).starts_with(&format!("Right: {answer}")));
    // Any other legal hole is wrong: exit 1, with the refutation and the answer.
    let other = legal["legal"].as_array().unwrap().iter().find(|cell| *cell != answer).unwrap().as_str().unwrap();
    let wrong = kulami(&["puzzle", "--date", "2026-11-30", "--answer", other]);
    assert_eq!(wrong.status.code(), Some(1));
    let text = stdout(&wrong);
    assert!(text.starts_with(&format!("Wrong: after {other} best play ends")), "{text}");
    assert!(text.contains(&format!("{answer} was best")), "{text}");
    assert!(fails(&["puzzle", "--date", "2026-02-30"], 2).contains("not a date"));
    assert!(fails(&["puzzle", "--answer", "z9"], 2).contains("z9"));
}

#[test]
fn kalah_perft_and_solve_follow_formats_md() {
    // The last line is the count; Kalah(6,4)'s first two plies: 6 sowings, then 5 after pit 3
    // (which ends in South's store) and 6 after each of the other five.
    let output = kulami(&["kalah", "perft", "--depth", "2"]);
    assert_eq!(stdout(&output).lines().last(), Some("35"));
    let output = kulami(&["kalah", "perft", "--depth", "1", "--moves", "3"]);
    assert_eq!(stdout(&output).lines().last(), Some("5"), "South sows again");
    // Kalah(4,3): a first-player win by 8 with the empty capture and Irving's end, by 6 with the
    // standard capture (as an independent retrograde solver also finds).
    let empty =
        json(&["kalah", "solve", "--pits", "4", "--seeds", "3", "--capture", "empty", "--end", "irving", "--json"]);
    assert_eq!(empty["value"], 8);
    // As text, the memory it takes comes first, then the value and the line.
    let args = ["kalah", "solve", "--pits", "4", "--seeds", "3", "--capture", "empty", "--end", "irving"];
    let text = stdout(&kulami(&args));
    assert!(text.starts_with("solving with a 256 MiB table and an endgame database of up to 16 seeds"), "{text}");
    // Two turns keep the value (2 3 and 2 4), and the thread that finishes first names one.
    let turn = text
        .split_once("South's store minus North's at the end: 8\nbest turn: ")
        .and_then(|(_, rest)| rest.lines().next())
        .unwrap_or_else(|| panic!("no value and turn: {text}"));
    let after = json(&[&args[..], &["--json", "--moves", turn]].concat());
    assert_eq!(after["value"], 8, "after {turn}");
    // Before it, the bounds each null-window search proved, every pair around the value.
    let bounds: Vec<(i32, i32)> = text
        .lines()
        .filter_map(|line| line.strip_prefix("South's store minus North's at the end: "))
        .filter_map(|rest| {
            let (lower, rest) = rest.split_once(" to ")?;
            Some((lower.parse().ok()?, rest.split_once(' ')?.0.parse().ok()?))
        })
        .collect();
    assert!(!bounds.is_empty() && bounds.iter().all(|&(lower, upper)| lower <= 8 && 8 <= upper), "{text}");
    // The same with a larger endgame database, on two threads.
    let larger = json(&[&args[..], &["--endgame-seeds", "18", "--threads", "2", "--json"]].concat());
    assert_eq!(larger["value"], 8);
    let standard = json(&["kalah", "solve", "--pits", "4", "--seeds", "3", "--end", "irving", "--json"]);
    assert_eq!(standard["value"], 6);
    // The best turn (pit 2 ends in the store, then 3 and 4 both keep the value) keeps it.
    let best: Vec<String> = standard["best"].as_array().unwrap().iter().map(|pit| pit.to_string()).collect();
    assert!(best.len() == 2 && best[0] == "2", "{best:?}");
    let moves = best.join(" ");
    let after =
        json(&["kalah", "solve", "--pits", "4", "--seeds", "3", "--end", "irving", "--json", "--moves", &moves]);
    assert_eq!(after["value"], 6, "after {moves}");
    // After South's opening with the pie rule, North's best turn may be the swap.
    let swapped = json(&["kalah", "solve", "--pits", "2", "--seeds", "1", "--pie", "--moves", "2 1", "--json"]);
    assert_eq!(swapped["best"], json!(["swap"]));
}

#[test]
fn kalah_bad_input_is_one_line_and_a_failure() {
    assert!(
        fails(&["kalah", "perft", "--depth", "2", "--moves", "1 1 1"], 1)
            .contains("move 3 (1): South's pit 1 is empty")
    );
    assert!(
        fails(&["kalah", "perft", "--depth", "1", "--pits", "4", "--moves", "5"], 1)
            .contains("pit 5 is not on a board")
    );
    assert!(
        fails(&["kalah", "solve", "--pits", "2", "--seeds", "1", "--moves", "2 1 2 1"], 1).contains("the game is over")
    );
    assert!(fails(&["kalah", "perft", "--depth", "1", "--moves", "1 x"], 1).contains("`x` is not a move"));
    // Memory beyond what the machine has free (a 40-seed database takes 192 GiB) is refused
    // before any is taken.
    let message = fails(&["kalah", "solve", "--endgame-seeds", "40"], 1);
    assert!(message.contains("--table-mb 256 and --endgame-seeds 40: 192.5 GiB, more than the"), "{message}");
    assert!(fails(&["kalah", "solve", "--table-mb", "100000000"], 1).contains("--table-mb 100000000 and"));
    assert!(fails(&["kalah", "perft", "--depth", "1", "--pits", "7"], 1).contains("7 pits a side"));
    assert!(fails(&["kalah", "perft", "--depth", "1", "--capture", "both"], 2).contains("not a capture rule"));
}

/// `kulami kalah play` with `input` on stdin.
fn kalah_play(args: &[&str], input: &str) -> Output {
    with_input(&[["kalah", "play"].as_slice(), args].concat(), input)
}

#[test]
fn kalah_play_between_people_and_levels() {
    // Two levels play Kalah(3,2) out; every seed ends in a store.
    let output = kalah_play(&["--pits", "3", "--seeds", "2", "--south", "1", "--north", "4"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap();
    let stores: Vec<u32> = last.split([' ', ',', ':']).filter_map(|word| word.parse().ok()).take(2).collect::<Vec<_>>();
    assert!(last.starts_with("Game over: South "), "{last}");
    assert_eq!(stores.iter().sum::<u32>(), 12, "{last}");
    // A person: a bad word and an illegal pit are answered, and quit leaves.
    // (Kalah(4,1): pit 4's seed lands in South's store, so South moves again.)
    let output = kalah_play(&["--pits", "4", "--seeds", "1"], "7\n4\n4\nquit\n");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("`7` is not a move"), "{text}");
    assert!(text.contains("4 is not legal here"), "{text}");
    assert!(!text.contains("plays"), "the engine never moved: {text}");
    assert!(text.trim_end().ends_with("Left the game after 1 move."), "{text}");
    // The input ends before the game: one line, and a failure.
    let output = kalah_play(&["--pits", "4"], "");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output).lines().count(), 1);
    assert!(stderr(&output).contains("the input ended before the game did"));
}

#[test]
fn gorami_perft_counts_and_refuses_bad_moves() {
    // The side-4 triangle: 16 fields with three numbers, then 15 with three less the first
    // number on the first field's neighbours (36 neighbour pairs in all): 48 * 45 - 3 * 36.
    let output = kulami(&["gorami", "perft", "--depth", "2"]);
    assert_eq!(stdout(&output).lines().last(), Some("2052"));
    let output = kulami(&["gorami", "perft", "--board", "24", "--depth", "1", "--moves", "3@9"]);
    assert_eq!(stdout(&output).lines().last(), Some(&*(23 * 3 - 3).to_string()), "field 9 has three neighbours");
    assert!(
        fails(&["gorami", "perft", "--depth", "1", "--moves", "1@1 1@3"], 1)
            .contains("move 2 (1@3): field 3 neighbours field 1, which holds a 1 already")
    );
    assert!(fails(&["gorami", "perft", "--depth", "1", "--moves", "1@17"], 1).contains("field 17 is not on the board"));
    assert!(fails(&["gorami", "perft", "--depth", "1", "--moves", "x"], 1).contains("`x` is not a move"));
    assert!(fails(&["gorami", "perft", "--depth", "1", "--board", "20"], 2).contains("not a GORami board"));
}

/// `kulami gorami play` with `input` on stdin.
fn gorami_play(args: &[&str], input: &str) -> Output {
    with_input(&[["gorami", "play"].as_slice(), args].concat(), input)
}

#[test]
fn gorami_play_between_people_and_levels() {
    // Two levels play the 22-field board out to a count.
    let output = gorami_play(&["--board", "22", "--yellow", "1", "--blue", "3"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("Game over: stripes Yellow "), "{last}");
    let stripes: u32 = last.split([' ', ',', ';', ':']).filter_map(|word| word.parse::<u32>().ok()).take(2).sum();
    assert!(stripes <= 12, "{last}");
    assert!(text.contains("Yellow (level 1) plays ") && text.contains("Blue (level 3) plays "), "{text}");
    // A person: a bad word and an illegal move are answered, and quit leaves.
    let output = gorami_play(&[], "7\n2@1\n2@3\nquit\n");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("`7` is not a move"), "{text}");
    assert!(text.contains("Discs left: Yellow 3x1 3x2 3x3; Blue 3x1 3x2 3x3"), "{text}");
    assert!(text.contains("Blue (level 3) plays "), "{text}");
    assert!(text.contains("2@3 is not legal here"), "field 3 neighbours yellow's 2 (or blue took it): {text}");
    assert!(text.trim_end().ends_with("Left the game after 2 moves."), "{text}");
}
