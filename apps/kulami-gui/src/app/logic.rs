//! What runs apart from the drawing: [`KulamiApp::logic`] starts, polls and drops the
//! background tasks (the engine, the hints, the analysis, the puzzle's judgement, a file
//! dialog), applies their answers, drives the lobby and the online game, and keeps the autosave.

use std::time::Duration;

use web_time::Instant;

use kulami_core::{Color, Move, Position, Scoring};

use super::{FileRequest, KulamiApp};
use crate::background::{self, Status};
use crate::state::{Action, Seat};

impl KulamiApp {
    /// What must happen whether or not the window is drawn: starts, polls and drops the
    /// background tasks, applies their answers, forgets an analysis of another game, and keeps
    /// the autosave. eframe calls it before every frame and when a task's end wakes it.
    pub fn logic(&mut self, ctx: &egui::Context) {
        self.drive_background(ctx);
        if let Some(table) = &mut self.table {
            table.drive(&background::waking(ctx));
        }
        self.drive_online(ctx);
        self.forget_other_analysis();
        self.keep_autosave();
        if self.engine_to_play().is_some() && self.engine_task.is_none() {
            // An engine game waits between moves, to be watched.
            ctx.request_repaint_after(self.next_engine_move.saturating_duration_since(Instant::now()));
        }
    }

    /// The level of the engine to move in the Kulami game, while that game is on the screen: a
    /// game behind the start screen (or a puzzle, a table game, the lobby) waits for the person
    /// to come back to it, so that the move they were offered to continue is the one they find.
    fn engine_to_play(&self) -> Option<kulami_ai::Level> {
        self.state.engine_to_move().filter(|_| self.screen() == "game")
    }

    /// While a person on the game screen thinks against the engine, the engine thinks too, for
    /// its next move ([`background::ponder`]), once for each position, unless the setting is off;
    /// anything else stops it.
    fn ponder_on_the_persons_time(&mut self, position: &Position, scoring: Scoring, wake: &background::Wake) {
        let answering = (self.state.engine_to_answer())
            .filter(|_| background::PONDERS && self.settings.pondering && self.screen() == "game");
        match answering {
            Some(level) => {
                if self.ponder_task.as_ref().is_none_or(|task| !task.is_for(position, scoring)) {
                    let move_time = Duration::from_millis(self.settings.move_time_ms);
                    self.ponder_task = Some(background::ponder(position, scoring, level, move_time, wake.clone()));
                }
            }
            None => self.ponder_task = None,
        }
    }

    /// Polls the lobby and the online game; a game the lobby saw start opens on the screen.
    fn drive_online(&mut self, ctx: &egui::Context) {
        let now = Instant::now();
        self.lobby.set_wake(background::waking(ctx));
        self.lobby.poll(now, self.online_open && self.online_game.is_none());
        let started = self.lobby.started();
        if started.len() > self.games_opened
            && let Some(account) = self.lobby.account().cloned()
        {
            self.games_opened = started.len();
            let id = started[started.len() - 1].clone();
            self.online_game = Some(crate::online_game::OnlineGame::open(account, &id, background::waking(ctx)));
            self.online_open = true;
            self.start_open = false;
        }
        if let Some(game) = &mut self.online_game {
            game.set_wake(background::waking(ctx));
            game.poll(now);
            if game.running() && game.clocked() {
                // The clocks show tenths.
                ctx.request_repaint_after(Duration::from_millis(100));
            }
        }
        if self.online_open {
            // The players list is asked for again every few seconds.
            ctx.request_repaint_after(Duration::from_secs(1));
        }
    }

    /// Drops the analysis once the game on the board is not the analysed one (a new game, board,
    /// scoring or line), so that its window and buttons never act on another game.
    fn forget_other_analysis(&mut self) {
        let Some((asked, _)) = &self.analysis else { return };
        let game = self.state.game();
        let position = game.position();
        let analysed: Vec<Move> = asked.position.moves().collect();
        let played: Vec<Move> = position.moves().chain(game.redo_moves()).collect();
        let same_game = asked.scoring == game.scoring()
            && asked.position.layout() == position.layout()
            && asked.position.swap_rule() == position.swap_rule()
            && played.starts_with(&analysed);
        if !same_game {
            self.analysis = None;
            self.analysis_open = false;
        }
    }

    /// Starts, polls and drops the engine and hint tasks for the position on the board, and
    /// polls the analysis and the puzzle judgement.
    fn drive_background(&mut self, ctx: &egui::Context) {
        let wake = background::waking(ctx);
        let position = self.state.game().position().clone();
        let scoring = self.state.game().scoring();
        let lost_here = self.lost_search.as_ref().is_some_and(|lost| lost.is_for(&position, scoring));
        match self.engine_to_play() {
            Some(level) => {
                // The person has moved: the thinking on their time stops (and hands its tree to
                // the engine's move).
                self.ponder_task = None;
                if !lost_here && self.engine_task.as_ref().is_none_or(|task| !task.is_for(&position, scoring)) {
                    let nobody_watching =
                        self.state.seat(Color::Red) != Seat::Human && self.state.seat(Color::Black) != Seat::Human;
                    if !nobody_watching || Instant::now() >= self.next_engine_move {
                        let move_time = Duration::from_millis(self.settings.move_time_ms);
                        self.engine_task =
                            Some(background::engine_move(&position, scoring, level, move_time, wake.clone()));
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
                        Status::Done(None) => self.engine_task = None,
                        Status::Lost => {
                            self.lost_search = self.engine_task.take().map(|task| task.asked().clone());
                            self.state.warn(
                                "The engine stopped without a move. Undo, or take its seat, to go on.".to_owned(),
                            );
                        }
                        Status::Working => {}
                    }
                }
            }
            // Dropping the task stops its search (undo, new game, a person's turn, another screen).
            None => {
                self.engine_task = None;
                self.ponder_on_the_persons_time(&position, scoring, &wake);
            }
        }
        let want_hints = self.state.hints() && self.state.human_to_move();
        let have_hints = self.hints.as_ref().is_some_and(|(asked, _)| asked.is_for(&position, scoring));
        if want_hints
            && !have_hints
            && !lost_here
            && self.hint_task.as_ref().is_none_or(|task| !task.is_for(&position, scoring))
        {
            self.hint_task = Some(background::strongest_holes(&position, scoring, wake.clone()));
        }
        if let Some(task) = &self.hint_task {
            match task.poll() {
                Status::Done(hints) => {
                    if task.is_for(&position, scoring) {
                        self.hints = Some((task.asked().clone(), hints));
                    }
                    self.hint_task = None;
                }
                Status::Lost => {
                    self.lost_search = self.hint_task.take().map(|task| task.asked().clone());
                    self.state.warn("The hints stopped without an answer.".to_owned());
                }
                Status::Working => {}
            }
        }
        if let Some(task) = &self.analysis_task {
            match task.poll() {
                Status::Done(reviews) => {
                    self.analysis = Some((task.asked().clone(), reviews));
                    self.analysis_open = true;
                    self.analysis_task = None;
                }
                Status::Lost => {
                    self.analysis_task = None;
                    self.state.warn("The analysis stopped without an answer.".to_owned());
                }
                Status::Working => {}
            }
        }
        if let Some((request, task)) = &self.file_task {
            match task.poll() {
                Status::Done(Some(path)) => {
                    let request = request.clone();
                    self.file_task = None;
                    self.use_picked_file(request, &path);
                }
                Status::Done(None) | Status::Lost => self.file_task = None,
                Status::Working => {}
            }
        }
        if let Some(task) = &self.puzzle_task {
            match task.poll() {
                Status::Done((cell, verdict)) => {
                    if let Some(daily) = &mut self.daily {
                        daily.settle(cell, verdict, &mut self.settings.streak);
                    }
                    self.puzzle_task = None;
                }
                Status::Lost => {
                    self.puzzle_task = None;
                    self.state.warn("The puzzle's answer could not be judged.".to_owned());
                }
                Status::Working => {}
            }
        }
    }

    /// Opens or saves the game with the file the player picked.
    fn use_picked_file(&mut self, request: FileRequest, path: &std::path::Path) {
        let shown = path.display().to_string();
        match request {
            FileRequest::OpenGame => {
                self.game_path = shown;
                match crate::files::load_game(path) {
                    Ok(game) => self.state.apply(Action::Load(Box::new(game))),
                    Err(error) => self.state.warn(format!("{error}; the game on the board is kept.")),
                }
            }
            FileRequest::SaveGame => {
                match crate::files::save_game(path, self.state.game()) {
                    Ok(()) => self.state.tell(format!("Game saved to {shown}.")),
                    Err(error) => self.state.warn(error),
                }
                self.game_path = shown;
            }
            FileRequest::SaveBoard(layout) => {
                match crate::files::save_board(path, &layout) {
                    Ok(()) => self.state.tell(format!("Board saved to {shown}.")),
                    Err(error) => self.state.warn(error),
                }
                self.board_path = shown;
            }
        }
    }

    /// Opens the desktop's file dialog for `request` on its own thread.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn ask_for_file(&mut self, request: FileRequest, ctx: &egui::Context) {
        let folder = crate::files::default_folder();
        let kind = request.clone();
        let ask = move || match kind {
            FileRequest::OpenGame => crate::files::ask_for_game_to_open(&folder),
            FileRequest::SaveGame => crate::files::ask_where_to_save(&folder, crate::files::Saving::Game),
            FileRequest::SaveBoard(_) => crate::files::ask_where_to_save(&folder, crate::files::Saving::Board),
        };
        let game = self.state.game();
        let task = background::FilePick::start(game.position(), game.scoring(), ask, background::waking(ctx));
        self.file_task = Some((request, task));
    }

    /// A page has no file dialog: the browser keeps the game in the page's storage instead.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn ask_for_file(&mut self, _request: FileRequest, _ctx: &egui::Context) {
        self.state
            .warn("Files are for the desktop game; this page keeps your game in the browser's storage.".to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_picked_in_a_dialog_saves_or_opens_what_it_was_asked_for() {
        let dir = std::env::temp_dir().join(format!("kulami-gui-picked-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut app = KulamiApp::default();
        app.state.apply(Action::Place("d4".parse().unwrap()));
        let game = dir.join("picked-game.txt");
        app.use_picked_file(FileRequest::SaveGame, &game);
        assert_eq!(app.state.message(), Some(format!("Game saved to {}.", game.display()).as_str()));
        assert_eq!(app.game_path, game.display().to_string(), "the field shows the file chosen");
        app.state.apply(Action::NewGame);
        app.use_picked_file(FileRequest::OpenGame, &game);
        assert_eq!(app.state.game().position().move_count(), 1);
        let board = dir.join("picked-board.txt");
        let layout = kulami_core::Layout::parse("AABB/CCDD").unwrap();
        app.use_picked_file(FileRequest::SaveBoard(Box::new(layout.clone())), &board);
        assert_eq!(kulami_layouts::Board::read(&board).unwrap().layout(), &layout);
        assert_eq!(app.board_path, board.display().to_string());
        app.use_picked_file(FileRequest::OpenGame, &dir.join("missing.txt"));
        assert_eq!(app.state.message_tone(), Some(crate::state::Tone::Problem));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_engine_thinks_on_the_persons_time_until_they_move() {
        let ctx = egui::Context::default();
        let mut app = KulamiApp::default();
        app.settings.move_time_ms = 100;
        app.logic(&ctx);
        assert!(app.ponder_task.is_none(), "two people at one screen");
        app.state.apply(Action::Seat(Color::Black, Seat::Engine(kulami_ai::Level::Master)));
        app.logic(&ctx);
        let (position, scoring) = (app.state.game().position().clone(), app.state.game().scoring());
        assert!(app.ponder_task.as_ref().is_some_and(|task| task.is_for(&position, scoring)));
        app.settings.pondering = false;
        app.logic(&ctx);
        assert!(app.ponder_task.is_none(), "the setting turned off stops it");
        app.settings.pondering = true;
        app.logic(&ctx);
        assert!(app.ponder_task.is_some(), "and turned on starts it again");
        app.state.apply(Action::Place("d4".parse().unwrap()));
        app.logic(&ctx);
        assert!(app.ponder_task.is_none(), "the person's move stops it");
        assert!(app.engine_task.is_some(), "and the engine's move begins");
        app.state.apply(Action::Undo);
        app.state.apply(Action::Pause(true));
        app.logic(&ctx);
        assert!(app.ponder_task.is_none() && app.engine_task.is_none(), "nothing thinks in a paused game");
    }

    #[test]
    fn an_engine_that_stops_without_a_move_says_so_once_and_is_not_restarted() {
        let ctx = egui::Context::default();
        let mut app = KulamiApp::default();
        app.state.apply(Action::Seat(Color::Black, Seat::Engine(kulami_ai::Level::Beginner)));
        app.state.apply(Action::Place("d4".parse().unwrap()));
        let position = app.state.game().position().clone();
        let scoring = app.state.game().scoring();
        app.engine_task = Some(crate::background::Task::lost(crate::background::Asked { position, scoring }));
        app.logic(&ctx);
        assert!(app.engine_task.is_none());
        assert_eq!(app.state.message_tone(), Some(crate::state::Tone::Problem));
        app.logic(&ctx);
        assert!(app.engine_task.is_none(), "not asked again for the same position");
        app.state.apply(Action::Undo);
        app.state.apply(Action::Place("e4".parse().unwrap()));
        app.logic(&ctx);
        assert!(app.engine_task.is_some(), "another position is asked for as usual");
    }
}
