//! The small game interface the searches are written against, so that other two-player,
//! perfect-information, zero-sum games can reuse them.

use std::fmt::Debug;
use std::hash::Hash;

/// A two-player game position that a search can walk with make/unmake.
///
/// Values are from the point of view of the side to move, in hundredths of a point: positive is
/// good for the player about to move.
pub trait SearchGame: Clone + Send {
    /// A move.
    type Move: PackedMove + Eq + Hash + Debug + Send + Sync + 'static;
    /// The legal moves, as a cheap copyable collection.
    type Moves: IntoIterator<Item = Self::Move> + Copy;

    /// The legal moves; none when the game is over.
    fn moves(&self) -> Self::Moves;
    /// How many legal moves there are.
    fn move_count(&self) -> usize;
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);
    /// Takes back the last move played with [`SearchGame::play`].
    fn undo(&mut self);
    /// A key for the transposition table: equal positions have equal keys.
    fn hash(&self) -> u64;
    /// The number of moves played from the start of the game.
    fn ply(&self) -> usize;
    /// The most moves that can still be played.
    fn moves_left_at_most(&self) -> usize;
    /// The final value, from the side to move's point of view, if the game is over.
    fn terminal_value(&self) -> Option<i32>;
    /// A cheap guess of how good `mv` is, to try likely moves first; higher is tried sooner.
    fn order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
}

/// A move as a small number, for the transposition table and the history tables.
pub trait PackedMove: Copy {
    /// Packed moves are below this.
    const COUNT: usize;
    /// The move's number, below [`PackedMove::COUNT`].
    fn pack(self) -> u16;
    /// The move with this number.
    fn unpack(number: u16) -> Option<Self>;
}

impl PackedMove for kulami_core::Cell {
    const COUNT: usize = kulami_core::FRAME_CELLS;
    fn pack(self) -> u16 {
        self.index() as u16
    }
    fn unpack(number: u16) -> Option<Self> {
        kulami_core::Cell::from_index(usize::from(number))
    }
}

/// A static evaluation of positions of `G`, from the side to move's point of view.
pub trait Evaluator<G: SearchGame>: Send + Sync {
    /// The estimated final value of a position that is not over.
    fn evaluate(&self, game: &G) -> i32;
}
