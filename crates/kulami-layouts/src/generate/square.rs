//! Uniformly random tilings of the 8x8 square by the standard set.
//!
//! Filling the first empty cell (row by row) always places a tile with its top-left corner
//! there, so every tiling is one path of choices. Counting the tilings below every partial state
//! (memoised; about 440,000 states for 390,254,538 tilings) lets a random rank in
//! `0..total` be turned into its tiling: every tiling has exactly the same chance, and the order
//! of the choices is fixed, so a rank means the same board in every version.

use std::collections::HashMap;
use std::sync::OnceLock;

use kulami_core::TileShape;

use super::Grid;
use super::random::SeededRng;

const SIDE: usize = 8;
const CELLS: usize = SIDE * SIDE;

/// The standard set's shapes, in the fixed order choices are tried, with their orientations
/// (height, width).
const PIECES: [(TileShape, &[(usize, usize)]); 4] = [
    (TileShape::OneByTwo, &[(1, 2), (2, 1)]),
    (TileShape::OneByThree, &[(1, 3), (3, 1)]),
    (TileShape::TwoByTwo, &[(2, 2)]),
    (TileShape::TwoByThree, &[(2, 3), (3, 2)]),
];

/// Tiles of each of [`PIECES`] still to place.
type Remaining = [u8; 4];

/// A partial tiling: the first empty cell, and which of it and the cells after it are filled
/// (bit 0 is the cell itself).
#[derive(Clone, Copy)]
struct State {
    first_empty: usize,
    filled_ahead: u32,
    remaining: Remaining,
}

impl State {
    /// Moves past filled cells so that `first_empty` is empty (or the end).
    fn settle(mut self) -> State {
        while self.first_empty < CELLS && self.filled_ahead & 1 == 1 {
            self.filled_ahead >>= 1;
            self.first_empty += 1;
        }
        self
    }

    fn key(self) -> u64 {
        let remaining = self.remaining.iter().fold(0u64, |key, &n| key << 4 | u64::from(n));
        (self.first_empty as u64) | u64::from(self.filled_ahead) << 7 | remaining << 40
    }

    /// Every state one tile further, in the fixed order, with the tile placed as
    /// `(piece index, height, width)`.
    fn children(self) -> impl Iterator<Item = (State, (usize, usize, usize))> {
        let (row, column) = (self.first_empty / SIDE, self.first_empty % SIDE);
        PIECES.iter().enumerate().flat_map(move |(piece, (_, orientations))| {
            orientations.iter().filter_map(move |&(height, width)| {
                if self.remaining[piece] == 0 || row + height > SIDE || column + width > SIDE {
                    return None;
                }
                let mut mask = 0u32;
                for r in 0..height {
                    for c in 0..width {
                        mask |= 1 << (r * SIDE + c);
                    }
                }
                if self.filled_ahead & mask != 0 {
                    return None;
                }
                let mut remaining = self.remaining;
                remaining[piece] -= 1;
                let child = State { first_empty: self.first_empty, filled_ahead: self.filled_ahead | mask, remaining };
                Some((child.settle(), (piece, height, width)))
            })
        })
    }
}

/// The number of completions of every partial tiling reached from the empty square.
struct Counts(HashMap<u64, u64>);

impl Counts {
    fn build() -> Counts {
        let mut counts = Counts(HashMap::new());
        counts.count(start());
        counts
    }

    fn count(&mut self, state: State) -> u64 {
        if state.first_empty == CELLS {
            return u64::from(state.remaining == [0; 4]);
        }
        if let Some(&known) = self.0.get(&state.key()) {
            return known;
        }
        let total = state.children().map(|(child, _)| self.count(child)).sum();
        self.0.insert(state.key(), total);
        total
    }

    fn get(&self, state: State) -> u64 {
        if state.first_empty == CELLS {
            return u64::from(state.remaining == [0; 4]);
        }
        self.0[&state.key()]
    }
}

fn start() -> State {
    let remaining = PIECES.map(|(shape, _)| shape.standard_count() as u8);
    State { first_empty: 0, filled_ahead: 0, remaining }
}

fn counts() -> &'static Counts {
    static COUNTS: OnceLock<Counts> = OnceLock::new();
    COUNTS.get_or_init(Counts::build)
}

/// The number of distinct tilings of the 8x8 square by the standard set.
pub fn tiling_count() -> u64 {
    counts().get(start())
}

/// The tiling with this rank (`0..tiling_count()`), as tile numbers per cell.
fn unrank(mut rank: u64) -> Grid {
    let counts = counts();
    let mut grid = Grid::default();
    let mut state = start();
    let mut tile = 0;
    while state.first_empty < CELLS {
        let (child, (_, height, width)) = state
            .children()
            .find(|&(child, _)| {
                let below = counts.get(child);
                if rank < below {
                    return true;
                }
                rank -= below;
                false
            })
            .expect("the rank is below the number of tilings");
        let (row, column) = (state.first_empty / SIDE, state.first_empty % SIDE);
        grid.place(row, column, height, width, tile);
        tile += 1;
        state = child;
    }
    grid
}

/// A uniformly random tiling of the 8x8 square.
pub(crate) fn generate(rng: &mut SeededRng) -> Grid {
    unrank(rng.below(tiling_count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_has_390_254_538_tilings() {
        // Tiles of one shape are interchangeable; rotations count as different tilings.
        assert_eq!(tiling_count(), 390_254_538);
    }

    /// If every tiling is equally likely, the tile on a1 has each shape and orientation with
    /// probability (tilings that start with it) / (all tilings). Chi-square over 10,000 seeded
    /// boards: 6 degrees of freedom, 22.46 is the 0.1% critical value.
    #[test]
    fn generated_boards_follow_the_exact_tiling_counts() {
        let total = tiling_count() as f64;
        let expected: Vec<((usize, usize), f64)> =
            start().children().map(|(child, (_, h, w))| ((h, w), counts().get(child) as f64 / total)).collect();
        assert_eq!(expected.len(), 7);
        let samples = 10_000;
        let mut observed = vec![0usize; expected.len()];
        for seed in 0..samples {
            let grid = generate(&mut SeededRng::new(seed));
            let layout = grid.to_layout().unwrap();
            let size = layout.tiles()[0].size();
            observed[expected.iter().position(|(shape, _)| *shape == size).unwrap()] += 1;
        }
        let chi_square: f64 = expected
            .iter()
            .zip(&observed)
            .map(|((_, p), &o)| {
                let e = p * samples as f64;
                (o as f64 - e).powi(2) / e
            })
            .sum();
        assert!(chi_square < 22.46, "chi-square {chi_square:.2}: {observed:?} vs {expected:?}");
    }

    #[test]
    fn first_and_last_ranks_are_valid_and_different() {
        let first = unrank(0).to_layout().unwrap();
        let last = unrank(tiling_count() - 1).to_layout().unwrap();
        assert!(first.uses_standard_set() && last.uses_standard_set());
        assert_ne!(first, last);
    }
}
