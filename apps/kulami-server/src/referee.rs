//! One game as the server referees it: the rules (asked of `kulami-core`), whose turn it is, the
//! clocks and how the game ended. Pure: every call takes the time, so it is tested without a clock
//! or a database.

use std::sync::Arc;

use kulami_core::{Color, Layout, Move, MoveError, Position, ReplayError, Scoring, Winner};

/// Milliseconds since the Unix epoch, the server's one notion of time.
pub type Millis = i64;

/// A chess clock's settings: the time each player starts with and gains per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    /// Starting time, in milliseconds.
    pub limit_ms: i64,
    /// Time added after each of the player's moves once their clock runs, in milliseconds.
    pub increment_ms: i64,
}

/// Everything fixed when a game starts.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The board, with its marbles per player.
    pub layout: Arc<Layout>,
    /// How the game is scored.
    pub scoring: Scoring,
    /// Whether the second player may take over the first marble.
    pub swap: bool,
    /// The clock, or `None` for correspondence.
    pub clock: Option<ClockSettings>,
}

/// The two players by the order they move in: `First` makes the first move (and plays red
/// unless the second player swaps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Seat {
    /// Both seats, first first.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other player.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// How far a game has got, with the names of `docs/ONLINE.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Being played.
    Started,
    /// Ended by the rules.
    Finished,
    /// A player resigned.
    Resign,
    /// The player to move ran out of time.
    Timeout,
    /// Called off before both players had moved; not rated.
    Aborted,
}

impl Status {
    /// The name used on the wire and in the database.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Started => "started",
            Status::Finished => "finished",
            Status::Resign => "resign",
            Status::Timeout => "timeout",
            Status::Aborted => "aborted",
        }
    }

    /// The status called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Status> {
        [Status::Started, Status::Finished, Status::Resign, Status::Timeout, Status::Aborted]
            .into_iter()
            .find(|status| status.as_str() == name)
    }
}

/// Why a player's action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(&'static str),
    /// The other player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move breaks the rules.
    #[error("illegal move {played}: {reason}")]
    Illegal {
        /// The move.
        played: Move,
        /// The rules' reason.
        reason: MoveError,
    },
    /// Both players have moved: the game can only be resigned now.
    #[error("the game can no longer be aborted: both players have moved")]
    TooLateToAbort,
}

/// The stored form of a game's changing state could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The moves are not a legal game on the board.
    #[error(transparent)]
    Moves(#[from] ReplayError),
    /// A running clock without remaining times.
    #[error("the game has a clock but no remaining times")]
    MissingClocks,
}

/// The state of a game that changes as it is played, in the form it is stored in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The moves so far.
    pub moves: Vec<Move>,
    /// Each seat's remaining time as of `turn_started` (`None` without a clock).
    pub clocks: Option<[i64; 2]>,
    /// When the clock of the player to move started running; `None` while no clock runs.
    pub turn_started: Option<Millis>,
    /// How far the game has got.
    pub status: Status,
    /// The result, once there is one.
    pub winner: Option<Winner>,
}

/// A game in play: settings, position, clocks and result.
#[derive(Clone, Debug)]
pub struct Table {
    settings: GameSettings,
    position: Position,
    clocks: Option<[i64; 2]>,
    turn_started: Option<Millis>,
    status: Status,
    winner: Option<Winner>,
}

impl Table {
    /// A new game, nobody's clock running.
    #[must_use]
    pub fn new(settings: GameSettings) -> Table {
        let position = Position::new(Arc::clone(&settings.layout)).with_swap_rule(settings.swap);
        let clocks = settings.clock.map(|clock| [clock.limit_ms; 2]);
        Table { settings, position, clocks, turn_started: None, status: Status::Started, winner: None }
    }

    /// A game from its stored progress.
    ///
    /// # Errors
    /// The moves are not legal on the board, or a clocked game lacks its times.
    pub fn restore(settings: GameSettings, progress: Progress) -> Result<Table, RestoreError> {
        let position =
            Position::new(Arc::clone(&settings.layout)).with_swap_rule(settings.swap).replay(&progress.moves)?;
        if settings.clock.is_some() && progress.clocks.is_none() {
            return Err(RestoreError::MissingClocks);
        }
        let clocks = settings.clock.and(progress.clocks);
        Ok(Table {
            settings,
            position,
            clocks,
            turn_started: progress.turn_started,
            status: progress.status,
            winner: progress.winner,
        })
    }

    /// The state to store.
    #[must_use]
    pub fn progress(&self) -> Progress {
        Progress {
            moves: self.position.moves().collect(),
            clocks: self.clocks,
            turn_started: self.turn_started,
            status: self.status,
            winner: self.winner,
        }
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// The position on the board.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How far the game has got.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The result, once the game has ended (`None` for an aborted game).
    #[must_use]
    pub fn winner(&self) -> Option<Winner> {
        self.winner
    }

    /// Whether the game is still being played.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.status == Status::Started
    }

    /// Whose turn it is: the seats alternate, the swap being a move.
    #[must_use]
    pub fn seat_to_move(&self) -> Seat {
        if self.position.move_count().is_multiple_of(2) { Seat::First } else { Seat::Second }
    }

    /// The marbles' colour a seat plays: after a swap the first player plays black.
    #[must_use]
    pub fn color_of(&self, seat: Seat) -> Color {
        match (seat, self.position.swapped()) {
            (Seat::First, false) | (Seat::Second, true) => Color::Red,
            (Seat::First, true) | (Seat::Second, false) => Color::Black,
        }
    }

    /// The seat playing `color`.
    #[must_use]
    pub fn seat_of(&self, color: Color) -> Seat {
        if self.color_of(Seat::First) == color { Seat::First } else { Seat::Second }
    }

    /// A seat's time left at `now` (`None` without a clock). Only the player to move's clock runs,
    /// and only while the game does.
    #[must_use]
    pub fn remaining(&self, seat: Seat, now: Millis) -> Option<i64> {
        let clocks = self.clocks?;
        let stored = clocks[seat.index()];
        Some(match self.turn_started {
            Some(started) if self.is_running() && seat == self.seat_to_move() => {
                (stored - (now - started).max(0)).max(0)
            }
            _ => stored,
        })
    }

    /// When the player to move runs out of time, if their clock runs.
    #[must_use]
    pub fn deadline(&self) -> Option<Millis> {
        let clocks = self.clocks?;
        let started = self.turn_started?;
        self.is_running().then(|| started + clocks[self.seat_to_move().index()])
    }

    /// Ends the game if the player to move is out of time at `now`; says whether it did.
    pub fn flag(&mut self, now: Millis) -> bool {
        match self.deadline() {
            Some(deadline) if now >= deadline => {
                let loser = self.seat_to_move();
                if let Some(clocks) = &mut self.clocks {
                    clocks[loser.index()] = 0;
                }
                self.finish(Status::Timeout, Some(self.color_of(loser.other()).into()), now);
                true
            }
            _ => false,
        }
    }

    /// `seat` plays `played` at `now`. A player whose time ran out before the move loses on time
    /// instead: the game ends, and the move is refused with [`ActionError::GameOver`].
    ///
    /// # Errors
    /// The game is over (or just ended on time), it is the other player's turn, or the move is
    /// illegal.
    pub fn play(&mut self, seat: Seat, played: Move, now: Millis) -> Result<(), ActionError> {
        self.check_running()?;
        if self.flag(now) {
            return Err(ActionError::GameOver(Status::Timeout.as_str()));
        }
        if seat != self.seat_to_move() {
            return Err(ActionError::NotYourTurn);
        }
        self.position.play_move(played).map_err(|reason| ActionError::Illegal { played, reason })?;
        if let (Some(clocks), Some(started), Some(clock)) = (&mut self.clocks, self.turn_started, self.settings.clock) {
            clocks[seat.index()] += clock.increment_ms - (now - started).max(0);
        }
        // From the first move on, the clock of the player to move runs.
        self.turn_started = self.clocks.map(|_| now);
        if self.position.is_game_over() {
            let winner = self.position.score(self.settings.scoring).winner;
            self.finish(Status::Finished, Some(winner), now);
        }
        Ok(())
    }

    /// `seat` resigns at `now`.
    ///
    /// # Errors
    /// The game is over.
    pub fn resign(&mut self, seat: Seat, now: Millis) -> Result<(), ActionError> {
        self.check_running()?;
        if self.flag(now) {
            return Err(ActionError::GameOver(Status::Timeout.as_str()));
        }
        self.finish(Status::Resign, Some(self.color_of(seat.other()).into()), now);
        Ok(())
    }

    /// Calls the game off at `now`, which either player may do until both have moved.
    ///
    /// # Errors
    /// The game is over, or both players have moved.
    pub fn abort(&mut self, now: Millis) -> Result<(), ActionError> {
        self.check_running()?;
        if self.position.move_count() >= 2 {
            return Err(ActionError::TooLateToAbort);
        }
        self.finish(Status::Aborted, None, now);
        Ok(())
    }

    fn check_running(&self) -> Result<(), ActionError> {
        if self.is_running() { Ok(()) } else { Err(ActionError::GameOver(self.status.as_str())) }
    }

    /// Stops the clocks at `now`, as they read then, and records the result.
    fn finish(&mut self, status: Status, winner: Option<Winner>, now: Millis) {
        if let (Some(clocks), Some(_)) = (self.clocks, self.turn_started) {
            let mover = self.seat_to_move();
            let left = self.remaining(mover, now).unwrap_or(clocks[mover.index()]);
            if let Some(clocks) = &mut self.clocks {
                clocks[mover.index()] = left;
            }
        }
        self.turn_started = None;
        self.status = status;
        self.winner = winner;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(clock: Option<ClockSettings>, swap: bool) -> GameSettings {
        let layout = Arc::new(kulami_layouts::preset("classic").expect("classic preset").into_layout());
        GameSettings { layout, scoring: Scoring::Standard, swap, clock }
    }

    const BLITZ: ClockSettings = ClockSettings { limit_ms: 60_000, increment_ms: 2_000 };

    fn mv(text: &str) -> Move {
        text.parse().expect("a move")
    }

    #[test]
    fn nobody_s_clock_runs_before_the_first_move_then_the_mover_s_does() {
        let mut table = Table::new(settings(Some(BLITZ), false));
        assert_eq!(table.deadline(), None);
        assert_eq!(table.remaining(Seat::First, 50_000), Some(60_000));
        table.play(Seat::First, mv("a1"), 10_000).unwrap();
        // No increment for the move made before any clock ran.
        assert_eq!(table.remaining(Seat::First, 10_000), Some(60_000));
        assert_eq!(table.remaining(Seat::Second, 15_000), Some(55_000));
        assert_eq!(table.deadline(), Some(70_000));
        table.play(Seat::Second, mv("a5"), 15_000).unwrap();
        assert_eq!(table.remaining(Seat::Second, 99_000), Some(57_000), "5 s spent, 2 s gained, clock stopped");
        assert_eq!(table.remaining(Seat::First, 16_000), Some(59_000));
    }

    #[test]
    fn only_the_player_to_move_may_move_and_illegal_moves_say_why() {
        let mut table = Table::new(settings(None, false));
        assert_eq!(table.play(Seat::Second, mv("a1"), 0), Err(ActionError::NotYourTurn));
        table.play(Seat::First, mv("a1"), 0).unwrap();
        let error = table.play(Seat::Second, mv("a1"), 0).unwrap_err();
        assert!(matches!(error, ActionError::Illegal { .. }), "{error}");
        assert!(error.to_string().contains("already holds a marble"), "{error}");
    }

    #[test]
    fn running_out_of_time_loses_even_when_the_move_comes_late() {
        let mut table = Table::new(settings(Some(BLITZ), false));
        table.play(Seat::First, mv("a1"), 0).unwrap();
        assert!(!table.flag(59_999));
        let late = table.play(Seat::Second, mv("a5"), 60_000);
        assert_eq!(late, Err(ActionError::GameOver("timeout")));
        assert_eq!((table.status(), table.winner()), (Status::Timeout, Some(Winner::Red)));
        assert_eq!(table.remaining(Seat::Second, 70_000), Some(0));
        assert_eq!(table.deadline(), None);
    }

    #[test]
    fn after_a_swap_the_first_player_plays_black_and_keeps_their_clock() {
        let mut table = Table::new(settings(Some(BLITZ), true));
        table.play(Seat::First, mv("a1"), 0).unwrap();
        table.play(Seat::Second, Move::Swap, 1_000).unwrap();
        assert_eq!(table.color_of(Seat::First), Color::Black);
        assert_eq!(table.seat_of(Color::Red), Seat::Second);
        assert_eq!(table.seat_to_move(), Seat::First);
        assert_eq!(table.remaining(Seat::Second, 1_000), Some(61_000));
        table.resign(Seat::First, 2_000).unwrap();
        assert_eq!(table.winner(), Some(Winner::Red), "the second player, now red, wins");
        assert_eq!(table.remaining(Seat::First, 9_000), Some(59_000), "the clock stopped at the resignation");
    }

    #[test]
    fn abort_only_until_both_have_moved_and_nothing_after_the_end() {
        let mut table = Table::new(settings(None, false));
        table.play(Seat::First, mv("a1"), 0).unwrap();
        table.abort(0).unwrap();
        assert_eq!((table.status(), table.winner()), (Status::Aborted, None));
        assert_eq!(table.resign(Seat::First, 0), Err(ActionError::GameOver("aborted")));

        let mut table = Table::new(settings(None, false));
        table.play(Seat::First, mv("a1"), 0).unwrap();
        table.play(Seat::Second, mv("a5"), 0).unwrap();
        assert_eq!(table.abort(0), Err(ActionError::TooLateToAbort));
    }

    #[test]
    fn a_game_played_out_ends_with_the_rules_result_and_restores_from_its_progress() {
        let mut table = Table::new(settings(Some(BLITZ), false));
        let mut now = 0;
        while table.is_running() {
            let cell = table.position().legal_moves().iter().next().expect("a legal move while running");
            now += 100;
            table.play(table.seat_to_move(), Move::Place(cell), now).unwrap();
        }
        assert_eq!(table.status(), Status::Finished);
        assert_eq!(table.winner(), Some(table.position().score(Scoring::Standard).winner));
        let restored = Table::restore(table.settings().clone(), table.progress()).unwrap();
        assert_eq!(restored.progress(), table.progress());
        assert_eq!(restored.position().moves().count(), table.position().move_count());
    }

    #[test]
    fn a_stored_game_with_illegal_moves_is_refused() {
        let progress = Progress {
            moves: vec![mv("a1"), mv("a1")],
            clocks: None,
            turn_started: None,
            status: Status::Started,
            winner: None,
        };
        assert!(matches!(Table::restore(settings(None, false), progress), Err(RestoreError::Moves(_))));
    }
}
