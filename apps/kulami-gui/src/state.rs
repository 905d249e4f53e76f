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
    /// A board made in the editor or read from a game record.
    Custom(Arc<Layout>),
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
            BoardChoice::Custom(layout) => layout.as_ref().clone(),
        }
    }

    /// The preset with this layout, if there is one, else a custom board.
    #[must_use]
    pub fn of_layout(layout: &Arc<Layout>) -> BoardChoice {
        kulami_layouts::preset_names()
            .find(|name| kulami_layouts::preset(name).is_some_and(|board| board.layout() == layout.as_ref()))
            .map_or_else(|| BoardChoice::Custom(Arc::clone(layout)), |name| BoardChoice::Preset(name.to_owned()))
    }

    /// A short description for the window.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            BoardChoice::Preset(name) => name.clone(),
            BoardChoice::Random { shape, seed } => format!("{shape} board, seed {seed}"),
            BoardChoice::Custom(layout) => format!("custom board, {} tiles", layout.tiles().len()),
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
    /// Allow or forbid the swap (pie rule) after the first move.
    AllowSwap(bool),
    /// The second player takes the first marble as their own: the players swap colours, and
    /// the player who opened moves next, now as black.
    Swap,
    /// Go to the position after this many moves of the game, taking back or replaying moves.
    /// The engine pauses, so that the game can be looked through.
    StepTo(usize),
    /// Put a game read from a record on the board (its board becomes a custom one).
    Load(Box<Game>),
    /// Show a message (the outcome of saving or opening a file).
    Tell(String),
}

/// The options that outlive a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Show the three strongest holes.
    pub hints: bool,
    /// Show the row and column guides and dim the forbidden tiles.
    pub guide: bool,
    /// Allow the swap (pie rule) after the first move.
    pub swap_allowed: bool,
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
    swap_allowed: bool,
    /// Whether the players swapped colours in this game.
    swapped: bool,
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
            swap_allowed: false,
            swapped: false,
            message: None,
        }
    }

    /// A state from its parts (a saved game).
    #[must_use]
    pub fn restore(board: BoardChoice, game: Game, seats: [Seat; 2], options: Options) -> GameState {
        let Options { hints, guide, swap_allowed } = options;
        GameState { board, game, seats, hints, guide, paused: false, swap_allowed, swapped: false, message: None }
    }

    /// The options that outlive a game.
    #[must_use]
    pub fn options(&self) -> Options {
        Options { hints: self.hints, guide: self.guide, swap_allowed: self.swap_allowed }
    }

    /// Whether the side to move may swap colours now: the swap is allowed, exactly one marble
    /// is down, and nobody swapped yet.
    #[must_use]
    pub fn can_swap(&self) -> bool {
        self.swap_allowed && !self.swapped && self.game.position().ply() == 1
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
            Action::AllowSwap(on) => self.swap_allowed = on,
            Action::Swap => {
                if self.can_swap() {
                    self.seats.swap(0, 1);
                    self.swapped = true;
                    self.message = Some("Colours swapped: the first marble is now the second player's.".into());
                } else {
                    self.message = Some("A swap is only possible right after the first move.".into());
                }
            }
            Action::StepTo(ply) => {
                while self.game.position().ply() > ply && self.game.undo().is_some() {}
                while self.game.position().ply() < ply && self.game.redo().is_some() {}
                if self.seats.iter().any(|&seat| seat != Seat::Human) && !self.game.position().is_game_over() {
                    self.paused = true;
                }
            }
            Action::Tell(message) => self.message = Some(message),
            Action::Load(game) => {
                self.board = BoardChoice::of_layout(game.position().layout());
                self.game = *game;
                self.swapped = false;
            }
        }
        // Taking back the first move takes back the swap that answered it.
        if self.swapped && self.game.position().ply() == 0 {
            self.seats.swap(0, 1);
            self.swapped = false;
        }
    }

    fn restart(&mut self, scoring: Scoring) {
        self.game = Game::new(Arc::new(self.board.layout()), scoring);
        if self.swapped {
            self.seats.swap(0, 1);
            self.swapped = false;
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
    fn swap_exchanges_the_seats_once_and_only_after_the_first_move() {
        let mut state = GameState::default();
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        state.apply(Action::Swap);
        assert!(state.message().unwrap().contains("only possible"), "swap is off by default");
        state.apply(Action::AllowSwap(true));
        assert!(!state.can_swap(), "no marble yet");
        state.apply(Action::Place("d4".parse().unwrap()));
        assert!(state.can_swap());
        state.apply(Action::Swap);
        assert_eq!(state.seat(Color::Red), Seat::Engine(Level::Club));
        assert_eq!(state.seat(Color::Black), Seat::Human);
        assert!(state.human_to_move() && !state.can_swap());
        state.apply(Action::Swap);
        assert_eq!(state.seat(Color::Black), Seat::Human, "a second swap is refused");
        // Taking back the first marble takes back the swap.
        state.apply(Action::StepTo(0));
        assert_eq!(state.seat(Color::Red), Seat::Human);
        assert_eq!(state.seat(Color::Black), Seat::Engine(Level::Club));
    }

    #[test]
    fn stepping_through_the_game_pauses_the_engine_and_keeps_the_moves() {
        let mut state = GameState::default();
        for cell in ["d4", "d7", "g7"] {
            state.apply(Action::Place(cell.parse().unwrap()));
        }
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        state.apply(Action::StepTo(1));
        assert_eq!(state.game().position().ply(), 1);
        assert!(state.paused() && state.engine_to_move().is_none());
        state.apply(Action::StepTo(3));
        assert_eq!(kulami_core::notation::format_moves(state.game().position().moves()), "d4 d7 g7");
        state.apply(Action::StepTo(10));
        assert_eq!(state.game().position().ply(), 3, "no further than the moves there are");
    }

    #[test]
    fn a_loaded_game_brings_its_board() {
        let record = kulami_core::GameRecord::from_text("layout: AABB/CCDD/EEFF\nmoves: a1 a3\n").unwrap();
        let mut state = GameState::default();
        state.apply(Action::Load(Box::new(Game::from_record(&record).unwrap())));
        assert_eq!(state.game().position().ply(), 2);
        assert_eq!(state.board().describe(), "custom board, 6 tiles");
        state.apply(Action::NewGame);
        assert_eq!(state.game().position().layout().to_one_line(), "AABB/CCDD/EEFF");
        // A preset's board is known by its name.
        let classic = kulami_layouts::preset("classic").unwrap().into_layout();
        state.apply(Action::Load(Box::new(Game::new(Arc::new(classic), Scoring::Standard))));
        assert_eq!(state.board(), &BoardChoice::Preset("classic".into()));
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
