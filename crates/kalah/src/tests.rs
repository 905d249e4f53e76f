//! The rules' unit tests: sowing, captures, the end rules, the pie rule, the board drawn, bad moves and the seeds kept.

use super::*;

fn after(rules: Rules, moves: &str) -> Position {
    Position::start(rules).replay(&parse_moves(moves).unwrap()).unwrap()
}

#[test]
fn the_sown_holes_are_where_play_drops_the_seeds() {
    use Hole::{Pit, Store};
    let rules = Rules::new(6, 4).unwrap();
    let north = Side::North;
    let expected = [Store(Side::South), Pit(north, 1), Pit(north, 2), Pit(north, 3), Pit(north, 4)];
    assert_eq!(after(rules, "3").sown_holes(6).unwrap(), expected);
    let lap = [Store(Side::South), Pit(north, 1), Pit(Side::South, 1)];
    assert_eq!(Position::start(Rules::new(1, 6).unwrap()).sown_holes(1).unwrap(), [lap, lap].concat());
    assert_eq!(after(rules, "3").sown_holes(3), Err(MoveError::EmptyPit { side: Side::South, pit: 3 }));
    assert_eq!(after(rules, "3").sown_holes(7), Err(MoveError::NoSuchPit { pit: 7, pits: 6 }));
    // Along a game: the seeds counted into the holes give the board `play` leaves, whenever
    // it neither captured nor ended.
    let mut position = Position::start(rules);
    for turn in 0..40 {
        let Some(side) = position.to_move() else { break };
        let moves = position.legal_moves();
        let Move::Pit(pit) = moves[turn * 7 % moves.len()] else { unreachable!("no pie rule") };
        let mut counted: std::collections::HashMap<Hole, u8> = std::collections::HashMap::new();
        for hole in position.sown_holes(pit).unwrap() {
            *counted.entry(hole).or_default() += 1;
        }
        let before = position;
        let sown = position.play(Move::Pit(pit)).unwrap();
        if sown.captured.is_some() || sown.ended {
            continue;
        }
        for owner in [Side::South, Side::North] {
            let seen = |hole: Hole| counted.get(&hole).copied().unwrap_or(0);
            assert_eq!(position.store(owner), before.store(owner) + seen(Store(owner)));
            for number in 1..=6 {
                let left = if (owner, number) == (side, pit) { 0 } else { before.pit(owner, number) };
                assert_eq!(position.pit(owner, number), left + seen(Pit(owner, number)), "{owner} {number}");
            }
        }
    }
}

#[test]
fn a_sowing_skips_the_other_store_and_one_into_its_own_store_sows_again() {
    // Kalah(6,4): pit 3's four seeds reach pits 4-6 and the store; then pit 6's five seeds
    // reach the store and North's pits 1-4.
    let rules = Rules::new(6, 4).unwrap();
    let position = after(rules, "3");
    assert_eq!((position.store(Side::South), position.to_move()), (1, Some(Side::South)));
    let position = after(rules, "3 6");
    assert_eq!((position.store(Side::South), position.to_move()), (2, Some(Side::North)));
    assert_eq!((1..=6).map(|pit| position.pit(Side::North, pit)).collect::<Vec<_>>(), [5, 5, 5, 5, 4, 4]);
    // Kalah(1,6): South's six seeds go round twice (store, North's pit, its own pit), never
    // into North's store; the last lands in its own pit, which is not empty: no capture.
    let mut lap = Position::start(Rules::new(1, 6).unwrap());
    assert_eq!(lap.play(Move::Pit(1)).unwrap(), Sown { again: false, captured: None, ended: false });
    let seen = (lap.store(Side::South), lap.store(Side::North), lap.pit(Side::North, 1), lap.pit(Side::South, 1));
    assert_eq!(seen, (2, 0, 8, 2));
}

#[test]
fn the_capture_variants_differ_on_an_empty_opposite_pit() {
    // Kalah(3,1): South sows pit 1 (emptying it); North's pit 3 reaches its store, then its
    // pit 2 drops its seed in the empty pit 3, opposite South's empty pit 1.
    let standard = after(Rules::new(3, 1).unwrap(), "1 3 2");
    assert_eq!((standard.store(Side::North), standard.pit(Side::North, 3)), (1, 1), "nothing captured");
    let empty = after(Rules::new(3, 1).unwrap().with_capture(Capture::Empty), "1 3 2");
    assert_eq!((empty.store(Side::North), empty.pit(Side::North, 3)), (2, 0), "the last seed captured");
    // Kalah(3,1): South's pit 3 reaches the store, then pit 2 drops in the empty pit 3 and
    // takes North's pit 1 with it, under either rule.
    let mut position = Position::start(Rules::new(3, 1).unwrap());
    position.play(Move::Pit(3)).unwrap();
    let sown = position.play(Move::Pit(2)).unwrap();
    assert_eq!(sown, Sown { again: false, captured: Some(2), ended: false });
    assert_eq!((position.store(Side::South), position.pit(Side::North, 1)), (3, 0));
}

#[test]
fn the_end_rules_differ_when_the_mover_empties_its_own_side() {
    // Kalah(2,1): South's pit 2 reaches the store; pit 1 then captures North's pit 1, and
    // South's side is empty with North's pit 2 still full.
    let irving = after(Rules::new(2, 1).unwrap().with_end(End::Irving), "2 1");
    assert!(irving.is_over(), "Irving: a side is empty");
    assert_eq!((irving.store(Side::South), irving.store(Side::North), irving.margin()), (3, 1, 2));
    let site = after(Rules::new(2, 1).unwrap(), "2 1");
    assert_eq!(site.legal_moves(), [Move::Pit(2)], "the site: North still has a seed to sow");
    let site = site.replay(&[Move::Pit(2)]).unwrap();
    assert!(site.is_over(), "North sowed into its store and has nothing left");
    assert_eq!(site.margin(), 2);
    assert_eq!(site.replay(&[Move::Pit(1)]).unwrap_err().error, MoveError::GameOver);
}

#[test]
fn the_pie_rule_offers_north_one_swap_after_souths_whole_opening_turn() {
    let rules = Rules::new(6, 4).unwrap().with_pie(true);
    assert!(!after(rules, "3").legal_moves().contains(&Move::Swap), "South's turn goes on");
    let opened = after(rules, "3 6");
    assert_eq!(opened.legal_moves().last(), Some(&Move::Swap));
    let swapped = opened.replay(&[Move::Swap]).unwrap();
    assert!(swapped.swapped());
    assert_eq!((swapped.to_move(), swapped.store(Side::South)), (Some(Side::North), 2), "the board stays");
    assert!(!swapped.legal_moves().contains(&Move::Swap), "once");
    assert_eq!(after(rules, "3 6 1").replay(&[Move::Swap]).unwrap_err().error, MoveError::NoSwap);
    assert_eq!(after(Rules::new(6, 4).unwrap(), "1").play(Move::Swap), Err(MoveError::NoSwap), "no pie rule");
}

#[test]
fn the_board_is_drawn_as_it_is_sown() {
    let drawn = after(Rules::new(3, 2).unwrap(), "1").to_string();
    let expected = [
        "        3  2  1   North's pits",
        "        2  2  2",
        "    0           0  ",
        "        0  3  3",
        "        1  2  3   South's pits",
    ];
    assert_eq!(drawn.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn bad_moves_and_boards_are_refused_with_what_and_where() {
    let position = after(Rules::new(4, 3).unwrap(), "1");
    let unchanged = position;
    let mut played = position;
    assert_eq!(played.play(Move::Pit(5)), Err(MoveError::NoSuchPit { pit: 5, pits: 4 }));
    assert_eq!(played, unchanged, "a refused move changes nothing");
    let error = Position::start(Rules::new(4, 3).unwrap()).replay(&parse_moves("1 1 1").unwrap()).unwrap_err();
    assert_eq!(error.to_string(), "move 3 (1): South's pit 1 is empty");
    assert_eq!(parse_moves("1 x").unwrap_err().to_string(), "`x` is not a move: expected a pit number (1-6) or `swap`");
    assert!(parse_moves("7").is_err() && parse_moves("0").is_err());
    assert_eq!(Rules::new(7, 4), Err(RulesError::Pits(7)));
    assert_eq!(("empty".parse(), "irving".parse()), (Ok(Capture::Empty), Ok(End::Irving)));
    assert_eq!(
        "both".parse::<Capture>().unwrap_err().to_string(),
        "`both` is not a capture rule: expected standard or empty"
    );
    assert_eq!(Rules::new(6, 0), Err(RulesError::Seeds(0)));
}

#[test]
fn every_seed_is_kept_to_the_end() {
    // Kalah(4,3) played out by always sowing the first legal pit, under every variant.
    for capture in [Capture::Standard, Capture::Empty] {
        for end in [End::Irving, End::Site] {
            let mut position = Position::start(Rules::new(4, 3).unwrap().with_capture(capture).with_end(end));
            while let Some(&mv) = position.legal_moves().first() {
                position.play(mv).unwrap();
                let on_board: u32 = [Side::South, Side::North]
                    .iter()
                    .map(|&side| {
                        u32::from(position.store(side))
                            + (1..=4).map(|pit| u32::from(position.pit(side, pit))).sum::<u32>()
                    })
                    .sum();
                assert_eq!(on_board, 24);
            }
            assert!(position.is_over());
            assert_eq!(u32::from(position.store(Side::South)) + u32::from(position.store(Side::North)), 24);
        }
    }
}
