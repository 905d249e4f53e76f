//! How long the baseline engine takes per move through a game on the classic board:
//! `cargo run --release -p kulami-ai --example baseline_time`.

use std::sync::Arc;

use kulami_ai::{Engine, EngineOptions, Level};
use kulami_core::{Position, Scoring};

fn main() {
    let layout = Arc::new(kulami_layouts::preset("classic").unwrap().into_layout());
    let mut position = Position::new(layout);
    let mut engine = Engine::new(Level::Baseline, EngineOptions::default());
    while !position.is_game_over() {
        let result = engine.choose(&position, Scoring::Standard, None);
        println!("ply {:2} depth {:2} {:8.3} s", position.ply(), result.depth, result.time.as_secs_f64());
        position.play_move(result.best.unwrap()).unwrap();
    }
}
