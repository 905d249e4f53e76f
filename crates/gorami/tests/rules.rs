//! Property tests of the rules on random games, with the count checked by a plain sum over the
//! triangles' bands written apart from the board's stripes.

use gorami::board::{Fields, Shape};
use gorami::{DISCS, Move, MoveError, Player, Position};
use proptest::prelude::*;

/// The stripes counted the plain way: for each direction, the fields of each band (these
/// boards are convex, so a band's fields are one stripe), summed disc by disc.
fn plain_fish(position: &Position) -> [u8; 2] {
    let board = position.shape().board();
    let mut fish = [0; 2];
    for direction in 0..3 {
        let mut bands: Vec<i8> = (0..board.len()).map(|i| board.triangle(i).bands()[direction]).collect();
        bands.sort_unstable();
        bands.dedup();
        for band in bands {
            let mut sums = [0u32; 2];
            for i in (0..board.len()).filter(|&i| board.triangle(i).bands()[direction] == band) {
                if let Some((owner, number)) = position.disc(i as u8 + 1) {
                    sums[owner.index()] += u32::from(number);
                }
            }
            if sums[0] != sums[1] {
                fish[usize::from(sums[1] > sums[0])] += 1;
            }
        }
    }
    fish
}

fn every_placement(position: &Position) -> impl Iterator<Item = Move> {
    (1..=position.shape().board().len() as u8).flat_map(|field| DISCS.map(move |disc| Move::Place { field, disc }))
}

/// No two neighbours hold the same number.
fn numbers_keep_apart(position: &Position) -> bool {
    let board = position.shape().board();
    (0..board.len()).all(|i| {
        let Some((_, number)) = position.disc(i as u8 + 1) else { return true };
        (0..board.len())
            .filter(|&j| board.neighbours(i) & 1 << j != 0)
            .all(|j| position.disc(j as u8 + 1).is_none_or(|(_, other)| other != number))
    })
}

fn discs_left(position: &Position) -> u32 {
    Player::BOTH.iter().flat_map(|&player| DISCS.map(move |disc| u32::from(position.supply(player, disc)))).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_rules_and_end(shape in prop::sample::select(Shape::ALL.to_vec()), choices in prop::collection::vec(any::<u16>(), 60)) {
        let board = shape.board();
        let all_discs = 2 * 3 * u32::from(shape.sets());
        let mut position = Position::start(shape);
        let mut played = 0;
        for choice in choices {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Every placement not listed is refused, and changes nothing.
            for mv in every_placement(&position).filter(|mv| !legal.contains(mv)) {
                let mut tried = position;
                prop_assert!(tried.play(mv).is_err(), "{mv} is not legal but played\n{position}");
                prop_assert_eq!(tried, position);
            }
            let mv = legal[usize::from(choice) % legal.len()];
            let before = position;
            let turned = position.play(mv).map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
            played += 1;
            prop_assert!(numbers_keep_apart(&position), "{}", position);
            prop_assert_eq!(position.occupied().count_ones() + discs_left(&position), all_discs);
            prop_assert_eq!(position.to_move(), before.to_move().other());
            match mv {
                Move::Pass => {
                    prop_assert!(before.placements(before.to_move()).is_empty());
                    prop_assert_eq!(turned, 0);
                }
                Move::Place { field, .. } => {
                    let index = usize::from(field) - 1;
                    let empty: Fields = board.all() & !position.occupied();
                    let mover = before.to_move();
                    // Turned: exactly the opposing neighbours left without an empty neighbour.
                    let expected = (0..board.len())
                        .filter(|&i| board.neighbours(index) & 1 << i != 0)
                        .filter(|&i| before.owned(mover.other()) & 1 << i != 0)
                        .filter(|&i| board.neighbours(i) & empty == 0)
                        .fold(0, |set: Fields, i| set | 1 << i);
                    prop_assert_eq!(turned, expected);
                    prop_assert_eq!(position.owned(mover), before.owned(mover) | 1 << index | turned);
                }
            }
        }
        prop_assert!(position.is_over(), "60 moves end every game\n{}", position);
        prop_assert!(played <= 2 * board.len());
        // Over: neither player can place, whatever the board shows.
        for player in Player::BOTH {
            prop_assert!(position.placements(player).is_empty());
        }
        prop_assert_eq!(position.play(Move::Pass), Err(MoveError::GameOver));
        let score = position.score();
        prop_assert_eq!(score.fish, plain_fish(&position));
        prop_assert!(u32::from(score.fish[0]) + u32::from(score.fish[1]) <= 12);
    }

    #[test]
    fn any_move_at_all_is_played_or_refused_without_a_panic(
        shape in prop::sample::select(Shape::ALL.to_vec()),
        opening in prop::collection::vec(any::<u16>(), 0..12),
        field in any::<u8>(),
        disc in any::<u8>(),
    ) {
        let mut position = Position::start(shape);
        for choice in opening {
            let legal = position.legal_moves();
            if let Some(&mv) = legal.get(usize::from(choice) % legal.len().max(1)) {
                position.play(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
        }
        let mv = Move::Place { field, disc };
        let mut tried = position;
        match tried.play(mv) {
            Ok(_) => prop_assert!(position.legal_moves().contains(&mv)),
            Err(_) => prop_assert_eq!(tried, position),
        }
    }
}

#[test]
fn perft_counts_the_first_two_moves_by_hand() {
    // The first player: every field with each of three numbers. The second: every other field
    // with each number, less the first disc's number on the first field's neighbours.
    for shape in Shape::ALL {
        let board = shape.board();
        let fields = board.len() as u64;
        let neighbour_pairs: u64 = (0..board.len()).map(|i| u64::from(board.neighbours(i).count_ones())).sum();
        let start = Position::start(shape);
        assert_eq!(start.perft(1), 3 * fields);
        assert_eq!(start.perft(2), 3 * fields * 3 * (fields - 1) - 3 * neighbour_pairs, "{shape}");
    }
}
