//! Work off the UI thread: the engine's move and the hints. The window starts a task and polls
//! it each frame; a task made for another position than the one on the board is ignored, and
//! dropping a move task tells its search to stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use kulami_ai::analysis::{Hint, hints};
use kulami_ai::{Engine, EngineOptions, Level, Limits};
use kulami_core::{Cell, Position, Scoring};

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

/// The engine's move in `position` at `level`.
pub fn engine_move(position: &Position, scoring: Scoring, level: Level, move_time: Duration) -> Task<Option<Cell>> {
    let snapshot = position.clone();
    Task::spawn(position, move |cancel| {
        let options = EngineOptions { move_time, table_megabytes: 32, ..EngineOptions::default() };
        Engine::new(level, options).choose(&snapshot, scoring, Some(cancel)).best
    })
}

/// The three strongest holes in `position`.
pub fn strongest_holes(position: &Position, scoring: Scoring) -> Task<Vec<Hint>> {
    let snapshot = position.clone();
    Task::spawn(position, move |_| hints(&snapshot, scoring, Limits::time(Duration::from_millis(600)), 3))
}
