//! Search and solver speed. Run with `cargo bench -p kulami-ai --bench search`; the throughput
//! column is nodes per second.

use std::sync::Arc;

use divan::{Bencher, black_box, counter::ItemsCount};
use kulami_ai::{KulamiEvaluator, KulamiState, Limits, SearchGame, Searcher};
use kulami_core::{Position, Scoring, notation::parse_moves};
use kulami_layouts::{Shape, generate};

fn main() {
    divan::main();
}

fn classic(moves: &str, scoring: Scoring) -> KulamiState {
    let layout = Arc::new(kulami_layouts::preset("classic").unwrap().into_layout());
    KulamiState::new(Position::from_moves(layout, &parse_moves(moves).unwrap()).unwrap(), scoring)
}

/// A position with `left` plies to go from seeded random play on a random 8x8 board.
fn endgame(seed: u64, left: usize, scoring: Scoring) -> KulamiState {
    let mut game = KulamiState::new(Position::new(Arc::new(generate(seed, Shape::Square))), scoring);
    let mut turn = 0usize;
    while game.moves_left_at_most() > left {
        let moves: Vec<_> = game.moves().into_iter().collect();
        game.play(moves[(turn * 5 + seed as usize) % moves.len()]);
        turn += 1;
    }
    game
}

/// One search with a fresh table (made outside the timing), counting its nodes as the throughput.
fn bench_search(bencher: Bencher, game: &KulamiState, limits: Limits) {
    bench_searcher(bencher, game, |searcher, game, evaluator| searcher.search(game, evaluator, limits, None).nodes);
}

/// `run` (which answers its nodes) on a fresh searcher each time, made outside the timing.
fn bench_searcher(
    bencher: Bencher,
    game: &KulamiState,
    run: impl Fn(&mut Searcher, &KulamiState, &KulamiEvaluator) -> u64,
) {
    let evaluator = KulamiEvaluator::tuned(game.scoring());
    let nodes = run(&mut Searcher::new(TABLE_MB, 1), game, &evaluator);
    bencher.counter(ItemsCount::new(nodes)).with_inputs(|| Searcher::new(TABLE_MB, 1)).bench_local_values(
        |mut searcher| {
            let nodes = run(&mut searcher, black_box(game), &evaluator);
            // Returned, so that freeing the table is not timed either.
            (searcher, nodes)
        },
    );
}

const TABLE_MB: usize = 16;

#[divan::bench(args = [6, 8])]
fn midgame_depth(bencher: Bencher, depth: u32) {
    bench_search(bencher, &classic("d4 d7 g7 g2 c2 c6 a6", Scoring::Standard), Limits::depth(depth));
}

#[divan::bench(args = [16, 20, 24], sample_count = 10)]
fn solve_endgame(bencher: Bencher, left: usize) {
    bench_search(bencher, &endgame(3, left, Scoring::Standard), Limits::default());
}

/// The proof of who wins alone ([`Searcher::prove`]), which level 5 tries beyond the exact
/// solver's reach when it has seconds to think.
#[divan::bench(args = [16, 20, 24], sample_count = 10)]
fn prove_endgame(bencher: Bencher, left: usize) {
    bench_searcher(bencher, &endgame(3, left, Scoring::Standard), |searcher, game, evaluator| {
        searcher.prove(game, evaluator, Limits::default(), None).expect("unlimited, so proven").nodes
    });
}

/// The solver under the `both` scoring: counting the bonuses at every finished game is most of
/// its time, and the reason level 5 hands over to it later under a variant.
#[divan::bench(args = [16, 20], sample_count = 10)]
fn solve_endgame_both(bencher: Bencher, left: usize) {
    bench_search(bencher, &endgame(3, left, Scoring::Both), Limits::default());
}

/// Playouts per second of the tree search of levels 4 and 5 (RAVE and implicit minimax backups
/// of the evaluation under the standard scoring, RAVE alone under `both`) from the start of the
/// classic board and from the middle game, one thread (the throughput column).
#[divan::bench(args = ["", "d4 d7 g7 g2 c2 c6 a6"])]
fn mcts_playouts(bencher: Bencher, moves: &str) {
    bench_mcts(bencher, &classic(moves, Scoring::Standard));
}

#[divan::bench(args = ["", "d4 d7 g7 g2 c2 c6 a6"])]
fn mcts_playouts_both(bencher: Bencher, moves: &str) {
    bench_mcts(bencher, &classic(moves, Scoring::Both));
}

fn bench_mcts(bencher: Bencher, game: &KulamiState) {
    use kulami_ai::mcts::{MctsLimits, search};
    const PLAYOUTS: u64 = 2000;
    let evaluator = KulamiEvaluator::tuned(game.scoring());
    // Level 5's options at 1 s a move.
    let options = kulami_ai::tree_search_options(game.scoring(), std::time::Duration::from_secs(1));
    let limits = MctsLimits { time: std::time::Duration::MAX, playouts: PLAYOUTS, threads: 1 };
    bencher
        .counter(ItemsCount::new(PLAYOUTS))
        .bench_local(|| search(black_box(game), Some(&evaluator), options, limits, 1, None));
}
