//! The engine's promises, over random boards and positions (with and without the swap rule):
//! every level returns a legal move, the swap included, whenever the game is not over, and in deterministic mode (a node budget instead of a clock)
//! the same seed gives the same move. (The time budget is measured, not unit-tested:
//! `cargo run --release -p kulami-ai --example timing`.)

use std::sync::Arc;

use kulami_ai::{Engine, EngineOptions, Level};
use kulami_core::{Position, Scoring};
use kulami_layouts::{Shape, generate};
use proptest::prelude::*;

/// A position `plies` moves into a seeded random game on a seeded random board.
fn position(board_seed: u64, irregular: bool, swap_rule: bool, plies: usize, move_seed: u64) -> Position {
    let shape = if irregular { Shape::Irregular } else { Shape::Square };
    let mut position = Position::new(Arc::new(generate(board_seed, shape))).with_swap_rule(swap_rule);
    let mut x = move_seed | 1;
    while position.ply() < plies {
        let legal: Vec<_> = position.legal_moves().iter().collect();
        if legal.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        position.play_unchecked(legal[(x % legal.len() as u64) as usize]);
    }
    position
}

fn deterministic(seed: u64) -> EngineOptions {
    EngineOptions::default().with_seed(seed).with_nodes(Some(1500)).with_table_megabytes(4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_level_plays_legal_moves_and_repeats_itself_with_the_same_seed(
        board_seed in 0u64..10_000,
        irregular: bool,
        swap_rule: bool,
        plies in prop_oneof![Just(1usize), 0usize..56],
        move_seed: u64,
        engine_seed: u64,
        scoring_index in 0usize..4,
    ) {
        let position = position(board_seed, irregular, swap_rule, plies, move_seed);
        let scoring = Scoring::ALL[scoring_index];
        for level in Level::LADDER {
            let first = Engine::new(level, deterministic(engine_seed)).choose(&position, scoring, None).best;
            match first {
                Some(mv) => prop_assert!(position.clone().play_move(mv).is_ok(), "{level} chose {mv}"),
                None => prop_assert!(position.is_game_over(), "{level} found no move in a live game"),
            }
            let again = Engine::new(level, deterministic(engine_seed)).choose(&position, scoring, None).best;
            prop_assert_eq!(first, again, "{} is not deterministic", level);
        }
    }
}
