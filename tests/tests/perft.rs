//! Perft values from `data/perft.txt`: the fast core must match every one, and the reference
//! implementation every one small enough for it, so the file cannot drift from the rules.

use std::sync::Arc;

use kulami_core::{Layout, Move, Position, notation::parse_moves};
use kulami_tests::reference::ReferenceGame;

struct Case {
    layout: String,
    moves: String,
    depth: u32,
    nodes: u64,
    /// A fifth field `swap` plays with the swap rule.
    swap_rule: bool,
}

fn cases() -> Vec<Case> {
    include_str!("../data/perft.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let (&[layout, moves, depth, nodes], rules) = fields.split_at(4) else { panic!("bad perft line: {line}") };
            assert!(matches!(rules, [] | ["swap"]), "bad perft line: {line}");
            Case {
                layout: layout.to_owned(),
                moves: moves.to_owned(),
                depth: depth.parse().unwrap(),
                nodes: nodes.parse().unwrap(),
                swap_rule: rules == ["swap"],
            }
        })
        .collect()
}

fn position(case: &Case) -> Position {
    let layout = Arc::new(Layout::parse(&case.layout).unwrap());
    Position::new(layout).with_swap_rule(case.swap_rule).replay(&parse_moves(&case.moves).unwrap()).unwrap()
}

#[test]
fn the_data_file_covers_several_boards_and_depths() {
    let cases = cases();
    let boards: std::collections::HashSet<&str> = cases.iter().map(|c| c.layout.as_str()).collect();
    assert!(cases.len() >= 40 && boards.len() >= 5);
    assert!(cases.iter().any(|c| c.nodes > 10_000_000));
    assert!(cases.iter().any(|c| c.depth > 0 && c.nodes == 0), "a finished game must be covered");
    assert!(cases.iter().filter(|c| c.swap_rule).count() >= 4, "the swap rule must be covered");
}

#[test]
fn core_matches_every_perft_value() {
    for case in cases() {
        let nodes = position(&case).perft(case.depth);
        assert_eq!(nodes, case.nodes, "{} after [{}] at depth {}", case.layout, case.moves, case.depth);
    }
}

#[test]
fn reference_matches_the_small_perft_values() {
    let mut checked = 0;
    for case in cases().into_iter().filter(|case| case.nodes <= 400_000) {
        let position = position(&case);
        let mut reference = ReferenceGame::new(&case.layout, position.layout().marbles_per_player());
        reference.set_swap_rule(case.swap_rule);
        for played in parse_moves(&case.moves).unwrap() {
            match played {
                Move::Place(cell) => reference.play(cell.row(), cell.column()),
                Move::Swap => reference.swap(),
            }
        }
        assert_eq!(
            reference.perft(case.depth),
            case.nodes,
            "{} after [{}] at depth {}",
            case.layout,
            case.moves,
            case.depth
        );
        checked += 1;
    }
    assert!(checked >= 30);
}
