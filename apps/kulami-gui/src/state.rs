//! What the game window shows, and every change to it as an [`Action`]: no drawing here.

use std::sync::Arc;

use kulami_core::{Cell, Game, MoveError, Scoring};

/// Everything a player can do to the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Place a marble for the side to move.
    Place(Cell),
    /// Take back the last move.
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Start over on the same board.
    NewGame,
    /// Start a new game on another board.
    ChangeBoard(String),
    /// Change the scoring (starts a new game, so that no game changes rules midway).
    ChangeScoring(Scoring),
}

/// The game in the window: the board's name and the game on it.
pub struct GameState {
    board_name: String,
    game: Game,
    /// The last action's complaint, shown until the next action.
    message: Option<String>,
}

impl GameState {
    /// A new game on the preset `board_name` (the classic board if there is no such preset).
    #[must_use]
    pub fn new(board_name: &str, scoring: Scoring) -> GameState {
        let (name, board) = match kulami_layouts::preset(board_name) {
            Some(board) => (board_name, board),
            None => ("classic", kulami_layouts::preset("classic").expect("the classic preset exists")),
        };
        GameState {
            board_name: name.to_owned(),
            game: Game::new(Arc::new(board.into_layout()), scoring),
            message: None,
        }
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The preset the game is played on.
    #[must_use]
    pub fn board_name(&self) -> &str {
        &self.board_name
    }

    /// Why the last action did nothing, if it did nothing.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
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
                self.game.undo();
            }
            Action::Redo => {
                self.game.redo();
            }
            Action::NewGame => self.game = Game::new(Arc::clone(self.game.position().layout()), self.game.scoring()),
            Action::ChangeBoard(name) => *self = GameState::new(&name, self.game.scoring()),
            Action::ChangeScoring(scoring) => {
                self.game = Game::new(Arc::clone(self.game.position().layout()), scoring);
            }
        }
    }
}

fn describe(error: MoveError) -> String {
    let mut text = error.to_string();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text + "."
}

/// The names of the boards a player can choose.
pub fn board_names() -> Vec<&'static str> {
    kulami_layouts::preset_names().collect()
}
