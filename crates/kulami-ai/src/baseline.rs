//! A reproduction of the strongest public Kulami engine's design, to measure against: negamax
//! alpha-beta with the score as it stands (the tile score, under the standard scoring) as its
//! only evaluation, a fixed depth that grows as the game goes on (8 plies at the start, up to 25
//! near the end), and no transposition table, iterative deepening, move ordering or time
//! control.

use game_search::INFINITY;
use game_search::{Evaluator, SearchGame};

/// The search depth for a position with `moves_left` plies to go at most: 8 until 34 remain,
/// then one more for each move played, so that from 21 left it searches to the end, up to 25.
/// On the classic board that keeps every move under 4 s here. (Rising earlier, this design takes
/// minutes per move: without a table or move ordering, depth 17 at ply 23 takes a minute.)
#[must_use]
pub fn scheduled_depth(moves_left: usize) -> u32 {
    (42usize.saturating_sub(moves_left)).clamp(8, 25) as u32
}

/// The baseline's move and value for `game`, searched to `depth`.
pub fn best_move<G: SearchGame, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32) -> Option<(G::Move, i32)> {
    let mut best = None;
    let mut alpha = -INFINITY;
    for mv in game.moves() {
        game.play(mv);
        let value = -negamax(game, evaluator, depth.saturating_sub(1), -INFINITY, -alpha);
        game.undo();
        if best.is_none() || value > alpha {
            alpha = value;
            best = Some((mv, value));
        }
    }
    best
}

fn negamax<G: SearchGame, E: Evaluator<G>>(game: &mut G, evaluator: &E, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if let Some(value) = game.terminal_value() {
        return value;
    }
    if depth == 0 {
        return evaluator.evaluate(game);
    }
    let mut best = -INFINITY;
    for mv in game.moves() {
        game.play(mv);
        let value = -negamax(game, evaluator, depth - 1, -beta, -alpha);
        game.undo();
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_rises_from_8_to_25() {
        assert_eq!(scheduled_depth(56), 8);
        assert_eq!(scheduled_depth(34), 8);
        assert_eq!(scheduled_depth(26), 16);
        assert_eq!(scheduled_depth(21), 21);
        assert_eq!(scheduled_depth(17), 25);
    }
}
