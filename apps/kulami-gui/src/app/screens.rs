//! The screens and windows besides the game: the start screen, the daily puzzle, the board
//! editor and the analysis of a finished game.

use egui::{RichText, Ui};
use kulami_ai::puzzle::{Puzzle, Verdict};
use kulami_core::Cell;
use kulami_core::notation::format_moves;

use super::KulamiApp;
use super::side_panel::{level_name, scoring_name, title};
use crate::background;
use crate::board_view;
use crate::daily::Answer;
use crate::daily::DailyPuzzle;
use crate::editor_view::{self, EditorRequest};
use crate::files;
use crate::state::{Action, BoardChoice, Seat};
use kulami_ai::Level;
use kulami_core::Color;

impl KulamiApp {
    /// What the player wants to do: go on with the game, play the computer (colour and level in
    /// words, last time's choice preselected), play a friend at this screen, the daily puzzle, or
    /// learn the rules.
    pub(super) fn start_screen(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(24.0);
                ui.heading(RichText::new("Kulami").size(40.0));
                ui.label("Place marbles, claim tiles, and force your opponent's hand.");
                ui.add_space(16.0);
                let game = self.state.game();
                let count = game.position().move_count();
                if count > 0 && !game.position().is_game_over() {
                    let text = format!("Continue the game (move {count}, {})", self.state.board().describe());
                    if ui.button(RichText::new(text).size(18.0)).clicked() {
                        self.leave_start(None);
                    }
                    ui.add_space(12.0);
                }
                if let Some(table) = self.table.take() {
                    let text = format!("Continue the {} game", table.title());
                    let keep = !table.is_over() && ui.button(RichText::new(text).size(18.0)).clicked();
                    self.table = Some(table);
                    if keep {
                        self.start_open = false;
                    }
                }
            });
            // Two columns of a readable width in the middle of the window.
            let width = ui.available_width().min(820.0);
            let side = (ui.available_width() - width) / 2.0;
            ui.horizontal(|ui| {
                ui.add_space(side);
                ui.vertical(|ui| {
                    ui.set_width(width);
                    self.start_choices(ui, actions);
                });
            });
        });
    }

    fn start_choices(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        ui.columns(2, |columns| {
            let computer = &mut columns[0];
            computer.heading("Against the computer");
            computer.horizontal(|ui| {
                ui.label("You play");
                ui.selectable_value(&mut self.settings.person_color, Color::Red, "Red (moves first)");
                ui.selectable_value(&mut self.settings.person_color, Color::Black, "Black");
            });
            for level in Level::LADDER {
                let (name, sentence) = level_name(level);
                let chosen = self.settings.computer_level == level;
                let radio = computer.radio(chosen, RichText::new(name).strong());
                super::probe::note_control(computer, name, &radio);
                if radio.clicked() {
                    self.settings.computer_level = level;
                }
                computer.label(RichText::new(sentence).weak());
                computer.add_space(4.0);
            }
            let play_computer = computer.button(RichText::new("Play the computer").size(18.0));
            super::probe::note_control(computer, "Play the computer", &play_computer);
            if play_computer.clicked() {
                let me = self.settings.person_color;
                actions.push(Action::Seat(me, Seat::Human));
                actions.push(Action::Seat(me.other(), Seat::Engine(self.settings.computer_level)));
                actions.push(Action::NewGame);
                self.leave_start(None);
            }
            let other = &mut columns[1];
            other.heading("With a friend");
            other.label("Two people at this screen, taking turns.");
            if other.button(RichText::new("Play a friend").size(18.0)).clicked() {
                actions.extend(Color::BOTH.map(|color| Action::Seat(color, Seat::Human)));
                actions.push(Action::NewGame);
                self.leave_start(None);
            }
            let play_online = other.button(RichText::new("Play online").size(18.0));
            super::probe::note_control(other, "Play online", &play_online);
            if play_online.clicked() {
                self.online_open = true;
                self.start_open = false;
            }
            other.add_space(16.0);
            other.heading("Other games");
            let kalah = other.button(RichText::new("Kalah").size(18.0)).on_hover_text(
                "Sow seeds round a board of pits; the one with more seeds in their store at the end wins",
            );
            crate::app::note_control(other, "Kalah", &kalah);
            if kalah.clicked() {
                self.leave_start(Some(crate::table::TableScreen::kalah()));
            }
            let gorami = other
                .button(RichText::new("GORami").size(18.0))
                .on_hover_text("Place numbered discs on triangles; win the stripes with the higher sums");
            crate::app::note_control(other, "GORami", &gorami);
            if gorami.clicked() {
                self.leave_start(Some(crate::table::TableScreen::gorami()));
            }
            other.add_space(16.0);
            other.heading("More");
            if other.button("Today's puzzle").clicked() {
                self.daily = Some(DailyPuzzle::new(kulami_ai::puzzle::Date::today()));
                self.leave_start(None);
            }
            if other.button("How to play").clicked() {
                self.rules_open = true;
            }
        });
    }

    /// Leaves the start screen for Kulami (`None`: the game or the puzzle chosen) or for a new
    /// table game.
    fn leave_start(&mut self, table: Option<crate::table::TableScreen>) {
        self.table = table;
        self.start_open = false;
    }

    /// The daily puzzle in place of the game: its board, the verdict on the first answer and
    /// the streak.
    pub(super) fn daily_screen(&mut self, ui: &mut Ui) {
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
            match (daily.judging(), daily.answered()) {
                (Some(cell), _) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(format!("Checking {cell}…"));
                    });
                }
                (None, None) => {
                    ui.label("Click a hole to answer. Only the first try counts.");
                }
                (None, Some((cell, verdict))) => {
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
                let view = board_view::View { coordinates: true, ..board_view::View::plain() };
                board_view::show(ui, &position, &view)
            })
            .inner;
        if let Some(cell) = clicked
            && let Answer::Judge(cell) = daily.answer(cell, &mut self.settings.streak)
        {
            self.puzzle_task = Some(background::judge_answer(puzzle, cell, background::waking(ui.ctx())));
        }
        if back {
            self.daily = None;
            self.puzzle_task = None;
        }
    }

    pub(super) fn editor_window(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
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
            Some(EditorRequest::Save(layout, path)) => match files::save_board(std::path::Path::new(&path), &layout) {
                Ok(()) => self.state.tell(format!("Board saved to {path}.")),
                Err(error) => self.state.warn(error),
            },
            Some(EditorRequest::SaveAs(layout)) if self.file_task.is_none() => {
                self.ask_for_file(super::FileRequest::SaveBoard(Box::new(layout)), ui.ctx());
            }
            Some(EditorRequest::SaveAs(_)) | None => {}
        }
        if !open {
            self.editor = None;
        }
    }

    pub(super) fn analysis_window(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let Some((asked, reviews)) = &self.analysis else { return };
        let moves: Vec<_> = asked.position.moves().collect();
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
