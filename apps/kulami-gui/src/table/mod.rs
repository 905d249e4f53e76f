//! The other games of the table, Kalah and GORami: one [`Session`] (the game, its seats, undo,
//! the engine's moves and the hints, off the UI thread) serves both through [`TableRules`],
//! which asks each game's own crate for its rules and its engine. No drawing here.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::background::{self, Status, Task, Wake};

pub mod gorami;
pub mod gorami_view;
pub mod kalah;
pub mod kalah_view;
pub mod view;

/// A game of the table as the app plays it: its rules (the variant chosen), its positions and
/// moves, and its engine, each answered by the game's own crate.
pub trait TableRules: Copy + Debug + PartialEq + Send + 'static {
    /// A position: small and `Copy`.
    type Position: Copy + Debug + PartialEq + Send + 'static;
    /// A move, written and read in the game's notation.
    type Move: Copy + Debug + PartialEq + Display + FromStr + Send + 'static;

    /// The game's name.
    const NAME: &'static str;

    /// The start of a game under these rules.
    fn start(self) -> Self::Position;

    /// Plays `mv`, or says in a sentence why it cannot be played.
    ///
    /// # Errors
    /// The rules' reason; the position is then unchanged.
    fn play(position: &mut Self::Position, mv: Self::Move) -> Result<(), String>;

    /// Which player moves (0 the one who began), `None` once the game is over.
    fn player_to_move(position: &Self::Position) -> Option<usize>;

    /// The winner (0 the one who began) of a finished game, `None` for a draw or a game on.
    fn winner(position: &Self::Position) -> Option<usize>;

    /// `player`'s name in the game (a side or a colour).
    fn player_name(position: &Self::Position, player: usize) -> String;

    /// The score so far, in words.
    fn tally(position: &Self::Position) -> String;

    /// A hint's value in words (the engine's values are the mover's lead at the end).
    fn value_text(value: i32) -> String;

    /// The engine's move at `level` (1-5), `None` once the game is over.
    fn engine_move(position: &Self::Position, level: u8) -> Option<Self::Move>;

    /// Every move with its value for the mover, best first, as far as a hint's search sees.
    fn ranked_moves(position: &Self::Position) -> Vec<(Self::Move, i32)>;

    /// These rules as plain data, to cross to a web worker.
    fn setup(self) -> Setup;
}

/// The table game on the screen.
#[derive(Debug)]
pub enum TableScreen {
    /// Kalah.
    Kalah(kalah_view::KalahScreen),
    /// GORami.
    Gorami(gorami_view::GoramiScreen),
}

impl TableScreen {
    /// A new game of Kalah as the site plays it, against the engine at level 3.
    #[must_use]
    pub fn kalah() -> TableScreen {
        TableScreen::Kalah(kalah_view::KalahScreen::new(kalah::KalahSetup::default(), view::SeatChoice::default()))
    }

    /// A new game of GORami on the smallest board, against the engine at level 3.
    #[must_use]
    pub fn gorami() -> TableScreen {
        TableScreen::Gorami(gorami_view::GoramiScreen::new(gorami::GoramiSetup::default(), view::SeatChoice::default()))
    }

    /// The screen's name in the app's probe: `kalah` or `gorami`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            TableScreen::Kalah(_) => "kalah",
            TableScreen::Gorami(_) => "gorami",
        }
    }

    /// The game's name, for the start screen.
    #[must_use]
    pub fn title(&self) -> &'static str {
        match self {
            TableScreen::Kalah(_) => kalah::KalahSetup::NAME,
            TableScreen::Gorami(_) => gorami::GoramiSetup::NAME,
        }
    }

    /// Its game's moves, in the game's notation.
    #[must_use]
    pub fn moves(&self) -> Vec<String> {
        match self {
            TableScreen::Kalah(screen) => screen.session.moves().iter().map(ToString::to_string).collect(),
            TableScreen::Gorami(screen) => screen.session.moves().iter().map(ToString::to_string).collect(),
        }
    }

    /// Whether its game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        match self {
            TableScreen::Kalah(screen) => screen.session.result().is_some(),
            TableScreen::Gorami(screen) => screen.session.result().is_some(),
        }
    }

    /// Drives the engine and the hints (see [`Session::drive`]); the engine moves once the
    /// board has shown the last move.
    pub fn drive(&mut self, wake: &Wake) {
        match self {
            TableScreen::Kalah(screen) => {
                let ready = !screen.animating();
                screen.session.drive(ready, wake);
            }
            TableScreen::Gorami(screen) => {
                let ready = !screen.animating();
                screen.session.drive(ready, wake);
            }
        }
    }

    /// Draws the screen; `true` when the player asked for the menu.
    pub fn show(&mut self, ui: &mut egui::Ui) -> bool {
        match self {
            TableScreen::Kalah(screen) => screen.show(ui),
            TableScreen::Gorami(screen) => screen.show(ui),
        }
    }
}

/// A table game as the autosave keeps it: its rules, who plays (a level for the engine, `None`
/// for a person) and its moves in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedTable {
    /// The rules.
    pub setup: Setup,
    /// The engine's level at each seat (the first mover's first), `None` for a person.
    pub engines: [Option<u8>; 2],
    /// The moves.
    pub moves: Vec<String>,
}

impl TableScreen {
    /// The game as the autosave keeps it.
    #[must_use]
    pub fn save(&self) -> SavedTable {
        let (setup, seats) = match self {
            TableScreen::Kalah(screen) => (screen.session.rules().setup(), screen.session.seats()),
            TableScreen::Gorami(screen) => (screen.session.rules().setup(), screen.session.seats()),
        };
        let engines = seats.map(|seat| match seat {
            Seat::Person => None,
            Seat::Engine(level) => Some(level),
        });
        SavedTable { setup, engines, moves: self.moves() }
    }

    /// The game `saved` kept, on its screen as it was left (its moves already shown).
    ///
    /// # Errors
    /// A level outside 1-5, or the first move that does not read or cannot be played.
    pub fn restore(saved: &SavedTable) -> Result<TableScreen, String> {
        let seat = |engine: Option<u8>| match engine {
            None => Ok(Seat::Person),
            Some(level @ 1..=5) => Ok(Seat::Engine(level)),
            Some(level) => Err(format!("level {level} is not a level (1-5)")),
        };
        let seats = [seat(saved.engines[0])?, seat(saved.engines[1])?];
        let choice = view::SeatChoice::of(seats);
        Ok(match saved.setup {
            Setup::Kalah(setup) => {
                let session = Session::resume(setup, seats, &saved.moves)?;
                TableScreen::Kalah(kalah_view::KalahScreen::resume(session, choice))
            }
            Setup::Gorami(setup) => {
                let session = Session::resume(setup, seats, &saved.moves)?;
                TableScreen::Gorami(gorami_view::GoramiScreen::resume(session, choice))
            }
        })
    }
}

/// The rules of a table game as plain data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setup {
    /// Kalah.
    Kalah(kalah::KalahSetup),
    /// GORami.
    Gorami(gorami::GoramiSetup),
}

/// What a table game's work finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableFind {
    /// The engine's move at a level (1-5).
    EngineMove(u8),
    /// The strongest moves.
    Hints,
}

/// How many moves a hint shows.
pub const HINTS: usize = 3;

impl Setup {
    /// Replays `moves` under these rules and finds `find`: the move (`None` in a finished game)
    /// or the hints, in the game's notation.
    ///
    /// # Errors
    /// A move that does not read or cannot be played (work that did not come from this app).
    pub fn run(self, moves: &[String], find: TableFind) -> Result<background::Answer, String> {
        match self {
            Setup::Kalah(rules) => run_on(rules, moves, find),
            Setup::Gorami(rules) => run_on(rules, moves, find),
        }
    }
}

/// A game's moves, and its positions from the start on.
type Line<R> = (Vec<<R as TableRules>::Move>, Vec<<R as TableRules>::Position>);

/// The moves written in `moves`, and the positions they reach from the start under `rules`
/// (the start first).
///
/// # Errors
/// The first move that does not read or cannot be played, with its number.
fn replayed<R: TableRules>(rules: R, moves: &[String]) -> Result<Line<R>, String> {
    let mut positions = vec![rules.start()];
    let mut played = Vec::with_capacity(moves.len());
    for (number, text) in moves.iter().enumerate() {
        let mv = text.parse().map_err(|_| format!("move {}: `{text}` is not a {} move", number + 1, R::NAME))?;
        let mut position = *positions.last().expect("the start is there");
        R::play(&mut position, mv).map_err(|reason| format!("move {} ({text}): {reason}", number + 1))?;
        positions.push(position);
        played.push(mv);
    }
    Ok((played, positions))
}

fn run_on<R: TableRules>(rules: R, moves: &[String], find: TableFind) -> Result<background::Answer, String> {
    let (_, positions) = replayed(rules, moves)?;
    let position = *positions.last().expect("the start is there");
    Ok(match find {
        TableFind::EngineMove(level) => {
            background::Answer::TableMove(R::engine_move(&position, level).map(|mv| mv.to_string()))
        }
        TableFind::Hints => background::Answer::TableHints(
            R::ranked_moves(&position).into_iter().take(HINTS).map(|(mv, value)| (mv.to_string(), value)).collect(),
        ),
    })
}

/// `text` as a sentence: the rules' messages start in lower case.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Moves with their values for the mover, best first.
pub type Ranked<M> = Vec<(M, i32)>;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this screen.
    Person,
    /// The engine at a level (1-5).
    Engine(u8),
}

/// One game of the table: its moves and the positions they reached, who plays, and the
/// engine's work under way. A background answer is applied only to the position it was asked
/// for; a position changed meanwhile (undo, a new game) drops the task, which stops it.
#[derive(Debug)]
pub struct Session<R: TableRules> {
    rules: R,
    seats: [Seat; 2],
    /// The start, then the position after each move.
    positions: Vec<R::Position>,
    moves: Vec<R::Move>,
    engine: Option<Task<Option<String>, R::Position>>,
    hint_task: Option<Task<Ranked<String>, R::Position>>,
    /// The hints found and the position they are for.
    hints: Option<(R::Position, Ranked<R::Move>)>,
    show_hints: bool,
    /// The position whose engine work ended without an answer: not asked again.
    lost: Option<R::Position>,
    message: Option<String>,
}

impl<R: TableRules> Session<R> {
    /// A new game under `rules` with `seats` (the first moves first).
    #[must_use]
    pub fn new(rules: R, seats: [Seat; 2]) -> Session<R> {
        Session {
            rules,
            seats,
            positions: vec![rules.start()],
            moves: Vec::new(),
            engine: None,
            hint_task: None,
            hints: None,
            show_hints: false,
            lost: None,
            message: None,
        }
    }

    /// The game of `moves` (in the game's notation) under `rules` with `seats`, as it was left.
    ///
    /// # Errors
    /// The first move that does not read or cannot be played, with its number.
    pub fn resume(rules: R, seats: [Seat; 2], moves: &[String]) -> Result<Session<R>, String> {
        let (moves, positions) = replayed(rules, moves)?;
        Ok(Session { moves, positions, ..Session::new(rules, seats) })
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> R {
        self.rules
    }

    /// Who plays each side (the first moves first).
    #[must_use]
    pub fn seats(&self) -> [Seat; 2] {
        self.seats
    }

    /// The position on the board.
    ///
    /// # Panics
    /// Never: the start is always there.
    #[must_use]
    pub fn position(&self) -> &R::Position {
        self.positions.last().expect("the start is always there")
    }

    /// The moves so far.
    #[must_use]
    pub fn moves(&self) -> &[R::Move] {
        &self.moves
    }

    /// The position before move `number` (counted from 0), for a display that replays it.
    #[must_use]
    pub fn position_before(&self, number: usize) -> Option<&R::Position> {
        self.positions.get(number)
    }

    /// Whether a person is to move.
    #[must_use]
    pub fn person_to_move(&self) -> bool {
        self.seat_to_move() == Some(Seat::Person)
    }

    /// Who is to move, `None` once the game is over.
    #[must_use]
    pub fn seat_to_move(&self) -> Option<Seat> {
        R::player_to_move(self.position()).map(|player| self.seats[player])
    }

    /// The last message for the player (a move refused, nothing to undo, a lost engine).
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whether the engine is working on a move.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.engine.is_some()
    }

    /// A person's move: played if it is a person's turn and the move is legal, otherwise
    /// refused with a message saying why. Returns whether it was played.
    pub fn play(&mut self, mv: R::Move) -> bool {
        if !self.person_to_move() {
            self.message = Some(if self.position_is_over() {
                "The game is over.".to_owned()
            } else {
                "It is not your turn.".to_owned()
            });
            return false;
        }
        self.apply(mv)
    }

    fn position_is_over(&self) -> bool {
        R::player_to_move(self.position()).is_none()
    }

    fn apply(&mut self, mv: R::Move) -> bool {
        let mut next = *self.position();
        match R::play(&mut next, mv) {
            Ok(()) => {
                self.positions.push(next);
                self.moves.push(mv);
                self.message = None;
                true
            }
            Err(reason) => {
                self.message = Some(reason);
                false
            }
        }
    }

    /// Takes back the last move, and against the engine its moves too, back to a person's turn.
    pub fn undo(&mut self) {
        if self.moves.is_empty() {
            self.message = Some("Nothing to undo.".to_owned());
            return;
        }
        self.take_back();
        let any_person = self.seats.contains(&Seat::Person);
        while any_person && !self.person_to_move() && !self.moves.is_empty() {
            self.take_back();
        }
        self.message = None;
    }

    fn take_back(&mut self) {
        self.moves.pop();
        self.positions.pop();
    }

    /// Starts over under `rules` with `seats`.
    pub fn restart(&mut self, rules: R, seats: [Seat; 2]) {
        let show_hints = self.show_hints;
        *self = Session { show_hints, ..Session::new(rules, seats) };
    }

    /// Shows or hides the hints.
    pub fn show_hints(&mut self, show: bool) {
        self.show_hints = show;
    }

    /// Whether hints are shown.
    #[must_use]
    pub fn hints_shown(&self) -> bool {
        self.show_hints
    }

    /// The strongest moves for the position on the board, best first, once found (while hints
    /// are shown and a person is to move).
    #[must_use]
    pub fn hints(&self) -> &[(R::Move, i32)] {
        match &self.hints {
            Some((asked, hints)) if self.show_hints && asked == self.position() => hints,
            _ => &[],
        }
    }

    /// Drives the background work: applies the engine's move or the hints when they are for the
    /// position on the board, and asks for them when they are due (the engine's move only when
    /// `engine_may_move`: the display has shown the last move). `wake` repaints the window when
    /// an answer arrives.
    pub fn drive(&mut self, engine_may_move: bool, wake: &Wake) {
        let position = *self.position();
        if self.engine.as_ref().is_some_and(|task| *task.asked() != position) {
            self.engine = None;
        }
        if let Some(task) = &self.engine {
            match task.poll() {
                Status::Working => {}
                Status::Done(chosen) => {
                    self.engine = None;
                    match chosen.and_then(|text| text.parse().ok()) {
                        Some(mv) => {
                            self.apply(mv);
                        }
                        None => self.lose_engine(position),
                    }
                }
                Status::Lost => {
                    self.engine = None;
                    self.lose_engine(position);
                }
            }
        }
        let position = *self.position();
        if let (Some(Seat::Engine(level)), None) = (self.seat_to_move(), &self.engine)
            && engine_may_move
            && self.lost != Some(position)
        {
            self.engine = Some(self.start(position, TableFind::EngineMove(level), wake, |answer| match answer {
                background::Answer::TableMove(chosen) => Some(chosen),
                _ => None,
            }));
        }
        self.drive_hints(position, wake);
    }

    fn drive_hints(&mut self, position: R::Position, wake: &Wake) {
        if self.hint_task.as_ref().is_some_and(|task| *task.asked() != position) {
            self.hint_task = None;
        }
        if let Some(task) = &self.hint_task {
            match task.poll() {
                Status::Working => {}
                Status::Done(found) => {
                    self.hint_task = None;
                    let hints = found.into_iter().filter_map(|(text, value)| Some((text.parse().ok()?, value)));
                    self.hints = Some((position, hints.collect()));
                }
                Status::Lost => {
                    self.hint_task = None;
                    self.lose_engine(position);
                }
            }
        }
        let have = self.hints.as_ref().is_some_and(|(asked, _)| *asked == position);
        if self.show_hints && self.person_to_move() && !have && self.hint_task.is_none() && self.lost != Some(position)
        {
            self.hint_task = Some(self.start(position, TableFind::Hints, wake, |answer| match answer {
                background::Answer::TableHints(hints) => Some(hints),
                _ => None,
            }));
        }
    }

    fn lose_engine(&mut self, position: R::Position) {
        self.lost = Some(position);
        self.message = Some("The engine stopped without an answer; undo or start a new game.".to_owned());
    }

    fn start<T>(
        &self,
        position: R::Position,
        find: TableFind,
        wake: &Wake,
        extract: fn(background::Answer) -> Option<T>,
    ) -> Task<T, R::Position> {
        let moves = self.moves.iter().map(ToString::to_string).collect();
        let work = background::Work::Table { setup: self.rules.setup(), moves, find };
        Task::run(position, work, extract, std::sync::Arc::clone(wake))
    }

    /// The end of the game in words: who won and the score; `None` while it is on.
    #[must_use]
    pub fn result(&self) -> Option<String> {
        let position = self.position();
        if !self.position_is_over() {
            return None;
        }
        // "You" when one person plays the engine; two people are told apart by their sides.
        let one_person = self.seats.iter().filter(|&&seat| seat == Seat::Person).count() == 1;
        let who = |player: usize| {
            let name = R::player_name(position, player);
            match self.seats[player] {
                Seat::Person if one_person => format!("You ({name})"),
                Seat::Person => name,
                Seat::Engine(level) => format!("Level {level} ({name})"),
            }
        };
        let verdict = match R::winner(position) {
            Some(player) => {
                let winner = who(player);
                let verb = if winner.starts_with("You") { "win" } else { "wins" };
                format!("{winner} {verb}.")
            }
            None => "A draw.".to_owned(),
        };
        Some(format!("{verdict} {}", R::tally(position)))
    }
}

#[cfg(test)]
mod tests;
