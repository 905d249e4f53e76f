//! Who plays: the engine's levels by name and number, and the seats a game gives players.

use std::fmt;
use std::str::FromStr;

/// How an engine chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Level {
    /// Level 1, a beginner: looks three plies ahead at the score as it stands only (the tiles,
    /// and a variant's bonuses as they are so far), and picks at random among the moves it sees
    /// as best.
    Beginner,
    /// Level 2, a casual player: 2 plies with the full evaluation, always the best move it finds.
    Casual,
    /// Level 3, a club player: 3 plies with the full evaluation, exact in the last 18 plies (16
    /// under `both`, 14 under `lines`), and always the best move it finds.
    Club,
    /// Level 4, an expert: the tree search of level 5 for 30 ms per move (25 ms under `area` and
    /// `both`, 15 ms under `lines`) on one thread, and the exact solver in the last 18 plies (16
    /// under a variant scoring).
    Expert,
    /// Level 5, the full engine: Monte-Carlo tree search ([`TREE_SEARCH`](crate::TREE_SEARCH):
    /// RAVE and implicit minimax backups of the evaluation, RAVE alone under `area` and `both`,
    /// see [`tree_search_options`](crate::tree_search_options)) for the given time per move, one
    /// tree per thread, and the exact solver once the end is within its reach (24 plies from 1 s
    /// per move, 22 from 0.5 s; two fewer under a variant).
    Master,
    /// The reproduction of the public engine: fixed-depth schedule, the score as it stands
    /// only (the tile score under the standard scoring).
    Baseline,
    /// Plain Monte-Carlo tree search (UCT, random playouts) for the given time per move on one
    /// thread: the method of the other public program, kept to measure the levels against.
    Mcts,
}

impl Level {
    /// Levels 1 to 5, weakest first.
    pub const LADDER: [Level; 5] = [Level::Beginner, Level::Casual, Level::Club, Level::Expert, Level::Master];

    /// The level's number (1 to 5), or `None` for the baseline.
    #[must_use]
    pub fn number(self) -> Option<usize> {
        Level::LADDER.iter().position(|&level| level == self).map(|index| index + 1)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number() {
            Some(number) => write!(f, "level {number}"),
            None if *self == Level::Mcts => f.write_str("mcts"),
            None => f.write_str("baseline"),
        }
    }
}

/// A level name that is not 1 to 5 or `baseline`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a level: expected 1 to 5, baseline or mcts")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let name = text.strip_prefix("level").unwrap_or(text).trim_start_matches([' ', '-', ':']);
        match name {
            "baseline" => Ok(Level::Baseline),
            "mcts" => Ok(Level::Mcts),
            _ => name
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| Level::LADDER.get(i).copied())
                .ok_or_else(|| ParseLevelError(text.to_owned())),
        }
    }
}

/// Who plays a side of a game: a person, or the engine at a level (for programs that seat
/// players, as the terminal and desktop games do).
///
/// ```
/// use kulami_ai::{Level, Seat};
/// assert_eq!("human".parse(), Ok(Seat::Human));
/// assert_eq!("4".parse(), Ok(Seat::Engine(Level::Expert)));
/// assert!("robot".parse::<Seat>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person.
    Human,
    /// The engine at a level.
    Engine(Level),
}

/// A seat name that is neither `human` nor a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not human or a level 1-5")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;
    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        match text {
            "human" => Ok(Seat::Human),
            level => level.parse().map(Seat::Engine).map_err(|_| ParseSeatError(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_parse() {
        assert_eq!("1".parse(), Ok(Level::Beginner));
        assert_eq!("level5".parse(), Ok(Level::Master));
        assert_eq!("level-3".parse(), Ok(Level::Club));
        assert_eq!("baseline".parse(), Ok(Level::Baseline));
        assert!("6".parse::<Level>().is_err());
        assert!("0".parse::<Level>().is_err());
        assert_eq!(Level::Expert.to_string(), "level 4");
    }
}
