//! Hints and game analysis, built on the same search.

use kulami_core::{Cell, Color, Move, Position, Scoring};

use crate::eval::KulamiEvaluator;
use crate::kulami::KulamiState;
use game_search::{Limits, Searcher};

/// A suggested move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hint {
    /// The hole.
    pub cell: Cell,
    /// Its value for the side to move, in hundredths of a point (the expected final margin).
    pub value: i32,
    /// Whether the value is the exact final margin under best play.
    pub exact: bool,
}

/// The `count` strongest holes to fill, best first (fewer if fewer are legal), searched with
/// `searcher` (whose table later hints reuse; see [`Searcher::new`] for its size).
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::{Limits, Searcher, analysis::hints};
/// use kulami_core::{Layout, Position, Scoring};
/// let position = Position::new(Arc::new(Layout::parse("AABB/CCDD").unwrap()));
/// let mut searcher = Searcher::new(1, 1);
/// let best = hints(&mut searcher, &position, Scoring::Standard, Limits::depth(8), 3);
/// assert_eq!(best.len(), 3);
/// assert!(best[0].exact && best[0].value >= best[1].value);
/// ```
#[must_use]
pub fn hints(
    searcher: &mut Searcher,
    position: &Position,
    scoring: Scoring,
    limits: Limits,
    count: usize,
) -> Vec<Hint> {
    let state = KulamiState::new(position.clone(), scoring);
    let ranked = searcher.rank_moves(&state, &KulamiEvaluator::default(), limits);
    ranked.moves.into_iter().take(count).map(|(cell, value)| Hint { cell, value, exact: ranked.exact }).collect()
}

/// What the analysis says about one move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// Reviews each placement of a game: the evaluation after it and what it cost against the best
/// move, searching each position within `limits` with `searcher`. A swap is played and not
/// reviewed (it changes who owns the marbles, not the board). The review stops at the first
/// move that is not legal.
#[must_use]
pub fn analyse(
    searcher: &mut Searcher,
    start: &Position,
    moves: &[Move],
    scoring: Scoring,
    limits: Limits,
) -> Vec<MoveReview> {
    let mut position = start.clone();
    let mut reviews = Vec::with_capacity(moves.len());
    for (index, &next) in moves.iter().enumerate() {
        let Move::Place(played) = next else {
            if position.play_move(next).is_err() {
                break;
            }
            continue;
        };
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
        let mut searcher = Searcher::new(1, 1);
        let reviews = analyse(&mut searcher, &start, &moves, Scoring::Standard, Limits::default());
        assert_eq!(reviews.len(), 4);
        for review in &reviews {
            assert!(review.exact && review.loss >= 0);
            if review.played == review.best {
                assert_eq!(review.loss, 0);
            }
        }
        let hint = hints(&mut searcher, &start, Scoring::Standard, Limits::default(), 1)[0];
        assert_eq!(reviews[0].best, hint.cell);
        assert_eq!(reviews[0].value_for_red + reviews[0].loss, hint.value);
    }

    #[test]
    fn a_swap_is_played_and_not_reviewed() {
        let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
        let start = Position::new(layout.clone()).with_swap_rule(true);
        let mut searcher = Searcher::new(1, 1);
        let swapped = analyse(
            &mut searcher,
            &start,
            &parse_moves("a1 swap a3 c3").unwrap(),
            Scoring::Standard,
            Limits::default(),
        );
        let plain = analyse(
            &mut searcher,
            &Position::new(layout),
            &parse_moves("a1 a3 c3").unwrap(),
            Scoring::Standard,
            Limits::default(),
        );
        assert_eq!(swapped.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 3, 4]);
        assert_eq!(
            swapped.iter().map(|r| (r.played, r.loss)).collect::<Vec<_>>(),
            plain.iter().map(|r| (r.played, r.loss)).collect::<Vec<_>>()
        );
    }
}
