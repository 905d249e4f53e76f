//! The engine's levels against each other: each level against the one below, from `OPENINGS`
//! fixed two-move openings, each played twice with the colours swapped, on two threads.
//!
//! `cargo run --release -p gorami --example ladder -- [16|22|24] [OPENINGS]`

use std::ops::ControlFlow;

use game_search::matches::{Pairing, run};
use game_search::stats::MatchTally;
use gorami::board::Shape;
use gorami::search::{engine_move, final_value};
use gorami::{Player, Position};

/// Opening `number`: the first two moves taken from the legal lists by fixed strides, so that
/// every run plays the same games.
fn opening(shape: Shape, number: usize) -> Position {
    let mut position = Position::start(shape);
    for stride in [37, 53] {
        let legal = position.legal_moves();
        let _ = position.play(legal[(number * stride) % legal.len()]);
    }
    position
}

/// The points (1 a win, a half a draw) of `level` playing yellow if `yellow` against `other`.
fn game(mut position: Position, level: u8, other: u8, yellow: bool) -> f64 {
    while let Some(mv) =
        engine_move(&position, if (position.to_move() == Player::Yellow) == yellow { level } else { other })
    {
        let _ = position.play(mv);
    }
    let value = final_value(&position, if yellow { Player::Yellow } else { Player::Blue });
    match value.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let shape: Shape =
        args.next().map_or(Ok(Shape::Triangle), |text| text.parse()).unwrap_or_else(|error| panic!("{error}"));
    let openings: usize = args.next().map_or(20, |text| text.parse().expect("OPENINGS: a number"));
    for level in 2..=5 {
        let started = std::time::Instant::now();
        // A is `level`; it plays yellow (first) and then blue from each opening.
        let play =
            |_: &mut (), pairing: Pairing| game(opening(shape, pairing.start), level, level - 1, pairing.a_first);
        let games = run(&Pairing::every(openings), 2, || (), play, |_, _| ControlFlow::Continue(()));
        let mut tally = MatchTally::default();
        for &(pairing, points) in &games {
            tally.add(pairing.start, points);
        }
        let (low, elo, high) = tally.elo();
        println!(
            "board {shape}: level {level} against {}: {:.1}/{} ({:.0}%), Elo {elo:+.0} [{low:+.0}, {high:+.0}], {:.0} s",
            level - 1,
            games.iter().map(|(_, points)| points).sum::<f64>(),
            games.len(),
            100.0 * tally.games.score(),
            started.elapsed().as_secs_f64()
        );
    }
}
