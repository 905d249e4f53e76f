//! Move lists: cell names separated by spaces or commas.

use crate::cell::{Cell, ParseCellError};

/// A move list with a token that is not a cell name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: {error}")]
pub struct ParseMovesError {
    /// The number of the bad move in the list, from 1.
    pub number: usize,
    /// What is wrong with it.
    pub error: ParseCellError,
}

/// Parses a move list such as `"d4 d7, g7 g2"`. Empty text is the empty list.
///
/// ```
/// use kulami_core::notation::{format_moves, parse_moves};
/// let moves = parse_moves("d4 d7,g7  g2").unwrap();
/// assert_eq!(format_moves(&moves), "d4 d7 g7 g2");
/// assert_eq!(parse_moves("d4 x9").unwrap_err().to_string(),
///            "move 2: `x9` is not a cell: expected a column a-j and a row 1-10, like `d4`");
/// ```
///
/// # Errors
/// The first token that is not a cell name, with its number.
pub fn parse_moves(text: &str) -> Result<Vec<Cell>, ParseMovesError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .enumerate()
        .map(|(index, token)| token.parse().map_err(|error| ParseMovesError { number: index + 1, error }))
        .collect()
}

/// Writes a move list as cell names separated by single spaces.
#[must_use]
pub fn format_moves(moves: &[Cell]) -> String {
    moves.iter().map(Cell::to_string).collect::<Vec<_>>().join(" ")
}
