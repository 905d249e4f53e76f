//! How far searches run over their time budget: searches from many positions of random games
//! at the given times per move (level 5: the tree search, and the solver near the end),
//! reporting the largest overshoot of the wall-clock time of `Engine::choose`.
//! `cargo run --release -p kulami-ai --example timing -- 100 1000`

use std::sync::Arc;
use std::time::Duration;

use kulami_ai::{Engine, EngineOptions, Level, TimeControl};
use kulami_core::{Position, Scoring};
use kulami_layouts::{Shape, generate};

fn main() {
    let times: Vec<u64> = std::env::args().skip(1).map(|t| t.parse().expect("milliseconds")).collect();
    for millis in if times.is_empty() { vec![100, 1000] } else { times } {
        let budget = Duration::from_millis(millis);
        let mut engine = Engine::new(Level::Master, EngineOptions::default().with_time(TimeControl::PerMove(budget)));
        let mut worst = Duration::ZERO;
        let mut searches = 0;
        for seed in 0..4 {
            let mut position = Position::new(Arc::new(generate(seed, Shape::Square)));
            while !position.is_game_over() && searches < 30 * (seed + 1) {
                // Measured around the call: the promise is about the caller's wait.
                let start = std::time::Instant::now();
                let result = engine.choose(&position, Scoring::Standard, None);
                worst = worst.max(start.elapsed().saturating_sub(budget));
                searches += 1;
                position.play_move(result.best.expect("a live game has a move")).expect("legal");
                // Skip ahead so that the searches cover the whole game.
                for _ in 0..2 {
                    if let Some(cell) = position.legal_moves().iter().next() {
                        position.play(cell).expect("legal");
                    }
                }
            }
        }
        println!(
            "{millis} ms per move, {searches} searches on 2 threads: at most {:.1} ms over",
            worst.as_secs_f64() * 1000.0
        );
    }
}
