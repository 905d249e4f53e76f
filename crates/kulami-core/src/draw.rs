//! A plain-text drawing of a position: tile borders, marbles, the last move.

use std::fmt::{self, Write as _};

use crate::cell::{Cell, CellSet};
use crate::layout::Layout;
use crate::position::{Color, Position};

/// Draws the board with tile borders; `X` is a red marble, `O` a black one, `.` an empty hole,
/// and the last marble placed stands in brackets. Column letters on top, row numbers on the left.
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Layout, Position};
/// let layout = Arc::new(Layout::parse("AAB/CCB").unwrap());
/// let position = Position::from_moves(layout, &["a1".parse().unwrap()]).unwrap();
/// let expected = [
///     "     a   b   c",
///     "   +-------+---+",
///     " 1 |[X]  . | . |",
///     "   +-------+   |",
///     " 2 | .   . | . |",
///     "   +-------+---+",
/// ];
/// assert_eq!(position.to_string(), expected.join("\n") + "\n");
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let drawing =
            self.layout().draw_marbles(self.marbles(Color::Red), self.marbles(Color::Black), self.last_move());
        f.write_str(&drawing)
    }
}

impl Layout {
    /// Draws the board with `red` and `black` marbles, as [`Position`]'s `Display` does, for
    /// marbles that need not come from a game (diagrams, puzzles, tests).
    #[must_use]
    pub fn draw_marbles(&self, red: CellSet, black: CellSet, last: Option<Cell>) -> String {
        draw(self, |cell| {
            let marble = if red.contains(cell) {
                'X'
            } else if black.contains(cell) {
                'O'
            } else {
                '.'
            };
            if last == Some(cell) { format!("[{marble}]") } else { format!(" {marble} ") }
        })
    }
}

/// The tile index at `row`, `column`, or `None` off the board or outside the frame.
fn tile(layout: &Layout, row: isize, column: isize) -> Option<usize> {
    let cell = Cell::new(usize::try_from(row).ok()?, usize::try_from(column).ok()?)?;
    layout.tile_index(cell)
}

/// Draws `layout` with borders between different tiles, each hole's three characters from `hole`.
fn draw(layout: &Layout, hole: impl Fn(Cell) -> String) -> String {
    let (rows, columns) = layout.extent();
    let (rows, columns) = (rows as isize, columns as isize);
    // A border runs between two cells unless both are on the same tile or both are off the board.
    let vertical = |row: isize, column: isize| tile(layout, row, column - 1) != tile(layout, row, column);
    let horizontal = |row: isize, column: isize| tile(layout, row - 1, column) != tile(layout, row, column);
    let mut out = String::from("   ");
    for column in 0..columns {
        let _ = write!(out, "  {} ", char::from(b'a' + column as u8));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for row in 0..=rows {
        out.push_str("   ");
        for column in 0..=columns {
            let (left, right) = (horizontal(row, column - 1), horizontal(row, column));
            let (up, down) = (vertical(row - 1, column), vertical(row, column));
            out.push(match (left || right, up || down) {
                (false, false) => ' ',
                (true, false) if left && right => '-',
                (false, true) if up && down => '|',
                _ => '+',
            });
            if column < columns {
                out.push_str(if horizontal(row, column) { "---" } else { "   " });
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        if row == rows {
            break;
        }
        let _ = write!(out, "{:>2} ", row + 1);
        for column in 0..=columns {
            out.push(if vertical(row, column) { '|' } else { ' ' });
            if column < columns {
                let cell = Cell::new(row as usize, column as usize).expect("inside the frame");
                let text = if layout.holes().contains(cell) { hole(cell) } else { "   ".into() };
                out.push_str(&text);
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}
