//! The window: a side panel with the score and the controls, and the board in the middle.
//! [`KulamiApp::logic`] runs before every frame and whenever a background task finishes, even
//! while the window is hidden: it drives the tasks, applies their answers and keeps the
//! autosave. [`KulamiApp::show`] draws a frame and applies the [`Action`]s of its clicks.
//! `logic` holds that side (the tasks, the network, files); `side_panel` draws the game
//! screen's controls; `screens` the daily puzzle, the board editor and the analysis.

use std::time::Duration;

use web_time::Instant;

use egui::{Key, Ui};
use kulami_ai::analysis::Hint;
use kulami_ai::puzzle::Verdict;
use kulami_core::Cell;

use kulami_ai::analysis::MoveReview;

mod logic;
mod probe;
mod screens;
mod side_panel;

pub use probe::{OnlineProbe, Probe, Spot, note_control};
pub use side_panel::clock_text;

use crate::autosave::Autosave;
use crate::background::{self, Asked, Task};
use crate::board_view;
use crate::daily::DailyPuzzle;
use crate::editor::Editor;
use crate::saved::{Saved, Settings};
use crate::state::{Action, GameState};

/// What a file picked in a dialog is for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FileRequest {
    /// Open it as the game.
    OpenGame,
    /// Save the game to it.
    SaveGame,
    /// Save this board (from the editor) to it.
    SaveBoard(Box<kulami_core::Layout>),
}

/// How long a newly placed marble takes to drop into its hole.
const PLACEMENT_ANIMATION: Duration = Duration::from_millis(220);

/// The Kulami desktop app.
#[derive(Debug)]
pub struct KulamiApp {
    state: GameState,
    engine_task: Option<Task<Option<Action>>>,
    /// The engine's thinking on the person's time, for the position it was started in.
    ponder_task: Option<Task<()>>,
    hint_task: Option<Task<Vec<Hint>>>,
    /// The position whose engine move or hints ended without an answer (a thread or web worker
    /// that failed): not asked for again, so that a broken engine says so once rather than
    /// starting over every frame.
    lost_search: Option<Asked>,
    /// Hints and the position they are for.
    hints: Option<(Asked, Vec<Hint>)>,
    analysis_task: Option<Task<Vec<MoveReview>>>,
    /// The analysis of the game as it was asked for, and whether its window is open.
    analysis: Option<(Asked, Vec<MoveReview>)>,
    analysis_open: bool,
    /// The solver's judgement of a daily puzzle answer.
    puzzle_task: Option<Task<(Cell, Verdict)>>,
    /// An open file dialog and what its file is for.
    file_task: Option<(FileRequest, background::FilePick)>,
    /// Level 5's time per move, the pause between moves of engine games and the turn clock.
    settings: Settings,
    /// The position the turn clock and the placement animation are for, and when it came.
    turn: (kulami_core::Position, Instant),
    /// The board editor, while its window is open, and its file field.
    editor: Option<Editor>,
    board_path: String,
    /// The game file field.
    game_path: String,
    /// The daily puzzle, while its screen is shown instead of the game.
    daily: Option<DailyPuzzle>,
    /// Where the game and settings are kept between runs.
    autosave: Option<Autosave>,
    /// When the engine may move next in a game without people.
    next_engine_move: Instant,
    /// The seed field of the shuffle controls.
    seed_text: String,
    /// Whether the rules window is open.
    rules_open: bool,
    /// Whether the start screen is shown (at launch, and from the game's Menu button).
    start_open: bool,
    /// Where the sound effects go, when they are on.
    speaker: crate::sound::Speaker,
    /// The online lobby (kept while its screen is closed, so that invites still arrive), its
    /// form, and whether its screen is shown.
    lobby: crate::online::Lobby,
    lobby_form: crate::online_view::LobbyForm,
    online_open: bool,
    /// The online game on the screen, and how many of the lobby's started games were opened.
    online_game: Option<crate::online_game::OnlineGame>,
    games_opened: usize,
    /// The game of Kalah or GORami, while its screen is shown (and kept behind the start
    /// screen, to go on with).
    table: Option<crate::table::TableScreen>,
}

impl Default for KulamiApp {
    fn default() -> KulamiApp {
        KulamiApp {
            state: GameState::default(),
            engine_task: None,
            ponder_task: None,
            hint_task: None,
            lost_search: None,
            hints: None,
            analysis_task: None,
            analysis: None,
            analysis_open: false,
            puzzle_task: None,
            file_task: None,
            settings: Settings::default(),
            turn: (GameState::default().game().position().clone(), Instant::now()),
            editor: None,
            board_path: crate::files::default_folder().join("kulami-board.txt").display().to_string(),
            game_path: crate::files::default_folder().join("kulami-game.txt").display().to_string(),
            daily: None,
            autosave: None,
            next_engine_move: Instant::now(),
            seed_text: String::new(),
            rules_open: false,
            start_open: false,
            speaker: crate::sound::Speaker::default(),
            lobby: crate::online::Lobby::new(None, std::sync::Arc::new(|| {})),
            lobby_form: crate::online_view::LobbyForm::default(),
            online_open: false,
            online_game: None,
            games_opened: 0,
            table: None,
        }
    }
}

impl KulamiApp {
    /// The app as it was left last time, from `autosave` (which it then keeps up to date); a new
    /// game if there is none, with a message if what was kept was damaged. It opens on the start
    /// screen, which asks what the player wants to do.
    #[must_use]
    pub fn new(autosave: Option<Autosave>) -> KulamiApp {
        let mut app = KulamiApp { start_open: true, ..KulamiApp::default() };
        let Some(mut autosave) = autosave else { return app };
        let loaded = autosave.load();
        if let Some(saved) = loaded.saved {
            match saved.restore() {
                Ok(state) => {
                    app.state = state;
                    app.lobby = crate::online::Lobby::new(saved.online.clone(), std::sync::Arc::new(|| {}));
                    let settings = saved.settings();
                    app.settings = Settings {
                        streak: settings.streak,
                        move_time_ms: settings.move_time_ms.clamp(100, 10_000),
                        watch_delay_ms: settings.watch_delay_ms.min(3_000),
                        turn_seconds: settings.turn_seconds.min(600),
                        ..settings
                    };
                }
                Err(message) => app.state.warn(format!("{message}; a new game was started.")),
            }
            match saved.table.as_ref().map(crate::table::TableScreen::restore) {
                Some(Ok(table)) => app.table = Some(table),
                Some(Err(message)) => app.state.warn(format!("The saved table game could not be resumed: {message}.")),
                None => {}
            }
        }
        if let Some(message) = loaded.message {
            app.state.warn(message);
        }
        app.autosave = Some(autosave);
        app
    }

    /// Writes the autosave if anything changed; a failure is shown, not fatal.
    fn keep_autosave(&mut self) {
        let Some(autosave) = &mut self.autosave else { return };
        let mut saved = Saved::capture(&self.state, self.settings);
        saved.online = self.lobby.account().cloned();
        saved.table = self.table.as_ref().map(crate::table::TableScreen::save);
        if let Err(error) = autosave.store(&saved) {
            self.state.warn(format!("The game could not be saved: {error}"));
        }
    }

    /// The online lobby, for tests.
    #[must_use]
    pub fn lobby(&self) -> &crate::online::Lobby {
        &self.lobby
    }

    /// Opens the online lobby (as the start screen's Play online does).
    pub fn open_online(&mut self) {
        self.online_open = true;
        self.start_open = false;
    }

    /// The game state, for tests.
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Carries out `action` as if the player had asked for it (for the command line and tests).
    pub fn apply(&mut self, action: Action) {
        self.state.apply(action);
    }

    /// Whether the start screen is shown.
    #[must_use]
    pub fn starting(&self) -> bool {
        self.start_open
    }

    /// Leaves the start screen for the game as it stands (a game file given on the command line).
    pub fn skip_start(&mut self) {
        self.start_open = false;
    }

    /// Starts the review (the engine's view of every move) of the game on the board.
    pub fn review(&mut self, ctx: &egui::Context) {
        self.analysis_task = Some(background::analysis(self.state.game(), background::waking(ctx)));
    }

    /// The daily puzzle, while its screen is shown.
    #[must_use]
    pub fn daily(&self) -> Option<&DailyPuzzle> {
        self.daily.as_ref()
    }

    /// The board editor, if open.
    #[must_use]
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.as_ref()
    }

    /// Whether the game's analysis is under way.
    #[must_use]
    pub fn analysing(&self) -> bool {
        self.analysis_task.is_some()
    }

    /// Whether the engine is working on a move.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.engine_task.is_some()
    }

    /// Whether the engine thinks on the person's time, for its next move.
    #[must_use]
    pub fn pondering(&self) -> bool {
        self.ponder_task.is_some()
    }

    /// Draws one frame and applies what the player did in it.
    pub fn show(&mut self, ui: &mut Ui) {
        probe::forget_controls(ui.ctx());
        let screen = self.screen();
        self.show_screen(ui);
        if self.screen() != screen {
            // This frame drew the screen the click left; the next draws the one it opened, at
            // once rather than at the next movement of the mouse.
            ui.ctx().request_repaint();
        }
    }

    /// Which screen is up: `start`, `game`, `daily`, `online` (the lobby), `online-game`, or a
    /// table game's, `kalah` or `gorami`.
    #[must_use]
    pub fn screen(&self) -> &'static str {
        if self.online_open && self.online_game.is_some() {
            "online-game"
        } else if self.online_open {
            "online"
        } else if self.start_open {
            "start"
        } else if let Some(table) = &self.table {
            table.name()
        } else if self.daily.is_some() {
            "daily"
        } else {
            "game"
        }
    }

    fn show_screen(&mut self, ui: &mut Ui) {
        let mut actions = shortcuts(ui, &self.state);
        egui::Window::new("How to play")
            .open(&mut self.rules_open)
            .default_width(420.0)
            .show(ui.ctx(), crate::rules_view::show);
        self.editor_window(ui, &mut actions);
        self.analysis_window(ui, &mut actions);
        let (fresh_marble, animating) = self.follow_turn();
        if let Some(game) = self.online_game.as_mut().filter(|_| self.online_open) {
            use crate::online_game_view::GameInput;
            let mut leave = false;
            for input in crate::online_game_view::show(ui, game, Instant::now()) {
                match input {
                    GameInput::Play(played) => game.play(played),
                    GameInput::Resign => game.resign(),
                    GameInput::Abort => game.abort(),
                    GameInput::Leave => leave = true,
                }
            }
            if leave {
                self.online_game = None;
            }
            return;
        }
        if self.online_open {
            egui::CentralPanel::default().show(ui, |ui| {
                let (online_actions, exit) = crate::online_view::show(ui, &mut self.lobby, &mut self.lobby_form);
                for action in online_actions {
                    self.lobby.act(action);
                }
                match exit {
                    crate::online_view::LobbyExit::Stay => {}
                    crate::online_view::LobbyExit::Back => {
                        self.online_open = false;
                        self.start_open = true;
                    }
                    crate::online_view::LobbyExit::Open(id) => {
                        if let Some(account) = self.lobby.account().cloned() {
                            let wake = background::waking(ui.ctx());
                            self.online_game = Some(crate::online_game::OnlineGame::open(account, &id, wake));
                        }
                    }
                }
            });
            self.keep_autosave();
            return;
        }
        if self.start_open {
            self.start_screen(ui, &mut actions);
            for action in actions {
                self.state.apply(action);
            }
            self.keep_autosave();
            return;
        }
        if let Some(table) = &mut self.table {
            if table.show(ui) {
                self.start_open = true;
            }
            return;
        }
        if self.daily.is_some() {
            self.daily_screen(ui);
            return;
        }
        // A fixed width, so that longer texts (an engine's name, a message) never shift the controls.
        egui::Panel::right("side").exact_size(330.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui, &mut actions));
        });
        let hint_cells: Vec<Cell> = self.current_hints().iter().map(|hint| hint.cell).collect();
        egui::CentralPanel::default().show(ui, |ui| {
            let summary = self.state.game().position().is_game_over();
            let view = board_view::View {
                guide: self.state.guide() && !summary,
                hints: &hint_cells,
                summary,
                fresh_marble,
                coordinates: true,
                preview: self.state.guide() && self.state.human_to_move(),
                better: self.costly_move_here().map(|review| review.best),
            };
            let clicked = board_view::show(ui, self.state.game().position(), &view);
            if let Some(cell) = clicked.filter(|_| self.state.human_to_move()) {
                actions.push(Action::Place(cell));
            }
        });
        for action in actions {
            self.state.apply(action);
        }
        // Saved at once: a click is kept even if the window is killed before the next frame.
        self.keep_autosave();
        if animating || self.engine_task.is_some() {
            // The marble's drop and the thinking spinner move.
            ui.ctx().request_repaint_after(Duration::from_millis(30));
        } else if self.settings.turn_seconds > 0 && self.state.turn_is_timed() {
            // The clock shows whole seconds.
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
    }

    /// The table game (Kalah or GORami) on its screen or behind the start screen, for tests.
    #[must_use]
    pub fn table(&self) -> Option<&crate::table::TableScreen> {
        self.table.as_ref()
    }

    /// The online game on the screen, for tests.
    #[must_use]
    pub fn online_game(&self) -> Option<&crate::online_game::OnlineGame> {
        self.online_game.as_ref()
    }

    /// Restarts the turn clock when the position changes (a move, a new game or board), and
    /// says which marble is still dropping into its hole (and how far it is), if one is.
    fn follow_turn(&mut self) -> (Option<(Cell, f32)>, bool) {
        if *self.state.game().position() != self.turn.0 {
            let position = self.state.game().position().clone();
            let effect = crate::sound::effect_between(&self.turn.0, &position);
            self.turn = (position, Instant::now());
            if let Some(effect) = effect.filter(|_| self.settings.sounds)
                && let Err(message) = self.speaker.play(effect)
            {
                self.state.warn(message);
            }
        }
        let position = self.state.game().position();
        let progress = self.turn.1.elapsed().as_secs_f32() / PLACEMENT_ANIMATION.as_secs_f32();
        match position.last_move() {
            Some(cell) if progress < 1.0 => (Some((cell, progress)), true),
            _ => (None, false),
        }
    }

    /// The review of the next move when the board shows the position before a move that lost
    /// points (found by the analysis of this game).
    fn costly_move_here(&self) -> Option<&MoveReview> {
        let (_, reviews) = self.analysis.as_ref()?;
        let next = self.state.game().position().move_count() + 1;
        reviews.iter().find(|review| review.number == next && review.loss > 0 && self.state.reviewing())
    }

    /// Hints for the position on the board, if shown and ready.
    fn current_hints(&self) -> &[Hint] {
        let game = self.state.game();
        match &self.hints {
            Some((asked, hints)) if self.state.hints() && asked.is_for(game.position(), game.scoring()) => hints,
            _ => &[],
        }
    }
}

impl eframe::App for KulamiApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        KulamiApp::logic(self, ctx);
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    /// eframe's own storage keeps only the window's layout; the game is in the autosave.
    fn save(&mut self, _storage: &mut dyn eframe::Storage) {
        self.keep_autosave();
    }
}

fn shortcuts(ui: &Ui, state: &GameState) -> Vec<Action> {
    ui.input(|input| {
        let mut actions = Vec::new();
        if input.modifiers.command && input.key_pressed(Key::Z) {
            actions.push(if input.modifiers.shift { Action::Redo } else { Action::Undo });
        }
        if input.modifiers.command && input.key_pressed(Key::N) {
            actions.push(Action::NewGame);
        }
        if !input.modifiers.any() && input.key_pressed(Key::H) {
            actions.push(Action::ShowHints(!state.hints()));
        }
        let count = state.game().position().move_count();
        if !input.modifiers.any() && input.key_pressed(Key::ArrowLeft) && count > 0 {
            actions.push(Action::StepTo(count - 1));
        }
        if !input.modifiers.any() && input.key_pressed(Key::ArrowRight) && state.reviewing() {
            actions.push(Action::StepTo(count + 1));
        }
        actions
    })
}
