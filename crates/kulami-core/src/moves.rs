//! Moves: a marble placed in a hole, or the swap of the pie rule.

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, ParseCellError};

/// One move of a game.
///
/// ```
/// use kulami_core::Move;
/// let placed: Move = "d4".parse().unwrap();
/// assert_eq!(placed.cell(), Some("d4".parse().unwrap()));
/// assert_eq!("swap".parse::<Move>(), Ok(Move::Swap));
/// assert_eq!(Move::Swap.to_string(), "swap");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A marble of the side to move into this hole.
    Place(Cell),
    /// The swap (pie) rule: the second player takes the first marble as their own. Legal only
    /// as the second move of a game played with the rule (see `docs/RULES.md`).
    Swap,
}

impl Move {
    /// The hole of a placement; `None` for the swap.
    #[must_use]
    pub const fn cell(self) -> Option<Cell> {
        match self {
            Move::Place(cell) => Some(cell),
            Move::Swap => None,
        }
    }
}

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move::Place(cell)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => fmt::Display::fmt(cell, f),
            Move::Swap => f.pad("swap"),
        }
    }
}

/// A move name that is neither a cell name nor `swap`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a move: expected a cell such as `d4`, or `swap`")]
pub struct ParseMoveError {
    /// The text that failed to parse.
    pub text: String,
}

impl From<ParseCellError> for ParseMoveError {
    fn from(error: ParseCellError) -> ParseMoveError {
        ParseMoveError { text: error.text }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        Ok(Move::Place(text.parse()?))
    }
}

#[cfg(feature = "serde")]
mod move_serde {
    use super::Move;
    use crate::cell::{Cell, FRAME_CELLS};
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    /// The byte of the swap in binary formats: the first index past the frame's cells.
    const SWAP_BYTE: u8 = FRAME_CELLS as u8;

    /// Readable formats get the move's name (`d4`, `swap`), binary ones a byte: the cell's index,
    /// or 100 for the swap. A placement is written exactly as its [`Cell`] is.
    impl Serialize for Move {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match (self, serializer.is_human_readable()) {
                (_, true) => serializer.collect_str(self),
                (Move::Place(cell), false) => cell.serialize(serializer),
                (Move::Swap, false) => serializer.serialize_u8(SWAP_BYTE),
            }
        }
    }

    impl<'de> Deserialize<'de> for Move {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
            if deserializer.is_human_readable() {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(D::Error::custom)
            } else {
                match u8::deserialize(deserializer)? {
                    SWAP_BYTE => Ok(Move::Swap),
                    index => Cell::from_index(usize::from(index)).map(Move::Place).ok_or_else(|| {
                        D::Error::custom(format!("move byte {index} is neither a cell (0..100) nor the swap (100)"))
                    }),
                }
            }
        }
    }
}
