//! Positions: marbles on a board, whose turn it is, legal moves, play and undo.

use std::fmt;
use std::sync::Arc;

use crate::cell::{Cell, CellSet, FRAME_CELLS};
use crate::layout::{Layout, MAX_TILES};

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// Moves first.
    Red,
    /// Moves second.
    Black,
}

impl Color {
    /// Both colours, Red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// Why a move is not legal. The rule numbers are those of `kulami.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over: all marbles are placed or the side to move is blocked.
    #[error("the game is over")]
    GameOver,
    /// The cell is not a hole of this board.
    #[error("{cell} is not a hole on this board")]
    NoHole {
        /// The cell played.
        cell: Cell,
    },
    /// The hole already holds a marble.
    #[error("{cell} already holds a marble")]
    Occupied {
        /// The cell played.
        cell: Cell,
    },
    /// Rule 2: not in the row or column of the opponent's last marble.
    #[error("{cell} is not in the row or column of the opponent's last marble ({last})")]
    NotInLine {
        /// The cell played.
        cell: Cell,
        /// The opponent's last marble.
        last: Cell,
    },
    /// Rule 3: on the tile of the opponent's last marble.
    #[error("{cell} is on the same tile as the opponent's last marble ({last})")]
    OpponentTile {
        /// The cell played.
        cell: Cell,
        /// The opponent's last marble.
        last: Cell,
    },
    /// Rule 4: on the tile of the mover's own previous marble.
    #[error("{cell} is on the same tile as your own previous marble ({previous})")]
    OwnTile {
        /// The cell played.
        cell: Cell,
        /// The mover's previous marble.
        previous: Cell,
    },
}

/// A move of a list that could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({cell}): {error}")]
pub struct ReplayError {
    /// The move's number in the list, from 1.
    pub number: usize,
    /// The cell of that move.
    pub cell: Cell,
    /// Why it is illegal.
    pub error: MoveError,
}

/// A position: the board, the marbles on it and the moves that led there.
///
/// Make/unmake for search: [`Position::play_unchecked`] and [`Position::undo`] keep the tile
/// score up to date, so [`Position::tile_points`] costs nothing. Cloning copies a few hundred bytes
/// and shares the [`Layout`].
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Cell, Color, Layout, MoveError, Position};
///
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut position = Position::new(layout);
/// let c: fn(&str) -> Cell = |name| name.parse().unwrap();
/// position.play(c("a1")).unwrap();
/// // Black must answer in row 1 or column a, but not on Red's tile AA.
/// assert_eq!(position.legal_moves().len(), 4);
/// assert!(matches!(position.play(c("b1")), Err(MoveError::OpponentTile { .. })));
/// position.play(c("a3")).unwrap();
/// assert_eq!(position.side_to_move(), Color::Red);
/// assert_eq!(position.tile_points(Color::Red), 2);
/// assert_eq!(position.undo(), Some(c("a3")));
/// ```
#[derive(Clone)]
pub struct Position {
    layout: Arc<Layout>,
    marbles: [CellSet; 2],
    moves: [Cell; FRAME_CELLS],
    ply: u8,
    /// Marbles of each colour on each tile, indexed like `Layout::tiles`.
    tile_counts: [[u8; 2]; MAX_TILES],
    /// Standard tile score of each colour.
    tile_points: [u8; 2],
}

impl Position {
    /// The start of a game on `layout`: no marbles, Red to move.
    #[must_use]
    pub fn new(layout: Arc<Layout>) -> Position {
        Position {
            layout,
            marbles: [CellSet::EMPTY; 2],
            moves: [Cell::from_index(0).expect("a1 is a cell"); FRAME_CELLS],
            ply: 0,
            tile_counts: [[0; 2]; MAX_TILES],
            tile_points: [0; 2],
        }
    }

    /// Plays `moves` from the start of a game on `layout`.
    ///
    /// # Errors
    /// The first illegal move, with its number and the rule it breaks.
    pub fn from_moves(layout: Arc<Layout>, moves: &[Cell]) -> Result<Position, ReplayError> {
        let mut position = Position::new(layout);
        for (index, &cell) in moves.iter().enumerate() {
            position.play(cell).map_err(|error| ReplayError { number: index + 1, cell, error })?;
        }
        Ok(position)
    }

    /// The board.
    #[must_use]
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// The moves played so far, in order.
    #[must_use]
    pub fn moves(&self) -> &[Cell] {
        &self.moves[..usize::from(self.ply)]
    }

    /// The number of marbles on the board.
    #[must_use]
    pub fn ply(&self) -> usize {
        usize::from(self.ply)
    }

    /// Whose turn it is (also after the game has ended).
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        if self.ply & 1 == 0 { Color::Red } else { Color::Black }
    }

    /// The marbles of `color`.
    #[must_use]
    pub fn marbles(&self, color: Color) -> CellSet {
        self.marbles[color.index()]
    }

    /// Every hole holding a marble.
    #[must_use]
    pub fn occupied(&self) -> CellSet {
        self.marbles[0] | self.marbles[1]
    }

    /// Marbles `color` has not placed yet.
    #[must_use]
    pub fn marbles_left(&self, color: Color) -> usize {
        self.layout.marbles_per_player() - self.marbles[color.index()].len()
    }

    /// The last marble placed (the opponent's, seen from the side to move).
    #[must_use]
    pub fn last_move(&self) -> Option<Cell> {
        self.moves().last().copied()
    }

    /// The side to move's own previous marble.
    #[must_use]
    pub fn previous_own_move(&self) -> Option<Cell> {
        self.moves().iter().rev().nth(1).copied()
    }

    /// The colour of the marble on `cell`, if any.
    #[must_use]
    pub fn color_at(&self, cell: Cell) -> Option<Color> {
        Color::BOTH.into_iter().find(|color| self.marbles(*color).contains(cell))
    }

    /// Marbles of `color` on the tile with index `tile` (as in [`Layout::tiles`]).
    ///
    /// # Panics
    /// If `tile` is not an index of [`Layout::tiles`].
    #[must_use]
    pub fn tile_count(&self, tile: usize, color: Color) -> usize {
        assert!(tile < self.layout.tiles().len(), "tile index out of range");
        usize::from(self.tile_counts[tile][color.index()])
    }

    /// The holes the side to move may fill; empty when the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> CellSet {
        if self.marbles[self.ply as usize & 1].len() >= self.layout.marbles_per_player() {
            return CellSet::EMPTY;
        }
        let empty = self.layout.holes() & !self.occupied();
        match self.ply {
            0 => empty,
            1 => empty & self.layout.reply_cells(self.moves[0]),
            ply => {
                let ply = usize::from(ply);
                let last = self.moves[ply - 1];
                let previous = self.moves[ply - 2];
                empty & self.layout.reply_cells(last) & !self.layout.tile_cells_at(previous)
            }
        }
    }

    /// Whether the game has ended: the side to move has no marble left or no legal move.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// Plays `cell` for the side to move, if legal.
    ///
    /// # Errors
    /// The rule the move breaks; the position is then unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if !self.legal_moves().contains(cell) {
            return Err(self.explain_illegal(cell));
        }
        self.play_unchecked(cell);
        Ok(())
    }

    fn explain_illegal(&self, cell: Cell) -> MoveError {
        if self.is_game_over() {
            return MoveError::GameOver;
        }
        if !self.layout.holes().contains(cell) {
            return MoveError::NoHole { cell };
        }
        if self.occupied().contains(cell) {
            return MoveError::Occupied { cell };
        }
        let last = self.last_move().expect("any empty hole is legal on the first move");
        if cell.row() != last.row() && cell.column() != last.column() {
            return MoveError::NotInLine { cell, last };
        }
        if self.layout.tile_cells_at(last).contains(cell) {
            return MoveError::OpponentTile { cell, last };
        }
        let previous = self.previous_own_move().expect("only rule 4 is left");
        MoveError::OwnTile { cell, previous }
    }

    /// Plays `cell` for the side to move without checking it.
    ///
    /// For search, with a cell taken from [`Position::legal_moves`]. Playing an illegal cell
    /// leaves a position the rules cannot reach; playing once all holes of the frame are
    /// filled panics.
    pub fn play_unchecked(&mut self, cell: Cell) {
        let side = usize::from(self.ply & 1);
        self.marbles[side].insert(cell);
        self.moves[usize::from(self.ply)] = cell;
        self.ply += 1;
        if let Some(tile) = self.layout.tile_index(cell) {
            let counts = &mut self.tile_counts[tile];
            counts[side] += 1;
            let holes = self.layout.tiles()[tile].holes() as u8;
            if counts[side] == counts[1 - side] + 1 {
                self.tile_points[side] += holes;
            } else if counts[side] == counts[1 - side] {
                self.tile_points[1 - side] -= holes;
            }
        }
    }

    /// Takes back the last move and returns its cell; `None` at the start of the game.
    pub fn undo(&mut self) -> Option<Cell> {
        let ply = self.ply.checked_sub(1)?;
        self.ply = ply;
        let cell = self.moves[usize::from(ply)];
        let side = usize::from(ply & 1);
        self.marbles[side].remove(cell);
        if let Some(tile) = self.layout.tile_index(cell) {
            let counts = &mut self.tile_counts[tile];
            let holes = self.layout.tiles()[tile].holes() as u8;
            if counts[side] == counts[1 - side] + 1 {
                self.tile_points[side] -= holes;
            } else if counts[side] == counts[1 - side] {
                self.tile_points[1 - side] += holes;
            }
            counts[side] -= 1;
        }
        Some(cell)
    }

    /// Standard tile points of `color`: the holes of every tile where it has strictly more marbles.
    #[must_use]
    pub fn tile_points(&self, color: Color) -> usize {
        usize::from(self.tile_points[color.index()])
    }

    /// The number of legal move sequences of `depth` moves (perft), counting the last ply in bulk.
    #[must_use]
    pub fn perft(&mut self, depth: u32) -> u64 {
        let legal = self.legal_moves();
        match depth {
            0 => 1,
            1 => legal.len() as u64,
            _ => legal
                .iter()
                .map(|cell| {
                    self.play_unchecked(cell);
                    let nodes = self.perft(depth - 1);
                    self.undo();
                    nodes
                })
                .sum(),
        }
    }
}

impl PartialEq for Position {
    /// Same board, same marbles, same history.
    fn eq(&self, other: &Position) -> bool {
        self.layout == other.layout && self.moves() == other.moves()
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position").field("layout", &self.layout).field("moves", &self.moves()).finish()
    }
}
