//! Matches between players: games on a list of boards, each board played twice with colours
//! swapped, several games at a time.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use kulami_core::{Cell, Color, Layout, Position, Scoring, Winner};

use crate::engine::Engine;

/// A player that failed: crashed, timed out, or answered something that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlayerError(pub String);

/// Anything that can play Kulami: a built-in engine or an external program.
pub trait Player: Send {
    /// A short name for results tables.
    fn name(&self) -> String;
    /// Prepares for a new game.
    ///
    /// # Errors
    /// If the player cannot start one.
    fn new_game(&mut self, layout: &Arc<Layout>, scoring: Scoring) -> Result<(), PlayerError>;
    /// The move for the side to move in `position`.
    ///
    /// # Errors
    /// If the player fails to answer.
    fn choose(&mut self, position: &Position, scoring: Scoring) -> Result<Cell, PlayerError>;
}

impl Player for Engine {
    fn name(&self) -> String {
        self.level().to_string()
    }

    fn new_game(&mut self, _layout: &Arc<Layout>, _scoring: Scoring) -> Result<(), PlayerError> {
        Engine::new_game(self);
        Ok(())
    }

    fn choose(&mut self, position: &Position, scoring: Scoring) -> Result<Cell, PlayerError> {
        Engine::choose(self, position, scoring, None).best.ok_or_else(|| PlayerError("no move in a live game".into()))
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// Index of the board in the match's list.
    pub board: usize,
    /// The colour of the first player (A).
    pub a_color: Color,
    /// The moves played.
    pub moves: Vec<Cell>,
    /// Final totals, red and black.
    pub totals: (usize, usize),
    /// Points for A: 1, 0.5 or 0.
    pub a_points: f64,
    /// Why the game ended early, if a player failed (that player loses).
    pub forfeit: Option<String>,
}

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The moves played.
    pub moves: Vec<Cell>,
    /// The winner; a player that fails loses.
    pub winner: Winner,
    /// Final totals, red and black (as the board stood if a player failed).
    pub totals: (usize, usize),
    /// Which player failed and how.
    pub forfeit: Option<String>,
}

/// Plays one game between `red` and `black`.
pub fn play_game<'p>(
    red: &mut (dyn Player + 'p),
    black: &mut (dyn Player + 'p),
    layout: &Arc<Layout>,
    scoring: Scoring,
) -> GameResult {
    let mut position = Position::new(Arc::clone(layout));
    let end = |position: &Position, winner, forfeit| {
        let score = position.score(scoring);
        GameResult { moves: position.moves().to_vec(), winner, totals: (score.red.total, score.black.total), forfeit }
    };
    for color in Color::BOTH {
        let player = if color == Color::Red { &mut *red } else { &mut *black };
        if let Err(error) = player.new_game(layout, scoring) {
            let reason = format!("{} ({color}) could not start: {error}", player.name());
            return end(&position, Winner::from(color.other()), Some(reason));
        }
    }
    while !position.is_game_over() {
        let color = position.side_to_move();
        let player = if color == Color::Red { &mut *red } else { &mut *black };
        let failure = match player.choose(&position, scoring) {
            Ok(cell) => position.play(cell).err().map(|error| format!("illegal move {cell}: {error}")),
            Err(error) => Some(error.to_string()),
        };
        if let Some(reason) = failure {
            let reason = format!("{} ({color}) forfeits: {reason}", player.name());
            return end(&position, Winner::from(color.other()), Some(reason));
        }
    }
    let winner = position.score(scoring).winner;
    end(&position, winner, None)
}

/// What a match plays.
pub struct MatchPlan {
    /// The boards; each is played twice, A as red then A as black.
    pub boards: Vec<Arc<Layout>>,
    /// The scoring.
    pub scoring: Scoring,
    /// Games played at once.
    pub concurrency: usize,
}

/// Plays the match. `make_player(0)` and `make_player(1)` build players A and B for one worker
/// thread (a player that cannot be built forfeits its games);
/// `on_game` hears of each game as it ends (from any thread) and may stop the match by returning
/// `ControlFlow::Break` (games under way still finish).
pub fn run_match<F>(
    plan: &MatchPlan,
    make_player: F,
    on_game: impl Fn(&GameOutcome) -> ControlFlow<()> + Sync,
) -> Vec<GameOutcome>
where
    F: Fn(usize) -> Result<Box<dyn Player>, PlayerError> + Sync,
{
    let jobs = plan.boards.len() * 2;
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let outcomes = Mutex::new(Vec::with_capacity(jobs));
    std::thread::scope(|scope| {
        for _ in 0..plan.concurrency.clamp(1, jobs.max(1)) {
            scope.spawn(|| {
                let mut players = [make_player(0), make_player(1)];
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= jobs || stopped.load(Ordering::Relaxed) {
                        break;
                    }
                    let (board, a_color) = (job / 2, if job.is_multiple_of(2) { Color::Red } else { Color::Black });
                    let GameResult { moves, winner, totals, forfeit } = match &mut players {
                        [Ok(a), Ok(b)] => {
                            let (red, black) = if a_color == Color::Red { (a, b) } else { (b, a) };
                            play_game(red.as_mut(), black.as_mut(), &plan.boards[board], plan.scoring)
                        }
                        [a, b] => {
                            let (failed, error) = match (a, b) {
                                (Err(error), _) => (a_color, error),
                                (_, Err(error)) => (a_color.other(), error),
                                _ => unreachable!("both players were built"),
                            };
                            let forfeit = Some(format!("{failed} could not start: {error}"));
                            GameResult {
                                moves: Vec::new(),
                                winner: Winner::from(failed.other()),
                                totals: (0, 0),
                                forfeit,
                            }
                        }
                    };
                    let a_points = match winner {
                        Winner::Draw => 0.5,
                        winner if winner == Winner::from(a_color) => 1.0,
                        _ => 0.0,
                    };
                    let outcome = GameOutcome { board, a_color, moves, totals, a_points, forfeit };
                    if on_game(&outcome).is_break() {
                        stopped.store(true, Ordering::Relaxed);
                    }
                    outcomes.lock().expect("no thread panics holding it").push(outcome);
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().expect("no thread panicked");
    outcomes.sort_by_key(|outcome| (outcome.board, outcome.a_color));
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, Level};

    /// Always plays a cell that is never legal.
    struct Broken;
    impl Player for Broken {
        fn name(&self) -> String {
            "broken".into()
        }
        fn new_game(&mut self, _: &Arc<Layout>, _: Scoring) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, _: &Position, _: Scoring) -> Result<Cell, PlayerError> {
            Ok(Cell::from_index(99).unwrap())
        }
    }

    #[test]
    fn a_match_plays_each_board_with_both_colours() {
        let board = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
        let boards = vec![Arc::clone(&board), board];
        let plan = MatchPlan { boards, scoring: Scoring::Standard, concurrency: 2 };
        let make = |side: usize| -> Result<Box<dyn Player>, PlayerError> {
            Ok(if side == 0 { Box::new(Engine::new(Level::Club, EngineOptions::default())) } else { Box::new(Broken) })
        };
        let seen = AtomicUsize::new(0);
        let outcomes = run_match(&plan, make, |_| {
            seen.fetch_add(1, Ordering::Relaxed);
            ControlFlow::Continue(())
        });
        assert_eq!(outcomes.len(), 4);
        assert_eq!(seen.load(Ordering::Relaxed), 4);
        assert_eq!(outcomes.iter().filter(|o| o.a_color == Color::Red).count(), 2);
        for outcome in &outcomes {
            assert_eq!(outcome.a_points, 1.0, "the broken player forfeits every game");
            assert!(outcome.forfeit.as_deref().unwrap().starts_with("broken"));
        }
        let stop_after_one = run_match(&MatchPlan { concurrency: 1, ..plan }, make, |_| ControlFlow::Break(()));
        assert_eq!(stop_after_one.len(), 1);
    }
}
