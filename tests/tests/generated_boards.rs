//! Generated boards: valid, the standard set, playable, reproducible from their seed, and varied.

use kulami_core::Layout;
use kulami_layouts::playability::single_tile_lines;
use kulami_layouts::{Shape, generate};
use proptest::prelude::*;

fn check_board(layout: &Layout, shape: Shape) {
    assert!(layout.uses_standard_set(), "{layout:?}");
    assert_eq!(layout.holes().len(), 64);
    assert_eq!(layout.marbles_per_player(), 28);
    // Validation (frame, shapes, connection) is Layout::parse's job: the text must parse back.
    assert_eq!(&Layout::parse(&layout.to_one_line()).unwrap(), layout);
    assert_eq!(&Layout::parse(&layout.to_string()).unwrap(), layout);
    let (rows, columns) = layout.extent();
    match shape {
        Shape::Square => assert_eq!((rows, columns), (8, 8)),
        Shape::Irregular => {
            assert!(rows.min(columns) >= 8 && rows.max(columns) >= 9 && rows.max(columns) <= 10, "{rows}x{columns}");
            assert_eq!(single_tile_lines(layout), 0);
        }
        other => panic!("no check for {other:?} boards yet"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn every_generated_board_is_valid_and_reproducible(seed in any::<u64>()) {
        for shape in Shape::ALL {
            let board = generate(seed, shape);
            check_board(&board, shape);
            prop_assert_eq!(&board, &generate(seed, shape));
        }
    }
}

#[test]
fn seeds_give_many_distinct_boards() {
    for shape in Shape::ALL {
        let boards: std::collections::HashSet<String> =
            (0..300).map(|seed| generate(seed, shape).to_one_line()).collect();
        assert_eq!(boards.len(), 300, "{shape}");
    }
}

#[test]
fn irregular_boards_vary_in_size() {
    let extents: std::collections::HashSet<(usize, usize)> =
        (0..300).map(|seed| generate(seed, Shape::Irregular).extent()).collect();
    assert!(extents.len() >= 6, "{extents:?}");
}

/// Guards the promise that a seed means the same board in every later version.
#[test]
fn the_first_seeds_boards_never_change() {
    let mut text = String::new();
    for shape in Shape::ALL {
        for seed in 0..4 {
            text += &format!("{shape} seed {seed}\n{}\n", generate(seed, shape));
        }
    }
    insta::assert_snapshot!(text);
}

/// Curated boards that say which generator seed made them must be that seed's board.
#[test]
fn curated_boards_match_the_seed_they_name() {
    let mut checked = 0;
    for name in kulami_layouts::preset_names() {
        let board = kulami_layouts::preset(name).unwrap();
        let Some(seed) = board.description().and_then(|d| d.split("generator seed ").nth(1)) else { continue };
        let seed: u64 = seed.split(')').next().unwrap().parse().unwrap();
        let shape = if board.layout().extent() == (8, 8) { Shape::Square } else { Shape::Irregular };
        assert_eq!(board.layout(), &generate(seed, shape), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 19);
}
