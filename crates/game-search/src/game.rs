//! The small game interface the searches are written against: any two-player,
//! perfect-information, zero-sum game with make/unmake moves.

use std::fmt::Debug;
use std::hash::Hash;

/// A two-player game position that a search can walk with make/unmake.
///
/// Values are from the point of view of the side to move, in the game's own unit (Kulami uses
/// hundredths of a point): positive is good for the player about to move. Values must stay well
/// inside `-INFINITY..INFINITY`.
pub trait SearchGame: Clone + Send {
    /// A move.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// Every move packs into a number below this (for the table and the move statistics).
    const MOVE_SLOTS: usize;
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
    /// `mv` as a number below [`SearchGame::MOVE_SLOTS`].
    fn pack(mv: Self::Move) -> u16;
    /// The move with this number, if it is one.
    fn unpack(number: u16) -> Option<Self::Move>;
    /// A cheap guess of how good `mv` is, to try likely moves first; higher is tried sooner.
    fn order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
}

/// A static evaluation of positions of `G`, from the side to move's point of view.
pub trait Evaluator<G: SearchGame>: Send + Sync {
    /// The estimated final value of a position that is not over.
    fn evaluate(&self, game: &G) -> i32;
}
