//! `kulami kalah` and `kulami gorami`: the other games' counts, solves and play, and their
//! answers to bad input.

mod common;

use std::process::Output;

use common::{fails, json, kulami, stderr, stdout, with_input};
use serde_json::json;

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

/// `kulami GAME play` with `input` on stdin.
fn play(game: &str, args: &[&str], input: &str) -> Output {
    with_input(&[[game, "play"].as_slice(), args].concat(), input)
}

#[test]
fn kalah_play_between_people_and_levels() {
    // Two levels play Kalah(3,2) out; every seed ends in a store.
    let output = play("kalah", &["--pits", "3", "--seeds", "2", "--south", "1", "--north", "4"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap();
    let stores: Vec<u32> = last.split([' ', ',', ':']).filter_map(|word| word.parse().ok()).take(2).collect::<Vec<_>>();
    assert!(last.starts_with("Game over: South "), "{last}");
    assert_eq!(stores.iter().sum::<u32>(), 12, "{last}");
    // A person: a bad word and an illegal pit are answered, and quit leaves.
    // (Kalah(4,1): pit 4's seed lands in South's store, so South moves again.)
    let output = play("kalah", &["--pits", "4", "--seeds", "1"], "7\n4\n4\nquit\n");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("`7` is not a move"), "{text}");
    assert!(text.contains("4 is not legal here"), "{text}");
    assert!(!text.contains("plays"), "the engine never moved: {text}");
    assert!(text.trim_end().ends_with("Left the game after 1 move."), "{text}");
    // The input ends before the game: one line, and a failure.
    let output = play("kalah", &["--pits", "4"], "");
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

#[test]
fn gorami_play_between_people_and_levels() {
    // Two levels play the 22-field board out to a count.
    let output = play("gorami", &["--board", "22", "--yellow", "1", "--blue", "3"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("Game over: stripes Yellow "), "{last}");
    let stripes: u32 = last.split([' ', ',', ';', ':']).filter_map(|word| word.parse::<u32>().ok()).take(2).sum();
    assert!(stripes <= 12, "{last}");
    assert!(text.contains("Yellow (level 1) plays ") && text.contains("Blue (level 3) plays "), "{text}");
    // A person: a bad word and an illegal move are answered, and quit leaves.
    let output = play("gorami", &[], "7\n2@1\n2@3\nquit\n");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("`7` is not a move"), "{text}");
    assert!(text.contains("Discs left: Yellow 3x1 3x2 3x3; Blue 3x1 3x2 3x3"), "{text}");
    assert!(text.contains("Blue (level 3) plays "), "{text}");
    assert!(text.contains("2@3 is not legal here"), "field 3 neighbours yellow's 2 (or blue took it): {text}");
    assert!(text.trim_end().ends_with("Left the game after 2 moves."), "{text}");
}
