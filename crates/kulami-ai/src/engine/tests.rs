//! The engine's tests: its levels, the swap, the solver's reach and proofs, the kept trees.

use super::*;
use crate::Clock;

#[test]
fn the_engine_swaps_exactly_when_the_first_move_is_winning() {
    // Five marbles each: after the first move 9 plies are left, so the search is exact and
    // the engine must swap exactly when the player to move is lost.
    let layout =
        std::sync::Arc::new(kulami_core::Layout::parse("AAB/CCB/DEE/DFF").unwrap().with_marbles_per_player(5).unwrap());
    let mut swaps = 0;
    for level in [Level::Beginner, Level::Master] {
        let mut engine = Engine::new(level, EngineOptions::default());
        for first in Position::new(layout.clone()).legal_moves() {
            let position = Position::new(layout.clone()).with_swap_rule(true).replay(&[Move::Place(first)]).unwrap();
            let state = KulamiState::new(position.clone(), Scoring::Standard);
            let exact =
                Searcher::new(1, 1).search(&state, &KulamiEvaluator::tuned(Scoring::Standard), Limits::default(), None);
            assert!(exact.exact);
            let choice = engine.choose(&position, Scoring::Standard, None);
            let swap = choice.best == Some(Move::Swap);
            assert_eq!(swap, exact.value < 0, "{level} after {first}");
            if swap {
                assert_eq!(choice.value, -exact.value, "the swapper's value");
                assert_eq!(choice.pv.len(), exact.pv.len() + 1, "the swap, then the answer's line");
            }
            swaps += usize::from(swap);
            // Without the rule the same position gets a placement.
            let without = Position::from_moves(layout.clone(), &[Move::Place(first)]).unwrap();
            assert!(matches!(engine.choose(&without, Scoring::Standard, None).best, Some(Move::Place(_))));
        }
    }
    assert!(swaps > 0, "some first move on this board is worth taking over");
}

#[test]
fn with_the_swap_rule_the_first_marble_is_the_most_balanced_one() {
    // Five marbles each: the judgement is exact, so the best opening is known.
    let layout =
        std::sync::Arc::new(kulami_core::Layout::parse("AAB/CCB/DEE/DFF").unwrap().with_marbles_per_player(5).unwrap());
    let start = Position::new(layout.clone()).with_swap_rule(true);
    let mut engine = Engine::new(Level::Club, EngineOptions::default());
    let choice = engine.choose(&start, Scoring::Standard, None);
    let Some(Move::Place(opening)) = choice.best else { panic!("a placement: {choice:?}") };
    // What each first marble leaves its owner, by the judgement the answer will use.
    let left_to_owner = |first: Cell| {
        let after =
            KulamiState::new(Position::from_moves(layout.clone(), &[Move::Place(first)]).unwrap(), Scoring::Standard);
        let answer = Searcher::new(1, 1)
            .search(&after, &KulamiEvaluator::tuned(Scoring::Standard), Limits::default(), None)
            .value;
        -answer.abs()
    };
    let best = start.legal_moves().iter().map(left_to_owner).max().unwrap();
    assert_eq!(left_to_owner(opening), best, "{opening}");
    assert_eq!(choice.value, best);
    // Without the rule the engine plays its strongest first marble, which is not always it.
    let plain = engine.choose(&Position::new(layout), Scoring::Standard, None);
    assert!(plain.value > choice.value, "{plain:?} against {choice:?}");
}

#[test]
fn every_level_reports_its_move_first_in_its_line_and_a_value_on_the_point_scale() {
    let layout = std::sync::Arc::new(
        kulami_core::Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap(),
    );
    let position = Position::from_moves(layout, &kulami_core::notation::parse_moves("d4 d7 g7").unwrap()).unwrap();
    for level in Level::LADDER.into_iter().chain([Level::Mcts, Level::Baseline]) {
        let options = EngineOptions::default().with_nodes(Some(3000)).with_seed(5);
        if level == Level::Baseline {
            continue; // minutes at its depth schedule; its value is its search's own
        }
        let choice = Engine::new(level, options).choose(&position, Scoring::Standard, None);
        assert_eq!(choice.pv.first(), choice.best.as_ref(), "{level}");
        let mut line = position.clone();
        for &mv in &choice.pv {
            line.play_move(mv).unwrap_or_else(|error| panic!("{level}: {mv} in {:?}: {error}", choice.pv));
        }
        // A marble is worth at most a few points this early: the values are margins, not 0.
        assert!(choice.value != 0 && choice.value.abs() < 40 * POINT, "{level}: {}", choice.value);
        if matches!(level, Level::Expert | Level::Master | Level::Mcts) {
            assert!(choice.pv.len() >= 2, "{level}: a line, not one move: {:?}", choice.pv);
        }
    }
}

#[test]
fn every_level_answers_a_live_game_even_with_no_time_left() {
    let layout = std::sync::Arc::new(classic());
    let flagged = TimeControl::Clock(Clock { remaining: Duration::ZERO, increment: Duration::ZERO });
    for moves in ["", "d4", "d4 d7 g7 g2"] {
        let position =
            Position::from_moves(layout.clone(), &kulami_core::notation::parse_moves(moves).unwrap()).unwrap();
        for level in Level::LADDER.into_iter().chain([Level::Mcts]) {
            let mut engine = Engine::new(level, EngineOptions::default().with_time(flagged));
            let choice = engine.choose(&position, Scoring::Standard, None);
            let chosen = choice.best.unwrap_or_else(|| panic!("{level} found no move after [{moves}]"));
            assert!(position.clone().play_move(chosen).is_ok(), "{level}: {chosen}");
        }
    }
}

#[test]
fn the_tree_search_plays_for_a_win_over_a_draw_only_at_short_times() {
    for time in [Duration::from_millis(30), Duration::from_secs(1), CONTEMPT_MAX_TIME - Duration::from_millis(1)] {
        let options = tree_search_options(Scoring::Standard, time);
        assert_eq!(options, TREE_SEARCH, "{time:?}");
        assert!(options.contempt > 0.0, "{time:?}");
    }
    for time in [CONTEMPT_MAX_TIME, Duration::from_secs(5), Duration::from_secs(60)] {
        let options = tree_search_options(Scoring::Standard, time);
        assert_eq!(options, MctsOptions { contempt: 0.0, ..TREE_SEARCH }, "{time:?}");
    }
    for scoring in [Scoring::Area, Scoring::Lines, Scoring::Both] {
        assert_eq!(tree_search_options(scoring, Duration::from_millis(100)).contempt, 0.0, "{scoring}");
    }
}

#[test]
fn under_a_variant_the_tree_search_takes_its_own_options_and_solves_later() {
    let second = Duration::from_secs(1);
    assert_eq!(tree_search_options(Scoring::Standard, second), TREE_SEARCH);
    let lines = tree_search_options(Scoring::Lines, second);
    assert_eq!(lines.implicit_minimax, Some(ImplicitMinimax::fixed(0.4, 8.0 * POINT as f64)));
    assert_eq!(MctsOptions { implicit_minimax: None, ..lines }, MctsOptions::RAVE, "lines takes no contempt");
    for scoring in [Scoring::Area, Scoring::Both] {
        assert_eq!(tree_search_options(scoring, second), MctsOptions::RAVE, "{scoring}");
    }
    for time in [Duration::from_millis(30), Duration::from_millis(100), Duration::from_secs(3)] {
        for scoring in [Scoring::Area, Scoring::Lines, Scoring::Both] {
            assert_eq!(solver_reach(time, scoring) + 2, solver_reach(time, Scoring::Standard), "{scoring}");
        }
    }
}

#[test]
fn level_3_searches_to_the_end_from_its_scorings_number_of_plies() {
    let exact_from = [(Scoring::Standard, 18), (Scoring::Area, 18), (Scoring::Both, 16), (Scoring::Lines, 14)];
    for seed in 1..=3 {
        for plies in [18, 16, 14] {
            let state = random_play(seed, |state| state.moves_left_at_most() <= plies);
            for (scoring, from) in exact_from {
                let choice = Engine::new(Level::Club, EngineOptions::default()).choose(state.position(), scoring, None);
                let left = state.moves_left_at_most();
                assert_eq!(choice.exact, left <= from, "seed {seed}, {left} plies left, {scoring}");
            }
        }
    }
}

#[test]
fn a_forced_move_is_played_at_once_whatever_the_time() {
    // The first position of seeded random play with one legal move, beyond the solver's reach.
    let time = TimeControl::PerMove(Duration::from_secs(30));
    let beyond_solver = solver_reach(time.budget(1), Scoring::Standard);
    let forced = (1..2000_u64)
        .find_map(|seed| {
            let state =
                random_play(seed, |state| state.moves_left_at_most() <= beyond_solver || state.move_count() <= 1);
            let forced = state.move_count() == 1 && state.moves_left_at_most() > beyond_solver;
            forced.then(|| state.position().clone())
        })
        .expect("random play meets a forced move");
    for level in [Level::Expert, Level::Master, Level::Mcts] {
        let mut engine = Engine::new(level, EngineOptions::default().with_time(time).with_threads(1));
        let choice = engine.choose(&forced, Scoring::Standard, None);
        assert_eq!(choice.best.map(Move::cell), Some(forced.legal_moves().iter().next()), "{level}");
        assert!(choice.time < Duration::from_secs(10), "{level} thought {:?} over its only move", choice.time);
    }
}

#[test]
fn with_seconds_to_think_near_the_end_the_tree_search_plays_a_proven_move() {
    let three_seconds = Duration::from_secs(3);
    assert_eq!(proof_reach(Duration::from_secs(1), Scoring::Standard), 0, "a second is too short");
    let mut engine = Engine::new(
        Level::Master,
        EngineOptions::default().with_time(TimeControl::PerMove(three_seconds)).with_threads(1),
    );
    let mut solver = Searcher::new(16, 1);
    let mut outcomes = Vec::new();
    for seed in 1..40 {
        let state = random_play(seed, |state| state.moves_left_at_most() <= 20);
        let exact = solver.search(&state, &KulamiEvaluator::tuned(Scoring::Standard), Limits::default(), None).value;
        let proven = engine.proven_move(&state, three_seconds, None);
        if exact < 0 {
            assert_eq!(proven, None, "seed {seed}: a lost position is left to the tree search");
            continue;
        }
        let proven = proven.unwrap_or_else(|| panic!("seed {seed}: not proven"));
        let mut next = state.clone();
        next.play(proven.best.expect("a move"));
        let after = -solver.search(&next, &KulamiEvaluator::tuned(Scoring::Standard), Limits::default(), None).value;
        // The move keeps the outcome: a win stays a win (by however much), a draw a draw.
        assert_eq!((after.signum(), proven.value.signum()), (exact.signum(), exact.signum()), "seed {seed}");
        outcomes.push(exact.signum());
    }
    assert!(outcomes.contains(&1) && outcomes.contains(&0), "wins and draws proven: {outcomes:?}");
    // Beyond the reach nothing is tried, and a proof cut short proves nothing.
    let far = random_play(1, |state| state.moves_left_at_most() <= 30);
    assert_eq!(engine.proven_move(&far, three_seconds, None), None);
    assert_eq!(solver.prove(&far, &KulamiEvaluator::tuned(Scoring::Standard), Limits::nodes(100_000), None), None);
}

#[test]
fn the_tree_search_starts_from_the_tree_its_last_move_grew() {
    let options = EngineOptions::default().with_nodes(Some(3000)).with_seed(5);
    let mut engine = Engine::new(Level::Master, options);
    let mut state = random_play(3, |state| state.moves_left_at_most() <= 50);
    let expected = engine.choose(state.position(), Scoring::Standard, None).pv;
    assert!(engine.kept.0.nodes() > 0);
    // The move the search chose, below which it looked most. (Two plies on, where the engine
    // next moves in a game, the subtree kept is a few hundred nodes, no more than trees grown
    // from different seeds differ by: `game-search`'s tests check that reuse by visits.)
    state.play(expected[0].cell().expect("a placement"));
    engine.choose(state.position(), Scoring::Standard, None);
    let mut fresh = Engine::new(Level::Master, options);
    fresh.choose(state.position(), Scoring::Standard, None);
    // Trees grown from the same number of playouts differ by a few percent; the kept subtree
    // adds more than a tenth.
    assert!(
        engine.kept.0.nodes() > fresh.kept.0.nodes() * 21 / 20,
        "the kept subtree grows on: {} against {} nodes",
        engine.kept.0.nodes(),
        fresh.kept.0.nodes()
    );
    // Another scoring starts afresh: a tree kept at this very position would be taken
    // whole and grown on.
    let reused = engine.kept.0.nodes();
    engine.choose(state.position(), Scoring::Both, None);
    assert!(engine.kept.0.nodes() < reused, "{} nodes, kept {reused}", engine.kept.0.nodes());
    engine.new_game();
    assert_eq!(engine.kept.0.nodes(), 0);
}

/// Seeded random play on the classic board until `stop` says so or the game ends.
fn random_play(seed: u64, stop: impl Fn(&KulamiState) -> bool) -> KulamiState {
    let mut state = KulamiState::new(Position::new(std::sync::Arc::new(classic())), Scoring::Standard);
    let mut x = seed;
    while !stop(&state) && state.move_count() > 0 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let chosen = state.moves().into_iter().nth((x % state.move_count() as u64) as usize).expect("in range");
        state.play(chosen);
    }
    state
}

fn classic() -> kulami_core::Layout {
    kulami_core::Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap()
}

#[test]
fn pondering_grows_the_tree_the_next_search_starts_from_and_stops_when_asked() {
    let time = TimeControl::PerMove(Duration::from_millis(100));
    let mut engine = Engine::new(Level::Master, EngineOptions::default().with_time(time).with_threads(1));
    let mut position = random_play(1, |state| state.moves_left_at_most() <= 40).position().clone();
    let Some(Move::Place(mine)) = engine.choose(&position, Scoring::Standard, None).best else { panic!("a placement") };
    position.play(mine).unwrap();
    let searched = engine.kept.0.nodes();
    // Nobody cancels: it thinks four moves' time on the subtree below its move, then stops.
    let start = web_time::Instant::now();
    engine.ponder(&position, Scoring::Standard, &AtomicBool::new(false));
    assert!(start.elapsed() < Duration::from_secs(10), "pondered {:?}", start.elapsed());
    assert!(
        engine.kept.0.nodes() > searched,
        "{} nodes after pondering, {searched} after the search",
        engine.kept.0.nodes()
    );
    // On ten seconds a move it would think for forty; the opponent's move cancels it at once.
    engine.set_time_control(TimeControl::PerMove(Duration::from_secs(10)));
    let cancel = AtomicBool::new(false);
    let start = web_time::Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        engine.ponder(&position, Scoring::Standard, &cancel);
    });
    assert!(start.elapsed() < Duration::from_secs(5), "cancelled after {:?}", start.elapsed());
}

#[test]
fn only_level_5_ponders_and_not_where_the_solver_takes_over() {
    let time = TimeControl::PerMove(Duration::from_secs(30));
    let never = AtomicBool::new(false);
    let middlegame = random_play(2, |state| state.moves_left_at_most() <= 40).position().clone();
    let endgame = random_play(2, |state| state.moves_left_at_most() <= 20).position().clone();
    let mut club = Engine::new(Level::Club, EngineOptions::default().with_time(time));
    let mut master = Engine::new(Level::Master, EngineOptions::default().with_time(time).with_threads(1));
    let start = web_time::Instant::now();
    club.ponder(&middlegame, Scoring::Standard, &never);
    master.ponder(&endgame, Scoring::Standard, &never);
    assert!(start.elapsed() < Duration::from_secs(5), "returned after {:?}", start.elapsed());
    assert_eq!(master.kept.0.nodes(), 0, "no tree grown within the solver's reach");
}
