//! Hints and game analysis, built on the same search.

use kulami_core::{Cell, Color, Position, Scoring};

use crate::eval::KulamiEvaluator;
use crate::kulami::KulamiState;
use crate::search::{Limits, Searcher};

/// A suggested move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The hole.
    pub cell: Cell,
    /// Its value for the side to move, in hundredths of a point (the expected final margin).
    pub value: i32,
    /// Whether the value is the exact final margin under best play.
    pub exact: bool,
}

/// The `count` strongest legal moves, best first (fewer if fewer are legal).
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::{Limits, analysis::hints};
/// use kulami_core::{Layout, Position, Scoring};
/// let position = Position::new(Arc::new(Layout::parse("AABB/CCDD").unwrap()));
/// let best = hints(&position, Scoring::Standard, Limits::depth(8), 3);
/// assert_eq!(best.len(), 3);
/// assert!(best[0].exact && best[0].value >= best[1].value);
/// ```
#[must_use]
pub fn hints(position: &Position, scoring: Scoring, limits: Limits, count: usize) -> Vec<Hint> {
    let state = KulamiState::new(position.clone(), scoring);
    let ranked = Searcher::new(32, 1).rank_moves(&state, &KulamiEvaluator::default(), limits);
    ranked.moves.into_iter().take(count).map(|(cell, value)| Hint { cell, value, exact: ranked.exact }).collect()
}

/// What the analysis says about one move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The move's number, from 1.
    pub number: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Cell,
    /// The evaluation after it, from Red's point of view, in hundredths of a point.
    pub value_for_red: i32,
    /// The best move there was.
    pub best: Cell,
    /// How much the move played lost against the best, for its mover (0 for the best move).
    pub loss: i32,
    /// Whether the values are exact.
    pub exact: bool,
}

/// Reviews each move of a game: the evaluation after it and what it cost against the best move,
/// searching each position within `limits`.
#[must_use]
pub fn analyse(start: &Position, moves: &[Cell], scoring: Scoring, limits: Limits) -> Vec<MoveReview> {
    let mut searcher = Searcher::new(64, 1);
    let mut position = start.clone();
    let mut reviews = Vec::with_capacity(moves.len());
    for (index, &played) in moves.iter().enumerate() {
        let state = KulamiState::new(position.clone(), scoring);
        let ranked = searcher.rank_moves(&state, &KulamiEvaluator::default(), limits);
        let Some(&(best, best_value)) = ranked.moves.first() else { break };
        let Some(&(_, played_value)) = ranked.moves.iter().find(|(cell, _)| *cell == played) else { break };
        let mover = position.side_to_move();
        let value_for_red = if mover == Color::Red { played_value } else { -played_value };
        reviews.push(MoveReview {
            number: index + 1,
            mover,
            played,
            value_for_red,
            best,
            loss: best_value - played_value,
            exact: ranked.exact,
        });
        position.play_unchecked(played);
    }
    reviews
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::{Layout, notation::parse_moves};
    use std::sync::Arc;

    #[test]
    fn the_best_move_loses_nothing_and_a_blunder_is_found() {
        // On this small board the game is solved from the start, so losses are exact.
        let start = Position::new(Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap()));
        let moves = parse_moves("a1 a3 c3 c1").unwrap();
        let reviews = analyse(&start, &moves, Scoring::Standard, Limits::default());
        assert_eq!(reviews.len(), 4);
        for review in &reviews {
            assert!(review.exact && review.loss >= 0);
            if review.played == review.best {
                assert_eq!(review.loss, 0);
            }
        }
        let hint = hints(&start, Scoring::Standard, Limits::default(), 1)[0];
        assert_eq!(reviews[0].best, hint.cell);
        assert_eq!(reviews[0].value_for_red + reviews[0].loss, hint.value);
    }
}
