//! Games with undo and redo, and game records: a readable text form and a compact binary one.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use crate::cell::Cell;
use crate::layout::{Layout, MarblesError, ParseLayoutError};
use crate::moves::Move;
use crate::notation::{ParseMovesError, format_moves, parse_moves};
use crate::position::{MoveError, Position, ReplayError};
use crate::score::{ParseScoringError, ScoreBreakdown, Scoring};

/// A game: a position (with its swap rule), the scoring in force and the moves that can be
/// redone.
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Game, Layout, Move, Scoring};
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut game = Game::new(layout, Scoring::Standard).with_swap_rule(true);
/// game.play("a1".parse().unwrap()).unwrap();
/// game.play_move(Move::Swap).unwrap();
/// game.play("a3".parse().unwrap()).unwrap();
/// assert_eq!(game.undo(), Some("a3".parse().unwrap()));
/// assert_eq!(game.redo(), Some("a3".parse().unwrap()));
/// let record = game.record();
/// assert_eq!(record.to_text(), "# Kulami game record\nlayout: AABB/CCDD/EEFF\nmarbles: 6\nscoring: standard\nswap: on\nmoves: a1 swap a3\n");
/// assert_eq!(Game::from_record(&record).unwrap(), game.without_redo());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    position: Position,
    scoring: Scoring,
    /// Moves taken back, the next to redo last.
    redo: Vec<Move>,
}

/// A game record that does not describe a legal game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
    /// A new game on `layout`, without the swap rule.
    #[must_use]
    pub fn new(layout: Arc<Layout>, scoring: Scoring) -> Game {
        Game { position: Position::new(layout), scoring, redo: Vec::new() }
    }

    /// The same new game, played with the swap rule `on` or off.
    ///
    /// # Panics
    /// If a move has been played.
    #[must_use]
    pub fn with_swap_rule(mut self, on: bool) -> Game {
        self.position = self.position.with_swap_rule(on);
        self
    }

    /// The same game without the moves that could be redone.
    #[must_use]
    pub fn without_redo(mut self) -> Game {
        self.redo.clear();
        self
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
            position: Position::new(Arc::new(layout)).with_swap_rule(record.swap).replay(&record.moves)?,
            scoring: record.scoring,
            redo: Vec::new(),
        })
    }

    /// The record of the moves played so far.
    #[must_use]
    pub fn record(&self) -> GameRecord {
        GameRecord::of(&self.position, self.scoring)
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
        self.play_move(Move::Place(cell))
    }

    /// Plays `played` (a placement or the swap) for the side to move; a new move drops the
    /// moves that could be redone.
    ///
    /// # Errors
    /// The rule the move breaks; the game is then unchanged.
    pub fn play_move(&mut self, played: Move) -> Result<(), MoveError> {
        self.position.play_move(played)?;
        self.redo.clear();
        Ok(())
    }

    /// Takes back the last move, keeping it for [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        let undone = self.position.undo()?;
        self.redo.push(undone);
        Some(undone)
    }

    /// Plays again the last move taken back.
    ///
    /// # Panics
    /// Never: a move taken back is legal again in the position it was taken back from.
    pub fn redo(&mut self) -> Option<Move> {
        let next = self.redo.pop()?;
        self.position.play_move(next).expect("a move taken back is legal again");
        Some(next)
    }

    /// The moves [`Game::redo`] would play, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }
}

/// A game as data: board, marbles, scoring, swap rule and moves, not yet checked against the
/// rules.
///
/// [`Game::from_record`] checks it. The text form is documented at [`GameRecord::to_text`]; with
/// the `serde` feature it also (de)serializes with serde, and with the `bincode` feature
/// `GameRecord::to_bytes` gives a compact binary form for saves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The board, as layout text on one line.
    pub layout: String,
    /// Marbles per player; `None` for the board's default.
    pub marbles_per_player: Option<usize>,
    /// The scoring in force.
    pub scoring: Scoring,
    /// The moves, in order, the swap included.
    pub moves: Vec<Move>,
    /// Whether the game is played with the swap rule (records from before the rule have none:
    /// off). Last, so that the binary form of version 1 is a prefix of version 2's.
    #[cfg_attr(feature = "serde", serde(default))]
    pub swap: bool,
}

/// What is wrong with one line of a game record's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordLineProblem {
    /// Not `key: value`.
    #[error("expected `key: value`")]
    NotKeyValue,
    /// A key other than layout, marbles, scoring, swap and moves.
    #[error("unknown key `{0}` (expected layout, marbles, scoring, swap or moves)")]
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
    /// A swap rule other than `on` or `off`.
    #[error("`{0}` is not a swap rule: expected on or off")]
    Swap(String),
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
    /// The record of `position` played under `scoring` (its board, marbles, swap rule and moves).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use kulami_core::{Game, GameRecord, Layout, Position, Scoring};
    /// let position = Position::new(Arc::new(Layout::parse("AABB/CCDD").unwrap())).replay(&["a1".parse().unwrap()]).unwrap();
    /// let record = GameRecord::of(&position, Scoring::Standard);
    /// assert_eq!(Game::from_record(&record).unwrap().position(), &position);
    /// ```
    #[must_use]
    pub fn of(position: &Position, scoring: Scoring) -> GameRecord {
        let layout = position.layout();
        GameRecord {
            layout: layout.to_one_line(),
            marbles_per_player: Some(layout.marbles_per_player()),
            scoring,
            swap: position.swap_rule(),
            moves: position.moves().collect(),
        }
    }

    /// The record as text: `#` comment lines and `key: value` lines, in this order:
    ///
    /// ```text
    /// # Kulami game record
    /// layout: AABB/CCDD/EEFF
    /// marbles: 6
    /// scoring: standard
    /// swap: on
    /// moves: a1 swap a3
    /// ```
    ///
    /// `layout` is required; `marbles` defaults to the board's default, `scoring` to standard,
    /// `swap` (`on` or `off`) to off and is written only when on, `moves` to none. Keys may come
    /// in any order.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::from("# Kulami game record\n");
        let _ = writeln!(text, "layout: {}", self.layout);
        if let Some(marbles) = self.marbles_per_player {
            let _ = writeln!(text, "marbles: {marbles}");
        }
        let _ = writeln!(text, "scoring: {}", self.scoring);
        if self.swap {
            text.push_str("swap: on\n");
        }
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
        let mut swap = None;
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
                "swap" => {
                    repeated(swap.is_some())?;
                    swap = Some(match value {
                        "on" => true,
                        "off" => false,
                        other => return Err(fail(RecordLineProblem::Swap(other.to_owned()))),
                    });
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
            swap: swap.unwrap_or(false),
        })
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(feature = "bincode")]
pub use binary::DecodeRecordError;

#[cfg(feature = "bincode")]
mod binary {
    use super::GameRecord;
    use crate::moves::Move;
    use crate::score::Scoring;

    /// Marks a binary game record, with a format version after it.
    const MAGIC: &[u8; 4] = b"KLMI";
    /// Version 2 added the swap rule (version 1 is read as a game without it).
    const VERSION: u8 = 2;

    /// A record of version 1: no swap rule, and no swap among the moves.
    #[derive(serde::Deserialize)]
    struct RecordV1 {
        layout: String,
        marbles_per_player: Option<usize>,
        scoring: Scoring,
        moves: Vec<Move>,
    }
    /// A record is a board and at most a hundred moves; nothing near this size is legitimate,
    /// and the limit stops a corrupt length prefix from asking for a huge allocation.
    const MAX_BYTES: usize = 4096;

    fn config() -> impl bincode::config::Config {
        bincode::config::standard().with_limit::<MAX_BYTES>()
    }

    /// Bytes that are not a binary game record.
    #[derive(Debug, thiserror::Error)]
    #[non_exhaustive]
    pub enum DecodeRecordError {
        /// The bytes do not start with the record marker.
        #[error("not a Kulami game record (it does not start with KLMI)")]
        NotARecord,
        /// A format version this library does not know.
        #[error("game record format version {0} is not supported (this program reads versions 1 and 2)")]
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
        ///
        /// # Panics
        /// Never: every record encodes (bincode fails only on types a record does not have).
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
            let (record, used) = match version {
                1 => decode::<RecordV1>(payload).map(|(old, used)| {
                    let RecordV1 { layout, marbles_per_player, scoring, moves } = old;
                    (GameRecord { layout, marbles_per_player, scoring, moves, swap: false }, used)
                })?,
                VERSION => decode::<GameRecord>(payload)?,
                other => return Err(DecodeRecordError::Version(other)),
            };
            match payload.len() - used {
                0 => Ok(record),
                extra => Err(DecodeRecordError::TrailingBytes(extra)),
            }
        }
    }

    fn decode<T: serde::de::DeserializeOwned>(payload: &[u8]) -> Result<(T, usize), DecodeRecordError> {
        bincode::serde::decode_from_slice(payload, config())
            .map_err(|error| DecodeRecordError::Damaged(error.to_string()))
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
            swap: false,
        }
    }

    fn swapped_record() -> GameRecord {
        GameRecord { moves: parse_moves("a1 swap a3 c3").unwrap(), swap: true, ..record() }
    }

    #[test]
    fn text_round_trips() {
        for record in [record(), swapped_record()] {
            assert_eq!(GameRecord::from_text(&record.to_text()), Ok(record));
        }
    }

    #[test]
    fn a_game_with_a_swap_reopens_as_it_was_played() {
        let game = Game::from_record(&swapped_record()).unwrap();
        assert!(game.position().swapped() && game.position().swap_rule());
        assert_eq!(game.record(), GameRecord { marbles_per_player: Some(4), ..swapped_record() });
        let text = GameRecord::from_text(&game.record().to_text()).unwrap();
        assert_eq!(Game::from_record(&text).unwrap(), game);
        let without_rule = GameRecord { swap: false, ..swapped_record() };
        assert_eq!(
            Game::from_record(&without_rule).unwrap_err().to_string(),
            "move 2 (swap): the swap rule is off in this game"
        );
    }

    #[test]
    fn undo_and_redo_pass_through_the_swap() {
        let mut game = Game::from_record(&swapped_record()).unwrap();
        let moves: Vec<Move> = std::iter::from_fn(|| game.undo()).collect();
        assert_eq!(moves, parse_moves("c3 a3 swap a1").unwrap());
        assert!(!game.position().swapped());
        while game.redo().is_some() {}
        assert_eq!(game, Game::from_record(&swapped_record()).unwrap());
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
            "game record line 3: unknown key `colour` (expected layout, marbles, scoring, swap or moves)"
        );
        assert_eq!(error("layout: AA\nswap: yes"), "game record line 2: `yes` is not a swap rule: expected on or off");
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
        assert_eq!(game.position().move_count(), 3);
    }

    #[cfg(feature = "bincode")]
    #[test]
    fn version_1_bytes_still_read_as_a_game_without_the_swap_rule() {
        // `KLMI`, version 1, then layout, marbles (Some(4)), scoring (both = 3) and moves a1 a3 c3.
        let mut bytes = b"KLMI\x01".to_vec();
        bytes.push(14);
        bytes.extend(b"AABB/CCDD/EEFF");
        bytes.extend([1, 4, 3, 3, 0, 20, 22]);
        assert_eq!(GameRecord::from_bytes(&bytes).unwrap(), record());
    }

    #[cfg(feature = "bincode")]
    #[test]
    fn bytes_round_trip_and_damage_is_reported() {
        assert_eq!(GameRecord::from_bytes(&swapped_record().to_bytes()).unwrap(), swapped_record());
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
        let huge = [b'K', b'L', b'M', b'I', 2, 252, 0xff, 0xff, 0xff, 0x7f];
        assert!(matches!(GameRecord::from_bytes(&huge), Err(DecodeRecordError::Damaged(_))));
    }
}
