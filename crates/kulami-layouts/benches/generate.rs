//! Board generation throughput. Run with `cargo bench -p kulami-layouts --bench generate`.

use divan::{Bencher, black_box, counter::ItemsCount};
use kulami_layouts::{Shape, generate};

fn main() {
    divan::main();
}

const BOARDS: u64 = 1000;

#[divan::bench(args = Shape::ALL)]
fn boards(bencher: Bencher, shape: Shape) {
    // The square generator counts the tilings once per process; do that outside the timing.
    black_box(generate(0, shape));
    bencher.counter(ItemsCount::new(BOARDS)).bench_local(|| {
        for seed in 0..BOARDS {
            black_box(generate(black_box(seed), shape));
        }
    });
}
