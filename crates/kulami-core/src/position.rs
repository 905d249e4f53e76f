//! Positions: marbles on a board, whose turn it is, legal moves, play and undo.

use std::fmt;
use std::sync::Arc;

use crate::cell::{Cell, CellSet, FRAME_CELLS};
use crate::layout::{Layout, MAX_TILES};
use crate::moves::Move;

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

/// Why a move is not legal. The rule numbers are those of `docs/RULES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
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
    /// A swap in a game played without the swap rule.
    #[error("the swap rule is off in this game")]
    SwapRuleOff,
    /// A swap other than as the second move of the game.
    #[error("a swap is only legal as the second move of the game")]
    SwapNotSecondMove,
}

/// A move of a list that could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({played}): {error}")]
pub struct ReplayError {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// That move.
    pub played: Move,
    /// Why it is illegal.
    pub error: MoveError,
}

/// A position: the board, the marbles on it, the moves that led there and whether the game is
/// played with the swap (pie) rule.
///
/// Colours belong to the marbles: Red places the odd marbles, Black the even ones. A swap
/// changes no marble; it says that the players exchanged colours, so the player who placed the
/// first (red) marble now plays Black and is to move ([`Position::swapped`]).
///
/// Make/unmake for search: [`Position::play_unchecked`] and [`Position::undo`] keep the tile
/// score up to date, so [`Position::tile_points`] costs nothing. Cloning copies a few hundred bytes
/// and shares the [`Layout`].
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Cell, Color, Layout, Move, MoveError, Position};
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
/// assert_eq!(position.undo(), Some(Move::Place(c("a3"))));
/// ```
///
/// With the swap rule the second player may answer the first marble with [`Move::Swap`]:
///
/// ```
/// use std::sync::Arc;
/// use kulami_core::{Color, Layout, Move, MoveError, Position};
///
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut position = Position::new(layout.clone()).with_swap_rule(true);
/// position.play("a1".parse().unwrap()).unwrap();
/// assert!(position.can_swap());
/// position.play_move(Move::Swap).unwrap();
/// assert!(position.swapped() && position.side_to_move() == Color::Black);
/// assert_eq!(Position::new(layout).replay(&[Move::Place("a1".parse().unwrap()), Move::Swap]).unwrap_err().error,
///            MoveError::SwapRuleOff);
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
    /// Whether the game is played with the swap rule.
    swap_rule: bool,
    /// Whether the second move was the swap.
    swapped: bool,
}

impl Position {
    /// The start of a game on `layout` without the swap rule: no marbles, Red to move.
    #[must_use]
    pub fn new(layout: Arc<Layout>) -> Position {
        Position {
            layout,
            marbles: [CellSet::EMPTY; 2],
            moves: [Cell::A1; FRAME_CELLS],
            ply: 0,
            tile_counts: [[0; 2]; MAX_TILES],
            tile_points: [0; 2],
            swap_rule: false,
            swapped: false,
        }
    }

    /// The same start of a game, played with the swap rule `on` or off.
    ///
    /// # Panics
    /// If a move has been played: the rule is part of the game from its start.
    #[must_use]
    pub fn with_swap_rule(mut self, on: bool) -> Position {
        assert!(self.ply == 0, "the swap rule is chosen before the first move");
        self.swap_rule = on;
        self
    }

    /// The start of the game this position is in: the same board and swap rule, no marbles.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use kulami_core::{Layout, Position};
    /// let start = Position::new(Arc::new(Layout::parse("AABB/CCDD").unwrap())).with_swap_rule(true);
    /// let mut later = start.clone();
    /// later.play("a1".parse().unwrap()).unwrap();
    /// assert_eq!(later.start(), start);
    /// ```
    #[must_use]
    pub fn start(&self) -> Position {
        Position::new(Arc::clone(&self.layout)).with_swap_rule(self.swap_rule)
    }

    /// Plays `moves` from the start of a game on `layout` without the swap rule.
    ///
    /// # Errors
    /// The first illegal move, with its number and the rule it breaks.
    pub fn from_moves(layout: Arc<Layout>, moves: &[Move]) -> Result<Position, ReplayError> {
        Position::new(layout).replay(moves)
    }

    /// Plays `moves` from this position.
    ///
    /// # Errors
    /// The first illegal move, with its number in the game and the rule it breaks.
    pub fn replay(mut self, moves: &[Move]) -> Result<Position, ReplayError> {
        let played_before = self.move_count();
        for (index, &played) in moves.iter().enumerate() {
            self.play_move(played).map_err(|error| ReplayError { number: played_before + index + 1, played, error })?;
        }
        Ok(self)
    }

    /// The board.
    #[must_use]
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// The marbles placed so far, in order (the moves without the swap).
    #[must_use]
    pub fn placements(&self) -> &[Cell] {
        &self.moves[..usize::from(self.ply)]
    }

    /// The moves played so far, in order, the swap included.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        let (first, rest) = self.placements().split_at(self.placements().len().min(1));
        let swap = self.swapped.then_some(Move::Swap);
        first.iter().copied().map(Move::Place).chain(swap).chain(rest.iter().copied().map(Move::Place))
    }

    /// The number of moves played, the swap included.
    #[must_use]
    pub fn move_count(&self) -> usize {
        self.ply() + usize::from(self.swapped)
    }

    /// Whether the game is played with the swap rule.
    #[must_use]
    pub fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    /// Whether the second move was the swap: the player who placed the first marble then plays
    /// Black.
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether [`Move::Swap`] is legal now: the rule is on and exactly the first marble is down.
    #[must_use]
    pub fn can_swap(&self) -> bool {
        self.swap_rule && self.ply == 1 && !self.swapped
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
        self.layout.marbles_per_player() - self.placed(color.index())
    }

    /// Marbles placed by the colour with index `side`: Red places on even plies, Black on odd
    /// ones (the swap changes who plays which colour, not the plies). Counting from the ply
    /// spares the search a population count at every node.
    fn placed(&self, side: usize) -> usize {
        (usize::from(self.ply) + 1 - side) / 2
    }

    /// The last marble placed (the opponent's, seen from the side to move).
    #[must_use]
    pub fn last_move(&self) -> Option<Cell> {
        self.placements().last().copied()
    }

    /// The side to move's own previous marble.
    #[must_use]
    pub fn previous_own_move(&self) -> Option<Cell> {
        self.placements().iter().rev().nth(1).copied()
    }

    /// The cells of the tiles the side to move may not play on: the tile of the opponent's last
    /// marble (rule 3) and of the mover's own previous one (rule 4).
    #[must_use]
    pub fn forbidden_tiles(&self) -> CellSet {
        [self.last_move(), self.previous_own_move()]
            .into_iter()
            .flatten()
            .fold(CellSet::EMPTY, |set, cell| set | self.layout.tile_cells_at(cell))
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
    #[inline]
    pub fn tile_count(&self, tile: usize, color: Color) -> usize {
        assert!(tile < self.layout.tiles().len(), "tile index out of range");
        usize::from(self.tile_counts[tile][color.index()])
    }

    /// The holes the side to move may fill; empty when the game is over.
    #[must_use]
    #[inline]
    pub fn legal_moves(&self) -> CellSet {
        if self.placed(usize::from(self.ply & 1)) >= self.layout.marbles_per_player() {
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

    /// The holes the opponent could fill after the side to move plays `cell`: what
    /// [`Position::legal_moves`] gives after that move. For move ordering, without playing it.
    #[must_use]
    #[inline]
    pub fn legal_moves_after(&self, cell: Cell) -> CellSet {
        self.reply_holes() & self.layout.reply_cells(cell)
    }

    /// The holes the opponent could fill after any move of the side to move, before the rule
    /// that the reply goes in the row or column of that move: the empty holes off the tile of
    /// the last marble (which becomes the opponent's own previous one), none if the opponent has
    /// no marble left. [`Position::legal_moves_after`] is these within the move's
    /// [`Layout::reply_cells`]; found once, they serve every move of a position.
    #[must_use]
    #[inline]
    pub fn reply_holes(&self) -> CellSet {
        let opponent = usize::from(!self.ply & 1);
        if self.placed(opponent) >= self.layout.marbles_per_player() {
            return CellSet::EMPTY;
        }
        let empty = self.layout.holes() & !self.occupied();
        match self.last_move() {
            Some(last) => empty & !self.layout.tile_cells_at(last),
            None => empty,
        }
    }

    /// Whether the game has ended: the side to move has no legal move (no marble left or no
    /// hole it may fill, and no swap).
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && !self.can_swap()
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

    /// Plays `played` for the side to move, if legal.
    ///
    /// # Errors
    /// The rule the move breaks; the position is then unchanged.
    pub fn play_move(&mut self, played: Move) -> Result<(), MoveError> {
        match played {
            Move::Place(cell) => self.play(cell),
            Move::Swap if !self.swap_rule => Err(MoveError::SwapRuleOff),
            Move::Swap if !self.can_swap() => Err(MoveError::SwapNotSecondMove),
            Move::Swap => {
                self.swapped = true;
                Ok(())
            }
        }
    }

    fn explain_illegal(&self, cell: Cell) -> MoveError {
        if self.legal_moves().is_empty() {
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
    #[inline]
    pub fn play_unchecked(&mut self, cell: Cell) {
        let side = usize::from(self.ply & 1);
        self.marbles[side].insert(cell);
        self.moves[usize::from(self.ply)] = cell;
        self.ply += 1;
        if let Some(tile) = self.layout.tile_index(cell) {
            let counts = &mut self.tile_counts[tile];
            counts[side] += 1;
            let holes = self.layout.tile_holes_at(cell) as u8;
            if counts[side] == counts[1 - side] + 1 {
                self.tile_points[side] += holes;
            } else if counts[side] == counts[1 - side] {
                self.tile_points[1 - side] -= holes;
            }
        }
    }

    /// Takes back the last move (a placement or the swap) and returns it; `None` at the start of
    /// the game.
    #[inline]
    pub fn undo(&mut self) -> Option<Move> {
        if self.swapped && self.ply == 1 {
            self.swapped = false;
            return Some(Move::Swap);
        }
        let ply = self.ply.checked_sub(1)?;
        self.ply = ply;
        let cell = self.moves[usize::from(ply)];
        let side = usize::from(ply & 1);
        self.marbles[side].remove(cell);
        if let Some(tile) = self.layout.tile_index(cell) {
            let counts = &mut self.tile_counts[tile];
            let holes = self.layout.tile_holes_at(cell) as u8;
            if counts[side] == counts[1 - side] + 1 {
                self.tile_points[side] -= holes;
            } else if counts[side] == counts[1 - side] {
                self.tile_points[1 - side] += holes;
            }
            counts[side] -= 1;
        }
        Some(Move::Place(cell))
    }

    /// Standard tile points of `color`: the holes of every tile where it has strictly more marbles.
    #[must_use]
    pub fn tile_points(&self, color: Color) -> usize {
        usize::from(self.tile_points[color.index()])
    }

    /// The number of legal move sequences of `depth` moves (perft), the swap included, counting
    /// the last ply in bulk.
    #[must_use]
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth > 0 && self.can_swap() {
            self.swapped = true;
            let after_swap = self.perft(depth - 1);
            self.swapped = false;
            return after_swap + self.perft_placements(depth);
        }
        self.perft_placements(depth)
    }

    fn perft_placements(&mut self, depth: u32) -> u64 {
        let legal = self.legal_moves();
        match depth {
            0 => 1,
            1 => legal.len() as u64,
            _ => legal
                .iter()
                .map(|cell| {
                    self.play_unchecked(cell);
                    // Only the second move can be the swap; past it, placements alone.
                    let nodes = if self.ply == 1 { self.perft(depth - 1) } else { self.perft_placements(depth - 1) };
                    self.undo();
                    nodes
                })
                .sum(),
        }
    }
}

impl PartialEq for Position {
    /// Same board, same rules, same history.
    fn eq(&self, other: &Position) -> bool {
        self.layout == other.layout
            && self.swap_rule == other.swap_rule
            && self.swapped == other.swapped
            && self.placements() == other.placements()
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("layout", &self.layout)
            .field("swap_rule", &self.swap_rule)
            .field("moves", &self.moves().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;

    fn classic() -> Arc<Layout> {
        Arc::new(Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap())
    }

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    #[test]
    fn the_swap_is_legal_only_as_the_second_move_with_the_rule_on() {
        let start = Position::new(classic()).with_swap_rule(true);
        let mut position = start.clone();
        assert_eq!(position.play_move(Move::Swap), Err(MoveError::SwapNotSecondMove));
        position.play(cell("d4")).unwrap();
        let before = position.clone();
        assert!(position.can_swap());
        position.play_move(Move::Swap).unwrap();
        assert_eq!(position.play_move(Move::Swap), Err(MoveError::SwapNotSecondMove));
        // The board is as before the swap: Black answers the red marble on d4.
        assert_eq!(position.legal_moves(), before.legal_moves());
        assert_eq!((position.side_to_move(), position.move_count(), position.ply()), (Color::Black, 2, 1));
        position.play(cell("d7")).unwrap();
        assert!(!position.can_swap());
        assert_eq!(position.moves().collect::<Vec<_>>(), parse_moves("d4 swap d7").unwrap());
        assert_eq!(position.undo(), Some(Move::Place(cell("d7"))));
        assert_eq!(position.undo(), Some(Move::Swap));
        assert_eq!(position, before);
        let off = Position::from_moves(classic(), &parse_moves("d4").unwrap()).unwrap();
        assert!(!off.can_swap());
        let error = Position::from_moves(classic(), &parse_moves("d4 swap").unwrap()).unwrap_err();
        assert_eq!(error.to_string(), "move 2 (swap): the swap rule is off in this game");
    }

    #[test]
    fn the_swap_keeps_a_game_alive_that_has_no_reply_on_the_board() {
        // One tile: after the first marble no hole is left for the reply, but the swap is.
        let layout = Arc::new(Layout::parse("AA").unwrap());
        let mut position = Position::new(layout).with_swap_rule(true);
        position.play(cell("a1")).unwrap();
        assert!(position.legal_moves().is_empty() && !position.is_game_over());
        position.play_move(Move::Swap).unwrap();
        assert!(position.is_game_over());
        assert_eq!(position.play(cell("b1")), Err(MoveError::GameOver));
    }

    #[test]
    fn legal_moves_after_a_move_are_the_replies_once_it_is_played() {
        let mut position = Position::new(classic());
        for step in 0..40 {
            let legal = position.legal_moves();
            for cell in legal {
                let mut after = position.clone();
                after.play_unchecked(cell);
                assert_eq!(position.legal_moves_after(cell), after.legal_moves(), "{cell} after {position:?}");
            }
            let Some(next) = legal.iter().nth(step * 7 % legal.len().max(1)) else { break };
            position.play_unchecked(next);
        }
    }

    #[test]
    fn perft_counts_the_swap_as_a_move() {
        let mut off = Position::new(classic());
        let mut on = Position::new(classic()).with_swap_rule(true);
        // 64 first moves; each then has its replies plus the swap, after which the same replies.
        let replies: u64 = off.legal_moves().iter().map(|cell| off.legal_moves_after(cell).len() as u64).sum();
        assert_eq!(off.perft(2), replies);
        assert_eq!(on.perft(1), 64);
        assert_eq!(on.perft(2), replies + 64);
        assert_eq!(on.perft(3) - off.perft(3), off.perft(2), "a swap then any reply");
    }

    #[test]
    fn forbidden_tiles_are_the_tiles_of_both_last_marbles() {
        let layout = classic();
        let mut position = Position::new(layout.clone());
        assert_eq!(position.forbidden_tiles(), CellSet::EMPTY);
        position.play(cell("d4")).unwrap();
        assert_eq!(position.forbidden_tiles(), layout.tile_cells_at(cell("d4")));
        position.play(cell("d7")).unwrap();
        let both = layout.tile_cells_at(cell("d4")) | layout.tile_cells_at(cell("d7"));
        assert_eq!(position.forbidden_tiles(), both);
        assert!((position.legal_moves() & both).is_empty());
    }
}
