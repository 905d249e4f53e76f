#![doc = include_str!("../README.md")]

use std::fmt;
use std::str::FromStr;

mod circuit;
pub mod endgame;
pub mod search;

use circuit::{Circuit, Sowing};

/// The most pits a side can have.
pub const MAX_PITS: u8 = 6;
/// The most seeds a pit can start with.
pub const MAX_SEEDS: u8 = 6;

/// What a last seed in an empty pit of the mover's own captures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Capture {
    /// The seeds of the opposite pit and the last seed, if the opposite pit holds any.
    #[default]
    Standard,
    /// The same, and the last seed alone when the opposite pit is empty (the site's "empty
    /// capture", and the rule of Irving, Donkers and Uiterwijk's solutions).
    Empty,
}

/// When the game ends. Either way each side's remaining seeds then go to that side's store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum End {
    /// As soon as a sowing leaves either side without seeds (the rule of "Solving Kalah").
    Irving,
    /// When the player to move has no seeds (as the online site plays it).
    #[default]
    Site,
}

/// A name that is not one of a rule's options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a {rule} rule: expected {expected}")]
pub struct ParseRuleError {
    given: String,
    rule: &'static str,
    expected: &'static str,
}

impl FromStr for Capture {
    type Err = ParseRuleError;

    fn from_str(text: &str) -> Result<Capture, ParseRuleError> {
        match text {
            "standard" => Ok(Capture::Standard),
            "empty" => Ok(Capture::Empty),
            _ => Err(ParseRuleError { given: text.to_owned(), rule: "capture", expected: "standard or empty" }),
        }
    }
}

impl FromStr for End {
    type Err = ParseRuleError;

    fn from_str(text: &str) -> Result<End, ParseRuleError> {
        match text {
            "irving" => Ok(End::Irving),
            "site" => Ok(End::Site),
            _ => Err(ParseRuleError { given: text.to_owned(), rule: "end", expected: "irving or site" }),
        }
    }
}

/// A variant of Kalah: the board and the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pits: u8,
    seeds: u8,
    /// What a sowing that ends in an empty pit captures.
    pub capture: Capture,
    /// When the game ends.
    pub end: End,
    /// Whether North may take over South's opening turn.
    pub pie: bool,
}

/// Why [`Rules::new`] refused a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The pits a side are out of range.
    #[error("{0} pits a side: Kalah is played with 1 to {MAX_PITS}")]
    Pits(u8),
    /// The seeds a pit are out of range.
    #[error("{0} seeds a pit: Kalah starts with 1 to {MAX_SEEDS}")]
    Seeds(u8),
}

impl Rules {
    /// Kalah(`pits`, `seeds`) with the standard capture, the site's end and no pie rule.
    ///
    /// # Errors
    /// When `pits` or `seeds` is not 1 to 6.
    pub fn new(pits: u8, seeds: u8) -> Result<Rules, RulesError> {
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(RulesError::Pits(pits));
        }
        if !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(RulesError::Seeds(seeds));
        }
        Ok(Rules { pits, seeds, capture: Capture::default(), end: End::default(), pie: false })
    }

    /// The same rules with `capture`.
    #[must_use]
    pub fn with_capture(self, capture: Capture) -> Rules {
        Rules { capture, ..self }
    }

    /// The same rules with `end`.
    #[must_use]
    pub fn with_end(self, end: End) -> Rules {
        Rules { end, ..self }
    }

    /// The same rules with the pie rule on or off.
    #[must_use]
    pub fn with_pie(self, pie: bool) -> Rules {
        Rules { pie, ..self }
    }

    /// Pits a side.
    #[must_use]
    pub fn pits(self) -> u8 {
        self.pits
    }

    /// Seeds a pit at the start.
    #[must_use]
    pub fn seeds(self) -> u8 {
        self.seeds
    }
}

/// A side of the board, and the player who owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Moves first.
    South,
    /// Moves second.
    North,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// One sowing, or the pie rule's swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Sow the pit with this number (1 is the mover's pit farthest from its store).
    Pit(u8),
    /// North takes over South's opening turn: the players change sides, and the board stays.
    Swap,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pit(pit) => write!(f, "{pit}"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// A word that is neither a pit number nor `swap`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a move: expected a pit number (1-{MAX_PITS}) or `swap`")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text == "swap" {
            return Ok(Move::Swap);
        }
        match text.parse::<u8>() {
            Ok(pit) if (1..=MAX_PITS).contains(&pit) => Ok(Move::Pit(pit)),
            _ => Err(ParseMoveError(text.to_owned())),
        }
    }
}

/// The moves of a space-separated list, like `"3 6 1"`.
///
/// # Errors
/// The first word that is not a move.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseMoveError> {
    text.split_whitespace().map(str::parse).collect()
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The pit is not on the board.
    #[error("pit {pit} is not on a board of {pits} pits a side")]
    NoSuchPit {
        /// The pit asked for.
        pit: u8,
        /// The pits a side.
        pits: u8,
    },
    /// The pit holds no seeds.
    #[error("{side}'s pit {pit} is empty")]
    EmptyPit {
        /// Whose pit.
        side: Side,
        /// The pit.
        pit: u8,
    },
    /// A swap when the pie rule does not allow one.
    #[error("a swap is only North's first move, with the pie rule")]
    NoSwap,
}

/// A move of a list that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({played}): {error}")]
pub struct ReplayError {
    /// Its number in the list, from 1.
    pub number: usize,
    /// The move.
    pub played: Move,
    /// Why not.
    pub error: MoveError,
}

/// A place on the board that holds seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hole {
    /// A side's pit, numbered 1..m from the one farthest from its store.
    Pit(Side, u8),
    /// A side's store.
    Store(Side),
}

/// What a sowing did, for a player or a display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The last seed fell in the mover's store: the mover sows again (unless the game ended).
    pub again: bool,
    /// The seeds the sowing captured (the last seed included), if it captured.
    pub captured: Option<u8>,
    /// The sowing ended the game.
    pub ended: bool,
}

/// A position: the seeds in every pit and store, whose turn it is, and whether the pie rule's
/// swap is open. Small and `Copy`, so that a search copies it rather than undoing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    /// South's pits 1..m, South's store, North's pits 1..m, North's store: the order of sowing.
    /// Two bytes more stay empty: the board is then one `u128` for the sowing ([`Circuit`]).
    board: [u8; 16],
    /// `None` once the game is over.
    to_move: Option<Side>,
    /// North may swap now.
    swap_open: bool,
    /// The players changed sides by the pie rule.
    swapped: bool,
    /// South is still playing its opening turn (its first sowing and those its store gave it).
    opening: bool,
}

impl Position {
    /// The start: every pit holds the rules' seeds, South to move.
    #[must_use]
    pub fn start(rules: Rules) -> Position {
        let mut board = [0; 16];
        let m = usize::from(rules.pits);
        board[..m].fill(rules.seeds);
        board[m + 1..=2 * m].fill(rules.seeds);
        Position { rules, board, to_move: Some(Side::South), swap_open: false, swapped: false, opening: true }
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        self.to_move
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// Whether the players changed sides by the pie rule (the player who moved first now owns
    /// North).
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The seeds in `side`'s pit `pit` (1..m); 0 for a pit not on the board.
    #[must_use]
    pub fn pit(&self, side: Side, pit: u8) -> u8 {
        if (1..=self.rules.pits).contains(&pit) { self.board[self.pit_index(side, pit)] } else { 0 }
    }

    /// The seeds in `side`'s store.
    #[must_use]
    pub fn store(&self, side: Side) -> u8 {
        self.board[self.store_index(side)]
    }

    /// South's store minus North's: the final result once the game is over.
    #[must_use]
    pub fn margin(&self) -> i32 {
        self.margin_for(Side::South)
    }

    /// `side`'s store minus the other's.
    #[must_use]
    pub fn margin_for(&self, side: Side) -> i32 {
        i32::from(self.store(side)) - i32::from(self.store(side.other()))
    }

    /// The legal moves, in pit order (then the swap).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let Some(side) = self.to_move else { return Vec::new() };
        let mut moves: Vec<Move> =
            (1..=self.rules.pits).filter(|&pit| self.pit(side, pit) > 0).map(Move::Pit).collect();
        if self.swap_open {
            moves.push(Move::Swap);
        }
        moves
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// When the game is over, the pit is not on the board or is empty, or a swap is not allowed;
    /// the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Sown, MoveError> {
        let side = self.to_move.ok_or(MoveError::GameOver)?;
        let pit = match mv {
            Move::Swap if self.swap_open => {
                // The board stays and North is still to move, now played by the other person.
                self.swap_open = false;
                self.swapped = !self.swapped;
                return Ok(Sown { again: false, captured: None, ended: false });
            }
            Move::Swap => return Err(MoveError::NoSwap),
            Move::Pit(pit) => pit,
        };
        let (mut circuit, index) = self.circuit_to_sow(side, pit)?;
        let Sowing { again, captured } = circuit.sow(index, self.rules.capture);
        self.set_circuit(side, &circuit);
        let next = if again { side } else { side.other() };
        // The pie rule's swap opens when South's opening turn is over, for North's first move.
        self.swap_open = self.opening && !again && self.rules.pie;
        self.opening &= again;
        let ended = circuit.ends(again, self.rules.end);
        if ended {
            for side in [Side::South, Side::North] {
                let pits = self.pit_cells(side);
                let left: u8 = self.board[pits.clone()].iter().sum();
                self.board[pits].fill(0);
                self.board[self.store_index(side)] += left;
            }
            self.to_move = None;
            self.swap_open = false;
        } else {
            self.to_move = Some(next);
        }
        Ok(Sown { again, captured, ended })
    }

    /// The holes the seeds of `pit` fall into when the side to move sows it, one per seed in
    /// order (for a display that shows the sowing seed by seed; any capture and the end's
    /// sweep follow the last seed, as [`Position::play`] applies them).
    ///
    /// # Errors
    /// As [`Position::play`] for that pit.
    pub fn sown_holes(&self, pit: u8) -> Result<Vec<Hole>, MoveError> {
        let side = self.to_move.ok_or(MoveError::GameOver)?;
        let (circuit, index) = self.circuit_to_sow(side, pit)?;
        let pits = circuit.pits();
        let hole = |at: usize| match at {
            // At most six pits: the numbers fit.
            at if at < pits => Hole::Pit(side, at as u8 + 1),
            at if at == pits => Hole::Store(side),
            at => Hole::Pit(side.other(), (at - pits) as u8),
        };
        Ok(circuit.sown_holes(index).map(hole).collect())
    }

    /// `side`'s circuit and the index of its `pit` in it, if that pit can be sown.
    fn circuit_to_sow(&self, side: Side, pit: u8) -> Result<(Circuit, usize), MoveError> {
        if !(1..=self.rules.pits).contains(&pit) {
            return Err(MoveError::NoSuchPit { pit, pits: self.rules.pits });
        }
        let circuit = self.circuit(side);
        let index = usize::from(pit) - 1;
        if circuit.hole(index) == 0 {
            return Err(MoveError::EmptyPit { side, pit });
        }
        Ok((circuit, index))
    }

    /// The board as `side` sows it.
    pub(crate) fn circuit(&self, side: Side) -> Circuit {
        Circuit::of_board(self.rules.pits, u128::from_le_bytes(self.board), side)
    }

    /// Puts back the board of [`Position::circuit`] for `side`.
    fn set_circuit(&mut self, side: Side, circuit: &Circuit) {
        self.board = circuit.onto_board(u128::from_le_bytes(self.board), side).to_le_bytes();
    }

    /// This position after `moves`.
    ///
    /// # Errors
    /// The first move that cannot be played, with its number.
    pub fn replay(&self, moves: &[Move]) -> Result<Position, ReplayError> {
        let mut position = *self;
        for (index, &played) in moves.iter().enumerate() {
            position.play(played).map_err(|error| ReplayError { number: index + 1, played, error })?;
        }
        Ok(position)
    }

    /// The number of move sequences of exactly `depth` moves (sowings, and the swap where the
    /// pie rule offers it) from here; a game that ends sooner is not counted.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let mut next = *self;
                // Every legal move plays.
                next.play(mv).ok().map(|_| next.perft(depth - 1))
            })
            .sum()
    }

    /// The board's cells of `side`'s pits 1..m.
    fn pit_cells(&self, side: Side) -> std::ops::Range<usize> {
        let first = self.pit_index(side, 1);
        first..first + usize::from(self.rules.pits)
    }

    /// The seeds of `side`'s pits 1..m.
    pub(crate) fn pits_of(&self, side: Side) -> &[u8] {
        &self.board[self.pit_cells(side)]
    }

    fn pit_index(&self, side: Side, pit: u8) -> usize {
        side.index() * (usize::from(self.rules.pits) + 1) + usize::from(pit) - 1
    }

    fn store_index(&self, side: Side) -> usize {
        side.index() * (usize::from(self.rules.pits) + 1) + usize::from(self.rules.pits)
    }
}

/// North's pits above (pit 1 on the right, as sowing runs), South's below, each store at its
/// owner's end: North's on the left, South's on the right.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pits = self.rules.pits;
        let row = |side: Side, order: &mut dyn Iterator<Item = u8>| {
            order.map(|pit| format!("{:>3}", self.pit(side, pit))).collect::<String>()
        };
        let numbers = |order: &mut dyn Iterator<Item = u8>| order.map(|pit| format!("{pit:>3}")).collect::<String>();
        writeln!(f, "      {}   North's pits", numbers(&mut (1..=pits).rev()))?;
        writeln!(f, "      {}", row(Side::North, &mut (1..=pits).rev()))?;
        writeln!(
            f,
            "  {:>3} {} {:<3}",
            self.store(Side::North),
            " ".repeat(3 * usize::from(pits)),
            self.store(Side::South)
        )?;
        writeln!(f, "      {}", row(Side::South, &mut (1..=pits)))?;
        write!(f, "      {}   South's pits", numbers(&mut (1..=pits)))
    }
}

#[cfg(test)]
mod tests;
