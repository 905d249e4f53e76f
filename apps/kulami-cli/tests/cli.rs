//! The `kulami` binary as scripts and people use it: output formats of `docs/FORMATS.md`, exit codes,
//! and one clear line on stderr for every kind of bad input.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{CLASSIC, fails, json, kulami, processor_ticks, stderr, stdout, with_input};
use serde_json::json;

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
    let output = with_input(&[["play"].as_slice(), args].concat(), input);
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

/// Starts `kulami ARGS`, sends `opening` and reads up to `ready`, then stands by for a second
/// as a person or a controller thinking; returns the processor ticks the program used in that
/// second. It is then told `quit`, and must end within 1.5 s (a search on its own would last
/// four seconds).
fn ticks_while_waiting(args: &[&str], opening: &str, ready: &str) -> u64 {
    use std::io::{Read as _, Write as _};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kulami"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = child.stdout.take().unwrap();
    input.write_all(opening.as_bytes()).unwrap();
    let mut seen = Vec::new();
    while !String::from_utf8_lossy(&seen).ends_with(ready) {
        let mut byte = [0];
        assert_eq!(output.read(&mut byte).unwrap(), 1, "{args:?} ended before {ready:?}");
        seen.push(byte[0]);
    }
    let before = processor_ticks(child.id());
    std::thread::sleep(Duration::from_secs(1));
    let ticks = processor_ticks(child.id()) - before;
    let asked = std::time::Instant::now();
    input.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success(), "{args:?}");
    assert!(asked.elapsed() < Duration::from_millis(1500), "{args:?} quit after {:?}", asked.elapsed());
    ticks
}

#[test]
fn level_5_thinks_on_the_opponents_time_in_the_engine_protocol_and_the_terminal_game() {
    let engine = ["engine", "--level", "5", "--movetime", "1000", "--threads", "1"];
    let idle = ticks_while_waiting(&engine, "genmove\n", "\n\n");
    assert!(idle <= 10, "{idle} ticks used while waiting, without --ponder");
    let pondering = ticks_while_waiting(&[&engine[..], &["--ponder"]].concat(), "genmove\n", "\n\n");
    assert!(pondering >= 30, "{pondering} ticks of thought on the opponent's second");
    // Against a person at the terminal it is always so (here from the first move: red's).
    let terminal = ticks_while_waiting(&["play", "--black", "5", "--movetime", "1000"], "", "> ");
    assert!(terminal >= 30, "{terminal} ticks of thought on the person's second");
    let two_people = ticks_while_waiting(&["play"], "", "> ");
    assert!(two_people <= 10, "{two_people} ticks used between two people");
}
