//! Move generation and perft speed. Run with `cargo bench -p kulami-core --bench movegen`.
//!
//! The perft benches count leaves in bulk at the last ply, as engine authors measure perft;
//! divan's throughput column shows leaves per second.

use std::sync::Arc;

use divan::{Bencher, black_box, counter::ItemsCount};
use kulami_core::{Cell, Layout, Position, notation::parse_moves};

const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";
const IRREGULAR: &str =
    "R..MM...../RLLMMCCC../KKGG..AAB./UUFFFDD.B./UUFFFDDSSS/..HH.DDEE./..HH...EEQ/.PIIIJJJ.Q/.PIIINNTT./OOO..NNTT.";

fn main() {
    divan::main();
}

fn position(layout: &str, moves: &str) -> Position {
    Position::from_moves(Arc::new(Layout::parse(layout).unwrap()), &parse_moves(moves).unwrap()).unwrap()
}

#[divan::bench(args = [5, 6])]
fn perft_classic_start(bencher: Bencher, depth: u32) {
    let mut start = position(CLASSIC, "");
    let leaves = start.perft(depth);
    bencher.counter(ItemsCount::new(leaves)).bench_local(|| black_box(&mut start).perft(black_box(depth)));
}

#[divan::bench(args = [7, 8])]
fn perft_classic_midgame(bencher: Bencher, depth: u32) {
    let mut midgame = position(CLASSIC, "d4 d7 g7 g2 c2 c6");
    let leaves = midgame.perft(depth);
    bencher.counter(ItemsCount::new(leaves)).bench_local(|| black_box(&mut midgame).perft(black_box(depth)));
}

#[divan::bench]
fn perft_irregular_6(bencher: Bencher) {
    let mut position = position(IRREGULAR, "e5");
    let leaves = position.perft(6);
    bencher.counter(ItemsCount::new(leaves)).bench_local(|| black_box(&mut position).perft(6));
}

/// Legal-move generation alone, over the positions of a whole game.
#[divan::bench]
fn legal_moves_over_a_game(bencher: Bencher) {
    let mut position = position(CLASSIC, "");
    let mut positions = Vec::new();
    while let Some(cell) = position.legal_moves().iter().nth(position.ply() % 3).or(position.legal_moves().first()) {
        positions.push(position.clone());
        position.play_unchecked(cell);
    }
    bencher
        .counter(ItemsCount::new(positions.len()))
        .bench_local(|| positions.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>());
}

/// One make and unmake, the step every search node takes.
#[divan::bench]
fn play_and_undo(bencher: Bencher) {
    let mut position = position(CLASSIC, "d4 d7 g7 g2");
    let moves: Vec<Cell> = position.legal_moves().iter().collect();
    bencher.counter(ItemsCount::new(moves.len())).bench_local(|| {
        for &cell in &moves {
            black_box(&mut position).play_unchecked(cell);
            position.undo();
        }
    });
}
