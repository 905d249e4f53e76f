//! The window: a side panel with the score and the controls, and the board in the middle.

use egui::{Key, RichText, Ui};
use kulami_core::{Color, Scoring, Winner};

use crate::board_view;
use crate::state::{Action, GameState, board_names};

/// The Kulami desktop app.
pub struct KulamiApp {
    state: GameState,
}

impl Default for KulamiApp {
    fn default() -> KulamiApp {
        KulamiApp { state: GameState::new("classic", Scoring::Standard) }
    }
}

impl KulamiApp {
    /// The game state, for tests.
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Draws one frame and applies what the player did in it.
    pub fn show(&mut self, ui: &mut Ui) {
        let mut actions = shortcuts(ui);
        egui::Panel::right("side").min_size(260.0).show(ui, |ui| side_panel(ui, &self.state, &mut actions));
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(cell) = board_view::show(ui, self.state.game().position()) {
                actions.push(Action::Place(cell));
            }
        });
        for action in actions {
            self.state.apply(action);
        }
    }
}

impl eframe::App for KulamiApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

fn shortcuts(ui: &Ui) -> Vec<Action> {
    ui.input(|input| {
        let mut actions = Vec::new();
        if input.modifiers.command && input.key_pressed(Key::Z) {
            actions.push(if input.modifiers.shift { Action::Redo } else { Action::Undo });
        }
        if input.modifiers.command && input.key_pressed(Key::N) {
            actions.push(Action::NewGame);
        }
        actions
    })
}

fn side_panel(ui: &mut Ui, state: &GameState, actions: &mut Vec<Action>) {
    let game = state.game();
    let position = game.position();
    ui.heading("Kulami");
    ui.separator();

    let score = game.score();
    if position.is_game_over() {
        let verdict = match score.winner {
            Winner::Draw => "Game over: a draw".to_owned(),
            winner => format!("Game over: {winner} wins"),
        };
        ui.label(RichText::new(verdict).strong().size(18.0));
    } else {
        let side = position.side_to_move();
        ui.label(RichText::new(format!("{} to move", title(side))).strong().size(18.0));
        ui.label(format!("{} legal holes", position.legal_moves().len()));
    }
    let total = 2 * position.layout().marbles_per_player();
    ui.label(format!("{} / {total} marbles placed", position.ply()));
    if let Some(message) = state.message() {
        ui.colored_label(egui::Color32::LIGHT_RED, message);
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

    let mut board = state.board_name().to_owned();
    egui::ComboBox::from_label("Board").selected_text(&board).show_ui(ui, |ui| {
        for name in board_names() {
            ui.selectable_value(&mut board, name.to_owned(), name);
        }
    });
    if board != state.board_name() {
        actions.push(Action::ChangeBoard(board));
    }
    let mut scoring = game.scoring();
    egui::ComboBox::from_label("Scoring").selected_text(scoring.name()).show_ui(ui, |ui| {
        for option in Scoring::ALL {
            ui.selectable_value(&mut scoring, option, option.name());
        }
    });
    if scoring != game.scoring() {
        actions.push(Action::ChangeScoring(scoring));
    }
    ui.separator();
    ui.label("Moves:");
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.label(kulami_core::notation::format_moves(position.moves()));
    });
}

fn title(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}
