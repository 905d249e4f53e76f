//! Work off the UI thread: the engine's move, the hints, the game analysis and the judgement of a
//! puzzle answer. The window starts a task and polls it; a finished task wakes the window (so
//! its answer shows at once, and is applied even while the window is hidden), a task made for
//! another position than the one on the board is ignored, and dropping a task tells its search
//! to stop.
//!
//! Each piece of work is [`Work`], plain data, and its answer an [`Answer`]: on the desktop the
//! work runs on a thread of its own, in a browser in a web worker (the page's one thread stays
//! free to draw), and both run it with [`Work::run`], which keeps the engine of the game being
//! played from one of its moves to the next.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use kulami_ai::analysis::{Hint, MoveReview, master_analysis, master_hints};
use kulami_ai::puzzle::{Puzzle, Verdict};
use kulami_ai::{Engine, EngineOptions, Level, TimeControl};
use kulami_core::{Cell, Game, GameFromRecordError, GameRecord, Move, Position, Scoring};
use serde::{Deserialize, Serialize};

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

/// A piece of work for the engine, as data: the game it is about and what to find in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Work {
    /// About a game of Kulami.
    Kulami {
        /// The game so far, as a record.
        game: GameRecord,
        /// What to find.
        find: Find,
    },
    /// About a game of Kalah or GORami.
    Table {
        /// Its rules.
        setup: crate::table::Setup,
        /// Its moves so far, in the game's notation.
        moves: Vec<String>,
        /// What to find.
        find: crate::table::TableFind,
    },
}

/// Why a [`Work`] could not be done: its game does not replay (work that did not come from this
/// app).
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// A Kulami game that is not legal.
    #[error(transparent)]
    Kulami(#[from] GameFromRecordError),
    /// A table game that is not legal.
    #[error("{0}")]
    Table(String),
}

/// What a [`Work`] finds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Find {
    /// The engine's move at `level`, thinking for at most `move_time`.
    EngineMove {
        /// The level.
        level: Level,
        /// The time to think.
        move_time: Duration,
    },
    /// Thinking on the person's time for the engine's next move at `level` (see
    /// `Engine::ponder`), until cancelled or for four of its moves' time.
    Ponder {
        /// The level.
        level: Level,
        /// The engine's time per move.
        move_time: Duration,
    },
    /// The review of every move of the game.
    Analysis,
    /// The three strongest holes, by the search of the strongest level.
    Hints,
    /// The verdict on `answer` to `puzzle` (whose position is the work's game).
    Verdict {
        /// The puzzle.
        puzzle: Puzzle,
        /// The answer given.
        answer: Cell,
    },
}

/// What a [`Work`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The engine's move (`None` in a finished game).
    EngineMove(Option<Move>),
    /// The engine has stopped thinking on the person's time.
    Pondered,
    /// The review of each move.
    Analysis(Vec<MoveReview>),
    /// The strongest holes, best first.
    Hints(Vec<Hint>),
    /// The answer judged and its verdict.
    Verdict(Cell, Verdict),
    /// A table game's engine move, in its notation (`None` in a finished game).
    TableMove(Option<String>),
    /// A table game's strongest moves with their values, best first.
    TableHints(Vec<(String, i32)>),
}

impl Work {
    /// Does the work, stopping early (with the best found so far) once `cancel` is set.
    ///
    /// # Errors
    /// If the work's game is not a legal game (work that did not come from this app).
    pub fn run(self, cancel: &AtomicBool) -> Result<Answer, WorkError> {
        self.run_keeping(&GAME_ENGINE, cancel)
    }

    /// [`Work::run`], taking the engine for a move from `kept` and leaving it there after.
    fn run_keeping(self, kept: &KeptEngine, cancel: &AtomicBool) -> Result<Answer, WorkError> {
        let (game, find) = match self {
            Work::Kulami { game, find } => (game, find),
            // The table games' searches are short and bounded: they finish rather than stop.
            Work::Table { setup, moves, find } => return setup.run(&moves, find).map_err(WorkError::Table),
        };
        let game = Game::from_record(&game)?;
        let (position, scoring) = (game.position(), game.scoring());
        // No more threads than there are (a browser's worker has one).
        let threads = std::thread::available_parallelism().map_or(1, |count| count.get().min(2));
        // The game's engine at `level`, kept from one of its turns to the next.
        let with_kept_engine = |level: Level, move_time: Duration, think: &mut dyn FnMut(&mut Engine) -> Answer| {
            let options = EngineOptions::default()
                .with_time(TimeControl::PerMove(move_time))
                .with_table_megabytes(32)
                .with_threads(threads);
            let made_for = EngineKey::new(position, scoring, level, options);
            let mut engine = kept.take(&made_for).unwrap_or_else(|| Engine::new(level, options));
            let answer = think(&mut engine);
            kept.keep(made_for, engine);
            answer
        };
        Ok(match find {
            Find::EngineMove { level, move_time } => with_kept_engine(level, move_time, &mut |engine| {
                Answer::EngineMove(engine.choose(position, scoring, Some(cancel)).best)
            }),
            Find::Ponder { level, move_time } => with_kept_engine(level, move_time, &mut |engine| {
                engine.ponder(position, scoring, cancel);
                Answer::Pondered
            }),
            Find::Analysis => {
                let start = position.start();
                let moves: Vec<Move> = position.moves().collect();
                let time = Duration::from_millis(150);
                Answer::Analysis(master_analysis(&start, &moves, scoring, time, threads, Some(cancel)))
            }
            Find::Hints => {
                let time = Duration::from_millis(600);
                Answer::Hints(master_hints(position, scoring, time, threads, 3, Some(cancel)))
            }
            Find::Verdict { puzzle, answer } => Answer::Verdict(answer, puzzle.check(answer)),
        })
    }
}

/// What an engine was made for: one level with its settings, in games from one start under one
/// scoring.
#[derive(Debug, PartialEq)]
struct EngineKey {
    start: Position,
    scoring: Scoring,
    level: Level,
    options: EngineOptions,
}

impl EngineKey {
    fn new(position: &Position, scoring: Scoring, level: Level, options: EngineOptions) -> EngineKey {
        EngineKey { start: position.start(), scoring, level, options }
    }
}

/// The engine of the game on the board, kept from one of its moves to the next: levels 4 and 5
/// grow each search from the tree the last one left below the position (as in the matches that
/// measure them), and from what level 5 grew on the person's time; the searches keep their
/// table. One engine at a time: an engine made for another game, level or setting replaces it.
#[derive(Debug)]
struct KeptEngine {
    slot: Mutex<Slot>,
    /// Told when an engine comes back to the slot.
    returned: Condvar,
}

#[derive(Debug)]
struct Slot {
    kept: Option<(EngineKey, Engine)>,
    /// Whether an engine is out, thinking.
    out: bool,
}

/// The longest a task waits for the engine another task is still thinking with (a cancelled
/// search stops within milliseconds), before it makes an engine of its own.
const ENGINE_RETURN_WAIT: Duration = Duration::from_secs(1);

impl KeptEngine {
    const fn new() -> KeptEngine {
        KeptEngine { slot: Mutex::new(Slot { kept: None, out: false }), returned: Condvar::new() }
    }

    /// The kept engine, if it was made for `made_for`. It leaves the slot while it thinks: a
    /// task that overlaps it (the engine's move right after the person's, while the thinking
    /// on their time stops) waits for it to come back, and makes an engine of its own if it
    /// does not come back soon.
    fn take(&self, made_for: &EngineKey) -> Option<Engine> {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        // Only tasks on the desktop's threads overlap: a web worker runs one at a time, and
        // there a timed wait would panic (the standard library has no clock in a browser).
        if slot.out {
            slot = self
                .returned
                .wait_timeout_while(slot, ENGINE_RETURN_WAIT, |slot| slot.out)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        slot.out = true;
        match slot.kept.take() {
            Some((key, engine)) if key == *made_for => Some(engine),
            _ => None,
        }
    }

    fn keep(&self, made_for: EngineKey, engine: Engine) {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        *slot = Slot { kept: Some((made_for, engine)), out: false };
        self.returned.notify_all();
    }
}

/// The engine kept for the game being played (in a browser, one per web worker).
static GAME_ENGINE: KeptEngine = KeptEngine::new();

/// One piece of work under way, for what it was asked (`K`: a Kulami game's [`Asked`], a table
/// game's position); its answer is a `T`.
#[derive(Debug)]
pub struct Task<T, K = Asked> {
    asked: K,
    receiver: Receiver<Answer>,
    /// The answer as the window wants it; `None` for an answer of another kind.
    extract: fn(Answer) -> Option<T>,
    runner: Runner,
}

impl<T, K> Task<T, K> {
    /// Starts `work`, asked about `asked`; `extract` takes the answer the window wants from what
    /// the work found, and `wake` repaints the window when it is there.
    pub fn run(asked: K, work: Work, extract: fn(Answer) -> Option<T>, wake: Wake) -> Task<T, K> {
        let (sender, receiver) = channel();
        let runner = Runner::start(work, move |answer| {
            // The window may have dropped the task; then nobody wants the answer.
            if sender.send(answer).is_ok() {
                wake();
            }
        });
        Task { asked, receiver, extract, runner }
    }

    /// A task whose thread ended without answering, for tests of what the window does then.
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub(crate) fn lost(asked: K) -> Task<T, K> {
        let (_, receiver) = channel();
        Task { asked, receiver, extract: |_| None, runner: Runner { cancel: Arc::default() } }
    }

    /// What the task was made for.
    #[must_use]
    pub fn asked(&self) -> &K {
        &self.asked
    }

    /// Where the task is.
    pub fn poll(&self) -> Status<T> {
        match received(&self.receiver) {
            Status::Done(answer) => (self.extract)(answer).map_or(Status::Lost, Status::Done),
            Status::Working => Status::Working,
            Status::Lost => Status::Lost,
        }
    }
}

impl<T> Task<T> {
    fn start(
        position: &Position,
        scoring: Scoring,
        find: Find,
        extract: fn(Answer) -> Option<T>,
        wake: Wake,
    ) -> Task<T> {
        let work = Work::Kulami { game: GameRecord::of(position, scoring), find };
        Task::run(Asked { position: position.clone(), scoring }, work, extract, wake)
    }

    /// Whether the task was made for `position` under `scoring`.
    #[must_use]
    pub fn is_for(&self, position: &Position, scoring: Scoring) -> bool {
        self.asked.is_for(position, scoring)
    }
}

impl<T, K> Drop for Task<T, K> {
    fn drop(&mut self) {
        self.runner.cancel();
    }
}

/// Where a desktop task runs: a thread, told to stop through a flag.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
struct Runner {
    cancel: Arc<AtomicBool>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Runner {
    fn start(work: Work, answered: impl FnOnce(Answer) + Send + 'static) -> Runner {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            // A game that does not replay (never one of ours) ends the thread unanswered: lost.
            if let Ok(answer) = work.run(&flag) {
                answered(answer);
            }
        });
        Runner { cancel }
    }

    fn cancel(&mut self) {
        self.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(target_arch = "wasm32")]
use crate::web_worker::Runner;

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

/// The engine's turn in `position` at `level`: a move, or the swap if the rule allows it and
/// the engine would rather have the first marble.
pub fn engine_move(
    position: &Position,
    scoring: Scoring,
    level: Level,
    move_time: Duration,
    wake: Wake,
) -> Task<Option<Action>> {
    let find = Find::EngineMove { level, move_time };
    Task::start(
        position,
        scoring,
        find,
        |answer| match answer {
            Answer::EngineMove(chosen) => Some(chosen.map(|chosen| match chosen {
                Move::Swap => Action::Swap,
                Move::Place(cell) => Action::Place(cell),
            })),
            _ => None,
        },
        wake,
    )
}

/// Whether the engine thinks on the person's time ([`ponder`]): not in a browser, where stopped
/// work ends its web worker, and the engine kept there with it.
pub const PONDERS: bool = cfg!(not(target_arch = "wasm32"));

/// Thinking on the person's time in `position` (theirs to move) for the engine's next move at
/// `level`; its answer only says that it stopped.
pub fn ponder(position: &Position, scoring: Scoring, level: Level, move_time: Duration, wake: Wake) -> Task<()> {
    let find = Find::Ponder { level, move_time };
    Task::start(position, scoring, find, |answer| matches!(answer, Answer::Pondered).then_some(()), wake)
}

/// The review of every move played so far in `game`.
pub fn analysis(game: &Game, wake: Wake) -> Task<Vec<MoveReview>> {
    Task::start(
        game.position(),
        game.scoring(),
        Find::Analysis,
        |answer| match answer {
            Answer::Analysis(reviews) => Some(reviews),
            _ => None,
        },
        wake,
    )
}

/// The three strongest holes in `position`, as the strongest level judges them in 0.6 s.
pub fn strongest_holes(position: &Position, scoring: Scoring, wake: Wake) -> Task<Vec<Hint>> {
    Task::start(
        position,
        scoring,
        Find::Hints,
        |answer| match answer {
            Answer::Hints(hints) => Some(hints),
            _ => None,
        },
        wake,
    )
}

/// The verdict on `answer` to `puzzle` (a wrong answer is refuted by the exact solver).
pub fn judge_answer(puzzle: &Puzzle, answer: Cell, wake: Wake) -> Task<(Cell, Verdict)> {
    let find = Find::Verdict { puzzle: puzzle.clone(), answer };
    Task::start(
        &puzzle.position(),
        puzzle.scoring,
        find,
        |answer| match answer {
            Answer::Verdict(cell, verdict) => Some((cell, verdict)),
            _ => None,
        },
        wake,
    )
}

/// The file the player picks with `ask` (a desktop file dialog, which blocks its thread until it
/// closes); `None` if they cancel. The window polls for it as for the engine's work.
#[derive(Debug)]
pub struct FilePick {
    asked: Asked,
    receiver: Receiver<Option<PathBuf>>,
}

impl FilePick {
    /// Opens the dialog `ask` on its own thread while `position` is on the board.
    pub fn start(
        position: &Position,
        scoring: Scoring,
        ask: impl FnOnce() -> Option<PathBuf> + Send + 'static,
        wake: Wake,
    ) -> FilePick {
        let (sender, receiver) = channel();
        std::thread::spawn(move || {
            if sender.send(ask()).is_ok() {
                wake();
            }
        });
        FilePick { asked: Asked { position: position.clone(), scoring }, receiver }
    }

    /// What the dialog was opened for.
    #[must_use]
    pub fn asked(&self) -> &Asked {
        &self.asked
    }

    /// Where the dialog is: `Some` once it closed, with the file picked if any.
    pub fn poll(&self) -> Status<Option<PathBuf>> {
        received(&self.receiver)
    }
}

/// What has come through `receiver`.
fn received<T>(receiver: &Receiver<T>) -> Status<T> {
    match receiver.try_recv() {
        Ok(answer) => Status::Done(answer),
        Err(TryRecvError::Empty) => Status::Working,
        Err(TryRecvError::Disconnected) => Status::Lost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn wait<T>(poll: impl Fn() -> Status<T>) -> T {
        for _ in 0..2000 {
            if let Status::Done(answer) = poll() {
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
        assert_eq!(wait(|| task.poll()).len(), 3);
        assert_eq!(woken.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_picked_file_comes_back_from_its_dialog_thread() {
        let position = Position::new(Arc::new(kulami_core::Layout::parse("AABB").unwrap()));
        let picked =
            FilePick::start(&position, Scoring::Standard, || Some(PathBuf::from("/tmp/game.txt")), Arc::new(|| {}));
        assert_eq!(wait(|| picked.poll()), Some(PathBuf::from("/tmp/game.txt")));
        let cancelled = FilePick::start(&position, Scoring::Standard, || None, Arc::new(|| {}));
        assert_eq!(wait(|| cancelled.poll()), None);
    }

    /// In a browser, work and answers cross to the web worker as JSON: every kind must survive it.
    #[test]
    fn work_and_answers_cross_as_json_and_work_runs_the_same_after() {
        let classic = Arc::new(kulami_layouts::preset("classic").unwrap().into_layout());
        let position = Position::from_moves(classic, &[Move::Place("d4".parse().unwrap())]).unwrap();
        let puzzle = kulami_ai::puzzle::bank().first().unwrap().clone();
        let finds = [
            (
                GameRecord::of(&position, Scoring::Standard),
                Find::EngineMove { level: Level::Casual, move_time: Duration::from_millis(50) },
            ),
            (
                GameRecord::of(&position, Scoring::Standard),
                Find::Ponder { level: Level::Master, move_time: Duration::from_millis(20) },
            ),
            (GameRecord::of(&position, Scoring::Standard), Find::Hints),
            (GameRecord::of(&position, Scoring::Both), Find::Analysis),
            (GameRecord::of(&puzzle.position(), puzzle.scoring), Find::Verdict { answer: puzzle.answer, puzzle }),
        ];
        for (game, find) in finds {
            let work = Work::Kulami { game, find };
            let crossed: Work = serde_json::from_str(&serde_json::to_string(&work).unwrap()).unwrap();
            assert_eq!(crossed, work);
            let answer = crossed.run(&AtomicBool::new(false)).unwrap();
            let back: Answer = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
            assert_eq!(back, answer);
            let Work::Kulami { find, .. } = &work else { unreachable!("Kulami work") };
            match (find, answer) {
                (Find::EngineMove { .. }, Answer::EngineMove(chosen)) => assert!(chosen.is_some()),
                (Find::Ponder { .. }, Answer::Pondered) => {}
                (Find::Hints, Answer::Hints(hints)) => assert_eq!(hints.len(), 3),
                (Find::Analysis, Answer::Analysis(reviews)) => assert_eq!(reviews.len(), 1),
                (Find::Verdict { .. }, Answer::Verdict(_, verdict)) => assert_eq!(verdict, Verdict::Right),
                (find, answer) => panic!("{find:?} answered {answer:?}"),
            }
        }
    }

    #[test]
    fn a_games_engine_is_kept_for_its_next_move_and_replaced_for_another_game() {
        let kept = KeptEngine::new();
        let level = Level::Expert;
        let engine_move = |position: &Position| -> EngineOptions {
            let find = Find::EngineMove { level, move_time: Duration::from_millis(20) };
            let work = Work::Kulami { game: GameRecord::of(position, Scoring::Standard), find };
            assert!(matches!(work.run_keeping(&kept, &AtomicBool::new(false)), Ok(Answer::EngineMove(Some(_)))));
            let Some((key, engine)) = kept.slot.lock().unwrap().kept.take() else { panic!("no engine kept") };
            let options = key.options;
            kept.keep(key, engine);
            options
        };
        let board = |text| Position::new(Arc::new(kulami_core::Layout::parse(text).unwrap()));
        let mut game = board("AABB/CCDD/EEFF");
        let options = engine_move(&game);
        for _ in 0..2 {
            let cell = game.legal_moves().iter().next().expect("a legal move");
            game.play(cell).unwrap();
        }
        let this_game = EngineKey::new(&game, Scoring::Standard, level, options);
        let engine = kept.take(&this_game).expect("the engine of the game's first move");
        kept.keep(this_game, engine);
        engine_move(&game);
        engine_move(&board("AABB/CCDD"));
        let this_game = EngineKey::new(&game, Scoring::Standard, level, options);
        assert!(kept.take(&this_game).is_none(), "another game's engine replaced it");
    }

    #[test]
    fn the_engines_move_waits_for_the_engine_still_thinking_on_the_persons_time() {
        let kept = KeptEngine::new();
        let position = Position::new(Arc::new(kulami_layouts::preset("classic").unwrap().into_layout()));
        let options = EngineOptions::default();
        let key = || EngineKey::new(&position, Scoring::Standard, Level::Master, options);
        kept.keep(key(), Engine::new(Level::Master, options));
        let pondering = kept.take(&key()).expect("the engine of this game");
        std::thread::scope(|scope| {
            scope.spawn(|| {
                // The pondering stops a moment after the person's move.
                std::thread::sleep(Duration::from_millis(100));
                kept.keep(key(), pondering);
            });
            assert!(kept.take(&key()).is_some(), "the move's task waited for the engine to come back");
        });
    }

    #[test]
    fn work_on_a_game_that_is_not_legal_is_refused_not_run() {
        let mut game =
            GameRecord::of(&Position::new(Arc::new(kulami_core::Layout::parse("AABB").unwrap())), Scoring::Standard);
        game.moves = vec![Move::Place("a1".parse().unwrap()), Move::Place("a1".parse().unwrap())];
        assert!(Work::Kulami { game, find: Find::Hints }.run(&AtomicBool::new(false)).is_err());
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
