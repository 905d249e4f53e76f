//! Move lists: cell names (and `swap`) separated by spaces or commas.

use crate::moves::{Move, ParseMoveError};

/// A move list with a token that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: {error}")]
pub struct ParseMovesError {
    /// The number of the bad move in the list, from 1.
    pub number: usize,
    /// What is wrong with it.
    pub error: ParseMoveError,
}

/// Parses a move list such as `"d4 swap, g4 g2"`. Empty text is the empty list. Whether each
/// move is legal is for [`crate::Position`] to say.
///
/// ```
/// use kulami_core::Move;
/// use kulami_core::notation::{format_moves, parse_moves};
/// let moves = parse_moves("d4 swap,g4  g2").unwrap();
/// assert_eq!(moves[1], Move::Swap);
/// assert_eq!(format_moves(&moves), "d4 swap g4 g2");
/// assert_eq!(parse_moves("d4 x9").unwrap_err().to_string(),
///            "move 2: `x9` is not a move: expected a cell such as `d4`, or `swap`");
/// ```
///
/// # Errors
/// The first token that is not a move, with its number.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseMovesError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .enumerate()
        .map(|(index, token)| token.parse().map_err(|error| ParseMovesError { number: index + 1, error }))
        .collect()
}

/// Writes a move list (of [`Move`]s, or of cells) as names separated by single spaces.
#[must_use]
pub fn format_moves(moves: &[impl std::fmt::Display]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}
