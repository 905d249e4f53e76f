//! The three boards: their fields, which fields neighbour which, the stripes and the middle.
//!
//! A field is a triangle of the plane's triangular grid. The grid's lattice points are
//! `(x, y)` in the basis `(1, 0)`, `(1/2, √3/2)`; the triangle pointing up at `(x, y)` has the
//! corners `(x, y)`, `(x + 1, y)`, `(x, y + 1)`, and the one pointing down at `(x, y)` the
//! corners `(x + 1, y)`, `(x, y + 1)`, `(x + 1, y + 1)`. The grid's lines run in three
//! directions (`y`, `x` and `x + y` constant), and between two neighbouring lines of one
//! direction lies a band of triangles: a triangle's three bands are `y`, `x` and `x + y`, plus
//! one for a triangle pointing down. A stripe is a band's fields on the board that join edge to
//! edge (on these convex boards, all of them).

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A set of fields, bit `i` for the field numbered `i + 1`.
pub type Fields = u32;

/// One of the three boards of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The triangle of side 4: 16 fields, three sets of discs each.
    #[default]
    Triangle,
    /// The triangle of side 5 without its three corner fields: 22 fields, four sets each.
    Truncated,
    /// The regular hexagon of side 2: 24 fields, four sets each.
    Hexagon,
}

impl Shape {
    /// Every board, smallest first.
    pub const ALL: [Shape; 3] = [Shape::Triangle, Shape::Truncated, Shape::Hexagon];

    /// The board's fields, stripes and middle.
    #[must_use]
    pub fn board(self) -> &'static Board {
        static BOARDS: [OnceLock<Board>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        BOARDS[self as usize].get_or_init(|| Board::new(self))
    }

    /// How many sets of discs (one each of 1, 2 and 3) each player has.
    #[must_use]
    pub fn sets(self) -> u8 {
        match self {
            Shape::Triangle => 3,
            Shape::Truncated | Shape::Hexagon => 4,
        }
    }

    /// Whether the triangle with these lattice coordinates is a field of this board.
    fn contains(self, triangle: Triangle) -> bool {
        let [row, column, diagonal] = triangle.bands();
        match self {
            Shape::Triangle => row >= 0 && column >= 0 && diagonal <= 3,
            Shape::Truncated => {
                let corner = !triangle.down && matches!((triangle.x, triangle.y), (0, 0) | (4, 0) | (0, 4));
                row >= 0 && column >= 0 && diagonal <= 4 && !corner
            }
            // Centred on the lattice point (2, 2): every band within two of it.
            Shape::Hexagon => (0..4).contains(&row) && (0..4).contains(&column) && (2..6).contains(&diagonal),
        }
    }
}

/// The board's number of fields: `16`, `22` or `24`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board().len())
    }
}

/// A word that names no board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a GORami board: expected 16, 22 or 24 (its number of fields)")]
pub struct ParseShapeError(pub String);

impl FromStr for Shape {
    type Err = ParseShapeError;

    fn from_str(text: &str) -> Result<Shape, ParseShapeError> {
        match text {
            "16" | "triangle" => Ok(Shape::Triangle),
            "22" | "truncated" => Ok(Shape::Truncated),
            "24" | "hexagon" => Ok(Shape::Hexagon),
            _ => Err(ParseShapeError(text.to_owned())),
        }
    }
}

/// A triangle of the grid, by the lattice point at its lower left and which way it points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Triangle {
    /// The lattice point's first coordinate.
    pub x: i8,
    /// Its second coordinate: the row, counted from the bottom.
    pub y: i8,
    /// Whether the triangle points down.
    pub down: bool,
}

impl Triangle {
    /// Its bands in the three directions: the row, the band of constant `x` and the band of
    /// constant `x + y`.
    #[must_use]
    pub fn bands(self) -> [i8; 3] {
        [self.y, self.x, self.x + self.y + i8::from(self.down)]
    }

    /// The three triangles it shares an edge with.
    fn edge_neighbours(self) -> [Triangle; 3] {
        let Triangle { x, y, down } = self;
        if down {
            [
                Triangle { x, y, down: false },
                Triangle { x: x + 1, y, down: false },
                Triangle { x, y: y + 1, down: false },
            ]
        } else {
            [Triangle { x, y: y - 1, down: true }, Triangle { x: x - 1, y, down: true }, Triangle { x, y, down: true }]
        }
    }

    /// Its three corners, as lattice points `(x, y)`: on the page, `x + y / 2` fields across and
    /// `y` rows of height √3/2 up.
    #[must_use]
    pub fn corners(self) -> [(i8, i8); 3] {
        let Triangle { x, y, down } = self;
        if down { [(x + 1, y), (x, y + 1), (x + 1, y + 1)] } else { [(x, y), (x + 1, y), (x, y + 1)] }
    }

    /// Where its centre is drawn, in half fields from the left: triangles of a row alternate
    /// up and down a half field apart, and each row starts half a field right of the one below.
    #[must_use]
    pub fn column(self) -> i8 {
        2 * self.x + self.y + 1 + i8::from(self.down)
    }
}

/// A board: its fields numbered 1.. from the top row down and left to right in each row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    shape: Shape,
    triangles: Vec<Triangle>,
    neighbours: Vec<Fields>,
    stripes: Vec<Fields>,
    middle: Fields,
}

impl Board {
    fn new(shape: Shape) -> Board {
        let mut triangles: Vec<Triangle> = (-1..7)
            .flat_map(|y| (-1..7).flat_map(move |x| [false, true].map(|down| Triangle { x, y, down })))
            .filter(|&triangle| shape.contains(triangle))
            .collect();
        triangles.sort_by_key(|triangle| (-triangle.y, triangle.column()));
        let index = |triangle: Triangle| triangles.iter().position(|&t| t == triangle);
        let neighbours = triangles
            .iter()
            .map(|triangle| triangle.edge_neighbours().into_iter().filter_map(index).fold(0, |set, i| set | 1 << i))
            .collect::<Vec<Fields>>();
        let mut stripes = Vec::new();
        for direction in 0..3 {
            let mut bands: Vec<i8> = triangles.iter().map(|t| t.bands()[direction]).collect();
            bands.sort_unstable();
            bands.dedup();
            for band in bands {
                let in_band = (0..triangles.len())
                    .filter(|&i| triangles[i].bands()[direction] == band)
                    .fold(0, |set: Fields, i| set | 1 << i);
                stripes.extend(components(in_band, &neighbours));
            }
        }
        // A lattice point is inside the board when all six triangles around it are fields; the
        // middle fields are those with no corner on the border.
        let around = |(x, y): (i8, i8)| {
            [
                Triangle { x, y, down: false },
                Triangle { x: x - 1, y, down: false },
                Triangle { x, y: y - 1, down: false },
                Triangle { x: x - 1, y, down: true },
                Triangle { x, y: y - 1, down: true },
                Triangle { x: x - 1, y: y - 1, down: true },
            ]
        };
        let inside = |point| around(point).into_iter().all(|triangle| shape.contains(triangle));
        let middle = (0..triangles.len())
            .filter(|&i| triangles[i].corners().into_iter().all(inside))
            .fold(0, |set: Fields, i| set | 1 << i);
        Board { shape, triangles, neighbours, stripes, middle }
    }

    /// Which board this is.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The number of fields.
    #[must_use]
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// Never: every board has fields (for clippy's `len` convention).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Every field.
    #[must_use]
    pub fn all(&self) -> Fields {
        (1 << self.triangles.len()) - 1
    }

    /// Field `index`'s triangle (`index` counts from 0: field 1 is index 0).
    ///
    /// # Panics
    /// If there is no such field.
    #[must_use]
    pub fn triangle(&self, index: usize) -> Triangle {
        self.triangles[index]
    }

    /// The fields that share an edge with field `index` (counted from 0).
    ///
    /// # Panics
    /// If there is no such field.
    #[must_use]
    pub fn neighbours(&self, index: usize) -> Fields {
        self.neighbours[index]
    }

    /// Every stripe: the rows, then the bands of the other two directions.
    #[must_use]
    pub fn stripes(&self) -> &[Fields] {
        &self.stripes
    }

    /// The fields with no corner on the border, whose sums break a tie.
    #[must_use]
    pub fn middle(&self) -> Fields {
        self.middle
    }
}

/// The parts of `set` that join edge to edge.
fn components(mut set: Fields, neighbours: &[Fields]) -> Vec<Fields> {
    let mut parts = Vec::new();
    while set != 0 {
        let mut part: Fields = set & set.wrapping_neg();
        loop {
            let grown = bits(part).fold(part, |grown, i| grown | (neighbours[i] & set));
            if grown == part {
                break;
            }
            part = grown;
        }
        parts.push(part);
        set &= !part;
    }
    parts
}

/// The indices (field numbers less one) of the fields in `set`, lowest first.
pub fn bits(mut set: Fields) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros() as usize;
            set &= set - 1;
            bit
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_have_the_sites_field_counts_stripes_and_middles() {
        let counts: Vec<_> = Shape::ALL.iter().map(|shape| shape.board().len()).collect();
        assert_eq!(counts, [16, 22, 24]);
        for shape in Shape::ALL {
            let board = shape.board();
            assert_eq!(board.stripes().len(), 12, "{shape}: four stripes in each direction");
            for direction in board.stripes().chunks(4) {
                let union = direction.iter().fold(0, |union, stripe| union | stripe);
                let sizes: u32 = direction.iter().map(|stripe| stripe.count_ones()).sum();
                assert_eq!((union, sizes as usize), (board.all(), board.len()), "{shape}: each direction covers once");
            }
        }
        // The side-4 triangle's stripes are 1, 3, 5 and 7 long; the truncated one's 3, 5, 7, 7;
        // the hexagon's 5, 7, 7, 5.
        let lengths = |shape: Shape| {
            let mut lengths: Vec<u32> = shape.board().stripes()[..4].iter().map(|s| s.count_ones()).collect();
            lengths.sort_unstable();
            lengths
        };
        assert_eq!(lengths(Shape::Triangle), [1, 3, 5, 7]);
        assert_eq!(lengths(Shape::Truncated), [3, 5, 7, 7]);
        assert_eq!(lengths(Shape::Hexagon), [5, 5, 7, 7]);
        // The middles: one field, a triangle of four (as the site says), a hexagon of six.
        let middles: Vec<_> = Shape::ALL.iter().map(|shape| shape.board().middle().count_ones()).collect();
        assert_eq!(middles, [1, 4, 6]);
    }

    #[test]
    fn neighbours_share_an_edge_both_ways() {
        for shape in Shape::ALL {
            let board = shape.board();
            for i in 0..board.len() {
                for j in bits(board.neighbours(i)) {
                    assert!(board.neighbours(j) & 1 << i != 0, "{shape}: {i} and {j}");
                    assert_ne!(board.triangle(i).down, board.triangle(j).down, "an edge joins up and down");
                }
            }
            let edges: u32 = (0..board.len()).map(|i| board.neighbours(i).count_ones()).sum();
            let expected = match shape {
                Shape::Triangle => 2 * 18,  // 3 * 6 edges inside the side-4 triangle
                Shape::Truncated => 2 * 27, // 30 of the side-5 triangle, less one per corner
                Shape::Hexagon => 2 * 30,
            };
            assert_eq!(edges, expected, "{shape}");
        }
        // Field 1 is the side-4 triangle's top corner, below it field 3 (pointing down) between
        // 2 and 4.
        let triangle = Shape::Triangle.board();
        assert_eq!(triangle.neighbours(0), 1 << 2);
        assert_eq!(triangle.neighbours(2), 1 | 1 << 1 | 1 << 3);
    }

    #[test]
    fn boards_are_named_by_their_fields() {
        assert_eq!(Shape::ALL.map(|shape| shape.to_string()), ["16", "22", "24"]);
        assert_eq!("22".parse(), Ok(Shape::Truncated));
        assert_eq!("hexagon".parse(), Ok(Shape::Hexagon));
        assert_eq!(
            "20".parse::<Shape>().unwrap_err().to_string(),
            "`20` is not a GORami board: expected 16, 22 or 24 (its number of fields)"
        );
    }
}
