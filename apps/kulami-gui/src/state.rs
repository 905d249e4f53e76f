//! What the game window shows, and every change to it as an [`Action`]: no drawing and no
//! threads here.

use std::sync::Arc;

use kulami_ai::Level;
use kulami_core::{Cell, Color, Game, Layout, MoveError, Scoring};
use kulami_layouts::Shape;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person clicking.
    Human,
    /// The engine at a level.
    Engine(Level),
}

/// Where the board comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardChoice {
    /// A preset by name.
    Preset(String),
    /// A generated board.
    Random {
        /// Its shape.
        shape: Shape,
        /// Its seed: the same seed deals the same board.
        seed: u64,
    },
}

impl BoardChoice {
    /// The board; an unknown preset falls back to the classic board.
    #[must_use]
    pub fn layout(&self) -> Layout {
        match self {
            BoardChoice::Preset(name) => kulami_layouts::preset(name)
                .or_else(|| kulami_layouts::preset("classic"))
                .expect("the classic preset exists")
                .into_layout(),
            BoardChoice::Random { shape, seed } => kulami_layouts::generate(*seed, *shape),
        }
    }

    /// A short description for the window.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            BoardChoice::Preset(name) => name.clone(),
            BoardChoice::Random { shape, seed } => format!("{shape} board, seed {seed}"),
        }
    }
}

/// Everything a player can do to the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Place a marble for the side to move.
    Place(Cell),
    /// Take back the last move (against the engine: back to your own turn).
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Start over on the same board.
    NewGame,
    /// Start a new game on another board.
    ChangeBoard(BoardChoice),
    /// Change the scoring (starts a new game, so that no game changes rules midway).
    ChangeScoring(Scoring),
    /// Seat a person or the engine at a colour.
    Seat(Color, Seat),
    /// Show or hide the three strongest holes.
    ShowHints(bool),
    /// Show or hide the row and column guides and the dimmed tiles.
    ShowGuide(bool),
    /// Stop or let the engine move (to watch engine games at one's own pace).
    Pause(bool),
}

/// The game in the window, its board and the players.
#[derive(Debug)]
pub struct GameState {
    board: BoardChoice,
    game: Game,
    seats: [Seat; 2],
    hints: bool,
    guide: bool,
    paused: bool,
    /// The last action's complaint, shown until the next action.
    message: Option<String>,
}

impl Default for GameState {
    /// Two people on the classic board, standard scoring, guides on, hints off.
    fn default() -> GameState {
        GameState::new(BoardChoice::Preset("classic".into()), Scoring::Standard)
    }
}

impl GameState {
    /// A new game for two people on `board`.
    #[must_use]
    pub fn new(board: BoardChoice, scoring: Scoring) -> GameState {
        GameState {
            game: Game::new(Arc::new(board.layout()), scoring),
            board,
            seats: [Seat::Human; 2],
            hints: false,
            guide: true,
            paused: false,
            message: None,
        }
    }

    /// A state from its parts (a saved game).
    #[must_use]
    pub fn restore(board: BoardChoice, game: Game, seats: [Seat; 2], hints: bool, guide: bool) -> GameState {
        GameState { board, game, seats, hints, guide, paused: false, message: None }
    }

    /// Shows `message` until the next action.
    pub fn tell(&mut self, message: String) {
        self.message = Some(message);
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Where the board came from.
    #[must_use]
    pub fn board(&self) -> &BoardChoice {
        &self.board
    }

    /// Who plays `color`.
    #[must_use]
    pub fn seat(&self, color: Color) -> Seat {
        self.seats[color.index()]
    }

    /// Whether hints are shown.
    #[must_use]
    pub fn hints(&self) -> bool {
        self.hints
    }

    /// Whether the guides are shown.
    #[must_use]
    pub fn guide(&self) -> bool {
        self.guide
    }

    /// Whether engine moves are paused.
    #[must_use]
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Why the last action did nothing, if it did nothing.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The engine level that must move now, if the side to move is the engine's and the game
    /// is neither over nor paused.
    #[must_use]
    pub fn engine_to_move(&self) -> Option<Level> {
        let position = self.game.position();
        match self.seats[position.side_to_move().index()] {
            Seat::Engine(level) if !self.paused && !position.is_game_over() => Some(level),
            _ => None,
        }
    }

    /// Whether a person is to move in a live game (so clicks and hints make sense).
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        let position = self.game.position();
        !position.is_game_over() && self.seats[position.side_to_move().index()] == Seat::Human
    }

    /// Carries out `action`; an illegal move leaves the game as it was and sets [`GameState::message`].
    pub fn apply(&mut self, action: Action) {
        self.message = None;
        match action {
            Action::Place(cell) => {
                if let Err(error) = self.game.play(cell) {
                    self.message = Some(describe(error));
                }
            }
            Action::Undo => {
                if self.game.undo().is_none() {
                    self.message = Some("Nothing to undo.".into());
                }
                // Against the engine, go back to a person's turn.
                let any_human = self.seats.contains(&Seat::Human);
                while any_human && !self.human_to_move() && self.game.undo().is_some() {}
            }
            Action::Redo => {
                if self.game.redo().is_none() {
                    self.message = Some("Nothing to redo.".into());
                }
            }
            Action::NewGame => self.restart(self.game.scoring()),
            Action::ChangeBoard(board) => {
                self.board = board;
                self.restart(self.game.scoring());
            }
            Action::ChangeScoring(scoring) => self.restart(scoring),
            Action::Seat(color, seat) => self.seats[color.index()] = seat,
            Action::ShowHints(on) => self.hints = on,
            Action::ShowGuide(on) => self.guide = on,
            Action::Pause(on) => self.paused = on,
        }
    }

    fn restart(&mut self, scoring: Scoring) {
        self.game = Game::new(Arc::new(self.board.layout()), scoring);
    }
}

fn describe(error: MoveError) -> String {
    let mut text = error.to_string();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text + "."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_against_the_engine_returns_to_the_persons_turn() {
        let mut state = GameState::default();
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        state.apply(Action::Place("d4".parse().unwrap()));
        assert_eq!(state.engine_to_move(), Some(Level::Club));
        state.apply(Action::Place("d7".parse().unwrap()));
        assert!(state.human_to_move());
        state.apply(Action::Undo);
        assert_eq!(state.game().position().moves().len(), 0);
        assert!(state.human_to_move());
        state.apply(Action::Undo);
        assert_eq!(state.message(), Some("Nothing to undo."));
    }

    #[test]
    fn pause_and_board_changes() {
        let mut state = GameState::default();
        state.apply(Action::Seat(Color::Red, Seat::Engine(Level::Beginner)));
        assert_eq!(state.engine_to_move(), Some(Level::Beginner));
        state.apply(Action::Pause(true));
        assert_eq!(state.engine_to_move(), None);
        let random = BoardChoice::Random { shape: Shape::Irregular, seed: 5 };
        state.apply(Action::ChangeBoard(random.clone()));
        assert_eq!(state.game().position().layout().as_ref(), &kulami_layouts::generate(5, Shape::Irregular));
        assert_eq!(random.describe(), "irregular board, seed 5");
    }
}
