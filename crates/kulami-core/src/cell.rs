//! Cells of the 10x10 frame and sets of cells as `u128` bitboards.

use std::fmt;
use std::str::FromStr;

/// Width and height of the frame every board lies in.
pub const FRAME: usize = 10;
/// Number of cells in the frame.
pub const FRAME_CELLS: usize = FRAME * FRAME;

/// One cell of the 10x10 frame, `a1` (top-left) to `j10` (bottom-right).
///
/// The index is `row * 10 + column`, both counted from zero, so bit `index` of a
/// [`CellSet`] stands for this cell.
///
/// ```
/// use kulami_core::Cell;
/// let cell: Cell = "c2".parse().unwrap();
/// assert_eq!((cell.column(), cell.row()), (2, 1));
/// assert_eq!(cell.to_string(), "c2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The top-left cell.
    pub const A1: Cell = Cell(0);

    /// The cell at `row` and `column` (both from zero), if it lies in the frame.
    #[must_use]
    pub const fn new(row: usize, column: usize) -> Option<Cell> {
        if row < FRAME && column < FRAME { Some(Cell((row * FRAME + column) as u8)) } else { None }
    }

    /// The cell with this index (`row * 10 + column`), if it lies in the frame.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < FRAME_CELLS { Some(Cell(index as u8)) } else { None }
    }

    /// The index `row * 10 + column`, in `0..100`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, from 0 (top, printed `1`) to 9.
    #[must_use]
    pub const fn row(self) -> usize {
        self.0 as usize / FRAME
    }

    /// The column, from 0 (left, printed `a`) to 9.
    #[must_use]
    pub const fn column(self) -> usize {
        self.0 as usize % FRAME
    }

    /// Every cell of the frame in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..FRAME_CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(b'a' + self.column() as u8);
        write!(f, "{column}{}", self.row() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A cell name that is not `a1`..`j10`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a cell: expected a column a-j and a row 1-10, like `d4`")]
pub struct ParseCellError {
    /// The text that failed to parse.
    pub text: String,
}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(text: &str) -> Result<Cell, ParseCellError> {
        let error = || ParseCellError { text: text.to_owned() };
        let mut chars = text.chars();
        let column = chars.next().ok_or_else(error)?.to_ascii_lowercase();
        let row_text = chars.as_str();
        // Only plain digits: `u8::from_str` would also accept a leading `+`.
        if !('a'..='j').contains(&column)
            || row_text.is_empty()
            || row_text.len() > 2
            || !row_text.bytes().all(|b| b.is_ascii_digit())
            || row_text.starts_with('0')
        {
            return Err(error());
        }
        let row: usize = row_text.parse().map_err(|_| error())?;
        Cell::new(row.wrapping_sub(1), column as usize - 'a' as usize).ok_or_else(error)
    }
}

#[cfg(feature = "serde")]
mod cell_serde {
    use super::Cell;
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    /// Readable formats get the cell name, binary ones its index.
    impl Serialize for Cell {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            if serializer.is_human_readable() { serializer.collect_str(self) } else { serializer.serialize_u8(self.0) }
        }
    }

    impl<'de> Deserialize<'de> for Cell {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
            if deserializer.is_human_readable() {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(D::Error::custom)
            } else {
                let index = u8::deserialize(deserializer)?;
                Cell::from_index(usize::from(index))
                    .ok_or_else(|| D::Error::custom(format!("cell index {index} is outside 0..100")))
            }
        }
    }
}

#[cfg(feature = "serde")]
mod cell_set_serde {
    use super::{Cell, CellSet};
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    /// Readable formats get the list of cell names, binary ones the bits.
    impl Serialize for CellSet {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            if serializer.is_human_readable() {
                serializer.collect_seq(self.iter())
            } else {
                serializer.serialize_u128(self.0)
            }
        }
    }

    impl<'de> Deserialize<'de> for CellSet {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CellSet, D::Error> {
            if deserializer.is_human_readable() {
                Ok(Vec::<Cell>::deserialize(deserializer)?.into_iter().collect())
            } else {
                let bits = u128::deserialize(deserializer)?;
                CellSet::from_bits(bits).ok_or_else(|| D::Error::custom("a cell set holds a cell outside the frame"))
            }
        }
    }
}

/// A set of cells of the frame, one bit per cell (bit `i` is the cell with index `i`).
///
/// ```
/// use kulami_core::{Cell, CellSet};
/// let set = CellSet::row(0) & CellSet::column(3);
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec!["d1".parse::<Cell>().unwrap()]);
/// ```
///
/// Only cells of the frame can be in a set: every way to build one keeps the bits above 99 clear,
/// so every cell a set yields is valid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(u128);

const ALL_BITS: u128 = (1u128 << FRAME_CELLS) - 1;
const fn column_bits(column: usize) -> u128 {
    let mut bits = 0u128;
    let mut row = 0;
    while row < FRAME {
        bits |= 1u128 << (row * FRAME + column);
        row += 1;
    }
    bits
}
const NOT_FIRST_COLUMN: u128 = ALL_BITS & !column_bits(0);
const NOT_LAST_COLUMN: u128 = ALL_BITS & !column_bits(FRAME - 1);

/// A direction on the frame, as used by line scoring and flood fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// One column to the right.
    East,
    /// One row down.
    South,
    /// One row down and one column right.
    SouthEast,
    /// One row down and one column left.
    SouthWest,
}

impl Direction {
    /// The four directions of a line: horizontal, vertical and both diagonals.
    pub const LINES: [Direction; 4] = [Direction::East, Direction::South, Direction::SouthEast, Direction::SouthWest];
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);
    /// Every cell of the frame.
    pub const ALL: CellSet = CellSet(ALL_BITS);

    /// The set whose bit `i` stands for the cell with index `i`, if no bit above 99 is set.
    #[must_use]
    pub const fn from_bits(bits: u128) -> Option<CellSet> {
        if bits & !ALL_BITS == 0 { Some(CellSet(bits)) } else { None }
    }

    /// The set of the bits that stand for cells of the frame; bits above 99 are dropped.
    #[must_use]
    pub const fn from_bits_truncate(bits: u128) -> CellSet {
        CellSet(bits & ALL_BITS)
    }

    /// The bits of the set: bit `i` for the cell with index `i`.
    #[must_use]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `cell`.
    #[must_use]
    pub const fn from_cell(cell: Cell) -> CellSet {
        CellSet(1u128 << cell.0)
    }

    /// Every cell of `row` (0..10).
    ///
    /// # Panics
    /// If `row` is 10 or more.
    #[must_use]
    pub const fn row(row: usize) -> CellSet {
        assert!(row < FRAME, "row out of the frame");
        CellSet(((1u128 << FRAME) - 1) << (row * FRAME))
    }

    /// Every cell of `column` (0..10).
    ///
    /// # Panics
    /// If `column` is 10 or more.
    #[must_use]
    pub const fn column(column: usize) -> CellSet {
        assert!(column < FRAME, "column out of the frame");
        CellSet(column_bits(column))
    }

    /// Whether the set holds `cell`.
    #[must_use]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.0 & 1 != 0
    }

    /// Adds `cell`.
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.0;
    }

    /// Removes `cell`.
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.0);
    }

    /// The number of cells in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cell with the lowest index, if any.
    #[must_use]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 { None } else { Some(Cell(self.0.trailing_zeros() as u8)) }
    }

    /// The cells in index order (row by row, left to right).
    pub fn iter(self) -> CellSetIter {
        CellSetIter(self.0)
    }

    /// The set moved one step forward along `direction`; cells that leave the frame drop out.
    #[must_use]
    pub const fn shift(self, direction: Direction) -> CellSet {
        let bits = self.0;
        CellSet(
            match direction {
                Direction::East => (bits & NOT_LAST_COLUMN) << 1,
                Direction::South => bits << FRAME,
                Direction::SouthEast => (bits & NOT_LAST_COLUMN) << (FRAME + 1),
                Direction::SouthWest => (bits & NOT_FIRST_COLUMN) << (FRAME - 1),
            } & ALL_BITS,
        )
    }

    /// The set moved one step backward along `direction`; cells that leave the frame drop out.
    #[must_use]
    pub const fn shift_back(self, direction: Direction) -> CellSet {
        let bits = self.0;
        CellSet(match direction {
            Direction::East => (bits & NOT_FIRST_COLUMN) >> 1,
            Direction::South => bits >> FRAME,
            Direction::SouthEast => (bits & NOT_FIRST_COLUMN) >> (FRAME + 1),
            Direction::SouthWest => (bits & NOT_LAST_COLUMN) >> (FRAME - 1),
        })
    }

    /// The set plus every cell that shares an edge with one of its cells.
    #[must_use]
    pub const fn grow(self) -> CellSet {
        CellSet(
            self.0
                | self.shift(Direction::East).0
                | self.shift_back(Direction::East).0
                | self.shift(Direction::South).0
                | self.shift_back(Direction::South).0,
        )
    }

    /// The cells of `within` connected to `self` through shared edges inside `within`.
    #[must_use]
    pub fn flood_fill(self, within: CellSet) -> CellSet {
        let mut reached = self & within;
        loop {
            let next = reached.grow() & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

/// Iterator over the cells of a [`CellSet`], lowest index first.
#[derive(Clone, Debug)]
pub struct CellSetIter(u128);

impl Iterator for CellSetIter {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for CellSetIter {}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl std::ops::$trait for CellSet {
            type Output = CellSet;
            fn $method(self, other: CellSet) -> CellSet {
                CellSet(self.0 $op other.0)
            }
        }
        impl std::ops::$assign_trait for CellSet {
            fn $assign_method(&mut self, other: CellSet) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}
set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for CellSet {
    type Output = CellSet;
    /// The complement within the frame.
    fn not(self) -> CellSet {
        CellSet(!self.0 & ALL_BITS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip_for_every_cell() {
        for cell in Cell::all() {
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!("A1".parse::<Cell>().map(Cell::index), Ok(0));
        assert_eq!("j10".parse::<Cell>().map(Cell::index), Ok(99));
    }

    #[test]
    fn bad_cell_names_are_rejected() {
        for text in ["", "a", "a0", "a11", "k1", "1a", "a+1", "a01", "aa", "a1 ", "é1"] {
            assert!(text.parse::<Cell>().is_err(), "{text:?} parsed");
        }
    }

    #[test]
    fn shifts_never_wrap_around_the_frame_edges() {
        let right_edge = CellSet::column(9);
        let left_edge = CellSet::column(0);
        assert!(right_edge.shift(Direction::East).is_empty());
        assert!(left_edge.shift_back(Direction::East).is_empty());
        assert!(right_edge.shift(Direction::SouthEast).is_empty());
        assert!(left_edge.shift(Direction::SouthWest).is_empty());
        assert!(CellSet::row(9).shift(Direction::South).is_empty());
        assert!(CellSet::row(0).shift_back(Direction::South).is_empty());
        let d4: Cell = "d4".parse().unwrap();
        let moved = CellSet::from_cell(d4).shift(Direction::SouthWest);
        assert_eq!(moved.first(), Some("c5".parse().unwrap()));
        assert_eq!(moved.shift_back(Direction::SouthWest).first(), Some(d4));
    }

    #[test]
    fn a_set_never_holds_a_cell_outside_the_frame() {
        assert_eq!(CellSet::from_bits(1 << 100), None);
        assert_eq!(CellSet::from_bits(u128::MAX), None);
        assert_eq!(CellSet::from_bits(1 << 99).map(CellSet::len), Some(1));
        assert_eq!(CellSet::from_bits_truncate(u128::MAX), CellSet::ALL);
        assert_eq!(CellSet::ALL.bits(), (1 << 100) - 1);
        assert_eq!((!CellSet::EMPTY).iter().last().map(Cell::index), Some(99));
    }

    #[test]
    fn flood_fill_follows_edges_not_corners() {
        let cells: CellSet = ["a1", "b1", "c2", "a2"].iter().map(|c| c.parse::<Cell>().unwrap()).collect();
        let start = CellSet::from_cell("a1".parse().unwrap());
        assert_eq!(start.flood_fill(cells).len(), 3);
    }
}
