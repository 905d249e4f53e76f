//! The searches on a game whose every value is known: the player to move loses Nim (take one
//! to three, the last counter wins) exactly when the pile is a multiple of four.

use std::time::Duration;

use game_search::mcts::{self, ImplicitMinimax, MctsLimits, MctsOptions};
use game_search::nim::{Nim, WIN};
use game_search::{Evaluator, Limits, Proven, SearchGame, Searcher};

struct Even;
impl Evaluator<Nim> for Even {
    fn evaluate(&self, _: &Nim) -> i32 {
        0
    }
}

fn known_value(counters: u8) -> i32 {
    if counters.is_multiple_of(4) { -WIN } else { WIN }
}

#[test]
fn the_solver_knows_every_pile() {
    for threads in [1, 2] {
        let mut searcher = Searcher::new(1, threads);
        for counters in 1..=40 {
            let solved = searcher.search(&Nim::new(counters), &Even, Limits::default(), None);
            assert!(solved.exact, "{counters}");
            assert_eq!(solved.value, known_value(counters), "{counters} counters, {threads} threads");
            if !counters.is_multiple_of(4) {
                assert_eq!(solved.best, Some(counters % 4), "the winning take from {counters}");
            }
            // The line plays to the end of the game.
            let mut line = Nim::new(counters);
            for &take in &solved.pv {
                line.play(take);
            }
            assert_eq!(line.counters(), 0, "{counters}: {:?}", solved.pv);
        }
    }
}

#[test]
fn the_proof_of_who_wins_knows_every_pile_and_its_winning_take() {
    for threads in [1, 2] {
        let mut searcher = Searcher::new(1, threads);
        for counters in 1..=40 {
            let proof = searcher.prove(&Nim::new(counters), &Even, Limits::default(), None).expect("unlimited");
            if counters.is_multiple_of(4) {
                assert_eq!(proof.outcome, Proven::Lost, "{counters} counters, {threads} threads");
            } else {
                assert_eq!((proof.outcome, proof.best), (Proven::Won, counters % 4), "{counters}, {threads} threads");
            }
        }
        assert_eq!(searcher.prove(&Nim::new(0), &Even, Limits::default(), None), None, "the game is over");
    }
}

#[test]
fn an_unlimited_search_goes_to_the_end_right_after_its_warm_up() {
    // Forty counters may last forty plies, beyond where a limited search starts solving: with a
    // depth limit it deepens ply by ply, without any limit it jumps to the end.
    let game = Nim::new(40);
    let unlimited = Searcher::new(1, 1).search(&game, &Even, Limits::default(), None);
    let deepening = Searcher::new(1, 1).search(&game, &Even, Limits::depth(40), None);
    assert!(unlimited.exact && deepening.exact);
    assert_eq!(unlimited.value, deepening.value);
    assert!(unlimited.nodes < deepening.nodes, "{} nodes against {}", unlimited.nodes, deepening.nodes);
}

#[test]
fn every_move_is_ranked_with_its_value() {
    let ranked = Searcher::new(1, 1).rank_moves(&Nim::new(9), &Even, Limits::default());
    assert!(ranked.exact);
    assert_eq!(ranked.moves, vec![(1, WIN), (2, -WIN), (3, -WIN)]);
}

#[test]
fn a_shallow_search_is_not_exact_and_respects_its_depth() {
    let found = Searcher::new(1, 1).search(&Nim::new(30), &Even, Limits::depth(3), None);
    assert!(!found.exact);
    assert_eq!(found.depth, 3);
    assert!(found.best.is_some());
}

#[test]
fn monte_carlo_tree_search_finds_the_winning_take() {
    for counters in [5, 6, 7, 10, 11] {
        let limits = MctsLimits { time: Duration::from_secs(20), playouts: 4000, threads: 1 };
        for options in [MctsOptions::PLAIN, MctsOptions::RAVE] {
            let found = mcts::search(&Nim::new(counters), None, options, limits, 3, None);
            assert_eq!(found.best, Some(counters % 4), "{counters} counters with {options:?}");
            assert!(found.win_rate > 0.5, "{counters}: {}", found.win_rate);
        }
    }
}

/// Knows every pile's value: the player to move loses exactly on a multiple of four.
struct Perfect;
impl Evaluator<Nim> for Perfect {
    fn evaluate(&self, nim: &Nim) -> i32 {
        if nim.counters().is_multiple_of(4) { -WIN } else { WIN }
    }
}

/// Believes the opposite of [`Perfect`].
struct Misleading;
impl Evaluator<Nim> for Misleading {
    fn evaluate(&self, nim: &Nim) -> i32 {
        -Perfect.evaluate(nim)
    }
}

#[test]
fn implicit_minimax_backups_steer_the_tree_by_the_evaluation() {
    // A pile far too large for 40 random playouts to judge: what the search picks is what its
    // evaluation says, right or wrong.
    let minimax = ImplicitMinimax::fixed(0.9, 25.0);
    let options = MctsOptions { implicit_minimax: Some(minimax), ..MctsOptions::RAVE };
    let limits = MctsLimits { time: Duration::from_secs(20), playouts: 40, threads: 1 };
    for counters in [101, 150, 199] {
        let winning = counters % 4;
        let found = mcts::search(&Nim::new(counters), Some(&Perfect), options, limits, 5, None);
        assert_eq!(found.best, Some(winning), "{counters} counters, a perfect evaluation");
        let misled = mcts::search(&Nim::new(counters), Some(&Misleading), options, limits, 5, None);
        assert_ne!(misled.best, Some(winning), "{counters} counters, a misleading evaluation");
        // Without an evaluation the options have nothing to back up, and the search runs as
        // the plain one does.
        let unaided = mcts::search(&Nim::new(counters), None, options, limits, 5, None);
        let without = MctsOptions { implicit_minimax: None, ..options };
        assert_eq!(unaided, mcts::search(&Nim::new(counters), None, without, limits, 5, None));
    }
}

#[test]
fn a_rising_share_lets_the_evaluation_steer_the_children_visited_most() {
    // Enough playouts for the search alone to find the winning take from 17 counters; a
    // misleading evaluation that starts with no share and takes over as visits grow leads it
    // astray, and the same with no share at any number of visits does not.
    let limits = MctsLimits { time: Duration::from_secs(20), playouts: 4000, threads: 1 };
    let search = |minimax| {
        let options = MctsOptions { implicit_minimax: Some(minimax), ..MctsOptions::RAVE };
        mcts::search(&Nim::new(17), Some(&Misleading), options, limits, 5, None).best
    };
    let none = ImplicitMinimax::fixed(0.0, 25.0);
    assert_eq!(search(none), Some(1), "no share: the playouts decide");
    let rising = ImplicitMinimax { deep_weight: 0.95, halfway_visits: 20.0, ..none };
    assert_ne!(search(rising), Some(1), "a share rising with visits: the evaluation decides");
}

#[test]
fn a_kept_tree_carries_its_statistics_to_the_position_two_moves_on() {
    let limits = MctsLimits { time: Duration::from_secs(20), playouts: 2000, threads: 2 };
    let visits = |found: &mcts::MctsResult<u8>| found.moves.iter().map(|root| root.visits).sum::<u64>();
    let mut kept = mcts::KeptTrees::default();
    // Small enough for the searches to settle the winning take: from 17 counters random
    // playouts rate every take near one half, and which one came first was the seed's luck.
    let mut game = Nim::new(9);
    let first = mcts::search_reusing(&mut kept, &game, None, MctsOptions::RAVE, limits, 1, None);
    assert_eq!(visits(&first), 4000, "a first search starts from nothing");
    // The winning take (to 8), then a reply the tree looked at.
    game.play(1);
    game.play(3);
    let second = mcts::search_reusing(&mut kept, &game, None, MctsOptions::RAVE, limits, 2, None);
    assert_eq!(second.playouts, 4000, "the limit counts this search's playouts");
    assert!(visits(&second) > 4000, "the subtree's visits carried over: {}", visits(&second));
    assert_eq!(second.best, Some(1), "5 counters: take one");
    // A position the trees never reached starts from nothing again, as does a cleared one.
    let elsewhere = Nim::new(30);
    let fresh = mcts::search_reusing(&mut kept, &elsewhere, None, MctsOptions::RAVE, limits, 3, None);
    assert_eq!(visits(&fresh), 4000);
    kept.clear();
    assert_eq!(kept.nodes(), 0);
    let again = mcts::search_reusing(&mut kept, &game, None, MctsOptions::RAVE, limits, 2, None);
    assert_eq!(visits(&again), 4000);
    // Reused, the search still answers as a plain one would from the same start.
    assert_eq!(again, mcts::search(&game, None, MctsOptions::RAVE, limits, 2, None));
}

#[test]
fn solved_leaves_score_their_proof_instead_of_a_random_game() {
    // Far too few playouts to judge a large pile at random, and an evaluation that misleads;
    // but every leaf is solved on its first visit, and every playout through the winning take
    // scores the proven win.
    let options = MctsOptions { solve_leaves: Some(usize::MAX), ..MctsOptions::RAVE };
    let limits = MctsLimits { time: Duration::from_secs(20), playouts: 40, threads: 1 };
    for counters in [61, 62, 63] {
        let winning = counters % 4;
        let found = mcts::search(&Nim::new(counters), Some(&Misleading), options, limits, 5, None);
        assert_eq!(found.best, Some(winning), "{counters} counters");
        let take = found.moves.iter().find(|root| root.mv == winning).expect("a root move");
        assert_eq!(take.win_rate, 1.0, "{counters}: every playout through the winning take won");
        for losing in found.moves.iter().filter(|root| root.mv != winning) {
            assert_eq!(losing.win_rate, 0.0, "{counters}: taking {} always lost", losing.mv);
        }
        // Without an evaluation to order the proofs the option is off.
        let unaided = mcts::search(&Nim::new(counters), None, options, limits, 5, None);
        let without = MctsOptions { solve_leaves: None, ..options };
        assert_eq!(unaided, mcts::search(&Nim::new(counters), None, without, limits, 5, None));
    }
}

#[test]
fn proofs_climb_the_tree_to_the_root_moves() {
    // From 61 counters, leaves at 56 or fewer are solved. Taking one leaves 60: each reply has
    // a reply to 56, proven on sight, which proves the reply lost, and with all three the take
    // won. Each other take has a reply to 56 too, which proves it lost.
    let options = MctsOptions { solve_leaves: Some(56), ..MctsOptions::PLAIN };
    let limits = MctsLimits { time: Duration::from_secs(60), playouts: 3_000, threads: 2 };
    let found = mcts::search(&Nim::new(61), Some(&Misleading), options, limits, 9, None);
    assert_eq!(found.best, Some(1));
    for root in &found.moves {
        let expected = if root.mv == 1 { Proven::Won } else { Proven::Lost };
        assert_eq!(root.proven, Some(expected), "taking {}: {:?}", root.mv, found.moves);
    }
    // A pile beyond the reach of the proofs proves nothing.
    let far = mcts::search(&Nim::new(121), Some(&Misleading), options, limits, 9, None);
    assert!(far.moves.iter().all(|root| root.proven.is_none()), "{:?}", far.moves);
}
