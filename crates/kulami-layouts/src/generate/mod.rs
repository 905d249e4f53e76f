//! Seeded random boards of the standard set: the 8x8 square and irregular shapes.

mod irregular;
mod random;
mod square;

use std::fmt;
use std::str::FromStr;

use kulami_core::{Layout, ParseLayoutError};

pub(crate) use random::SeededRng;
pub use square::tiling_count;

/// The kind of board to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Shape {
    /// The classic 8x8 square, every tiling equally likely.
    #[default]
    Square,
    /// The 17 tiles edge to edge in other shapes inside the 10x10 frame, checked for playability.
    Irregular,
}

impl Shape {
    /// Both shapes.
    pub const ALL: [Shape; 2] = [Shape::Square, Shape::Irregular];

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Square => "square",
            Shape::Irregular => "irregular",
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A shape name that is not `square` or `irregular`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a board shape: expected square or irregular")]
pub struct ParseShapeError(pub String);

impl FromStr for Shape {
    type Err = ParseShapeError;
    fn from_str(text: &str) -> Result<Shape, ParseShapeError> {
        Shape::ALL.into_iter().find(|shape| shape.name() == text).ok_or_else(|| ParseShapeError(text.to_owned()))
    }
}

/// The board of `shape` for `seed`: the same seed and shape give the same board on every machine
/// and in every version.
///
/// ```
/// use kulami_layouts::{Shape, generate};
/// let board = generate(7, Shape::Irregular);
/// assert!(board.uses_standard_set());
/// assert_eq!(board, generate(7, Shape::Irregular));
/// ```
///
/// # Panics
/// Never: every generated tiling is a valid board (the tests check thousands of seeds).
#[must_use]
pub fn generate(seed: u64, shape: Shape) -> Layout {
    let mut rng = random::SeededRng::new(seed);
    let grid = match shape {
        Shape::Square => square::generate(&mut rng),
        Shape::Irregular => irregular::generate(&mut rng),
    };
    grid.to_layout().expect("generated boards are valid (tested)")
}

/// A random seed for callers that want a fresh board: from the clock and the process, since the
/// seed is printed with the board and that is what makes it reproducible.
#[must_use]
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    hasher.finish()
}

/// Tile numbers on the 10x10 frame while a board is built.
#[derive(Clone, Default)]
pub(crate) struct Grid([[Option<u8>; 10]; 10]);

impl Grid {
    fn place(&mut self, top: usize, left: usize, height: usize, width: usize, tile: u8) {
        for row in &mut self.0[top..top + height] {
            row[left..left + width].fill(Some(tile));
        }
    }

    /// The layout, moved to the frame's top-left corner, tiles named `A`, `B`, ... in reading order.
    fn to_layout(&self) -> Result<Layout, ParseLayoutError> {
        let rows: Vec<usize> = (0..10).filter(|&r| self.0[r].iter().any(Option::is_some)).collect();
        let columns: Vec<usize> = (0..10).filter(|&c| self.0.iter().any(|row| row[c].is_some())).collect();
        let (Some(&top), Some(&bottom), Some(&left), Some(&right)) =
            (rows.first(), rows.last(), columns.first(), columns.last())
        else {
            return Layout::parse("");
        };
        let mut names: Vec<u8> = Vec::new();
        let text: Vec<String> = (top..=bottom)
            .map(|r| {
                (left..=right)
                    .map(|c| match self.0[r][c] {
                        None => '.',
                        Some(tile) => {
                            let index = names.iter().position(|&t| t == tile).unwrap_or_else(|| {
                                names.push(tile);
                                names.len() - 1
                            });
                            char::from(TILE_NAMES[index])
                        }
                    })
                    .collect()
            })
            .collect();
        Layout::parse(&text.join("/"))
    }
}

const TILE_NAMES: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
