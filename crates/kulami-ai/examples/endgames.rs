//! Times the exact endgame solver on positions with a given number of plies left, reached by
//! random play on random 8x8 boards: `cargo run --release -p kulami-ai --example endgames -- 16 20 24`.
//! `THREADS` (default 1) and `TABLE_MB` (default 64) set the searcher, `SCORING` (default
//! `standard`) the scoring; 4 and 16 MB were no faster. `PLAY=engine` reaches the positions by
//! level 4 playing itself instead (2,000 playouts a move, reproducible): positions from games
//! between good players, which are harder to solve than random play's. `WEIGHTS=OPENING;END`
//! (as `KulamiEvaluator` reads them) gives the solver's move order another evaluation; the
//! positions stay the same. `PROVE=1` times the proof of who wins ([`Searcher::prove`]) instead
//! of the exact final margin.

use std::sync::Arc;
use std::time::Duration;

use kulami_ai::{Engine, EngineOptions, KulamiEvaluator, KulamiState, Level, Limits, SearchGame, Searcher};
use kulami_core::{Move, Position, Scoring};
use kulami_layouts::{Shape, generate};

/// Playouts a move of the level 4 that reaches the positions with `PLAY=engine`.
const ENGINE_PLAYOUTS: u64 = 2000;

/// A position with `left` plies to go at most, from seed `seed`: random play until then, or
/// `engine`'s moves.
fn endgame(seed: u64, left: usize, scoring: Scoring, mut engine: Option<&mut Engine>) -> Option<KulamiState> {
    let layout = Arc::new(generate(seed, Shape::Square));
    let mut game = KulamiState::new(Position::new(layout), scoring);
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    if let Some(engine) = engine.as_deref_mut() {
        engine.new_game();
    }
    while game.moves_left_at_most() > left {
        let moves: Vec<_> = game.moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        let chosen = match engine.as_deref_mut() {
            Some(engine) => {
                let Some(Move::Place(cell)) = engine.choose(game.position(), scoring, None).best else { return None };
                cell
            }
            None => {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                moves[(x % moves.len() as u64) as usize]
            }
        };
        game.play(chosen);
    }
    (game.moves_left_at_most() == left && game.terminal_value().is_none()).then_some(game)
}

fn main() {
    let lefts: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("plies left")).collect();
    let threads = std::env::var("THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    let table_mb = std::env::var("TABLE_MB").ok().and_then(|t| t.parse().ok()).unwrap_or(64);
    let scoring: Scoring = std::env::var("SCORING").map_or(Scoring::Standard, |s| s.parse().expect("a scoring"));
    let mut engine = match std::env::var("PLAY").as_deref() {
        Ok("engine") => Some(Engine::new(Level::Expert, EngineOptions::default().with_nodes(Some(ENGINE_PLAYOUTS)))),
        Ok("random") | Err(_) => None,
        Ok(other) => panic!("PLAY is `random` or `engine`, not `{other}`"),
    };
    let evaluator: KulamiEvaluator = std::env::var("WEIGHTS").map_or_else(
        |_| KulamiEvaluator::default(),
        |weights| weights.parse().unwrap_or_else(|error| panic!("WEIGHTS: {error}")),
    );
    let prove = std::env::var("PROVE").is_ok_and(|prove| prove == "1");
    let mut searcher = Searcher::new(table_mb, threads);
    for left in if lefts.is_empty() { vec![16, 20, 24] } else { lefts } {
        let mut times = Vec::new();
        let mut nodes = 0;
        let mut node_counts = Vec::new();
        for seed in 0.. {
            if times.len() == 15 {
                break;
            }
            let Some(game) = endgame(seed, left, scoring, engine.as_mut()) else { continue };
            searcher.clear();
            let (time, searched) = if prove {
                let proof = searcher.prove(&game, &evaluator, Limits::default(), None).expect("unlimited, so proven");
                (proof.time, proof.nodes)
            } else {
                let result = searcher.search(&game, &evaluator, Limits::default(), None);
                assert!(result.exact, "an unlimited search ends solved");
                (result.time, result.nodes)
            };
            times.push(time);
            nodes += searched;
            node_counts.push(searched);
        }
        times.sort();
        node_counts.sort_unstable();
        let total: Duration = times.iter().sum();
        println!(
            "{left} plies left, {} positions, {threads} thread(s): median {:.3} s, max {:.3} s, total {:.2} s, {:.1} M nodes/s, median {} nodes, total {} nodes",
            times.len(),
            times[times.len() / 2].as_secs_f64(),
            times[times.len() - 1].as_secs_f64(),
            total.as_secs_f64(),
            nodes as f64 / total.as_secs_f64() / 1e6,
            node_counts[node_counts.len() / 2],
            nodes
        );
    }
}
