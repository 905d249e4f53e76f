//! The `kalah` crate's move counts agree with the plain reference of `kulami_tests`, for every
//! board size and seed count, both captures, both end rules and the pie rule.

use kalah::{Capture, End, Position, Rules};
use kulami_tests::kalah_reference::NaiveKalah;

#[test]
fn perft_agrees_with_the_reference_on_every_variant() {
    let mut compared = 0;
    for pits in 1..=6u8 {
        for seeds in 1..=6u8 {
            for (empty_capture, irving_end, pie) in (0..8).map(|bits| (bits & 1 == 1, bits & 2 == 2, bits & 4 == 4)) {
                let rules = Rules::new(pits, seeds)
                    .unwrap()
                    .with_capture(if empty_capture { Capture::Empty } else { Capture::Standard })
                    .with_end(if irving_end { End::Irving } else { End::Site })
                    .with_pie(pie);
                let reference = NaiveKalah::new(pits.into(), seeds.into(), empty_capture, irving_end, pie);
                // Deep enough for captures, laps, ends and the swap, and quick on every board.
                let depth = if pits <= 3 { 9 } else { 6 };
                for depth in 1..=depth {
                    assert_eq!(
                        Position::start(rules).perft(depth),
                        reference.perft(depth),
                        "Kalah({pits},{seeds}) {rules:?} at depth {depth}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 6 * 8 * (3 * 9 + 3 * 6));
}

#[test]
fn kalah_6_4_counts_from_the_start() {
    // The counts of the standard game, as both implementations give them.
    let counts: Vec<u64> = (1..=6).map(|depth| Position::start(Rules::new(6, 4).unwrap()).perft(depth)).collect();
    let reference = NaiveKalah::new(6, 4, false, false, false);
    assert_eq!(counts, (1..=6).map(|depth| reference.perft(depth)).collect::<Vec<_>>());
    assert_eq!(counts[..2], [6, 35]);
}
