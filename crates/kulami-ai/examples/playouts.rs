//! Level 5's tree search (or with `plain`, plain MCTS, the opponent of the Strength section's
//! matches) at a fixed number of playouts on one thread, from three middlegame positions of
//! seeded random boards: its playouts per second, and its best move and the root visits of its
//! four most visited moves. A change meant only to make the search faster must
//! leave the moves and visits exactly as they were (the search is deterministic for a seed and a
//! playout count), so two builds' outputs are compared line by line, and their speed by the
//! rates (or by `valgrind --tool=callgrind`'s instruction counts, which a busy machine does not
//! change).
//! `cargo run --release -p kulami-ai --example playouts -- 100000 [standard|area|lines|both] [plain]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use kulami_ai::mcts::{MctsLimits, MctsOptions, search};
use kulami_ai::{KulamiEvaluator, KulamiState, SearchGame, tree_search_options};
use kulami_core::{Position, Scoring};
use kulami_layouts::{Shape, generate};

/// The position `left` plies before the end at most, by seeded random play on a seeded 8x8
/// board.
fn midgame(seed: u64, left: usize, scoring: Scoring) -> KulamiState {
    let mut game = KulamiState::new(Position::new(Arc::new(generate(seed, Shape::Square))), scoring);
    while game.moves_left_at_most() > left {
        let random = (seed << 32 | game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let cell = game.random_move(random).expect("a game with plies left has moves");
        game.play(cell);
    }
    game
}

fn main() {
    let mut args = std::env::args().skip(1);
    let playouts: u64 = args.next().map_or(100_000, |count| count.parse().expect("a number of playouts"));
    let scorings: Vec<Scoring> = match args.next() {
        Some(name) => vec![name.parse().expect("a scoring: standard, area, lines or both")],
        None => vec![Scoring::Standard, Scoring::Lines],
    };
    let plain = match args.next().as_deref() {
        None => false,
        Some("plain") => true,
        Some(other) => panic!("the third argument is `plain` or nothing, not `{other}`"),
    };
    for scoring in scorings {
        let evaluator = KulamiEvaluator::tuned(scoring);
        // Level 5's options at 1 s a move, or plain MCTS's.
        let options = if plain { MctsOptions::PLAIN } else { tree_search_options(scoring, Duration::from_secs(1)) };
        let limits = MctsLimits { time: Duration::MAX, playouts, threads: 1 };
        let (mut total, mut seconds) = (0, 0.0);
        for seed in 1..=3 {
            let game = midgame(seed, 40, scoring);
            let start = Instant::now();
            let found = search(&game, Some(&evaluator), options, limits, 1, None);
            let elapsed = start.elapsed().as_secs_f64();
            let visits: Vec<u64> = found.moves.iter().take(4).map(|root| root.visits).collect();
            let best = found.best.map(|cell| cell.to_string()).unwrap_or_default();
            println!(
                "{scoring} board {seed}: best {best}, visits {visits:?}, {:.0} playouts/s",
                found.playouts as f64 / elapsed
            );
            total += found.playouts;
            seconds += elapsed;
        }
        println!("{scoring}: {:.0} playouts/s over the three", total as f64 / seconds);
    }
}
