//! Games with undo and redo, and game records: a readable text form and a compact binary one.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use crate::cell::Cell;
use crate::layout::{Layout, MarblesError, ParseLayoutError};
use crate::notation::{ParseMovesError, format_moves, parse_moves};
use crate::position::{MoveError, Position, ReplayError};
use crate::score::{ParseScoringError, ScoreBreakdown, Scoring};

/// A game: a position, the scoring in force and the moves that can be redone.
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Game, Layout, Scoring};
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut game = Game::new(layout, Scoring::Standard);
/// game.play("a1".parse().unwrap()).unwrap();
/// game.play("a3".parse().unwrap()).unwrap();
/// assert_eq!(game.undo(), Some("a3".parse().unwrap()));
/// assert_eq!(game.redo(), Some("a3".parse().unwrap()));
/// let record = game.record();
/// assert_eq!(record.to_text(), "# Kulami game record\nlayout: AABB/CCDD/EEFF\nmarbles: 6\nscoring: standard\nmoves: a1 a3\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    position: Position,
    scoring: Scoring,
    /// Moves taken back, the next to redo last.
    redo: Vec<Cell>,
}

/// A game record that does not describe a legal game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameFromRecordError {
    /// The board is not valid.
    #[error(transparent)]
    Layout(#[from] ParseLayoutError),
    /// The marble count does not suit a board.
    #[error(transparent)]
    Marbles(#[from] MarblesError),
    /// A move is illegal.
    #[error(transparent)]
    Move(#[from] ReplayError),
}

impl Game {
    /// A new game on `layout`.
    #[must_use]
    pub fn new(layout: Arc<Layout>, scoring: Scoring) -> Game {
        Game { position: Position::new(layout), scoring, redo: Vec::new() }
    }

    /// The game a record describes, with every move checked.
    ///
    /// # Errors
    /// An invalid board or marble count, or the first illegal move.
    pub fn from_record(record: &GameRecord) -> Result<Game, GameFromRecordError> {
        let mut layout = Layout::parse(&record.layout)?;
        if let Some(marbles) = record.marbles_per_player {
            layout = layout.with_marbles_per_player(marbles)?;
        }
        Ok(Game {
            position: Position::from_moves(Arc::new(layout), &record.moves)?,
            scoring: record.scoring,
            redo: Vec::new(),
        })
    }

    /// The record of the moves played so far.
    #[must_use]
    pub fn record(&self) -> GameRecord {
        let layout = self.position.layout();
        GameRecord {
            layout: layout.to_one_line(),
            marbles_per_player: Some(layout.marbles_per_player()),
            scoring: self.scoring,
            moves: self.position.moves().to_vec(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The scoring in force.
    #[must_use]
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The score of the current position under the game's scoring.
    #[must_use]
    pub fn score(&self) -> ScoreBreakdown {
        self.position.score(self.scoring)
    }

    /// Plays `cell` for the side to move; a new move drops the moves that could be redone.
    ///
    /// # Errors
    /// The rule the move breaks; the game is then unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        self.position.play(cell)?;
        self.redo.clear();
        Ok(())
    }

    /// Takes back the last move, keeping it for [`Game::redo`].
    pub fn undo(&mut self) -> Option<Cell> {
        let cell = self.position.undo()?;
        self.redo.push(cell);
        Some(cell)
    }

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> Option<Cell> {
        let cell = self.redo.pop()?;
        self.position.play_unchecked(cell);
        Some(cell)
    }

    /// The moves [`Game::redo`] would play, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Cell> + '_ {
        self.redo.iter().rev().copied()
    }
}

/// A game as data: board, marbles, scoring and moves, not yet checked against the rules.
///
/// [`Game::from_record`] checks it. The text form is documented at [`GameRecord::to_text`]; with
/// the `serde` feature it also (de)serializes with serde, and [`GameRecord::to_bytes`] gives a
/// compact binary form for saves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The board, as layout text on one line.
    pub layout: String,
    /// Marbles per player; `None` for the board's default.
    pub marbles_per_player: Option<usize>,
    /// The scoring in force.
    pub scoring: Scoring,
    /// The moves, in order.
    pub moves: Vec<Cell>,
}

/// What is wrong with one line of a game record's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordLineProblem {
    /// Not `key: value`.
    #[error("expected `key: value`")]
    NotKeyValue,
    /// A key other than layout, marbles, scoring and moves.
    #[error("unknown key `{0}` (expected layout, marbles, scoring or moves)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("`{0}` is given twice")]
    Repeated(String),
    /// A marble count that is not a number.
    #[error("`{0}` is not a number of marbles")]
    Marbles(String),
    /// A bad scoring name.
    #[error(transparent)]
    Scoring(#[from] ParseScoringError),
    /// A bad move list.
    #[error(transparent)]
    Moves(#[from] ParseMovesError),
}

/// A game record's text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRecordError {
    /// A line is wrong.
    #[error("game record line {line}: {problem}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: RecordLineProblem,
    },
    /// No `layout:` line.
    #[error("game record has no `layout:` line")]
    MissingLayout,
}

impl GameRecord {
    /// The record as text: `#` comment lines and `key: value` lines, in this order:
    ///
    /// ```text
    /// # Kulami game record
    /// layout: AABB/CCDD/EEFF
    /// marbles: 6
    /// scoring: standard
    /// moves: a1 a3
    /// ```
    ///
    /// `layout` is required; `marbles` defaults to the board's default, `scoring` to standard,
    /// `moves` to none. Keys may come in any order.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::from("# Kulami game record\n");
        let _ = writeln!(text, "layout: {}", self.layout);
        if let Some(marbles) = self.marbles_per_player {
            let _ = writeln!(text, "marbles: {marbles}");
        }
        let _ = writeln!(text, "scoring: {}", self.scoring);
        let _ = writeln!(text, "moves: {}", format_moves(&self.moves));
        text
    }

    /// Reads the text form of [`GameRecord::to_text`].
    ///
    /// # Errors
    /// The first bad line, with its number, or a missing layout.
    pub fn from_text(text: &str) -> Result<GameRecord, ParseRecordError> {
        let mut layout = None;
        let mut marbles = None;
        let mut scoring = None;
        let mut moves = None;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fail = |problem| ParseRecordError::Line { line: index + 1, problem };
            let (key, value) = line.split_once(':').ok_or_else(|| fail(RecordLineProblem::NotKeyValue))?;
            let (key, value) = (key.trim(), value.trim());
            let repeated = |present: bool| {
                if present { Err(fail(RecordLineProblem::Repeated(key.to_owned()))) } else { Ok(()) }
            };
            match key {
                "layout" => {
                    repeated(layout.is_some())?;
                    layout = Some(value.to_owned());
                }
                "marbles" => {
                    repeated(marbles.is_some())?;
                    let count = value.parse().map_err(|_| fail(RecordLineProblem::Marbles(value.to_owned())))?;
                    marbles = Some(count);
                }
                "scoring" => {
                    repeated(scoring.is_some())?;
                    scoring = Some(value.parse().map_err(|e| fail(RecordLineProblem::Scoring(e)))?);
                }
                "moves" => {
                    repeated(moves.is_some())?;
                    moves = Some(parse_moves(value).map_err(|e| fail(RecordLineProblem::Moves(e)))?);
                }
                other => return Err(fail(RecordLineProblem::UnknownKey(other.to_owned()))),
            }
        }
        Ok(GameRecord {
            layout: layout.ok_or(ParseRecordError::MissingLayout)?,
            marbles_per_player: marbles,
            scoring: scoring.unwrap_or_default(),
            moves: moves.unwrap_or_default(),
        })
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(feature = "serde")]
pub use binary::DecodeRecordError;

#[cfg(feature = "serde")]
mod binary {
    use super::GameRecord;

    /// Marks a binary game record, with a format version after it.
    const MAGIC: &[u8; 4] = b"KLMI";
    const VERSION: u8 = 1;
    /// A record is a board and at most a hundred moves; nothing near this size is legitimate,
    /// and the limit stops a corrupt length prefix from asking for a huge allocation.
    const MAX_BYTES: usize = 4096;

    fn config() -> impl bincode::config::Config {
        bincode::config::standard().with_limit::<MAX_BYTES>()
    }

    /// Bytes that are not a binary game record.
    #[derive(Debug, thiserror::Error)]
    pub enum DecodeRecordError {
        /// The bytes do not start with the record marker.
        #[error("not a Kulami game record (it does not start with KLMI)")]
        NotARecord,
        /// A format version this library does not know.
        #[error("game record format version {0} is not supported (this program reads version 1)")]
        Version(u8),
        /// The record is damaged or truncated (bincode's description of the damage).
        #[error("damaged game record: {0}")]
        Damaged(String),
        /// Bytes left over after the record.
        #[error("damaged game record: {0} unexpected bytes after the end")]
        TrailingBytes(usize),
    }

    impl GameRecord {
        /// The compact binary form: `KLMI`, a version byte, then the record in bincode.
        #[must_use]
        pub fn to_bytes(&self) -> Vec<u8> {
            let mut bytes = MAGIC.to_vec();
            bytes.push(VERSION);
            bytes.extend(bincode::serde::encode_to_vec(self, config()).expect("a game record always encodes"));
            bytes
        }

        /// Reads the form of [`GameRecord::to_bytes`]. The moves are not checked here: use
        /// [`super::Game::from_record`].
        ///
        /// # Errors
        /// A wrong marker or version, damaged or truncated data, or bytes left over.
        pub fn from_bytes(bytes: &[u8]) -> Result<GameRecord, DecodeRecordError> {
            let rest = bytes.strip_prefix(MAGIC).ok_or(DecodeRecordError::NotARecord)?;
            let (&version, payload) = rest.split_first().ok_or(DecodeRecordError::NotARecord)?;
            if version != VERSION {
                return Err(DecodeRecordError::Version(version));
            }
            let (record, used) = bincode::serde::decode_from_slice(payload, config())
                .map_err(|error| DecodeRecordError::Damaged(error.to_string()))?;
            match payload.len() - used {
                0 => Ok(record),
                extra => Err(DecodeRecordError::TrailingBytes(extra)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            layout: "AABB/CCDD/EEFF".into(),
            marbles_per_player: Some(4),
            scoring: Scoring::Both,
            moves: parse_moves("a1 a3 c3").unwrap(),
        }
    }

    #[test]
    fn text_round_trips() {
        let record = record();
        assert_eq!(GameRecord::from_text(&record.to_text()), Ok(record));
    }

    #[test]
    fn text_defaults_and_errors() {
        let minimal = GameRecord::from_text("layout: AA").unwrap();
        assert_eq!((minimal.marbles_per_player, minimal.scoring, minimal.moves.len()), (None, Scoring::Standard, 0));
        let error = |text: &str| GameRecord::from_text(text).unwrap_err().to_string();
        assert_eq!(error("moves: a1"), "game record has no `layout:` line");
        assert_eq!(error("layout: AA\nlayout: BB"), "game record line 2: `layout` is given twice");
        assert_eq!(
            error("# c\nlayout: AA\ncolour: red"),
            "game record line 3: unknown key `colour` (expected layout, marbles, scoring or moves)"
        );
        assert_eq!(error("layout AA"), "game record line 1: expected `key: value`");
        assert_eq!(error("layout: AA\nmarbles: many"), "game record line 2: `many` is not a number of marbles");
        assert!(error("layout: AA\nmoves: a1 z1").starts_with("game record line 2: move 2:"));
    }

    #[test]
    fn records_with_illegal_moves_are_refused() {
        let mut bad = record();
        bad.moves.push("a2".parse().unwrap());
        assert_eq!(
            Game::from_record(&bad).unwrap_err().to_string(),
            "move 4 (a2): a2 is not in the row or column of the opponent's last marble (c3)"
        );
        bad.layout = "AAB".into();
        assert!(matches!(Game::from_record(&bad), Err(GameFromRecordError::Layout(_))));
    }

    #[test]
    fn redo_is_dropped_by_a_new_move() {
        let mut game = Game::from_record(&record()).unwrap();
        assert_eq!(game.undo(), Some("c3".parse().unwrap()));
        assert_eq!(game.redo_moves().count(), 1);
        game.play("a2".parse().unwrap()).unwrap();
        assert_eq!(game.redo(), None);
        assert_eq!(game.position().moves().len(), 3);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn bytes_round_trip_and_damage_is_reported() {
        let record = record();
        let bytes = record.to_bytes();
        assert_eq!(GameRecord::from_bytes(&bytes).unwrap(), record);
        for cut in 0..bytes.len() {
            assert!(GameRecord::from_bytes(&bytes[..cut]).is_err(), "truncated at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(GameRecord::from_bytes(&longer), Err(DecodeRecordError::TrailingBytes(1))));
        let mut future = bytes;
        future[4] = 9;
        assert!(matches!(GameRecord::from_bytes(&future), Err(DecodeRecordError::Version(9))));
        // A length prefix claiming a huge string must fail cleanly, not allocate.
        let huge = [b'K', b'L', b'M', b'I', 1, 252, 0xff, 0xff, 0xff, 0x7f];
        assert!(matches!(GameRecord::from_bytes(&huge), Err(DecodeRecordError::Damaged(_))));
    }
}
