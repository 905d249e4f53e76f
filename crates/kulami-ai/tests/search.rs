//! The search against plain minimax: exact values when the game is solved, legal moves always,
//! and determinism under a node limit.

use std::sync::Arc;

use game_search::minimax;
use kulami_ai::{KulamiEvaluator, KulamiState, Limits, SearchGame, Searcher};
use kulami_core::{Layout, Position, Scoring, notation::parse_moves};

const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";

fn state(layout: &str, moves: &str, scoring: Scoring) -> KulamiState {
    let layout = Arc::new(Layout::parse(layout).unwrap());
    KulamiState::new(Position::from_moves(layout, &parse_moves(moves).unwrap()).unwrap(), scoring)
}

/// Plays the first legal hole until `left` moves at most remain.
fn endgame(layout: &str, scoring: Scoring, left: usize) -> KulamiState {
    let mut game = state(layout, "", scoring);
    let mut turn = 0;
    while game.moves_left_at_most() > left {
        let moves: Vec<_> = game.moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        game.play(moves[(turn * 7) % moves.len()]);
        turn += 1;
    }
    game
}

#[test]
fn solved_values_equal_minimax() {
    let boards = [
        ("AABB/CCDD/EEFF", Scoring::Standard, 12),
        ("AAB/CCB/DEE/DFF", Scoring::Both, 12),
        (CLASSIC, Scoring::Standard, 9),
        (CLASSIC, Scoring::Both, 9),
        ("AABBC/DDEEC/FFGGC", Scoring::Area, 14),
    ];
    for (layout, scoring, left) in boards {
        let mut game = endgame(layout, scoring, left);
        let expected = minimax(&mut game);
        let result =
            Searcher::new(4, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::default(), None);
        assert!(result.exact, "{layout}: not solved");
        assert_eq!(result.value, expected, "{layout} {scoring}");
        // The move it picks achieves that value.
        let best = result.best.unwrap();
        game.play(best);
        assert_eq!(-minimax(&mut game), expected);
    }
}

#[test]
fn an_exact_principal_variation_plays_to_the_end_for_the_value() {
    // 18 plies left: the table holds the line's first moves, small searches find the rest.
    for (scoring, left) in [(Scoring::Standard, 18), (Scoring::Both, 14), (Scoring::Area, 8)] {
        let game = endgame(CLASSIC, scoring, left);
        let result =
            Searcher::new(8, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::default(), None);
        assert!(result.exact);
        let mut line = game.clone();
        for &cell in &result.pv {
            assert!(line.position().legal_moves().contains(cell), "{scoring}: {:?}", result.pv);
            line.play(cell);
        }
        let final_margin = line.terminal_value().expect("the line ends the game");
        let sign = if result.pv.len().is_multiple_of(2) { 1 } else { -1 };
        assert_eq!(sign * final_margin, result.value, "{scoring}: {:?}", result.pv);
    }
}

#[test]
fn two_threads_solve_to_the_same_value() {
    // From 16 plies left the threads split the tree (claims start at depth 10).
    for (scoring, left) in [(Scoring::Lines, 12), (Scoring::Standard, 16), (Scoring::Both, 16), (Scoring::Area, 17)] {
        let game = endgame(CLASSIC, scoring, left);
        let one = Searcher::new(8, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::default(), None);
        let two = Searcher::new(8, 2).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::default(), None);
        assert!(one.exact && two.exact);
        assert_eq!(one.value, two.value, "{scoring}, {left} plies left");
    }
}

#[test]
fn node_limited_search_is_deterministic_and_legal() {
    let game = state(CLASSIC, "d4 d7 g7", Scoring::Standard);
    let run =
        || Searcher::new(4, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::nodes(20_000), None);
    let (first, second) = (run(), run());
    assert_eq!(first.best, second.best);
    assert_eq!(first.value, second.value);
    assert!(game.position().legal_moves().contains(first.best.unwrap()));
    assert!(!first.exact);
    assert!(first.pv.len() >= 2, "{:?}", first.pv);
    // The principal variation is a legal line.
    let mut line = game.position().clone();
    for &cell in &first.pv {
        line.play(cell).unwrap();
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let game = state("AABB", "a1 c1", Scoring::Standard);
    let result = Searcher::new(1, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::depth(3), None);
    assert_eq!((result.best, result.value, result.exact), (None, 0, true));
}

#[test]
fn a_set_cancel_flag_stops_at_once() {
    let game = state(CLASSIC, "", Scoring::Standard);
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let result =
        Searcher::new(4, 1).search(&game, &KulamiEvaluator::tuned(game.scoring()), Limits::default(), Some(&cancel));
    assert!(result.best.is_some(), "still a legal move to play");
    assert!(result.nodes < 5_000, "{}", result.nodes);
}
