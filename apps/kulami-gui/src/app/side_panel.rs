//! The side panel of the game screen: status, score, files, moves, players, board and options.

use std::time::Duration;

use egui::{RichText, Ui};
use kulami_ai::Level;
use kulami_core::{Color, Move, Scoring};
use kulami_layouts::Shape;

use super::{FileRequest, KulamiApp};
use crate::background;
use crate::daily::DailyPuzzle;
use crate::editor::Editor;
use crate::files;
use crate::state::{Action, BoardChoice, Seat, Tone};

impl KulamiApp {
    pub(super) fn side_panel(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let state = &self.state;
        let game = state.game();
        let position = game.position();
        ui.horizontal(|ui| {
            ui.heading("Kulami");
            if ui.button("Menu").on_hover_text("The start screen: play the computer, a friend, the puzzle").clicked() {
                self.start_open = true;
            }
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
        if let Some(verdict) = state.verdict() {
            ui.label(RichText::new(verdict).strong().size(20.0));
            ui.label(state.score_parts().join(", "));
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
            ui.horizontal(|ui| {
                if ui.button("Rematch").on_hover_text("The same board, colours exchanged").clicked() {
                    actions.push(Action::Rematch);
                }
                if ui.button("New board").on_hover_text("A new random board of the shape chosen under Board").clicked()
                {
                    let seed = kulami_layouts::fresh_seed();
                    actions.push(Action::ChangeBoard(BoardChoice::Random { shape: self.settings.shuffle_shape, seed }));
                }
                if ui
                    .add_enabled(self.analysis_task.is_none(), egui::Button::new("Review"))
                    .on_hover_text("The engine's view of every move")
                    .clicked()
                {
                    self.analysis_task = Some(background::analysis(game, background::waking(ui.ctx())));
                }
            });
        } else {
            let side = position.side_to_move();
            ui.label(RichText::new(format!("{} to move", title(side))).strong().size(18.0));
            ui.label(format!("{} legal holes", position.legal_moves().len()));
        }
        let total = 2 * position.layout().marbles_per_player();
        ui.label(format!("{} / {total} marbles placed", position.ply()));
        self.status_block(ui, actions);
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
                ("Largest area bonus", red.area_bonus, black.area_bonus),
                ("Lines bonus", red.line_bonus, black.line_bonus),
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
            if ui.add_enabled(position.move_count() > 0, egui::Button::new("Undo")).clicked() {
                actions.push(Action::Undo);
            }
            if ui.add_enabled(game.redo_moves().next().is_some(), egui::Button::new("Redo")).clicked() {
                actions.push(Action::Redo);
            }
        });
        ui.separator();
        let analysed: Option<Vec<Move>> = self.analysis.as_ref().map(|(asked, _)| asked.position.moves().collect());
        let show_analysis = move_list(ui, game, analysed.as_deref(), actions);
        ui.separator();

        egui::CollapsingHeader::new("Players").default_open(true).show(ui, |ui| {
            for color in Color::BOTH {
                let current = state.seat(color);
                let mut chosen = current;
                egui::ComboBox::from_label(format!("{} player", title(color)))
                    .selected_text(seat_name(current))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut chosen, Seat::Human, seat_name(Seat::Human));
                        for level in Level::LADDER {
                            ui.selectable_value(&mut chosen, Seat::Engine(level), seat_name(Seat::Engine(level)));
                        }
                    });
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
                labelled_slider(ui, "Master's time per move (s)", egui::Slider::new(&mut seconds, 0.1..=10.0));
                self.settings.move_time_ms = (seconds * 1000.0) as u64;
                let mut delay = self.settings.watch_delay_ms as f32 / 1000.0;
                labelled_slider(ui, "Pause between engine moves (s)", egui::Slider::new(&mut delay, 0.0..=3.0));
                self.settings.watch_delay_ms = (delay * 1000.0) as u64;
            }
        });

        egui::CollapsingHeader::new("Board").show(ui, |ui| {
            let mut preset = match state.board() {
                BoardChoice::Preset(name) => name.clone(),
                BoardChoice::Random { .. } | BoardChoice::Custom(_) => String::new(),
            };
            let before = preset.clone();
            egui::ComboBox::from_label("Preset")
                .selected_text(if preset.is_empty() { "other" } else { &preset })
                .show_ui(ui, |ui| {
                    for name in kulami_layouts::preset_names() {
                        ui.selectable_value(&mut preset, name.to_owned(), name);
                    }
                });
            if preset != before {
                actions.push(Action::ChangeBoard(BoardChoice::Preset(preset)));
            }
            if ui.button("Edit board").on_hover_text("Lay out your own board, starting from this one").clicked() {
                self.editor = Some(Editor::from_layout(position.layout()));
            }
            let shape = &mut self.settings.shuffle_shape;
            ui.horizontal(|ui| {
                ui.selectable_value(shape, Shape::Square, "Square");
                ui.selectable_value(shape, Shape::Irregular, "Irregular");
                if ui.button("Shuffle").clicked() {
                    let seed = kulami_layouts::fresh_seed();
                    self.seed_text = seed.to_string();
                    actions.push(Action::ChangeBoard(BoardChoice::Random { shape: *shape, seed }));
                }
            });
            ui.horizontal(|ui| {
                let label = ui.label("Seed");
                ui.add(egui::TextEdit::singleline(&mut self.seed_text).desired_width(110.0)).labelled_by(label.id);
                let seed = self.seed_text.trim().parse::<u64>().ok();
                let deal = ui.add_enabled(seed.is_some(), egui::Button::new("Deal")).clicked();
                if let Some(seed) = seed.filter(|_| deal) {
                    actions.push(Action::ChangeBoard(BoardChoice::Random { shape: *shape, seed }));
                }
                if seed.is_none() && !self.seed_text.trim().is_empty() {
                    ui.colored_label(ui.visuals().error_fg_color, "not a number")
                        .on_hover_text("A seed is a whole number from 0 to 18446744073709551615");
                }
            });
        });

        egui::CollapsingHeader::new("Options").show(ui, |ui| {
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
            ui.checkbox(&mut self.settings.sounds, "Sounds")
                .on_hover_text("A knock for each marble, a chord at the end");
            if background::PONDERS {
                ui.checkbox(&mut self.settings.pondering, "Master thinks on your time").on_hover_text(
                    "While you think, Master thinks about its next move too: stronger, and one core busy",
                );
            }
            let mut swap = state.options().swap_allowed;
            if ui.checkbox(&mut swap, "Swap after the first move (pie rule)").changed() {
                actions.push(Action::AllowSwap(swap));
            }
            let mut clock = self.settings.turn_seconds as u32;
            labelled_slider(ui, "Turn clock against the engine (s, 0: off)", egui::Slider::new(&mut clock, 0..=120))
                .on_hover_text("A soft clock for your turns against the engine; it only warns");
            self.settings.turn_seconds = u64::from(clock);
        });

        let mut file_request = None;
        egui::CollapsingHeader::new("Files").show(ui, |ui| {
            let label = ui.label("Game file");
            let field = egui::TextEdit::singleline(&mut self.game_path).desired_width(ui.available_width());
            ui.add(field).labelled_by(label.id);
            let path = std::path::PathBuf::from(self.game_path.trim());
            let dialog_open = self.file_task.is_some();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!dialog_open, egui::Button::new("Open…"))
                    .on_hover_text("Choose a game file")
                    .clicked()
                {
                    file_request = Some(FileRequest::OpenGame);
                }
                if ui
                    .add_enabled(!dialog_open, egui::Button::new("Save as…"))
                    .on_hover_text("Choose where to save the game")
                    .clicked()
                {
                    file_request = Some(FileRequest::SaveGame);
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Save game").clicked() {
                    actions.push(match files::save_game(&path, game) {
                        Ok(()) => Action::Tell(format!("Game saved to {}.", path.display())),
                        Err(error) => Action::Warn(error),
                    });
                }
                if ui.button("Open game").clicked() {
                    actions.push(match files::load_game(&path) {
                        Ok(game) => Action::Load(Box::new(game)),
                        Err(error) => Action::Warn(format!("{error}; the game on the board is kept.")),
                    });
                }
            });
        });
        self.analysis_open |= show_analysis;
        if let Some(request) = file_request {
            self.ask_for_file(request, ui.ctx());
        }
    }
}

/// A slider under its label, so that no label widens the fixed-width panel.
fn labelled_slider(ui: &mut Ui, label: &str, slider: egui::Slider<'_>) -> egui::Response {
    let label = ui.label(label);
    ui.add(slider).labelled_by(label.id)
}

/// The lines of the status block: every line that comes and goes is drawn inside it, so the
/// controls below never move under the pointer. At most four show at once (the engine or the
/// clock, the swap or looking back, the message, the hints on two lines).
const STATUS_LINES: f32 = 5.0;

impl KulamiApp {
    /// The lines that come and go (the engine thinking, the turn clock, the swap, looking back,
    /// bringing back a game, the last message, the hints) in a block of fixed height.
    fn status_block(&self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let state = &self.state;
        let line = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let size = egui::vec2(ui.available_width(), STATUS_LINES * line);
        ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.set_min_size(size);
            if self.engine_task.is_some() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("The engine is thinking…");
                });
            }
            if self.settings.turn_seconds > 0 && state.turn_is_timed() {
                let (text, over) = clock_text(self.turn.1.elapsed(), self.settings.turn_seconds);
                let color = if over { ui.visuals().warn_fg_color } else { ui.visuals().text_color() };
                ui.colored_label(color, text);
            }
            if state.can_swap() && state.human_to_move() {
                let swap = ui.button("Swap colours").on_hover_text("Take the first marble as yours (pie rule)");
                if swap.clicked() {
                    actions.push(Action::Swap);
                }
            }
            let game = state.game();
            if let Some(review) = self.costly_move_here() {
                ui.label(format!(
                    "Here {} (the gold diamond) was better: {} lost {:.1} points.",
                    review.best,
                    review.played,
                    f64::from(review.loss) / 100.0
                ));
            }
            if state.reviewing() {
                let last = game.position().move_count() + game.redo_moves().count();
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("Looking back: move {} of {last}.", game.position().move_count()));
                    if ui.button("Back to the game").clicked() {
                        actions.push(Action::StepTo(last));
                    }
                });
            }
            if let Some(message) = state.message() {
                let color = match state.message_tone() {
                    Some(Tone::Problem) => ui.visuals().error_fg_color,
                    _ => ui.visuals().text_color(),
                };
                ui.colored_label(color, message);
            }
            // Only at the start of a game, where neither the swap nor looking back can be.
            if state.can_bring_back()
                && game.position().move_count() == 0
                && !state.reviewing()
                && ui.button("Bring back the last game").clicked()
            {
                actions.push(Action::BringBackGame);
            }
            let hints = self.current_hints();
            if !hints.is_empty() {
                let text: Vec<String> = hints
                    .iter()
                    .enumerate()
                    .map(|(rank, hint)| format!("{}. {} ({:+.1})", rank + 1, hint.cell, f64::from(hint.value) / 100.0))
                    .collect();
                ui.label("Hints, with the points each should win by:");
                ui.label(format!("Hints: {}", text.join("  ")))
                    .on_hover_text("The strongest holes, with the final margin each is expected to give you in points");
            }
        });
    }
}

/// The moves of the game (taken-back ones too), each a button to go there, with steps. Returns
/// whether to show the analysis made for the moves `analysed`.
fn move_list(ui: &mut Ui, game: &kulami_core::Game, analysed: Option<&[Move]>, actions: &mut Vec<Action>) -> bool {
    let position = game.position();
    let ply = position.move_count();
    let all: Vec<Move> = position.moves().chain(game.redo_moves()).collect();
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
    });
    ui.horizontal_wrapped(|ui| {
        for (index, played) in all.iter().enumerate() {
            if ui.selectable_label(index + 1 == ply, format!("{}. {played}", index + 1)).clicked() {
                actions.push(Action::StepTo(index + 1));
            }
        }
    });
    let matches = analysed.is_some_and(|moves| moves.len() <= all.len() && moves == &all[..moves.len()]);
    matches && ui.button("Show the analysis").clicked()
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

pub(super) use crate::state::color_name as title;

fn seat_name(seat: Seat) -> String {
    match seat {
        Seat::Human => "Person".to_owned(),
        Seat::Engine(level) => format!("Computer: {}", level_name(level).0),
    }
}

/// A level's name in words and a sentence on how it plays.
pub(super) fn level_name(level: Level) -> (&'static str, &'static str) {
    match level {
        Level::Beginner => {
            ("Beginner", "Looks three moves ahead at the tiles alone and often plays a weaker move: for a first game.")
        }
        Level::Casual => {
            ("Casual", "Looks two moves ahead, weighing the whole board, and plays the move it finds best.")
        }
        Level::Club => {
            ("Club", "Looks three moves ahead, weighing the whole board, and plays the last eighteen moves perfectly.")
        }
        Level::Expert => ("Expert", "Weighs many lines for a moment and ends the game perfectly."),
        Level::Master => ("Master", "The full engine: a second a move, and the strongest there is."),
        _ => ("Test player", "A player kept to measure the levels against."),
    }
}

pub(super) fn scoring_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Standard => "Standard",
        Scoring::Area => "Largest area",
        Scoring::Lines => "Lines",
        Scoring::Both => "Largest area and lines",
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
