//! Random valid boards for tests: tiles of random shapes and orientations, each placed edge to
//! edge with the ones before, anywhere in the 10x10 frame. Not the product's generator (that is
//! `kulami-layouts`'); this one aims at odd shapes that stress the rules.

use rand::{Rng, RngExt as _};

const SIZE: usize = 10;
const NAMES: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A random connected board of 1 to 24 tiles, as one-line layout text.
pub fn random_layout_text(rng: &mut impl Rng) -> String {
    let mut grid = [[b'.'; SIZE]; SIZE];
    let wanted = rng.random_range(1..=24);
    let mut placed = 0;
    let mut attempts = 0;
    while placed < wanted && attempts < 2000 {
        attempts += 1;
        let (short, long) = [(1, 2), (1, 3), (2, 2), (2, 3)][rng.random_range(0..4)];
        let (height, width) = if rng.random_bool(0.5) { (short, long) } else { (long, short) };
        let top = rng.random_range(0..=SIZE - height);
        let left = rng.random_range(0..=SIZE - width);
        let cells = || (top..top + height).flat_map(move |r| (left..left + width).map(move |c| (r, c)));
        if cells().any(|(r, c)| grid[r][c] != b'.') {
            continue;
        }
        let touches = cells().any(|(r, c)| {
            [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
                .into_iter()
                .any(|(nr, nc)| nr < SIZE && nc < SIZE && grid[nr][nc] != b'.')
        });
        if placed > 0 && !touches {
            continue;
        }
        for (r, c) in cells() {
            grid[r][c] = NAMES[placed];
        }
        placed += 1;
    }
    grid.iter().map(|row| String::from_utf8(row.to_vec()).expect("ASCII")).collect::<Vec<_>>().join("/")
}
