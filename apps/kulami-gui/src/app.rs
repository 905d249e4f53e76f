//! The window: a side panel with the score and the controls, and the board in the middle.
//! Each frame turns clicks into [`Action`]s, applies them, then drives the background tasks.

use std::time::{Duration, Instant};

use egui::{Key, RichText, Ui};
use kulami_ai::Level;
use kulami_ai::analysis::Hint;
use kulami_core::{Cell, Color, Scoring, Winner};
use kulami_layouts::Shape;

use crate::background::{self, Status, Task};
use crate::board_view;
use crate::saved::{self, Saved};
use crate::state::{Action, BoardChoice, GameState, Seat};

/// The Kulami desktop app.
pub struct KulamiApp {
    state: GameState,
    engine_task: Option<Task<Option<Cell>>>,
    hint_task: Option<Task<Vec<Hint>>>,
    /// Hints and the moves of the position they are for.
    hints: Option<(Vec<Cell>, Vec<Hint>)>,
    /// Level 5's time per move.
    move_time: Duration,
    /// Pause between engine moves when no person plays, so games can be watched.
    watch_delay: Duration,
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
            move_time: Duration::from_secs(1),
            watch_delay: Duration::from_millis(500),
            next_engine_move: Instant::now(),
            seed_text: String::new(),
            shape: Shape::Square,
            rules_open: false,
        }
    }
}

impl KulamiApp {
    /// The app as it was left last time, if eframe kept it; a new game (with a message saying
    /// why) if what was kept cannot be read.
    #[must_use]
    pub fn new(storage: Option<&dyn eframe::Storage>) -> KulamiApp {
        let mut app = KulamiApp::default();
        let Some(text) = storage.and_then(|storage| storage.get_string(saved::KEY)) else { return app };
        match Saved::parse(&text).and_then(|saved| Ok((saved.restore()?, saved))) {
            Ok((state, saved)) => {
                app.state = state;
                app.move_time = Duration::from_millis(saved.move_time_ms.clamp(100, 10_000));
                app.watch_delay = Duration::from_millis(saved.watch_delay_ms.min(3_000));
            }
            Err(message) => app.state.tell(format!("{message}; a new game was started.")),
        }
        app
    }

    /// The game state, for tests.
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.state
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
        egui::Panel::right("side").min_size(280.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui, &mut actions));
        });
        let hint_cells: Vec<Cell> = self.current_hints().iter().map(|hint| hint.cell).collect();
        egui::CentralPanel::default().show(ui, |ui| {
            let summary = self.state.game().position().is_game_over();
            let view = board_view::View { guide: self.state.guide() && !summary, hints: &hint_cells, summary };
            let clicked = board_view::show(ui, self.state.game().position(), &view);
            if let Some(cell) = clicked.filter(|_| self.state.human_to_move()) {
                actions.push(Action::Place(cell));
            }
        });
        for action in actions {
            self.state.apply(action);
        }
        self.drive_background();
        if self.engine_task.is_some() || self.hint_task.is_some() || self.state.engine_to_move().is_some() {
            ui.ctx().request_repaint_after(Duration::from_millis(30));
        }
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
                        self.engine_task = Some(background::engine_move(&position, scoring, level, self.move_time));
                    }
                }
                if let Some(task) = &self.engine_task {
                    match task.poll() {
                        Status::Done(Some(cell)) => {
                            self.engine_task = None;
                            self.state.apply(Action::Place(cell));
                            self.next_engine_move = Instant::now() + self.watch_delay;
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
            let mut seconds = self.move_time.as_secs_f32();
            ui.add(egui::Slider::new(&mut seconds, 0.1..=10.0).text("s per move (level 5)"));
            self.move_time = Duration::from_secs_f32(seconds);
            let mut delay = self.watch_delay.as_secs_f32();
            ui.add(egui::Slider::new(&mut delay, 0.0..=3.0).text("s between moves (engine games)"));
            self.watch_delay = Duration::from_secs_f32(delay);
        }
        ui.separator();

        ui.label(RichText::new("Board").strong());
        let mut preset = match state.board() {
            BoardChoice::Preset(name) => name.clone(),
            BoardChoice::Random { .. } => String::new(),
        };
        let before = preset.clone();
        egui::ComboBox::from_label("Preset").selected_text(if preset.is_empty() { "random" } else { &preset }).show_ui(
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
        ui.separator();
        ui.label("Moves:");
        ui.label(kulami_core::notation::format_moves(position.moves()));
    }
}

impl eframe::App for KulamiApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let saved = Saved::capture(&self.state, self.move_time.as_millis() as u64, self.watch_delay.as_millis() as u64);
        storage.set_string(saved::KEY, saved.to_text());
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
