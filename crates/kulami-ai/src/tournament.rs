//! Matches between Kulami players: games on a list of boards, each board played twice with
//! colours swapped, several games at a time (dealt out by `game_search::matches::run`).

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

use kulami_core::{Color, Layout, Move, MoveError, Position, Scoring, Winner};

use crate::{Clock, Engine, TimeControl};
use game_search::matches::Pairing;

/// A player that failed: crashed, timed out, or answered something that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlayerError(pub String);

/// Anything that can play Kulami: a built-in engine or an external program.
pub trait Player: Send {
    /// A short name for results tables.
    fn name(&self) -> String;
    /// Prepares for a new game from `start` (its board and swap rule).
    ///
    /// # Errors
    /// If the player cannot start one.
    fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError>;
    /// The move for the side to move in `position`; under a game clock, `clock` is the side to
    /// move's (otherwise the player keeps to its own time per move).
    ///
    /// # Errors
    /// If the player fails to answer.
    fn choose(&mut self, position: &Position, scoring: Scoring, clock: Option<Clock>) -> Result<Move, PlayerError>;
    /// Thinks about `position`, the opponent to move, until `cancel` is set (pondering), where
    /// that helps the player's next [`Player::choose`]; by default it returns at once.
    fn ponder(&mut self, _position: &Position, _scoring: Scoring, _cancel: &AtomicBool) {}
}

impl Player for Engine {
    fn name(&self) -> String {
        self.level().to_string()
    }

    fn new_game(&mut self, _start: &Position, _scoring: Scoring) -> Result<(), PlayerError> {
        Engine::new_game(self);
        Ok(())
    }

    fn choose(&mut self, position: &Position, scoring: Scoring, clock: Option<Clock>) -> Result<Move, PlayerError> {
        if let Some(clock) = clock {
            self.set_time_control(TimeControl::Clock(clock));
        }
        Engine::choose(self, position, scoring, None).best.ok_or_else(|| PlayerError("no move in a live game".into()))
    }

    fn ponder(&mut self, position: &Position, scoring: Scoring, cancel: &AtomicBool) {
        Engine::ponder(self, position, scoring, cancel);
    }
}

/// A game clock for both players: `limit` each at the start, `increment` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameClock {
    /// Time for each player at the start.
    pub limit: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// A player that lost by failing rather than on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The colour it played.
    pub color: Color,
    /// Its name.
    pub player: String,
    /// What happened.
    pub reason: ForfeitReason,
}

/// How a player failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ForfeitReason {
    /// It could not start the game.
    CouldNotStart(PlayerError),
    /// It did not answer with a move.
    Failed(PlayerError),
    /// It answered an illegal move.
    Illegal {
        /// The move.
        played: Move,
        /// Why it is illegal.
        error: MoveError,
    },
    /// Its clock ran out while it thought.
    OutOfTime {
        /// How long it thought.
        thought: Duration,
        /// What was left on its clock.
        had: Duration,
    },
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Forfeit { color, player, reason } = self;
        match reason {
            ForfeitReason::CouldNotStart(error) => write!(f, "{player} ({color}) could not start: {error}"),
            ForfeitReason::Failed(error) => write!(f, "{player} ({color}) forfeits: {error}"),
            ForfeitReason::Illegal { played, error } => {
                write!(f, "{player} ({color}) forfeits: illegal move {played}: {error}")
            }
            ForfeitReason::OutOfTime { thought, had } => write!(
                f,
                "{player} ({color}) lost on time: thought {:.3} s with {:.3} s on its clock",
                thought.as_secs_f64(),
                had.as_secs_f64()
            ),
        }
    }
}

impl Forfeit {
    /// Whether the player lost on time.
    #[must_use]
    pub fn is_time_loss(&self) -> bool {
        matches!(self.reason, ForfeitReason::OutOfTime { .. })
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// Index of the board in the match's list.
    pub board: usize,
    /// The seat of the first player (A): the colour A began with.
    pub a_color: Color,
    /// The moves played.
    pub moves: Vec<Move>,
    /// Final totals of the red seat and the black seat.
    pub totals: (usize, usize),
    /// Points for A: 1, 0.5 or 0.
    pub a_points: f64,
    /// Who failed and how, if a player did (that player loses).
    pub forfeit: Option<Forfeit>,
    /// What A and B had left on their clocks when the game ended (zero for a player that ran
    /// out); `None` without a clock.
    pub clock_left: Option<(Duration, Duration)>,
}

/// How one game went, by seat (the player who began as red, the one who began as black).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The moves played.
    pub moves: Vec<Move>,
    /// The winning seat; a player that fails loses.
    pub winner: Winner,
    /// Final totals of the red seat and the black seat (as the board stood if a player failed).
    pub totals: (usize, usize),
    /// Who failed and how.
    pub forfeit: Option<Forfeit>,
    /// What the red seat and the black seat had left on their clocks when the game ended (zero
    /// for a player that ran out); `None` without a clock.
    pub clock_left: Option<(Duration, Duration)>,
}

/// Plays one game from `start` (a new game: its board and swap rule) between `red` (who moves
/// first) and `black`, under `clock` if given (a player whose clock runs out while it thinks
/// loses). After a swap the players exchange colours, each keeping their own clock; the result
/// is told by seat: [`Winner::Red`], the forfeit's colour and the first total are `red`'s.
pub fn play_game<'p>(
    red: &mut (dyn Player + 'p),
    black: &mut (dyn Player + 'p),
    start: &Position,
    scoring: Scoring,
    clock: Option<GameClock>,
) -> GameResult {
    let mut position = start.clone();
    // The seat (the player who began as that colour) that plays `color` now.
    let seat_of = |position: &Position, color: Color| if position.swapped() { color.other() } else { color };
    let end = |position: &Position, forfeit: Option<Forfeit>, clock_left: [Option<Duration>; 2]| {
        let score = position.score(scoring);
        let seat_total = |seat: Color| score.player(seat_of(position, seat)).total;
        let winner = match (&forfeit, score.winner) {
            (Some(forfeit), _) => Winner::from(forfeit.color.other()),
            (None, Winner::Draw) => Winner::Draw,
            (None, Winner::Red) => Winner::from(seat_of(position, Color::Red)),
            (None, Winner::Black) => Winner::from(seat_of(position, Color::Black)),
        };
        let totals = (seat_total(Color::Red), seat_total(Color::Black));
        let clock_left = clock_left[0].zip(clock_left[1]);
        GameResult { moves: position.moves().collect(), winner, totals, forfeit, clock_left }
    };
    let mut remaining = [clock.map(|clock| clock.limit); 2];
    for color in Color::BOTH {
        let player = if color == Color::Red { &mut *red } else { &mut *black };
        if let Err(error) = player.new_game(start, scoring) {
            let reason = ForfeitReason::CouldNotStart(error);
            return end(&position, Some(Forfeit { color, player: player.name(), reason }), remaining);
        }
    }
    while !position.is_game_over() {
        let color = seat_of(&position, position.side_to_move());
        let player = if color == Color::Red { &mut *red } else { &mut *black };
        let own = &mut remaining[color.index()];
        let reading = clock.zip(*own).map(|(clock, left)| Clock { remaining: left, increment: clock.increment });
        let started = Instant::now();
        let answer = player.choose(&position, scoring, reading);
        let thought = started.elapsed();
        let reason = match (answer, reading) {
            (_, Some(reading)) if thought > reading.remaining => {
                Some(ForfeitReason::OutOfTime { thought, had: reading.remaining })
            }
            (Ok(played), _) => position.play_move(played).err().map(|error| ForfeitReason::Illegal { played, error }),
            (Err(error), _) => Some(ForfeitReason::Failed(error)),
        };
        // What the clock shows once the thought is taken off: zero for a player that ran out.
        let left = reading.map(|reading| reading.remaining.saturating_sub(thought));
        if let Some(reason) = reason {
            *own = left;
            return end(&position, Some(Forfeit { color, player: player.name(), reason }), remaining);
        }
        *own = left.zip(reading).map(|(left, reading)| left + reading.increment);
    }
    end(&position, None, remaining)
}

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// The boards; each is played twice, A as red then A as black.
    pub boards: Vec<Arc<Layout>>,
    /// The scoring.
    pub scoring: Scoring,
    /// Games played at once.
    pub concurrency: usize,
    /// The game clock; `None` leaves each player to its own time per move.
    pub clock: Option<GameClock>,
    /// Whether the games are played with the swap rule.
    pub swap_rule: bool,
    /// Games not to play, as (board index, A's colour): those an earlier run of the match
    /// already played.
    pub played: Vec<(usize, Color)>,
}

/// Plays the match. `make_player(0)` and `make_player(1)` build players A and B for one worker
/// thread (a player that cannot be built forfeits its games);
/// `on_game` hears of each game as it ends (from any thread) and may stop the match by returning
/// `ControlFlow::Break` (games under way still finish).
///
/// # Panics
/// If `make_player`, a player or `on_game` panics (the panic is passed on).
pub fn run_match<F>(
    plan: &MatchPlan,
    make_player: F,
    on_game: impl Fn(&GameOutcome) -> ControlFlow<()> + Sync,
) -> Vec<GameOutcome>
where
    F: Fn(usize) -> Result<Box<dyn Player>, PlayerError> + Sync,
{
    let play = |players: &mut [Result<Box<dyn Player>, PlayerError>; 2], pairing: Pairing| {
        let (board, a_color) = (pairing.start, a_color(pairing));
        let GameResult { moves, winner, totals, forfeit, clock_left } = match players {
            [Ok(a), Ok(b)] => {
                let (red, black) = if a_color == Color::Red { (a, b) } else { (b, a) };
                let start = Position::new(Arc::clone(&plan.boards[board])).with_swap_rule(plan.swap_rule);
                play_game(red.as_mut(), black.as_mut(), &start, plan.scoring, plan.clock)
            }
            [a, b] => {
                let (failed, name, error) = match (a, b) {
                    (Err(error), _) => (a_color, "player A", error),
                    (_, Err(error)) => (a_color.other(), "player B", error),
                    _ => unreachable!("both players were built"),
                };
                let reason = ForfeitReason::CouldNotStart(error.clone());
                GameResult {
                    moves: Vec::new(),
                    winner: Winner::from(failed.other()),
                    totals: (0, 0),
                    forfeit: Some(Forfeit { color: failed, player: name.into(), reason }),
                    clock_left: None,
                }
            }
        };
        let a_points = match winner {
            Winner::Draw => 0.5,
            winner if winner == Winner::from(a_color) => 1.0,
            _ => 0.0,
        };
        // By seat, the red seat's first: A's when A began as red.
        let clock_left = clock_left.map(|(red, black)| if a_color == Color::Red { (red, black) } else { (black, red) });
        GameOutcome { board, a_color, moves, totals, a_points, forfeit, clock_left }
    };
    let players = || [make_player(0), make_player(1)];
    let to_play: Vec<Pairing> = Pairing::every(plan.boards.len())
        .into_iter()
        .filter(|&pairing| !plan.played.contains(&(pairing.start, a_color(pairing))))
        .collect();
    let played = game_search::matches::run(&to_play, plan.concurrency, players, play, |_, outcome| on_game(outcome));
    played.into_iter().map(|(_, outcome)| outcome).collect()
}

/// The colour player A begins `pairing`'s game with.
fn a_color(pairing: Pairing) -> Color {
    if pairing.a_first { Color::Red } else { Color::Black }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineOptions, Level};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Always plays a cell that is never legal.
    struct Broken;
    impl Player for Broken {
        fn name(&self) -> String {
            "broken".into()
        }
        fn new_game(&mut self, _: &Position, _: Scoring) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, _: &Position, _: Scoring, _: Option<Clock>) -> Result<Move, PlayerError> {
            Ok(Move::Place(kulami_core::Cell::from_index(99).unwrap()))
        }
    }

    /// Plays the first legal cell after thinking for a fixed time.
    struct Slow(Duration);
    impl Player for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn new_game(&mut self, _: &Position, _: Scoring) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, position: &Position, _: Scoring, _: Option<Clock>) -> Result<Move, PlayerError> {
            std::thread::sleep(self.0);
            Ok(Move::Place(position.legal_moves().first().expect("a live game")))
        }
    }

    /// An engine that notes the number of every move it is asked for.
    struct Noting {
        engine: Engine,
        asked: Vec<usize>,
    }
    impl Player for Noting {
        fn name(&self) -> String {
            "noting".into()
        }
        fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
            Player::new_game(&mut self.engine, start, scoring)
        }
        fn choose(&mut self, position: &Position, scoring: Scoring, clock: Option<Clock>) -> Result<Move, PlayerError> {
            self.asked.push(position.move_count() + 1);
            Player::choose(&mut self.engine, position, scoring, clock)
        }
    }

    #[test]
    fn after_a_swap_the_first_player_answers_as_black_and_the_result_is_by_seat() {
        // On this board every first marble is worth taking over, so the second player swaps.
        let board = Arc::new(Layout::parse("AAB/CCB/DEE/DFF").unwrap());
        let start = Position::new(board).with_swap_rule(true);
        let noting = || Noting { engine: Engine::new(Level::Club, EngineOptions::default()), asked: Vec::new() };
        let (mut first, mut second) = (noting(), noting());
        let result = play_game(&mut first, &mut second, &start, Scoring::Standard, None);
        assert_eq!(result.moves.get(1), Some(&Move::Swap), "{:?}", result.moves);
        assert_eq!(&first.asked[..2], [1, 3], "the first player moves again right after the swap");
        assert_eq!(&second.asked[..2], [2, 4]);
        let end = start.clone().replay(&result.moves).unwrap();
        assert!(end.is_game_over() && end.swapped());
        // The first player now holds black: the result is told by seat.
        let score = end.score(Scoring::Standard);
        assert_eq!(result.totals, (score.black.total, score.red.total));
        let expected = match score.winner {
            Winner::Red => Winner::Black,
            Winner::Black => Winner::Red,
            Winner::Draw => Winner::Draw,
        };
        assert_eq!(result.winner, expected);
    }

    #[test]
    fn a_player_whose_clock_runs_out_loses_and_the_engine_keeps_to_its_clock() {
        let board = Arc::new(Layout::parse("AABBCC/DDEEFF/GGHHII").unwrap());
        let clock = GameClock { limit: Duration::from_millis(300), increment: Duration::from_millis(20) };
        let mut engine = Engine::new(Level::Master, EngineOptions::default());
        let mut slow = Slow(Duration::from_millis(120));
        let start = Position::new(board.clone());
        let result = play_game(&mut engine, &mut slow, &start, Scoring::Standard, Some(clock));
        let forfeit = result.forfeit.expect("the slow player runs out of its 300 ms");
        assert!(forfeit.is_time_loss() && forfeit.color == Color::Black, "{forfeit}");
        assert_eq!(result.winner, Winner::Red);
        assert!(forfeit.to_string().starts_with("slow (black) lost on time: thought 0.1"), "{forfeit}");
        let (engine_left, slow_left) = result.clock_left.expect("a clock game tells what is left");
        assert_eq!(slow_left, Duration::ZERO, "the loser ran out");
        assert!(engine_left > Duration::ZERO && engine_left <= clock.limit + clock.increment * 10, "{engine_left:?}");
        // Level 5 thinks 1 s a move by itself; under a 300 ms clock it must not flag.
        let mut quick = Slow(Duration::ZERO);
        let result = play_game(&mut quick, &mut engine, &start, Scoring::Standard, Some(clock));
        assert_eq!(result.forfeit, None);
        let (quick_left, engine_left) = result.clock_left.expect("a clock game tells what is left");
        let moves_each = result.moves.len().div_ceil(2) as u32;
        assert!(quick_left > clock.limit && quick_left <= clock.limit + clock.increment * moves_each, "{quick_left:?}");
        assert!(engine_left > Duration::ZERO && engine_left < quick_left, "{engine_left:?} against {quick_left:?}");
        assert_eq!(play_game(&mut quick, &mut engine, &start, Scoring::Standard, None).clock_left, None);
        assert_eq!(result.moves.len(), Position::new(board).replay(&result.moves).unwrap().move_count());
    }

    #[test]
    fn a_match_plays_each_board_with_both_colours() {
        let board = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
        let boards = vec![Arc::clone(&board), board];
        let plan = MatchPlan {
            boards,
            scoring: Scoring::Standard,
            concurrency: 2,
            clock: None,
            swap_rule: false,
            played: Vec::new(),
        };
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
            assert!(outcome.forfeit.as_ref().unwrap().to_string().starts_with("broken"));
        }
        let rest =
            run_match(&MatchPlan { played: vec![(0, Color::Red), (1, Color::Black)], ..plan.clone() }, make, |_| {
                ControlFlow::Continue(())
            });
        let games: Vec<(usize, Color)> = rest.iter().map(|outcome| (outcome.board, outcome.a_color)).collect();
        assert_eq!(games, [(0, Color::Black), (1, Color::Red)], "the games not played before, in order");
        let stop_after_one = run_match(&MatchPlan { concurrency: 1, ..plan }, make, |_| ControlFlow::Break(()));
        assert_eq!(stop_after_one.len(), 1);
    }

    #[test]
    fn a_clock_match_tells_each_player_what_it_had_left_whichever_colour_it_played() {
        let board = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
        let clock = GameClock { limit: Duration::from_secs(10), increment: Duration::ZERO };
        let plan = MatchPlan {
            boards: vec![board],
            scoring: Scoring::Standard,
            concurrency: 1,
            clock: Some(clock),
            swap_rule: false,
            played: Vec::new(),
        };
        // A answers at once, B thinks 30 ms a move.
        let make = |side: usize| -> Result<Box<dyn Player>, PlayerError> {
            Ok(Box::new(Slow(Duration::from_millis(if side == 0 { 0 } else { 30 }))))
        };
        let outcomes = run_match(&plan, make, |_| ControlFlow::Continue(()));
        assert_eq!(outcomes.len(), 2);
        for outcome in outcomes {
            let (a_left, b_left) = outcome.clock_left.expect("a clock match");
            let b_spent = clock.limit - b_left;
            assert!(a_left > b_left && b_spent >= Duration::from_millis(60), "A {a_left:?}, B {b_left:?}");
        }
    }
}
