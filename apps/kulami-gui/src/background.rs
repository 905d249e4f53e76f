//! Work off the UI thread: the engine's move and the hints. The window starts a task and polls
//! it each frame; a task made for another position than the one on the board is ignored, and
//! dropping a move task tells its search to stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use kulami_ai::analysis::{Hint, MoveReview, analyse, hints};
use kulami_ai::{Engine, EngineOptions, Level, Limits};
use kulami_core::{Cell, Game, Position, Scoring};

use crate::state::Action;

/// One piece of work on its own thread, for the position with these moves.
pub struct Task<T> {
    moves: Vec<Cell>,
    receiver: Receiver<T>,
    cancel: Arc<AtomicBool>,
}

impl<T: Send + 'static> Task<T> {
    fn spawn(position: &Position, work: impl FnOnce(&AtomicBool) -> T + Send + 'static) -> Task<T> {
        let (sender, receiver) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            // The window may have dropped the task; then nobody wants the answer.
            let _ = sender.send(work(&flag));
        });
        Task { moves: position.moves().to_vec(), receiver, cancel }
    }

    /// The moves of the position the task was made for.
    #[must_use]
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// Whether the task was made for `position`.
    #[must_use]
    pub fn is_for(&self, position: &Position) -> bool {
        self.moves == position.moves()
    }

    /// Where the task is.
    pub fn poll(&self) -> Status<T> {
        match self.receiver.try_recv() {
            Ok(answer) => Status::Done(answer),
            Err(TryRecvError::Empty) => Status::Working,
            Err(TryRecvError::Disconnected) => Status::Lost,
        }
    }
}

/// What [`Task::poll`] found.
pub enum Status<T> {
    /// Still working.
    Working,
    /// The answer.
    Done(T),
    /// The thread ended without answering.
    Lost,
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The engine's turn in `position` at `level`: a move, or the swap if `may_swap` and the engine
/// would rather have the first marble.
pub fn engine_move(
    position: &Position,
    scoring: Scoring,
    level: Level,
    move_time: Duration,
    may_swap: bool,
) -> Task<Option<Action>> {
    let snapshot = position.clone();
    Task::spawn(position, move |cancel| {
        let options = EngineOptions { move_time, table_megabytes: 32, ..EngineOptions::default() };
        let mut engine = Engine::new(level, options);
        if may_swap && engine.wants_swap(&snapshot, scoring) {
            return Some(Action::Swap);
        }
        engine.choose(&snapshot, scoring, Some(cancel)).best.map(Action::Place)
    })
}

/// The review of every move played so far in `game`.
pub fn analysis(game: &Game) -> Task<Vec<MoveReview>> {
    let start = Position::new(Arc::clone(game.position().layout()));
    let moves = game.position().moves().to_vec();
    let scoring = game.scoring();
    Task::spawn(game.position(), move |_| analyse(&start, &moves, scoring, Limits::time(Duration::from_millis(150))))
}

/// The three strongest holes in `position`.
pub fn strongest_holes(position: &Position, scoring: Scoring) -> Task<Vec<Hint>> {
    let snapshot = position.clone();
    Task::spawn(position, move |_| hints(&snapshot, scoring, Limits::time(Duration::from_millis(600)), 3))
}
