//! Kalah's speed: sowings, the endgame database and the solver. Run with `cargo bench -p kalah
//! --bench solve`; the throughput column is positions (or database entries) per second.

use std::sync::Arc;

use divan::{Bencher, black_box, counter::ItemsCount};
use kalah::endgame::EndgameTable;
use kalah::{Capture, End, Position, Rules};

fn main() {
    divan::main();
}

/// The rules of "Solving Kalah": the empty capture and Irving's immediate end.
fn irving(pits: u8, seeds: u8) -> Rules {
    Rules::new(pits, seeds).unwrap().with_capture(Capture::Empty).with_end(End::Irving)
}

/// Move generation and sowing: Kalah(6,4)'s sowing sequences of five moves.
#[divan::bench]
fn perft_5(bencher: Bencher) {
    let start = Position::start(Rules::new(6, 4).unwrap());
    let count = start.perft(5);
    bencher.counter(ItemsCount::new(count)).bench(|| black_box(&start).perft(5));
}

/// Every entry of Kalah(6,5)'s database up to `seeds` seeds in the pits, on one thread.
#[divan::bench(args = [10, 12], sample_count = 10)]
fn endgame_database(bencher: Bencher, seeds: u8) {
    let rules = irving(6, 5);
    bencher
        .counter(ItemsCount::new(EndgameTable::bytes(rules, seeds)))
        .bench(|| EndgameTable::filled(rules, black_box(seeds), 1));
}

/// Kalah(`pits`,`seeds`) solved from the start on one thread, with a 16 MiB table and a 14-seed
/// database made outside the timing; positions searched a second.
#[divan::bench(args = [(4, 5), (6, 3)], sample_count = 5)]
fn solve(bencher: Bencher, (pits, seeds): (u8, u8)) {
    let start = Position::start(irving(pits, seeds));
    let database = || Arc::new(EndgameTable::new(start.rules(), 14));
    let nodes = kalah::search::solve_with(&start, 16, 1, database(), |_| {}).nodes;
    bencher
        .counter(ItemsCount::new(nodes))
        .with_inputs(database)
        .bench_local_values(|database| kalah::search::solve_with(black_box(&start), 16, 1, database, |_| {}));
}
