//! What the table games' screens share: who plays, and the side panel with the status, the
//! score, undo, hints, the new-game choices and the way back to the menu.

use std::time::Duration;

use egui::{RichText, Ui};
use web_time::Instant;

use super::{Seat, Session, TableRules};

/// Who the person plays, chosen for the next new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatChoice {
    /// The engine's level (1-5), or `None` for a friend at this screen.
    pub opponent: Option<u8>,
    /// Whether the person moves first against the engine.
    pub person_first: bool,
}

impl Default for SeatChoice {
    fn default() -> SeatChoice {
        SeatChoice { opponent: Some(3), person_first: true }
    }
}

impl SeatChoice {
    /// The choice that gives `seats` (two engines, which the app never seats, as the default).
    #[must_use]
    pub fn of(seats: [Seat; 2]) -> SeatChoice {
        match seats {
            [Seat::Person, Seat::Person] => SeatChoice { opponent: None, person_first: true },
            [Seat::Person, Seat::Engine(level)] => SeatChoice { opponent: Some(level), person_first: true },
            [Seat::Engine(level), Seat::Person] => SeatChoice { opponent: Some(level), person_first: false },
            [Seat::Engine(_), Seat::Engine(_)] => SeatChoice::default(),
        }
    }

    /// The seats, the first mover's first.
    #[must_use]
    pub fn seats(self) -> [Seat; 2] {
        match self.opponent {
            None => [Seat::Person; 2],
            Some(level) if self.person_first => [Seat::Person, Seat::Engine(level)],
            Some(level) => [Seat::Engine(level), Seat::Person],
        }
    }
}

/// What the player asked for in the side panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableInput<M> {
    /// Play this move.
    Play(M),
    /// Take back a move.
    Undo,
    /// Start a new game with the choices made.
    NewGame,
    /// Show or hide the hints.
    ShowHints(bool),
    /// Back to the start screen.
    Menu,
}

/// The level's name, as the Kulami levels are named.
#[must_use]
pub fn level_name(level: u8) -> &'static str {
    ["Beginner", "Casual", "Club", "Expert", "Master"][usize::from(level.clamp(1, 5)) - 1]
}

/// Who `seat` is, in words.
fn seat_name(seat: Seat) -> String {
    match seat {
        Seat::Person => "a person".to_owned(),
        Seat::Engine(level) => format!("the computer ({})", level_name(level)),
    }
}

/// The side panel: the game's `status` lines (who moves, or the result), the score, the last
/// message, the hints, undo, `moves` (the game's own controls: the swap, the disc to place),
/// the new-game choices with `rules` (the game's own options) and the menu.
pub fn side_panel<R: TableRules>(
    ui: &mut Ui,
    session: &Session<R>,
    choice: &mut SeatChoice,
    moves: impl FnOnce(&mut Ui, &mut Vec<TableInput<R::Move>>),
    rules: impl FnOnce(&mut Ui),
) -> Vec<TableInput<R::Move>> {
    let mut inputs = Vec::new();
    let position = session.position();
    ui.horizontal(|ui| {
        ui.heading(R::NAME);
        if ui.button("Menu").on_hover_text("The start screen").clicked() {
            inputs.push(TableInput::Menu);
        }
    });
    for player in 0..2 {
        ui.label(format!("{}: {}", R::player_name(position, player), seat_name(session.seats()[player])));
    }
    ui.separator();
    if let Some(result) = session.result() {
        ui.label(RichText::new(result).strong().size(18.0));
    } else if let Some(player) = R::player_to_move(position) {
        let name = R::player_name(position, player);
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{name} to move")).strong().size(18.0));
            if session.thinking() {
                ui.spinner();
            }
        });
        ui.label(R::tally(position));
    }
    if let Some(message) = session.message() {
        ui.colored_label(ui.visuals().warn_fg_color, message);
    }
    moves(ui, &mut inputs);
    ui.horizontal(|ui| {
        if ui.add_enabled(!session.moves().is_empty(), egui::Button::new("Undo")).clicked() {
            inputs.push(TableInput::Undo);
        }
        let mut hints = session.hints_shown();
        if ui.checkbox(&mut hints, "Hints").on_hover_text("The engine's three strongest moves").changed() {
            inputs.push(TableInput::ShowHints(hints));
        }
    });
    if session.hints_shown() && session.person_to_move() {
        if session.hints().is_empty() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Looking for the strongest moves…");
            });
        }
        for (rank, (mv, value)) in session.hints().iter().enumerate() {
            ui.label(format!("{}. {mv}: {}", rank + 1, R::value_text(*value)));
        }
    }
    ui.separator();
    ui.label(RichText::new("New game").strong());
    ui.horizontal(|ui| {
        ui.selectable_value(&mut choice.opponent, None, "A friend");
        ui.label("or the computer:");
    });
    ui.horizontal_wrapped(|ui| {
        for level in 1..=5 {
            ui.selectable_value(&mut choice.opponent, Some(level), level_name(level));
        }
    });
    if choice.opponent.is_some() {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut choice.person_first, true, "I move first");
            ui.selectable_value(&mut choice.person_first, false, "I move second");
        });
    }
    rules(ui);
    let start = ui.button("Start a new game");
    crate::app::note_control(ui, "Start a new game", &start);
    if start.clicked() {
        inputs.push(TableInput::NewGame);
    }
    inputs
}

/// Applies what the player asked for to `session`; `true` when they asked for the menu.
pub fn apply<R: TableRules>(
    session: &mut Session<R>,
    inputs: Vec<TableInput<R::Move>>,
    rules: R,
    choice: SeatChoice,
) -> bool {
    let mut menu = false;
    for input in inputs {
        match input {
            TableInput::Play(mv) => {
                session.play(mv);
            }
            TableInput::Undo => session.undo(),
            TableInput::NewGame => session.restart(rules, choice.seats()),
            TableInput::ShowHints(show) => session.show_hints(show),
            TableInput::Menu => menu = true,
        }
    }
    menu
}

/// How far a board has shown a game's moves: each new move is shown (a sowing seed by seed, a
/// disc turning others) before the next, and a move taken back is simply no longer shown.
#[derive(Debug, Default)]
pub struct Shown {
    /// The moves shown in full.
    count: usize,
    /// When the move being shown began to show; `None` while every move is shown.
    since: Option<Instant>,
}

impl Shown {
    /// Every one of `moves` moves already shown (a game resumed).
    #[must_use]
    pub fn all(moves: usize) -> Shown {
        Shown { count: moves, since: None }
    }

    /// Whether a game of `moves` moves has one not yet shown.
    #[must_use]
    pub fn behind(&self, moves: usize) -> bool {
        self.count < moves
    }

    /// The number (from 0) of the move to show in a game of `moves` moves, and for how long it
    /// has shown; `None` when every move is shown.
    pub fn current(&mut self, moves: usize, now: Instant) -> Option<(usize, Duration)> {
        self.count = self.count.min(moves);
        if self.count == moves {
            self.since = None;
            return None;
        }
        let since = *self.since.get_or_insert(now);
        Some((self.count, now.saturating_duration_since(since)))
    }

    /// The move shown is done; the next begins `now`.
    pub fn next(&mut self, now: Instant) {
        self.count += 1;
        self.since = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_new_move_shows_from_its_start_and_a_move_taken_back_is_forgotten() {
        let start = Instant::now();
        let mut shown = Shown::default();
        assert_eq!(shown.current(0, start), None);
        // A move arrives long after the last: it shows from when it is first seen.
        let later = start + Duration::from_secs(10);
        assert_eq!(shown.current(1, later), Some((0, Duration::ZERO)));
        assert_eq!(shown.current(1, later + Duration::from_millis(300)), Some((0, Duration::from_millis(300))));
        shown.next(later + Duration::from_millis(400));
        assert!(!shown.behind(1));
        // Two more (the engine's double turn): shown one after the other.
        assert_eq!(shown.current(3, later + Duration::from_millis(500)), Some((1, Duration::from_millis(100))));
        // Undo to none: nothing to show, and the next move starts afresh.
        assert_eq!(shown.current(0, later + Duration::from_secs(1)), None);
        let again = later + Duration::from_secs(5);
        assert_eq!(shown.current(1, again), Some((0, Duration::ZERO)));
    }
}
