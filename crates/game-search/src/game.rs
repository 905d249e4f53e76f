//! The small game interface the searches are written against: any two-player,
//! perfect-information, zero-sum game with make/unmake moves.

use std::fmt::Debug;
use std::hash::Hash;

/// An outcome under perfect play, for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Proven {
    /// The player loses.
    Lost,
    /// Neither player wins.
    Drawn,
    /// The player wins.
    Won,
}

impl Proven {
    /// The outcome a final value (or its sign) stands for.
    pub(crate) fn of_sign(value: i32) -> Proven {
        match value {
            1.. => Proven::Won,
            0 => Proven::Drawn,
            _ => Proven::Lost,
        }
    }
}

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
    /// Whether the tree search plays its random playouts on a copy of the game, dropped at the
    /// end, rather than taking every move back: for a game whose copy costs less than taking
    /// back a playout's moves (a few hundred bytes, no allocation). False by default.
    const PLAYOUTS_ON_A_COPY: bool = false;

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
    /// The player to move, 0 or 1. By default players alternate (the parity of
    /// [`SearchGame::ply`]); a game in which a move can leave the same player to move (Kalah's
    /// sowing that ends in the mover's own store) says so here, and the searches keep a value's
    /// sign across such a move instead of negating it. A finished game names the player whose
    /// point of view [`SearchGame::terminal_value`] takes.
    fn mover(&self) -> u8 {
        (self.ply() % 2) as u8
    }
    /// Bounds on the final value from the side to move's point of view, if the game knows them
    /// cheaply (a sowing game: what is in the stores is kept, what is left can go either way).
    /// The exact [`Solver`](crate::Solver), and the [`Searcher`](crate::Searcher) where it
    /// searches to the end, cut off where the window lies outside them. They are asked at
    /// nearly every node of an exact search, so they must cost far less than a move.
    fn value_bounds(&self) -> Option<(i32, i32)> {
        None
    }
    /// The part of the final value that is already decided and that the rest of the game
    /// cannot change (a sowing game: the seeds in the stores), from the side to move's point of
    /// view. The searches' tables keep values net of it, so that positions that differ only in
    /// it share their entries; a game that banks a part leaves what decides it out of
    /// [`SearchGame::hash`]. None by default.
    fn value_banked(&self) -> i32 {
        0
    }
    /// The exact value of a position that is not over, if the game knows it without searching
    /// (an endgame database), from the side to move's point of view. The exact
    /// [`Solver`](crate::Solver) takes it as it takes a finished game's value.
    fn known_value(&self) -> Option<i32> {
        None
    }
    /// The exact value for the side to move of a position a few moves from the end, if the game
    /// can tell without playing them (Kulami: the last two, since a marble only wins or ties
    /// its tile and the reply goes on another). Fail-soft in the window `(alpha, beta)`: a
    /// value at or below `alpha` may stand for any lower one, at or above `beta` for any higher
    /// one. The exact searches take it instead of the plies nearest the end, which is where
    /// most of their nodes are. `None` (the default): they play them.
    fn endgame_value(&self, alpha: i32, beta: i32) -> Option<i32> {
        let _ = (alpha, beta);
        None
    }
    /// The legal move that `random`, a uniformly drawn number, picks (each move equally likely),
    /// or `None` when there is none (the game is over): the move of a random playout. A game that
    /// finds its moves once here, rather than in [`SearchGame::move_count`] and
    /// [`SearchGame::moves`] both, makes playouts faster.
    fn random_move(&self, random: u64) -> Option<Self::Move> {
        let count = self.move_count();
        (count > 0)
            .then(|| self.moves().into_iter().nth(pick_below(random, count)).expect("the pick is below the count"))
    }
    /// Called by the tree search on its own copy of the game before its random playouts. A game
    /// may drop here bookkeeping that pays in exhaustive searches, where every move's work is
    /// shared by many finished games below it, but not in playouts, where each move leads to
    /// one (Kulami drops the largest areas it keeps move by move). Does nothing by default.
    fn prepare_for_playouts(&mut self) {}
    /// A cheap guess of how good `mv` is, to try likely moves first; higher is tried sooner.
    /// The searches ask [`SearchGame::hint_moves`], which asks this by default.
    fn order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
    /// Hands each legal move with its guess ([`SearchGame::order_hint`]) to `add`: what the
    /// searches order their moves by. A game whose guesses share work between the moves of a
    /// position (Kulami's: the holes the opponent may reply in) does that work once here.
    fn hint_moves(&self, mut add: impl FnMut(Self::Move, i32)) {
        for mv in self.moves() {
            add(mv, self.order_hint(mv));
        }
    }
}

/// A static evaluation of positions of `G`, from the side to move's point of view.
pub trait Evaluator<G: SearchGame>: Send + Sync {
    /// The estimated final value of a position that is not over.
    fn evaluate(&self, game: &G) -> i32;

    /// Appends to `values` the value of each of `moves` (legal in `game`) for the player who
    /// makes it: the final value if it ends the game, else the evaluation of where it leads. The
    /// tree search values a node's children so when it expands the node. `game` is left as it
    /// was. By default each move is played and taken back ([`values_by_playing`]); a game whose
    /// children share most of their evaluation can find it faster from the position itself.
    fn values_after(&self, game: &mut G, moves: &[G::Move], values: &mut Vec<i32>) {
        values_by_playing(self, game, moves, values);
    }
}

/// [`Evaluator::values_after`] found by playing each move, looking at the position it leads to,
/// and taking the move back.
pub fn values_by_playing<G: SearchGame, E: Evaluator<G> + ?Sized>(
    evaluator: &E,
    game: &mut G,
    moves: &[G::Move],
    values: &mut Vec<i32>,
) {
    let mover = game.mover();
    for &mv in moves {
        game.play(mv);
        let value = game.terminal_value().unwrap_or_else(|| evaluator.evaluate(game));
        values.push(if game.mover() == mover { value } else { -value });
        game.undo();
    }
}

/// The value of `game` by plain minimax over every line, with no pruning and no table: what
/// every search must agree with, for tests of a game on small positions. A move that leaves the
/// same player to move ([`SearchGame::mover`]) keeps the value's sign.
///
/// # Panics
/// If a position that is not over has no moves.
pub fn minimax<G: SearchGame>(game: &mut G) -> i32 {
    if let Some(value) = game.terminal_value() {
        return value;
    }
    let mover = game.mover();
    let mut best = None;
    for mv in game.moves() {
        game.play(mv);
        let value = minimax(game);
        let value = if game.mover() == mover { value } else { -value };
        game.undo();
        best = Some(best.map_or(value, |best: i32| best.max(value)));
    }
    best.expect("a game that is not over has a move")
}

/// The bound of `game`'s [`SearchGame::value_bounds`] that lies outside the window `(alpha,
/// beta)`, if one does: a lowest value at or above `beta` or a highest at or below `alpha`, which
/// an exact search returns as the node's value without searching it.
pub(crate) fn bound_outside<G: SearchGame>(game: &G, alpha: i32, beta: i32) -> Option<i32> {
    let (lowest, highest) = game.value_bounds()?;
    if lowest >= beta {
        Some(lowest)
    } else if highest <= alpha {
        Some(highest)
    } else {
        None
    }
}

/// The number below `count` that `random`, uniform over all `u64`, stands for: the top bits of
/// `random × count`, which are as uniform as a remainder and need no division.
///
/// ```
/// use game_search::pick_below;
/// assert_eq!(pick_below(0, 3), 0);
/// assert_eq!(pick_below(u64::MAX / 2, 3), 1);
/// assert_eq!(pick_below(u64::MAX, 3), 2);
/// ```
#[must_use]
pub fn pick_below(random: u64, count: usize) -> usize {
    ((u128::from(random) * count as u128) >> 64) as usize
}
