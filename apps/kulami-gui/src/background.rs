//! Work off the UI thread: the engine's move and the hints. The window starts a task and polls
//! it each frame; a task made for another position than the one on the board is ignored, and
//! dropping a move task tells its search to stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use kulami_ai::analysis::{Hint, MoveReview, analyse, hints};
use kulami_ai::{Engine, EngineOptions, Level, Limits, Searcher, TimeControl};
use kulami_core::{Game, Move, Position, Scoring};

use crate::state::Action;

/// What a piece of work was asked about: exactly one position (board, swap rule, moves) under
/// one scoring. Its answer belongs to that and nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The position.
    pub position: Position,
    /// The scoring.
    pub scoring: Scoring,
}

impl Asked {
    /// Whether this is `position` under `scoring`: the same board, rules and moves.
    #[must_use]
    pub fn is_for(&self, position: &Position, scoring: Scoring) -> bool {
        self.scoring == scoring && self.position == *position
    }
}

/// One piece of work on its own thread, for what it was [`Asked`].
#[derive(Debug)]
pub struct Task<T> {
    asked: Asked,
    receiver: Receiver<T>,
    cancel: Arc<AtomicBool>,
}

impl<T: Send + 'static> Task<T> {
    fn spawn(position: &Position, scoring: Scoring, work: impl FnOnce(&AtomicBool) -> T + Send + 'static) -> Task<T> {
        let (sender, receiver) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            // The window may have dropped the task; then nobody wants the answer.
            let _ = sender.send(work(&flag));
        });
        Task { asked: Asked { position: position.clone(), scoring }, receiver, cancel }
    }

    /// What the task was made for.
    #[must_use]
    pub fn asked(&self) -> &Asked {
        &self.asked
    }

    /// Whether the task was made for `position` under `scoring`.
    #[must_use]
    pub fn is_for(&self, position: &Position, scoring: Scoring) -> bool {
        self.asked.is_for(position, scoring)
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
#[derive(Debug)]
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

/// The engine's turn in `position` at `level`: a move, or the swap if the rule allows it and
/// the engine would rather have the first marble.
pub fn engine_move(position: &Position, scoring: Scoring, level: Level, move_time: Duration) -> Task<Option<Action>> {
    let snapshot = position.clone();
    Task::spawn(position, scoring, move |cancel| {
        let options = EngineOptions::default().with_time(TimeControl::PerMove(move_time)).with_table_megabytes(32);
        let mut engine = Engine::new(level, options);
        engine.choose(&snapshot, scoring, Some(cancel)).best.map(|chosen| match chosen {
            Move::Swap => Action::Swap,
            Move::Place(cell) => Action::Place(cell),
        })
    })
}

/// The review of every move played so far in `game`.
pub fn analysis(game: &Game) -> Task<Vec<MoveReview>> {
    let position = game.position();
    let start = Position::new(Arc::clone(position.layout())).with_swap_rule(position.swap_rule());
    let moves: Vec<Move> = position.moves().collect();
    let scoring = game.scoring();
    Task::spawn(position, scoring, move |_| {
        analyse(&mut Searcher::new(64, 1), &start, &moves, scoring, Limits::time(Duration::from_millis(150)))
    })
}

/// The three strongest holes in `position`.
pub fn strongest_holes(position: &Position, scoring: Scoring) -> Task<Vec<Hint>> {
    let snapshot = position.clone();
    Task::spawn(position, scoring, move |_| {
        hints(&mut Searcher::new(32, 1), &snapshot, scoring, Limits::time(Duration::from_millis(600)), 3)
    })
}
