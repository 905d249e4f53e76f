//! The fast core against the plain reference implementation, on thousands of random games on
//! random boards, with and without the swap rule: every legal-move set, the swap, every checked
//! move, every score and every undo.

use std::sync::Arc;

use kulami_core::{Cell, Layout, MAX_MARBLES_PER_PLAYER, Move, Position, Scoring};
use kulami_tests::random_board::random_layout_text;
use kulami_tests::reference::ReferenceGame;
use proptest::prelude::*;
use rand::SeedableRng as _;
use rand_pcg::Pcg64Mcg;

fn cell(row: usize, column: usize) -> Cell {
    Cell::new(row, column).unwrap()
}

/// A random board with a random marble count (small counts end games by exhaustion).
fn random_setup(rng: &mut Pcg64Mcg) -> (String, Arc<Layout>) {
    let text = random_layout_text(rng);
    let layout = Layout::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    // Past the default, up to the rules' limit (a board of 97 holes or more asks for more).
    let most = (layout.holes().len().div_ceil(2) + 2).min(usize::from(MAX_MARBLES_PER_PLAYER));
    let layout = match rng.random_range(0..3) {
        0 => layout.with_marbles_per_player(rng.random_range(1..=most)).unwrap(),
        _ => layout,
    };
    (text, Arc::new(layout))
}

fn check_position(position: &Position, reference: &ReferenceGame) {
    let expected: Vec<Cell> = reference.legal_moves().into_iter().map(|(r, c)| cell(r, c)).collect();
    let legal: Vec<Cell> = position.legal_moves().iter().collect();
    assert_eq!(legal, expected, "legal moves after {:?}", position.placements());
    assert_eq!(position.can_swap(), reference.can_swap(), "swap after {:?}", position.placements());
    assert_eq!(position.is_game_over(), expected.is_empty() && !reference.can_swap());
    let layout = position.layout();
    for color in kulami_core::Color::BOTH {
        let placed = position.marbles(color).len();
        assert_eq!(position.marbles_left(color), layout.marbles_per_player() - placed, "{color:?}");
    }
    for hole in Cell::all() {
        assert_eq!(layout.tile_holes_at(hole), layout.tile_at(hole).map_or(0, |tile| tile.cells().len()), "{hole}");
    }
    for scoring in Scoring::ALL {
        let score = position.score(scoring);
        let (red, black, winner) = reference.score(scoring);
        assert_eq!(
            (score.red, score.black, score.winner),
            (red, black, winner),
            "{scoring} after {:?}",
            position.placements()
        );
        let from_marbles = position.layout().score_marbles(
            position.marbles(kulami_core::Color::Red),
            position.marbles(kulami_core::Color::Black),
            scoring,
        );
        assert_eq!(from_marbles, score);
    }
    // Checked play accepts exactly the legal cells and leaves the position unchanged otherwise.
    for candidate in Cell::all() {
        let mut copy = position.clone();
        match copy.play(candidate) {
            Ok(()) => assert!(expected.contains(&candidate), "{candidate} accepted"),
            Err(_) => {
                assert!(!expected.contains(&candidate), "{candidate} refused");
                assert_eq!(&copy, position);
                assert_eq!(copy.score(Scoring::Both), position.score(Scoring::Both));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn core_agrees_with_reference_on_random_games(seed in any::<u64>()) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let (text, layout) = random_setup(&mut rng);
        let swap_rule = rng.random_range(0..2) == 0;
        let mut reference = ReferenceGame::new(&text, layout.marbles_per_player());
        reference.set_swap_rule(swap_rule);
        let mut position = Position::new(layout).with_swap_rule(swap_rule);
        let mut history = vec![position.clone()];
        loop {
            check_position(&position, &reference);
            let legal: Vec<Cell> = position.legal_moves().iter().collect();
            if position.can_swap() && (legal.is_empty() || rng.random_range(0..2) == 0) {
                position.play_move(Move::Swap).unwrap();
                reference.swap();
                history.push(position.clone());
                continue;
            }
            if legal.is_empty() {
                break;
            }
            let chosen = legal[rng.random_range(0..legal.len())];
            position.play(chosen).unwrap();
            reference.play(chosen.row(), chosen.column());
            history.push(position.clone());
        }
        // Undo walks back through exactly the same positions, incremental scores included.
        history.pop();
        while let Some(earlier) = history.pop() {
            position.undo().unwrap();
            prop_assert_eq!(&position, &earlier);
            for color in kulami_core::Color::BOTH {
                prop_assert_eq!(position.tile_points(color), earlier.tile_points(color));
            }
        }
        prop_assert_eq!(position.undo(), None);
    }

    #[test]
    fn perft_agrees_with_reference_on_random_boards(seed in any::<u64>(), opening in 0usize..6) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let (text, layout) = random_setup(&mut rng);
        let swap_rule = rng.random_range(0..2) == 0;
        let mut reference = ReferenceGame::new(&text, layout.marbles_per_player());
        reference.set_swap_rule(swap_rule);
        let mut position = Position::new(layout).with_swap_rule(swap_rule);
        for _ in 0..opening {
            let Some(chosen) = position.legal_moves().iter().nth(rng.random_range(0..4)) else { break };
            position.play(chosen).unwrap();
            reference.play(chosen.row(), chosen.column());
        }
        for depth in 0..=3 {
            prop_assert_eq!(position.perft(depth), reference.perft(depth), "depth {}", depth);
        }
    }
}
