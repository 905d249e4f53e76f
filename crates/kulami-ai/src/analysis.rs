//! Hints, game analysis and exact solutions, built on the same search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kulami_core::{Cell, Color, Move, Position, Scoring};

use crate::engine::{line_value, solver_reach, tree_search_options};
use crate::eval::KulamiEvaluator;
use crate::kulami::KulamiState;
use game_search::mcts::{self, MctsLimits};
use game_search::{Limits, SearchGame, Searcher};

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
    let ranked = searcher.rank_moves(&state, &KulamiEvaluator::tuned(state.scoring()), limits);
    ranked.moves.into_iter().take(count).map(|(cell, value)| Hint { cell, value, exact: ranked.exact }).collect()
}

/// The `count` strongest holes as level 5 judges them, thinking for `time` on `threads` (fewer
/// if fewer are legal): its tree search, whose most-visited holes come first, each valued by
/// the evaluation where its line ends; or, once the end is within the exact solver's reach for
/// that time, the solver's ranking, whose values are the exact final margins. Setting `cancel`
/// ends the search with what it has found.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use kulami_ai::analysis::master_hints;
/// use kulami_core::{Layout, Position, Scoring};
/// let layout = Arc::new(Layout::parse("AABBCCDD/EEFFGGHH/IIJJKKLL/MMNNOOPP/QQRRSSTT").unwrap());
/// let position = Position::new(layout);
/// let best = master_hints(&position, Scoring::Standard, Duration::from_millis(50), 1, 3, None);
/// assert_eq!(best.len(), 3);
/// assert!(best.iter().all(|hint| position.legal_moves().contains(hint.cell) && !hint.exact));
/// ```
#[must_use]
pub fn master_hints(
    position: &Position,
    scoring: Scoring,
    time: Duration,
    threads: usize,
    count: usize,
    cancel: Option<&AtomicBool>,
) -> Vec<Hint> {
    let state = KulamiState::new(position.clone(), scoring);
    let (moves, exact) = master_ranking(&mut None, &state, time, threads, cancel);
    moves.into_iter().take(count).map(|(cell, value)| Hint { cell, value, exact }).collect()
}

/// Every legal hole of `state` as level 5 judges it in `time` on `threads` (see
/// [`master_hints`]), its choice first, and whether the values are exact. Near the end it ranks
/// with `solver`, made on first need and kept by the caller: the positions of one game share
/// most of their endgames.
fn master_ranking(
    solver: &mut Option<Searcher>,
    state: &KulamiState,
    time: Duration,
    threads: usize,
    cancel: Option<&AtomicBool>,
) -> (Vec<(Cell, i32)>, bool) {
    let evaluator = KulamiEvaluator::tuned(state.scoring());
    if state.moves_left_at_most() <= solver_reach(time, state.scoring()) {
        let solver = solver.get_or_insert_with(|| Searcher::new(32, threads));
        let ranked = solver.rank_moves(state, &evaluator, Limits::time(time));
        return (ranked.moves, ranked.exact);
    }
    let limits = MctsLimits { time, playouts: u64::MAX, threads };
    let found = mcts::search(state, Some(&evaluator), tree_search_options(state.scoring(), time), limits, 0, cancel);
    let moves = found.moves.iter().map(|root| (root.mv, line_value(state, &root.line, &evaluator))).collect();
    (moves, false)
}

/// One hole's exact value, found by [`solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolvedMove {
    /// The hole.
    pub cell: Cell,
    /// The final margin for the side to move after this hole and perfect play by both sides,
    /// in hundredths of a point.
    pub value: i32,
    /// Positions searched to prove it.
    pub nodes: u64,
    /// How long that took.
    pub time: Duration,
}

/// A position solved by [`solve`]: every hole's exact value, best first (the first is the
/// position's value), and a line of perfect play that starts with the best hole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Every legal hole, best first; empty when the game is over.
    pub moves: Vec<SolvedMove>,
    /// Perfect play from the position to the end of the game.
    pub line: Vec<Cell>,
}

/// Solves `position`: the exact value of every legal hole, each proved by a search to the end
/// of the game with `searcher` (its threads and its table, which the holes share). `solved`
/// hears of each hole as its proof ends, for a caller that shows progress. A swap, where the
/// rule allows it, is worth minus the best hole's value (the board stays, the colours change).
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::{Searcher, analysis::solve};
/// use kulami_core::{Layout, Position, Scoring};
/// let position = Position::new(Arc::new(Layout::parse("AABB/CCDD").unwrap()));
/// let solution = solve(&mut Searcher::new(1, 1), &position, Scoring::Standard, |_| {});
/// assert_eq!(solution.moves.len(), 8);
/// assert!(solution.moves.windows(2).all(|pair| pair[0].value >= pair[1].value));
/// assert_eq!(solution.line.first(), Some(&solution.moves[0].cell));
/// ```
pub fn solve(
    searcher: &mut Searcher,
    position: &Position,
    scoring: Scoring,
    mut solved: impl FnMut(&SolvedMove),
) -> Solution {
    let state = KulamiState::new(position.clone(), scoring);
    let mut moves = Vec::new();
    let mut best_line: Option<(i32, Vec<Cell>)> = None;
    for cell in state.moves() {
        let mut child = state.clone();
        child.play(cell);
        let result = searcher.search(&child, &KulamiEvaluator::tuned(state.scoring()), Limits::default(), None);
        debug_assert!(result.exact, "an unlimited search ends solved");
        // Kulami's players alternate, so the child's value is the opponent's.
        let proved = SolvedMove { cell, value: -result.value, nodes: result.nodes, time: result.time };
        solved(&proved);
        if best_line.as_ref().is_none_or(|(value, _)| proved.value > *value) {
            best_line = Some((proved.value, std::iter::once(cell).chain(result.pv).collect()));
        }
        moves.push(proved);
    }
    // Stable: of equal holes, the first in the board's order leads.
    moves.sort_by_key(|proved| std::cmp::Reverse(proved.value));
    Solution { moves, line: best_line.map(|(_, line)| line).unwrap_or_default() }
}

/// Solves `position` for its value alone: one search to the end of the game, which proves a
/// best hole and no more (far quicker than [`solve`], which values every hole). The solution's
/// moves hold that hole only; empty when the game is over.
#[must_use]
pub fn solve_best(searcher: &mut Searcher, position: &Position, scoring: Scoring) -> Solution {
    let state = KulamiState::new(position.clone(), scoring);
    let result = searcher.search(&state, &KulamiEvaluator::tuned(state.scoring()), Limits::default(), None);
    debug_assert!(result.exact, "an unlimited search ends solved");
    match result.best.filter(|_| !position.is_game_over()) {
        Some(cell) => Solution {
            moves: vec![SolvedMove { cell, value: result.value, nodes: result.nodes, time: result.time }],
            line: result.pv,
        },
        None => Solution { moves: Vec::new(), line: Vec::new() },
    }
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
    review(start, moves, scoring, |state| {
        let ranked = searcher.rank_moves(state, &KulamiEvaluator::tuned(state.scoring()), limits);
        Some((ranked.moves, ranked.exact))
    })
}

/// The same review as level 5 judges each position, thinking for `time` on `threads`, as
/// [`master_hints`] does: its choice is the best move, and a move's value is the evaluation
/// where its line ends (exact once the end is within the solver's reach), so a move it would not
/// choose costs what its line is worth less, if anything. Setting `cancel` ends the review with
/// the moves reviewed so far.
#[must_use]
pub fn master_analysis(
    start: &Position,
    moves: &[Move],
    scoring: Scoring,
    time: Duration,
    threads: usize,
    cancel: Option<&AtomicBool>,
) -> Vec<MoveReview> {
    let mut solver = None;
    review(start, moves, scoring, |state| {
        let ranking = master_ranking(&mut solver, state, time, threads, cancel);
        let cancelled = cancel.is_some_and(|cancel| cancel.load(Ordering::Relaxed));
        (!cancelled).then_some(ranking)
    })
}

/// The review of every placement of `moves` from `start`, each position ranked by `rank` (every
/// legal hole with its value for the side to move, the best first, and whether the values are
/// exact; `None` ends the review).
fn review(
    start: &Position,
    moves: &[Move],
    scoring: Scoring,
    mut rank: impl FnMut(&KulamiState) -> Option<(Vec<(Cell, i32)>, bool)>,
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
        let Some((ranked, exact)) = rank(&KulamiState::new(position.clone(), scoring)) else { break };
        let Some(&(best, best_value)) = ranked.first() else { break };
        let Some(&(_, played_value)) = ranked.iter().find(|(cell, _)| *cell == played) else { break };
        let mover = position.side_to_move();
        let value_for_red = if mover == Color::Red { played_value } else { -played_value };
        reviews.push(MoveReview {
            number: index + 1,
            mover,
            played,
            value_for_red,
            best,
            loss: (best_value - played_value).max(0),
            exact,
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
    fn master_hints_are_the_solvers_near_the_end_and_the_tree_searchs_before() {
        // Twelve holes: within the solver's reach, so the hints are the exact ranking.
        let small = Position::new(Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap()));
        let exact = hints(&mut Searcher::new(1, 1), &small, Scoring::Standard, Limits::default(), 3);
        let near_end = master_hints(&small, Scoring::Standard, Duration::from_millis(200), 1, 3, None);
        assert!(near_end.iter().all(|hint| hint.exact));
        assert_eq!(
            near_end.iter().map(|hint| hint.value).collect::<Vec<_>>(),
            exact.iter().map(|hint| hint.value).collect::<Vec<_>>()
        );
        // The classic board's 56 plies are far beyond it: the tree search's holes, on the
        // point scale (a marble this early is worth a few points at most).
        let classic = Position::new(Arc::new(
            Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap(),
        ))
        .replay(&parse_moves("d4 d7 g7").unwrap())
        .unwrap();
        for threads in [1, 2] {
            let tree = master_hints(&classic, Scoring::Standard, Duration::from_millis(300), threads, 3, None);
            assert_eq!(tree.len(), 3);
            assert!(tree.iter().all(|hint| !hint.exact && hint.value.abs() < 20 * crate::POINT), "{tree:?}");
            assert!(tree.iter().all(|hint| classic.legal_moves().contains(hint.cell)));
            assert!(tree[0].cell != tree[1].cell && tree[1].cell != tree[2].cell && tree[0].cell != tree[2].cell);
        }
        // A cancelled search still answers, with what one playout found.
        let cancelled =
            master_hints(&classic, Scoring::Standard, Duration::from_secs(60), 1, 3, Some(&AtomicBool::new(true)));
        assert!(!cancelled.is_empty() && classic.legal_moves().contains(cancelled[0].cell));
    }

    #[test]
    fn the_master_review_is_exact_near_the_end_and_the_tree_searchs_before() {
        // Fifteen holes: within the solver's reach, so it is the exact review; the game opens
        // with the worst hole.
        let small = Position::new(Arc::new(Layout::parse("AABBB/AACCD/EEFFD").unwrap()));
        let all = hints(&mut Searcher::new(1, 1), &small, Scoring::Standard, Limits::default(), 15);
        let worst = all.last().unwrap();
        assert!(worst.value < all[0].value);
        let moves = [vec![Move::Place(worst.cell)], parse_moves("a3 c3 c1").unwrap()].concat();
        let exact = analyse(&mut Searcher::new(1, 1), &small, &moves, Scoring::Standard, Limits::default());
        let master = master_analysis(&small, &moves, Scoring::Standard, Duration::from_millis(200), 1, None);
        let judged = |reviews: &[MoveReview]| -> Vec<(i32, i32, bool)> {
            reviews.iter().map(|review| (review.value_for_red, review.loss, review.exact)).collect()
        };
        assert_eq!(judged(&master), judged(&exact));
        assert_eq!(master[0].loss, all[0].value - worst.value, "{master:?}");
        // The classic board's opening is far beyond it: the tree search's judgement of each move.
        let classic = Position::new(Arc::new(
            Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap(),
        ));
        let moves = parse_moves("d4 d7 g7 g2").unwrap();
        let reviews = master_analysis(&classic, &moves, Scoring::Both, Duration::from_millis(100), 2, None);
        assert_eq!(reviews.iter().map(|review| review.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let mut position = classic.clone();
        for (review, &played) in reviews.iter().zip(&moves) {
            assert_eq!(Move::Place(review.played), played);
            assert!(position.legal_moves().contains(review.best) && !review.exact, "{review:?}");
            assert!(review.loss >= 0 && (review.played != review.best || review.loss == 0), "{review:?}");
            assert!(review.value_for_red.abs() < 20 * crate::POINT, "on the point scale: {review:?}");
            position.play_move(played).unwrap();
        }
        // A cancelled review stops: what it has is not worth showing.
        let cancelled = master_analysis(
            &classic,
            &moves,
            Scoring::Standard,
            Duration::from_secs(60),
            1,
            Some(&AtomicBool::new(true)),
        );
        assert!(cancelled.is_empty(), "{cancelled:?}");
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

    #[test]
    fn a_solution_agrees_with_minimax_and_its_line_keeps_the_value() {
        // A board whose holes differ: some win, some lose.
        let layout = Arc::new(Layout::parse("AABBB/AACCD/EEFFD").unwrap());
        for moves in ["", "c1"] {
            let position = Position::new(layout.clone()).replay(&parse_moves(moves).unwrap()).unwrap();
            let mut heard = Vec::new();
            let solution = solve(&mut Searcher::new(1, 2), &position, Scoring::Standard, |m| heard.push(m.cell));
            let state = KulamiState::new(position.clone(), Scoring::Standard);
            let legal: Vec<Cell> = state.moves().into_iter().collect();
            assert_eq!(heard, legal, "every hole is reported once, in the board's order");
            for proved in &solution.moves {
                let mut child = state.clone();
                child.play(proved.cell);
                assert_eq!(proved.value, -game_search::minimax(&mut child), "{moves}: {}", proved.cell);
            }
            assert!(solution.moves.windows(2).all(|pair| pair[0].value >= pair[1].value), "best first");
            assert!(solution.moves[0].value > solution.moves.last().unwrap().value, "{moves}: the holes differ");
            let mut end = state.clone();
            for &cell in &solution.line {
                end.play(cell);
            }
            let final_margin = end.terminal_value().expect("the line reaches the end");
            let for_mover = if solution.line.len() % 2 == 0 { final_margin } else { -final_margin };
            assert_eq!(for_mover, solution.moves[0].value, "{moves}: the line plays to the value");
            let best = solve_best(&mut Searcher::new(1, 1), &position, Scoring::Standard);
            assert_eq!(best.moves.len(), 1);
            assert_eq!(best.moves[0].value, solution.moves[0].value, "{moves}: the value alone");
            let best_hole = solution.moves.iter().find(|proved| proved.cell == best.moves[0].cell).unwrap();
            assert_eq!(best_hole.value, solution.moves[0].value, "{moves}: its hole is a best one");
            assert_eq!(best.line.first(), Some(&best.moves[0].cell));
        }
    }

    #[test]
    fn a_finished_game_has_nothing_to_solve() {
        let layout = Arc::new(Layout::parse("AABB").unwrap());
        let over = Position::new(layout).replay(&parse_moves("a1 c1").unwrap()).unwrap();
        assert!(over.is_game_over());
        let solution = solve(&mut Searcher::new(1, 1), &over, Scoring::Standard, |_| panic!("no hole to hear of"));
        assert_eq!(solution, Solution { moves: Vec::new(), line: Vec::new() });
        assert_eq!(solve_best(&mut Searcher::new(1, 1), &over, Scoring::Standard), solution);
    }
}
