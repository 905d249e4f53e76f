//! Monte-Carlo tree search on Kulami positions: legal moves, lines, seeds, limits and a best
//! first move the exact solver agrees with.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kulami_ai::mcts::{MctsLimits, MctsOptions, search};
use kulami_ai::{Evaluator, KulamiEvaluator, KulamiState, Limits, SearchGame, Searcher, TREE_SEARCH};
use kulami_core::{Layout, Position, Scoring};

fn limits(playouts: u64, threads: usize) -> MctsLimits {
    MctsLimits { time: Duration::from_secs(30), playouts, threads }
}

#[test]
fn returns_a_legal_move_after_the_playouts_asked_for() {
    let layout = Arc::new(Layout::parse("AABB").unwrap());
    let position = Position::from_moves(layout, &["a1".parse().unwrap()]).unwrap();
    let state = KulamiState::new(position, Scoring::Standard);
    for options in [MctsOptions::PLAIN, MctsOptions::RAVE] {
        let found = search(&state, None, options, limits(200, 2), 1, None);
        assert!(state.position().legal_moves().contains(found.best.unwrap()));
        assert_eq!(found.playouts, 400);
    }
}

#[test]
fn the_line_is_legal_and_starts_with_the_best_move() {
    let layout = Arc::new(Layout::parse("AABBCC/DDEEFF/GGHHII").unwrap());
    let state = KulamiState::new(Position::new(layout), Scoring::Standard);
    for threads in [1, 2] {
        let found = search(&state, None, MctsOptions::RAVE, limits(4000, threads), 3, None);
        assert_eq!(found.pv.first().copied(), found.best);
        assert!(found.pv.len() >= 3, "4000 playouts visit three plies deep: {:?}", found.pv);
        assert!((0.0..=1.0).contains(&found.win_rate));
        let mut line = state.clone();
        for &mv in &found.pv {
            assert!(line.position().legal_moves().contains(mv), "{mv} in {:?}", found.pv);
            line.play(mv);
        }
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let layout = Arc::new(Layout::parse("AABB").unwrap());
    let moves = kulami_core::notation::parse_moves("a1 c1").unwrap();
    let state = KulamiState::new(Position::from_moves(layout, &moves).unwrap(), Scoring::Standard);
    let found = search(&state, None, MctsOptions::RAVE, limits(100, 1), 1, None);
    assert_eq!((found.best, found.playouts), (None, 0));
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let layout = Arc::new(Layout::parse("AABBCC/DDEEFF/GGHHII").unwrap());
    let state = KulamiState::new(Position::new(layout), Scoring::Standard);
    let first = search(&state, None, MctsOptions::RAVE, limits(3000, 1), 9, None);
    assert_eq!(search(&state, None, MctsOptions::RAVE, limits(3000, 1), 9, None), first);
}

#[test]
fn a_time_beyond_the_clock_is_no_limit() {
    let layout = Arc::new(Layout::parse("AABB/CCDD").unwrap());
    let state = KulamiState::new(Position::new(layout), Scoring::Standard);
    let limits = MctsLimits { time: Duration::MAX, playouts: 50, threads: 1 };
    assert_eq!(search(&state, None, MctsOptions::RAVE, limits, 1, None).playouts, 50);
}

#[test]
fn a_set_cancel_flag_stops_after_the_first_playout() {
    let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
    let state = KulamiState::new(Position::new(layout), Scoring::Standard);
    let found = search(&state, None, MctsOptions::RAVE, limits(u64::MAX, 1), 1, Some(&AtomicBool::new(true)));
    assert_eq!(found.playouts, 1);
    assert!(found.best.is_some());
}

#[test]
fn both_settings_find_a_best_first_move_on_a_small_board() {
    // The exact alpha-beta search knows the value of every first move; MCTS must pick a best one.
    let layout = Arc::new(Layout::parse("AAB/CCB").unwrap());
    let state = KulamiState::new(Position::new(layout), Scoring::Standard);
    let solve = |game: &KulamiState| {
        Searcher::new(1, 1).search(game, &KulamiEvaluator::tuned(Scoring::Standard), Limits::default(), None).value
    };
    let evaluator = KulamiEvaluator::tuned(Scoring::Standard);
    let settings: [(Option<&dyn Evaluator<KulamiState>>, MctsOptions); 3] =
        [(None, MctsOptions::PLAIN), (None, MctsOptions::RAVE), (Some(&evaluator), TREE_SEARCH)];
    for (evaluator, options) in settings {
        let mv = search(&state, evaluator, options, limits(3000, 1), 2, None).best.unwrap();
        let mut after = state.clone();
        after.play(mv);
        assert_eq!(-solve(&after), solve(&state), "{options:?} picked {mv}, which is not best");
    }
}
