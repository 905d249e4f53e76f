//! `cargo xtask puzzles [--check]`: makes the puzzle bank `crates/kulami-ai/data/puzzles.txt`
//! from fixed seeds (so it is the same on every machine), or checks that the file is what the
//! seeds give.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use kulami_ai::puzzle::{Puzzle, bank_text, find};
use kulami_core::Scoring;
use kulami_layouts::{Shape, generate};

/// Seeds tried; about a third give a puzzle.
const SEEDS: u64 = 1300;

/// The bank's path from the workspace root.
pub const BANK: &str = "crates/kulami-ai/data/puzzles.txt";

/// The puzzle of one seed: its board, scoring and distance from the end follow from the seed.
fn puzzle(seed: u64) -> Option<Puzzle> {
    let shape = if seed.is_multiple_of(3) { Shape::Irregular } else { Shape::Square };
    // Mostly the standard scoring; every fifth seed one of the variants.
    let scoring = if seed % 5 == 4 { Scoring::ALL[1 + (seed / 5 % 3) as usize] } else { Scoring::Standard };
    let plies_left = 10 + 2 * (seed % 4) as usize;
    find(&Arc::new(generate(seed, shape)), scoring, seed, plies_left)
}

/// The bank's text, made on all cores (the seeds' order is kept).
pub fn make() -> String {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let mut found: Vec<(u64, Puzzle)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let seed = next.fetch_add(1, Ordering::Relaxed) as u64;
                        if seed >= SEEDS {
                            break mine;
                        }
                        mine.extend(puzzle(seed).map(|puzzle| (seed, puzzle)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|worker| worker.join().expect("a puzzle worker panicked")).collect()
    });
    found.sort_by_key(|&(seed, _)| seed);
    let puzzles: Vec<Puzzle> = found.into_iter().map(|(_, puzzle)| puzzle).collect();
    bank_text(&puzzles)
}

/// Writes the bank, or with `check` fails if the file differs from what the seeds give.
pub fn run(check: bool) -> anyhow::Result<()> {
    let path = crate::root().join(BANK);
    let made = make();
    let count = made.lines().filter(|line| !line.starts_with('#')).count();
    if check {
        let current = std::fs::read_to_string(&path)?;
        anyhow::ensure!(current == made, "{BANK} is stale: run `cargo xtask puzzles`");
        eprintln!("{BANK} is up to date ({count} puzzles)");
    } else {
        std::fs::write(&path, &made)?;
        eprintln!("wrote {count} puzzles to {BANK}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_puzzle_bank_is_what_the_seeds_give() {
        super::run(true).unwrap();
    }
}
