//! Work off the UI thread: the engine's move, the hints, the game analysis and the judgement of a
//! puzzle answer. The window starts a task and polls it; a finished task wakes the window (so
//! its answer shows at once, and is applied even while the window is hidden), a task made for
//! another position than the one on the board is ignored, and dropping a task tells its search
//! to stop.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use kulami_ai::analysis::{Hint, MoveReview, analyse, hints};
use kulami_ai::puzzle::{Puzzle, Verdict};
use kulami_ai::{Engine, EngineOptions, Level, Limits, Searcher, TimeControl};
use kulami_core::{Cell, Game, Move, Position, Scoring};

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

/// What a finished task calls to wake the window (`egui::Context::request_repaint`).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// A waker for the window of `ctx`.
#[must_use]
pub fn waking(ctx: &egui::Context) -> Wake {
    let ctx = ctx.clone();
    Arc::new(move || ctx.request_repaint())
}

/// One piece of work on its own thread, for what it was [`Asked`].
#[derive(Debug)]
pub struct Task<T> {
    asked: Asked,
    receiver: Receiver<T>,
    cancel: Arc<AtomicBool>,
}

impl<T: Send + 'static> Task<T> {
    fn spawn(
        position: &Position,
        scoring: Scoring,
        wake: Wake,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Task<T> {
        let (sender, receiver) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            // The window may have dropped the task; then nobody wants the answer.
            if sender.send(work(&flag)).is_ok() {
                wake();
            }
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
pub fn engine_move(
    position: &Position,
    scoring: Scoring,
    level: Level,
    move_time: Duration,
    wake: Wake,
) -> Task<Option<Action>> {
    let snapshot = position.clone();
    Task::spawn(position, scoring, wake, move |cancel| {
        let options = EngineOptions::default().with_time(TimeControl::PerMove(move_time)).with_table_megabytes(32);
        let mut engine = Engine::new(level, options);
        engine.choose(&snapshot, scoring, Some(cancel)).best.map(|chosen| match chosen {
            Move::Swap => Action::Swap,
            Move::Place(cell) => Action::Place(cell),
        })
    })
}

/// The review of every move played so far in `game`.
pub fn analysis(game: &Game, wake: Wake) -> Task<Vec<MoveReview>> {
    let position = game.position();
    let start = Position::new(Arc::clone(position.layout())).with_swap_rule(position.swap_rule());
    let moves: Vec<Move> = position.moves().collect();
    let scoring = game.scoring();
    Task::spawn(position, scoring, wake, move |_| {
        analyse(&mut Searcher::new(64, 1), &start, &moves, scoring, Limits::time(Duration::from_millis(150)))
    })
}

/// The three strongest holes in `position`.
pub fn strongest_holes(position: &Position, scoring: Scoring, wake: Wake) -> Task<Vec<Hint>> {
    let snapshot = position.clone();
    Task::spawn(position, scoring, wake, move |_| {
        hints(&mut Searcher::new(32, 1), &snapshot, scoring, Limits::time(Duration::from_millis(600)), 3)
    })
}

/// The file the player picks with `ask` (a desktop file dialog, which blocks its thread until it
/// closes) while `position` is on the board; `None` if they cancel.
pub fn pick_file(
    position: &Position,
    scoring: Scoring,
    ask: impl FnOnce() -> Option<PathBuf> + Send + 'static,
    wake: Wake,
) -> Task<Option<PathBuf>> {
    Task::spawn(position, scoring, wake, move |_| ask())
}

/// The verdict on `answer` to `puzzle` (a wrong answer is refuted by the exact solver).
pub fn judge_answer(puzzle: &'static Puzzle, answer: Cell, wake: Wake) -> Task<(Cell, Verdict)> {
    Task::spawn(&puzzle.position(), puzzle.scoring, wake, move |_| (answer, puzzle.check(answer)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn wait<T: Send + 'static>(task: &Task<T>) -> T {
        for _ in 0..2000 {
            if let Status::Done(answer) = task.poll() {
                return answer;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the task did not finish");
    }

    #[test]
    fn a_finished_task_wakes_the_window_once() {
        let woken = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&woken);
        let wake: Wake = Arc::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        let position = Position::new(Arc::new(kulami_core::Layout::parse("AABB/CCDD").unwrap()));
        let task = strongest_holes(&position, Scoring::Standard, wake);
        assert_eq!(wait(&task).len(), 3);
        assert_eq!(woken.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_picked_file_comes_back_from_its_dialog_thread() {
        let position = Position::new(Arc::new(kulami_core::Layout::parse("AABB").unwrap()));
        let picked = pick_file(&position, Scoring::Standard, || Some(PathBuf::from("/tmp/game.txt")), Arc::new(|| {}));
        assert_eq!(wait(&picked), Some(PathBuf::from("/tmp/game.txt")));
        let cancelled = pick_file(&position, Scoring::Standard, || None, Arc::new(|| {}));
        assert_eq!(wait(&cancelled), None);
    }

    #[test]
    fn a_task_is_for_exactly_the_position_and_scoring_it_was_asked_for() {
        let classic = Arc::new(kulami_layouts::preset("classic").unwrap().into_layout());
        let other = Arc::new(kulami_layouts::generate(5, kulami_layouts::Shape::Square));
        let d4 = [kulami_core::Move::Place("d4".parse().unwrap())];
        let on_classic = Position::from_moves(classic.clone(), &d4).unwrap();
        let asked = Asked { position: on_classic.clone(), scoring: Scoring::Standard };
        assert!(asked.is_for(&on_classic, Scoring::Standard));
        // The same moves on another board, under another scoring or with the swap rule are not it.
        assert!(!asked.is_for(&Position::from_moves(other, &d4).unwrap(), Scoring::Standard));
        assert!(!asked.is_for(&on_classic, Scoring::Both));
        let with_swap = Position::new(classic).with_swap_rule(true).replay(&d4).unwrap();
        assert!(!asked.is_for(&with_swap, Scoring::Standard));
    }
}
