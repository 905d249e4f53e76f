//! The window: a side panel with the score and the controls, and the board in the middle.
//! Each frame turns clicks into [`Action`]s, applies them, then drives the background tasks.

use std::time::{Duration, Instant};

use egui::{Key, RichText, Ui};
use kulami_ai::Level;
use kulami_ai::analysis::Hint;
use kulami_core::{Cell, Color, Scoring, Winner};
use kulami_layouts::Shape;

use kulami_ai::analysis::MoveReview;
use kulami_ai::puzzle::{Puzzle, Verdict};
use kulami_core::notation::format_moves;

use crate::autosave::Autosave;
use crate::background::{self, Status, Task};
use crate::board_view;
use crate::daily::DailyPuzzle;
use crate::editor::Editor;
use crate::editor_view::{self, EditorRequest};
use crate::files;
use crate::saved::{Saved, Settings};
use crate::state::{Action, BoardChoice, GameState, Seat};

/// How long a newly placed marble takes to drop into its hole.
const PLACEMENT_ANIMATION: Duration = Duration::from_millis(220);

/// The Kulami desktop app.
pub struct KulamiApp {
    state: GameState,
    engine_task: Option<Task<Option<Action>>>,
    hint_task: Option<Task<Vec<Hint>>>,
    /// Hints and the moves of the position they are for.
    hints: Option<(Vec<Cell>, Vec<Hint>)>,
    analysis_task: Option<Task<Vec<MoveReview>>>,
    /// The analysis of the game with these moves, and whether its window is open.
    analysis: Option<(Vec<Cell>, Vec<MoveReview>)>,
    analysis_open: bool,
    /// Level 5's time per move, the pause between moves of engine games and the turn clock.
    settings: Settings,
    /// The ply the turn clock and the placement animation are for, and when it began.
    turn: (usize, Instant),
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
    shape: Shape,
    /// Whether the rules window is open.
    rules_open: bool,
}

impl Default for KulamiApp {
    fn default() -> KulamiApp {
        KulamiApp {
            state: GameState::default(),
            engine_task: None,
            hint_task: None,
            hints: None,
            analysis_task: None,
            analysis: None,
            analysis_open: false,
            settings: Settings::default(),
            turn: (0, Instant::now()),
            editor: None,
            board_path: "board.txt".to_owned(),
            game_path: "game.txt".to_owned(),
            daily: None,
            autosave: None,
            next_engine_move: Instant::now(),
            seed_text: String::new(),
            shape: Shape::Square,
            rules_open: false,
        }
    }
}

impl KulamiApp {
    /// The app as it was left last time, from `autosave` (which it then keeps up to date); a new
    /// game if there is none, with a message if what was kept was damaged.
    #[must_use]
    pub fn new(autosave: Option<Autosave>) -> KulamiApp {
        let mut app = KulamiApp::default();
        let Some(mut autosave) = autosave else { return app };
        let loaded = autosave.load();
        if let Some(saved) = loaded.saved {
            match saved.restore() {
                Ok(state) => {
                    app.state = state;
                    let settings = saved.settings();
                    app.settings = Settings {
                        streak: settings.streak,
                        move_time_ms: settings.move_time_ms.clamp(100, 10_000),
                        watch_delay_ms: settings.watch_delay_ms.min(3_000),
                        turn_seconds: settings.turn_seconds.min(600),
                    };
                }
                Err(message) => app.state.tell(format!("{message}; a new game was started.")),
            }
        }
        if let Some(message) = loaded.message {
            app.state.tell(message);
        }
        app.autosave = Some(autosave);
        app
    }

    /// Writes the autosave if anything changed; a failure is shown, not fatal.
    fn keep_autosave(&mut self) {
        let Some(autosave) = &mut self.autosave else { return };
        if let Err(error) = autosave.store(&Saved::capture(&self.state, self.settings)) {
            self.state.tell(format!("The game could not be saved: {error}"));
        }
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

    /// Draws one frame and applies what the player did in it.
    pub fn show(&mut self, ui: &mut Ui) {
        let mut actions = shortcuts(ui, &self.state);
        egui::Window::new("How to play")
            .open(&mut self.rules_open)
            .default_width(420.0)
            .show(ui.ctx(), crate::rules_view::show);
        self.editor_window(ui, &mut actions);
        self.analysis_window(ui, &mut actions);
        let (fresh_marble, animating) = self.follow_turn();
        if self.daily.is_some() {
            self.daily_screen(ui);
            return;
        }
        egui::Panel::right("side").min_size(280.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui, &mut actions));
        });
        let hint_cells: Vec<Cell> = self.current_hints().iter().map(|hint| hint.cell).collect();
        egui::CentralPanel::default().show(ui, |ui| {
            let summary = self.state.game().position().is_game_over();
            let view =
                board_view::View { guide: self.state.guide() && !summary, hints: &hint_cells, summary, fresh_marble };
            let clicked = board_view::show(ui, self.state.game().position(), &view);
            if let Some(cell) = clicked.filter(|_| self.state.human_to_move()) {
                actions.push(Action::Place(cell));
            }
        });
        for action in actions {
            self.state.apply(action);
        }
        self.drive_background();
        self.keep_autosave();
        let busy = self.engine_task.is_some() || self.hint_task.is_some() || self.analysis_task.is_some();
        if busy || animating || self.state.engine_to_move().is_some() {
            ui.ctx().request_repaint_after(Duration::from_millis(30));
        } else if self.settings.turn_seconds > 0 && self.state.human_to_move() {
            // The clock shows whole seconds.
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
    }

    /// Restarts the turn clock when the ply changes, and says which marble is still dropping
    /// into its hole (and how far it is), if one is.
    fn follow_turn(&mut self) -> (Option<(Cell, f32)>, bool) {
        let position = self.state.game().position();
        if position.ply() != self.turn.0 {
            self.turn = (position.ply(), Instant::now());
        }
        let progress = self.turn.1.elapsed().as_secs_f32() / PLACEMENT_ANIMATION.as_secs_f32();
        match position.last_move() {
            Some(cell) if progress < 1.0 => (Some((cell, progress)), true),
            _ => (None, false),
        }
    }

    /// The daily puzzle in place of the game: its board, the verdict on the first answer and
    /// the streak.
    fn daily_screen(&mut self, ui: &mut Ui) {
        let Some(daily) = &mut self.daily else { return };
        let puzzle = daily.puzzle();
        let position = daily.position();
        let mut back = false;
        egui::Panel::right("puzzle side").min_size(280.0).show(ui, |ui| {
            ui.heading("Daily puzzle");
            ui.label(format!("{}, difficulty {}/5", daily.date(), puzzle.difficulty));
            ui.label(format!("Scoring: {}", scoring_name(puzzle.scoring)));
            let side = puzzle.position().side_to_move();
            ui.label(RichText::new(format!("{} to move: find the best move.", title(side))).strong());
            let today = kulami_ai::puzzle::Date::today().days();
            ui.label(format!("Streak: {} days", self.settings.streak.current(today)));
            ui.separator();
            match daily.answered() {
                None => {
                    ui.label("Click a hole to answer. Only the first try counts.");
                }
                Some((cell, verdict)) => {
                    let (text, line) = puzzle_verdict(*cell, verdict, puzzle);
                    ui.label(RichText::new(text).strong().size(16.0));
                    ui.label(line);
                }
            }
            ui.separator();
            back = ui.button("Back to the game").clicked();
        });
        let clicked = egui::CentralPanel::default()
            .show(ui, |ui| {
                let view = board_view::View { guide: true, hints: &[], summary: false, fresh_marble: None };
                board_view::show(ui, &position, &view)
            })
            .inner;
        if let Some(cell) = clicked {
            daily.answer(cell, &mut self.settings.streak);
        }
        if back {
            self.daily = None;
        }
    }

    fn editor_window(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let Some(editor) = &mut self.editor else { return };
        let mut open = true;
        let mut request = None;
        egui::Window::new("Board editor")
            .open(&mut open)
            .default_width(440.0)
            .show(ui.ctx(), |ui| request = editor_view::show(ui, editor, &mut self.board_path));
        match request {
            Some(EditorRequest::Play(layout)) => {
                actions.push(Action::ChangeBoard(BoardChoice::Custom(std::sync::Arc::new(layout))));
                open = false;
            }
            Some(EditorRequest::Save(layout, path)) => {
                let said = match files::save_board(std::path::Path::new(&path), &layout) {
                    Ok(()) => format!("Board saved to {path}."),
                    Err(error) => error,
                };
                self.state.tell(said);
            }
            None => {}
        }
        if !open {
            self.editor = None;
        }
    }

    fn analysis_window(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let Some((moves, reviews)) = &self.analysis else { return };
        let mut open = self.analysis_open;
        egui::Window::new("Analysis").open(&mut open).default_width(460.0).show(ui.ctx(), |ui| {
            ui.label(format!("The engine's evaluation after each of the {} moves, from red's side.", moves.len()));
            crate::analysis_view::graph(ui, reviews);
            ui.label(RichText::new("Costliest moves").strong());
            let mistakes = crate::analysis_view::costliest(reviews, 5);
            if mistakes.is_empty() {
                ui.label("No move lost a point or more.");
            }
            for review in mistakes {
                let text = format!(
                    "Move {}: {} {} lost {:.1}; {} was best",
                    review.number,
                    title(review.mover),
                    review.played,
                    f64::from(review.loss) / 100.0,
                    review.best
                );
                if ui.button(text).on_hover_text("Show the position before this move").clicked() {
                    actions.push(Action::StepTo(review.number - 1));
                }
            }
        });
        self.analysis_open = open;
    }

    /// Starts, polls and drops the engine and hint tasks for the position on the board.
    fn drive_background(&mut self) {
        let position = self.state.game().position().clone();
        let scoring = self.state.game().scoring();
        match self.state.engine_to_move() {
            Some(level) => {
                if self.engine_task.as_ref().is_none_or(|task| !task.is_for(&position)) {
                    let nobody_watching =
                        self.state.seat(Color::Red) != Seat::Human && self.state.seat(Color::Black) != Seat::Human;
                    if !nobody_watching || Instant::now() >= self.next_engine_move {
                        let move_time = Duration::from_millis(self.settings.move_time_ms);
                        let may_swap = self.state.can_swap();
                        self.engine_task =
                            Some(background::engine_move(&position, scoring, level, move_time, may_swap));
                    }
                }
                if let Some(task) = &self.engine_task {
                    match task.poll() {
                        Status::Done(Some(action)) => {
                            self.engine_task = None;
                            self.state.apply(action);
                            self.next_engine_move =
                                Instant::now() + Duration::from_millis(self.settings.watch_delay_ms);
                        }
                        Status::Done(None) | Status::Lost => self.engine_task = None,
                        Status::Working => {}
                    }
                }
            }
            // Dropping the task stops its search (undo, new game, a person's turn).
            None => self.engine_task = None,
        }
        let want_hints = self.state.hints() && self.state.human_to_move();
        let have_hints = self.hints.as_ref().is_some_and(|(moves, _)| moves == position.moves());
        if want_hints && !have_hints && self.hint_task.as_ref().is_none_or(|task| !task.is_for(&position)) {
            self.hint_task = Some(background::strongest_holes(&position, scoring));
        }
        if let Some(task) = &self.hint_task {
            match task.poll() {
                Status::Done(hints) => {
                    if task.is_for(&position) {
                        self.hints = Some((position.moves().to_vec(), hints));
                    }
                    self.hint_task = None;
                }
                Status::Lost => self.hint_task = None,
                Status::Working => {}
            }
        }
        if let Some(task) = &self.analysis_task {
            match task.poll() {
                Status::Done(reviews) => {
                    self.analysis = Some((task.moves().to_vec(), reviews));
                    self.analysis_open = true;
                    self.analysis_task = None;
                }
                Status::Lost => self.analysis_task = None,
                Status::Working => {}
            }
        }
    }

    /// Hints for the position on the board, if shown and ready.
    fn current_hints(&self) -> &[Hint] {
        match &self.hints {
            Some((moves, hints)) if self.state.hints() && moves == self.state.game().position().moves() => hints,
            _ => &[],
        }
    }

    fn side_panel(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let state = &self.state;
        let game = state.game();
        let position = game.position();
        ui.horizontal(|ui| {
            ui.heading("Kulami");
            if ui.button("How to play").clicked() {
                self.rules_open = true;
            }
            if ui.button("Daily puzzle").clicked() {
                self.daily = Some(DailyPuzzle::new(kulami_ai::puzzle::Date::today()));
            }
        });
        ui.label(self.state.board().describe());
        ui.separator();

        let score = game.score();
        if position.is_game_over() {
            let verdict = match score.winner {
                Winner::Draw => "Game over: a draw".to_owned(),
                winner => format!("Game over: {winner} wins"),
            };
            ui.label(RichText::new(verdict).strong().size(18.0));
            let (mut red, mut black) = (0, 0);
            for index in 0..position.layout().tiles().len() {
                match position.tile_count(index, Color::Red).cmp(&position.tile_count(index, Color::Black)) {
                    std::cmp::Ordering::Greater => red += 1,
                    std::cmp::Ordering::Less => black += 1,
                    std::cmp::Ordering::Equal => {}
                }
            }
            let tied = position.layout().tiles().len() - red - black;
            ui.label(format!("Tiles won: red {red}, black {black}, tied {tied}"));
            ui.label("The board shows each side's largest area and lines.");
        } else {
            let side = position.side_to_move();
            ui.label(RichText::new(format!("{} to move", title(side))).strong().size(18.0));
            if self.engine_task.is_some() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("The engine is thinking…");
                });
            }
            ui.label(format!("{} legal holes", position.legal_moves().len()));
            if self.settings.turn_seconds > 0 && state.human_to_move() {
                let (text, over) = clock_text(self.turn.1.elapsed(), self.settings.turn_seconds);
                let color = if over { egui::Color32::LIGHT_RED } else { ui.visuals().text_color() };
                ui.colored_label(color, text);
            }
            if state.can_swap() && state.human_to_move() {
                let swap = ui.button("Swap colours").on_hover_text("Take the first marble as yours (pie rule)");
                if swap.clicked() {
                    actions.push(Action::Swap);
                }
            }
        }
        let total = 2 * position.layout().marbles_per_player();
        ui.label(format!("{} / {total} marbles placed", position.ply()));
        if let Some(message) = state.message() {
            ui.colored_label(egui::Color32::LIGHT_RED, message);
        }
        if !self.current_hints().is_empty() {
            let text: Vec<String> = self
                .current_hints()
                .iter()
                .enumerate()
                .map(|(rank, hint)| format!("{}. {} ({:+.1})", rank + 1, hint.cell, f64::from(hint.value) / 100.0))
                .collect();
            ui.label(format!("Hints: {}", text.join("  ")));
        }
        ui.separator();

        egui::Grid::new("score").num_columns(3).striped(true).show(ui, |ui| {
            ui.label("");
            ui.label("Red");
            ui.label("Black");
            ui.end_row();
            let (red, black) = (&score.red, &score.black);
            let rows = [
                ("Tiles", red.tiles, black.tiles),
                ("Largest area", red.largest_area, black.largest_area),
                ("Lines", red.lines, black.lines),
                ("Area bonus", red.area_bonus, black.area_bonus),
                ("Line bonus", red.line_bonus, black.line_bonus),
                ("Total", red.total, black.total),
            ];
            for (name, red, black) in rows {
                ui.label(name);
                ui.label(red.to_string());
                ui.label(black.to_string());
                ui.end_row();
            }
        });
        ui.separator();

        ui.horizontal(|ui| {
            if ui.button("New game").clicked() {
                actions.push(Action::NewGame);
            }
            if ui.add_enabled(!position.moves().is_empty(), egui::Button::new("Undo")).clicked() {
                actions.push(Action::Undo);
            }
            if ui.add_enabled(game.redo_moves().next().is_some(), egui::Button::new("Redo")).clicked() {
                actions.push(Action::Redo);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Game file");
            ui.add(egui::TextEdit::singleline(&mut self.game_path).desired_width(130.0)).labelled_by(label.id);
            let path = std::path::PathBuf::from(self.game_path.trim());
            if ui.button("Save game").clicked() {
                actions.push(match files::save_game(&path, game) {
                    Ok(()) => Action::Tell(format!("Game saved to {}.", path.display())),
                    Err(error) => Action::Tell(error),
                });
            }
            if ui.button("Open game").clicked() {
                actions.push(match files::load_game(&path) {
                    Ok(game) => Action::Load(Box::new(game)),
                    Err(error) => Action::Tell(format!("{error}; the game on the board is kept.")),
                });
            }
        });
        ui.separator();
        let analysed = self.analysis.as_ref().map(|(moves, _)| moves.as_slice());
        let (analyse, show_analysis) = move_list(ui, game, self.analysis_task.is_some(), analysed, actions);
        ui.separator();

        ui.label(RichText::new("Players").strong());
        for color in Color::BOTH {
            let current = state.seat(color);
            let mut chosen = current;
            egui::ComboBox::from_label(format!("{} player", title(color))).selected_text(seat_name(current)).show_ui(
                ui,
                |ui| {
                    ui.selectable_value(&mut chosen, Seat::Human, seat_name(Seat::Human));
                    for level in Level::LADDER {
                        ui.selectable_value(&mut chosen, Seat::Engine(level), seat_name(Seat::Engine(level)));
                    }
                },
            );
            if chosen != current {
                actions.push(Action::Seat(color, chosen));
            }
        }
        if Color::BOTH.iter().any(|&color| state.seat(color) != Seat::Human) {
            let mut paused = state.paused();
            if ui.checkbox(&mut paused, "Pause the engine").changed() {
                actions.push(Action::Pause(paused));
            }
            let mut seconds = self.settings.move_time_ms as f32 / 1000.0;
            ui.add(egui::Slider::new(&mut seconds, 0.1..=10.0).text("s per move (level 5)"));
            self.settings.move_time_ms = (seconds * 1000.0) as u64;
            let mut delay = self.settings.watch_delay_ms as f32 / 1000.0;
            ui.add(egui::Slider::new(&mut delay, 0.0..=3.0).text("s between moves (engine games)"));
            self.settings.watch_delay_ms = (delay * 1000.0) as u64;
        }
        ui.separator();

        ui.label(RichText::new("Board").strong());
        let mut preset = match state.board() {
            BoardChoice::Preset(name) => name.clone(),
            BoardChoice::Random { .. } | BoardChoice::Custom(_) => String::new(),
        };
        let before = preset.clone();
        egui::ComboBox::from_label("Preset").selected_text(if preset.is_empty() { "other" } else { &preset }).show_ui(
            ui,
            |ui| {
                for name in kulami_layouts::preset_names() {
                    ui.selectable_value(&mut preset, name.to_owned(), name);
                }
            },
        );
        if preset != before {
            actions.push(Action::ChangeBoard(BoardChoice::Preset(preset)));
        }
        if ui.button("Edit board").on_hover_text("Lay out your own board, starting from this one").clicked() {
            self.editor = Some(Editor::from_layout(position.layout()));
        }
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.shape, Shape::Square, "Square");
            ui.selectable_value(&mut self.shape, Shape::Irregular, "Irregular");
            if ui.button("Shuffle").clicked() {
                let seed = kulami_layouts::fresh_seed();
                self.seed_text = seed.to_string();
                actions.push(Action::ChangeBoard(BoardChoice::Random { shape: self.shape, seed }));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Seed");
            ui.add(egui::TextEdit::singleline(&mut self.seed_text).desired_width(150.0)).labelled_by(label.id);
            let seed = self.seed_text.trim().parse::<u64>().ok();
            let deal = ui.add_enabled(seed.is_some(), egui::Button::new("Deal")).clicked();
            if let Some(seed) = seed.filter(|_| deal) {
                actions.push(Action::ChangeBoard(BoardChoice::Random { shape: self.shape, seed }));
            }
        });
        ui.separator();

        ui.label(RichText::new("Options").strong());
        let mut scoring = game.scoring();
        egui::ComboBox::from_label("Scoring").selected_text(scoring_name(scoring)).show_ui(ui, |ui| {
            for option in Scoring::ALL {
                ui.selectable_value(&mut scoring, option, scoring_name(option));
            }
        });
        if scoring != game.scoring() {
            actions.push(Action::ChangeScoring(scoring));
        }
        let mut hints = state.hints();
        if ui.checkbox(&mut hints, "Hints (H)").changed() {
            actions.push(Action::ShowHints(hints));
        }
        let mut guide = state.guide();
        if ui.checkbox(&mut guide, "Board guide").changed() {
            actions.push(Action::ShowGuide(guide));
        }
        let mut swap = state.options().swap_allowed;
        if ui.checkbox(&mut swap, "Swap after the first move (pie rule)").changed() {
            actions.push(Action::AllowSwap(swap));
        }
        let mut clock = self.settings.turn_seconds as u32;
        ui.add(egui::Slider::new(&mut clock, 0..=120).text("s turn clock (0: off)"));
        self.settings.turn_seconds = u64::from(clock);
        if analyse {
            self.analysis_task = Some(background::analysis(self.state.game()));
        }
        self.analysis_open |= show_analysis;
    }
}

/// The moves of the game (taken-back ones too), each a button to go there, with steps and the
/// analysis buttons. Returns whether to start the analysis and whether to show the one made for
/// the moves `analysed`.
fn move_list(
    ui: &mut Ui,
    game: &kulami_core::Game,
    analysing: bool,
    analysed: Option<&[Cell]>,
    actions: &mut Vec<Action>,
) -> (bool, bool) {
    let position = game.position();
    let ply = position.ply();
    let all: Vec<Cell> = position.moves().iter().copied().chain(game.redo_moves()).collect();
    let mut analyse = false;
    ui.horizontal(|ui| {
        ui.label(RichText::new("Moves").strong());
        let steps = [
            ("<<", "First move", 0),
            ("<", "Step back", ply.saturating_sub(1)),
            (">", "Step forward", (ply + 1).min(all.len())),
            (">>", "Last move", all.len()),
        ];
        for (symbol, name, target) in steps {
            let response = ui.add_enabled(target != ply, egui::Button::new(symbol)).on_hover_text(name);
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, target != ply, name));
            if response.clicked() {
                actions.push(Action::StepTo(target));
            }
        }
        let label = if analysing { "Analysing…" } else { "Analyse the game" };
        analyse = ui.add_enabled(position.is_game_over() && !analysing, egui::Button::new(label)).clicked();
    });
    ui.horizontal_wrapped(|ui| {
        for (index, cell) in all.iter().enumerate() {
            if ui.selectable_label(index + 1 == ply, format!("{}. {cell}", index + 1)).clicked() {
                actions.push(Action::StepTo(index + 1));
            }
        }
    });
    let matches = analysed.is_some_and(|moves| moves.len() <= all.len() && moves == &all[..moves.len()]);
    let show = matches && ui.button("Show the analysis").clicked();
    (analyse, show)
}

impl eframe::App for KulamiApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    /// eframe's own storage keeps only the window's layout; the game is in the autosave.
    fn save(&mut self, _storage: &mut dyn eframe::Storage) {
        self.keep_autosave();
    }
}

/// The verdict on a puzzle answer, and the line that shows why.
fn puzzle_verdict(cell: Cell, verdict: &Verdict, puzzle: &Puzzle) -> (String, String) {
    let solution = format!("{} ends {:+}: {}", puzzle.answer, puzzle.margin, format_moves(&puzzle.variation));
    match verdict {
        Verdict::Right => (format!("Right: {cell} is the best move."), format!("The line: {solution}")),
        Verdict::Wrong { refutation, margin } => (
            format!("Wrong: {cell} ends {margin:+} with best play."),
            format!("The refutation: {}. Best was {solution}", format_moves(refutation)),
        ),
        Verdict::Illegal(error) => (format!("{cell} is not a legal move: {error}."), "Try another hole.".to_owned()),
    }
}

/// The turn clock's text for a turn `elapsed` long against a soft limit of `limit_seconds`, and
/// whether the turn is over time (the clock only warns; nobody loses on time).
#[must_use]
pub fn clock_text(elapsed: Duration, limit_seconds: u64) -> (String, bool) {
    let elapsed = elapsed.as_secs();
    let minutes_seconds = |seconds: u64| format!("{}:{:02}", seconds / 60, seconds % 60);
    if elapsed < limit_seconds {
        (format!("Clock: {} left", minutes_seconds(limit_seconds - elapsed)), false)
    } else {
        (format!("Clock: {} over time", minutes_seconds(elapsed - limit_seconds)), true)
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
        let ply = state.game().position().ply();
        if !input.modifiers.any() && input.key_pressed(Key::ArrowLeft) && ply > 0 {
            actions.push(Action::StepTo(ply - 1));
        }
        if !input.modifiers.any() && input.key_pressed(Key::ArrowRight) && state.game().redo_moves().next().is_some() {
            actions.push(Action::StepTo(ply + 1));
        }
        actions
    })
}

fn title(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn seat_name(seat: Seat) -> String {
    match seat {
        Seat::Human => "Person".to_owned(),
        Seat::Engine(level) => format!("Engine, {level}"),
    }
}

fn scoring_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Standard => "Standard",
        Scoring::Area => "Biggest Area",
        Scoring::Lines => "Lines",
        Scoring::Both => "Biggest Area and Lines",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_down_then_up_in_red() {
        assert_eq!(clock_text(Duration::from_millis(4_900), 30), ("Clock: 0:26 left".to_owned(), false));
        assert_eq!(clock_text(Duration::from_secs(30), 30), ("Clock: 0:00 over time".to_owned(), true));
        assert_eq!(clock_text(Duration::from_secs(95), 30), ("Clock: 1:05 over time".to_owned(), true));
        assert_eq!(clock_text(Duration::ZERO, 120), ("Clock: 2:00 left".to_owned(), false));
    }
}
