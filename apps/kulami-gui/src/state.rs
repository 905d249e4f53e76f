//! What the game window shows, and every change to it as an [`Action`]: no drawing and no
//! threads here.

use std::sync::Arc;

use kulami_ai::Level;
use kulami_core::{Cell, Color, Game, Layout, Move, MoveError, Scoring, Winner};
use kulami_layouts::Shape;

pub use kulami_ai::Seat;

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
    ///
    /// # Panics
    /// Never: the classic preset is embedded.
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
    /// Stop or let the engine move (to watch engine games at one's own pace); a new game
    /// lets it move again.
    Pause(bool),
    /// Put back the game that the last new game, board or scoring replaced.
    BringBackGame,
    /// A new game on the same board with the players' colours exchanged.
    Rematch,
    /// Play with or without the swap (pie rule): now, if the moves so far allow it, and in
    /// the games to come.
    AllowSwap(bool),
    /// The second player takes the first marble as their own: the players swap colours, and
    /// the player who opened moves next, now as black.
    Swap,
    /// Go to the position after this many moves of the game (the swap counts as one), taking
    /// back or replaying moves. While a position before the last move is shown, the engine
    /// waits (see [`GameState::reviewing`]).
    StepTo(usize),
    /// Put a game read from a record on the board (its board becomes a custom one).
    Load(Box<Game>),
    /// Show good news (a file saved or opened).
    Tell(String),
    /// Show a problem (a file that could not be saved or opened).
    Warn(String),
}

/// Whether a message is good news or a problem (drawn differently: good news is never red).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Something worked.
    Good,
    /// Something did not, and why.
    Problem,
}

/// A colour's name with a capital, for labels.
#[must_use]
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The options that outlive a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Show the three strongest holes.
    pub hints: bool,
    /// Show the row and column guides and dim the forbidden tiles.
    pub guide: bool,
    /// Play with the swap (pie rule).
    pub swap_allowed: bool,
}

/// The game in the window, its board and the players.
#[derive(Debug)]
pub struct GameState {
    board: BoardChoice,
    game: Game,
    /// Who plays first (red, unless the other swaps) and second.
    seats: [Seat; 2],
    hints: bool,
    guide: bool,
    paused: bool,
    /// The swap rule of the games to come (the game on the board has its own).
    swap_allowed: bool,
    /// What the last action has to say, shown until the next action.
    message: Option<(String, Tone)>,
    /// The game a new game, board or scoring replaced, with its board, to bring back.
    previous: Option<(BoardChoice, Game)>,
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
            message: None,
            previous: None,
        }
    }

    /// A state from its parts (a saved game; `seats` by colour as the game stands).
    #[must_use]
    pub fn restore(board: BoardChoice, game: Game, seats: [Seat; 2], options: Options) -> GameState {
        let Options { hints, guide, swap_allowed } = options;
        let mut state =
            GameState { board, game, seats, hints, guide, paused: false, swap_allowed, message: None, previous: None };
        if state.game.position().swapped() {
            state.seats.swap(0, 1);
        }
        state
    }

    /// The seats by colour, as the game stands (what [`GameState::restore`] takes).
    #[must_use]
    pub fn seats_by_color(&self) -> [Seat; 2] {
        Color::BOTH.map(|color| self.seat(color))
    }

    /// The options that outlive a game.
    #[must_use]
    pub fn options(&self) -> Options {
        Options { hints: self.hints, guide: self.guide, swap_allowed: self.swap_allowed }
    }

    /// Whether the side to move may swap colours now (the rules say so).
    #[must_use]
    pub fn can_swap(&self) -> bool {
        self.game.position().can_swap()
    }

    /// Shows good news until the next action.
    pub fn tell(&mut self, message: String) {
        self.message = Some((message, Tone::Good));
    }

    /// Shows a problem until the next action.
    pub fn warn(&mut self, message: String) {
        self.message = Some((message, Tone::Problem));
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

    /// Who plays `color` now (after a swap, the second player plays red).
    #[must_use]
    pub fn seat(&self, color: Color) -> Seat {
        self.seats[self.seat_index(color)]
    }

    fn seat_index(&self, color: Color) -> usize {
        if self.game.position().swapped() { color.other().index() } else { color.index() }
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

    /// Whether a position before the game's last move is shown (moves can be replayed): the
    /// engine waits until the player goes back to the game or plays another move from here.
    #[must_use]
    pub fn reviewing(&self) -> bool {
        self.game.redo_moves().next().is_some()
    }

    /// Whether a game replaced by a new one can be brought back.
    #[must_use]
    pub fn can_bring_back(&self) -> bool {
        self.previous.is_some()
    }

    /// Why the last action did nothing, if it did nothing.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|(text, _)| text.as_str())
    }

    /// Whether the message is good news or a problem.
    #[must_use]
    pub fn message_tone(&self) -> Option<Tone> {
        self.message.as_ref().map(|&(_, tone)| tone)
    }

    /// The engine level that must move now, if the side to move is the engine's and the game
    /// is neither over nor paused.
    #[must_use]
    pub fn engine_to_move(&self) -> Option<Level> {
        let position = self.game.position();
        match self.seat(position.side_to_move()) {
            Seat::Engine(level) if !self.paused && !self.reviewing() && !position.is_game_over() => Some(level),
            _ => None,
        }
    }

    /// The engine level that will answer the person to move, while they think in a game neither
    /// over, paused nor looked back on (the engine may think on their time then).
    #[must_use]
    pub fn engine_to_answer(&self) -> Option<Level> {
        if !self.human_to_move() || self.paused || self.reviewing() {
            return None;
        }
        match self.seat(self.game.position().side_to_move().other()) {
            Seat::Engine(level) => Some(level),
            Seat::Human => None,
        }
    }

    /// Whether the turn clock runs now: a person is to move against the engine (between two
    /// people at one screen nobody is timed).
    #[must_use]
    pub fn turn_is_timed(&self) -> bool {
        self.human_to_move() && self.seats.iter().any(|&seat| seat != Seat::Human)
    }

    /// The result of a finished game in the players' words: "You win 36-14" when one person
    /// plays the engine, else "Red wins 34-25" or "A draw, 30-30"; `None` while it goes on.
    #[must_use]
    pub fn verdict(&self) -> Option<String> {
        let position = self.game.position();
        if !position.is_game_over() {
            return None;
        }
        let score = self.game.score();
        let total = |color: Color| score.player(color).total;
        let people: Vec<Color> = Color::BOTH.into_iter().filter(|&color| self.seat(color) == Seat::Human).collect();
        Some(match (score.winner, people.as_slice()) {
            (Winner::Draw, _) => format!("A draw, {}-{}", total(Color::Red), total(Color::Black)),
            (winner, &[me]) => {
                let words = if winner == Winner::from(me) { "You win" } else { "You lose" };
                format!("{words} {}-{}", total(me), total(me.other()))
            }
            (winner, _) => {
                let color = if winner == Winner::Red { Color::Red } else { Color::Black };
                let name = if color == Color::Red { "Red" } else { "Black" };
                format!("{name} wins {}-{}", total(color), total(color.other()))
            }
        })
    }

    /// What the score is made of, red's first: the tiles, and each bonus the scoring counts.
    #[must_use]
    pub fn score_parts(&self) -> Vec<String> {
        let score = self.game.score();
        let scoring = self.game.scoring();
        let (red, black) = (score.red, score.black);
        let mut parts = vec![format!("Tiles {}-{}", red.tiles, black.tiles)];
        if scoring.counts_area() {
            parts.push(format!("Largest area bonus {}-{}", red.area_bonus, black.area_bonus));
        }
        if scoring.counts_lines() {
            parts.push(format!("Lines bonus {}-{}", red.line_bonus, black.line_bonus));
        }
        parts
    }

    /// Whether a person is to move in a live game (so clicks and hints make sense).
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        let position = self.game.position();
        !position.is_game_over() && self.seat(position.side_to_move()) == Seat::Human
    }

    /// Carries out `action`; an illegal move leaves the game as it was and sets [`GameState::message`].
    pub fn apply(&mut self, action: Action) {
        self.message = None;
        match action {
            Action::Place(cell) => {
                if let Err(error) = self.game.play(cell) {
                    self.warn(describe(error));
                }
            }
            Action::Undo => {
                if self.game.undo().is_none() {
                    self.warn("Nothing to undo.".into());
                }
                // Against the engine, go back to a person's turn.
                let any_human = self.seats.contains(&Seat::Human);
                while any_human && !self.human_to_move() && self.game.undo().is_some() {}
            }
            Action::Redo => {
                if self.game.redo().is_none() {
                    self.warn("Nothing to redo.".into());
                }
            }
            Action::NewGame => self.restart(self.game.scoring()),
            Action::Rematch => {
                let colours = self.seats_by_color();
                self.restart(self.game.scoring());
                self.seats = [colours[1], colours[0]];
            }
            Action::ChangeBoard(board) => {
                let game = Game::new(Arc::new(board.layout()), self.game.scoring()).with_swap_rule(self.swap_allowed);
                self.replace_game(board, game);
            }
            Action::ChangeScoring(scoring) => self.restart(scoring),
            Action::Seat(color, seat) => self.seats[self.seat_index(color)] = seat,
            Action::ShowHints(on) => self.hints = on,
            Action::ShowGuide(on) => self.guide = on,
            Action::Pause(on) => self.paused = on,
            Action::BringBackGame => match self.previous.take() {
                Some((board, game)) => {
                    self.previous =
                        Some((std::mem::replace(&mut self.board, board), std::mem::replace(&mut self.game, game)));
                    self.tell("The last game is back.".into());
                }
                None => self.warn("There is no other game to bring back.".into()),
            },
            Action::AllowSwap(on) => {
                self.swap_allowed = on;
                match self.replayed_with_swap_rule(on) {
                    Some(game) => self.game = game,
                    None => self.warn("This game was played with a swap; the next one will not be.".into()),
                }
            }
            Action::Swap => match self.game.play_move(Move::Swap) {
                Ok(()) => self.tell("Colours swapped: the first marble is now the second player's.".into()),
                Err(error) => self.warn(describe(error)),
            },
            Action::StepTo(count) => {
                while self.game.position().move_count() > count && self.game.undo().is_some() {}
                while self.game.position().move_count() < count && self.game.redo().is_some() {}
            }
            Action::Tell(message) => self.tell(message),
            Action::Warn(message) => self.warn(message),
            Action::Load(game) => {
                let board = BoardChoice::of_layout(game.position().layout());
                self.replace_game(board, *game);
            }
        }
    }

    fn restart(&mut self, scoring: Scoring) {
        let game = Game::new(Arc::new(self.board.layout()), scoring).with_swap_rule(self.swap_allowed);
        self.replace_game(self.board.clone(), game);
    }

    /// Puts `game` on the board, keeping the one it replaces to bring back if it had moves, and
    /// lets the engine move again.
    fn replace_game(&mut self, board: BoardChoice, game: Game) {
        let old_board = std::mem::replace(&mut self.board, board);
        let old = std::mem::replace(&mut self.game, game);
        if old.position().move_count() > 0 || old.redo_moves().next().is_some() {
            self.previous = Some((old_board, old));
        }
        self.paused = false;
    }

    /// The game on the board replayed under the swap rule `on`, unless a move it has needs the
    /// other rule (a swap already played). The moves to redo are dropped.
    fn replayed_with_swap_rule(&self, on: bool) -> Option<Game> {
        let position = self.game.position();
        let mut game = Game::new(Arc::clone(position.layout()), self.game.scoring()).with_swap_rule(on);
        position.moves().try_for_each(|played| game.play_move(played)).ok()?;
        Some(game)
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
        assert_eq!(state.game().position().move_count(), 0);
        assert!(state.human_to_move());
        state.apply(Action::Undo);
        assert_eq!(state.message(), Some("Nothing to undo."));
    }

    #[test]
    fn swap_exchanges_the_seats_once_and_only_after_the_first_move() {
        let mut state = GameState::default();
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        state.apply(Action::Swap);
        assert_eq!(state.message(), Some("The swap rule is off in this game."), "swap is off by default");
        state.apply(Action::AllowSwap(true));
        assert!(!state.can_swap(), "no marble yet");
        assert!(state.game().position().swap_rule(), "the rule applies to the game on the board");
        state.apply(Action::Place("d4".parse().unwrap()));
        assert!(state.can_swap());
        state.apply(Action::Swap);
        assert_eq!(state.seat(Color::Red), Seat::Engine(Level::Club));
        assert_eq!(state.seat(Color::Black), Seat::Human);
        assert!(state.human_to_move() && !state.can_swap());
        state.apply(Action::Swap);
        assert_eq!(state.seat(Color::Black), Seat::Human, "a second swap is refused");
        assert_eq!(state.message(), Some("A swap is only legal as the second move of the game."));
        // The swap is a move of the game: in its record, and taken back like any other.
        assert_eq!(state.game().record().to_text().lines().last(), Some("moves: d4 swap"));
        state.apply(Action::AllowSwap(false));
        assert!(state.game().position().swapped(), "the game keeps its swap");
        state.apply(Action::StepTo(1));
        assert!(state.can_swap());
        assert_eq!(state.seat(Color::Red), Seat::Human);
        assert_eq!(state.seat(Color::Black), Seat::Engine(Level::Club));
        state.apply(Action::NewGame);
        assert!(!state.game().position().swap_rule(), "the next game has the rule chosen last");
    }

    #[test]
    fn stepping_back_makes_the_engine_wait_without_pausing_it() {
        let mut state = GameState::default();
        for cell in ["d4", "d7", "g7"] {
            state.apply(Action::Place(cell.parse().unwrap()));
        }
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        assert_eq!(state.engine_to_move(), Some(Level::Club));
        state.apply(Action::StepTo(1));
        assert_eq!(state.game().position().ply(), 1);
        assert!(
            state.reviewing() && state.engine_to_move().is_none(),
            "the engine waits while the game is looked through"
        );
        assert!(!state.paused(), "stepping is not pausing");
        state.apply(Action::StepTo(3));
        assert_eq!(kulami_core::notation::format_moves(&state.game().record().moves), "d4 d7 g7");
        assert!(!state.reviewing());
        assert_eq!(state.engine_to_move(), Some(Level::Club), "back at the last move, the engine plays");
        state.apply(Action::StepTo(10));
        assert_eq!(state.game().position().ply(), 3, "no further than the moves there are");
        // A new move from a position looked back at starts a new line, and the engine answers.
        state.apply(Action::StepTo(2));
        state.apply(Action::Place("b7".parse().unwrap()));
        assert_eq!(state.engine_to_move(), Some(Level::Club));
    }

    fn finished(seats: [Seat; 2]) -> GameState {
        // A tiny board played to its end: red takes AA and BB, black CC, and black is stuck.
        let record = kulami_core::GameRecord::from_text("layout: AAB/CCB\nmoves: a1 a2 c2\n").unwrap();
        let game = Game::from_record(&record).unwrap();
        let board = BoardChoice::of_layout(game.position().layout());
        GameState::restore(board, game, seats, Options { hints: false, guide: true, swap_allowed: false })
    }

    #[test]
    fn the_end_of_a_game_says_who_won_by_how_much_in_the_players_words() {
        let two_people = finished([Seat::Human, Seat::Human]);
        assert!(two_people.game().position().is_game_over());
        let score = two_people.game().score();
        let (red, black) = (score.red.total, score.black.total);
        assert!(red != black, "this game has a winner");
        let (high, low) = (red.max(black), red.min(black));
        let winner = if red > black { "Red" } else { "Black" };
        assert_eq!(two_people.verdict(), Some(format!("{winner} wins {high}-{low}")));
        let me_red = finished([Seat::Human, Seat::Engine(Level::Club)]);
        let words = if red > black { "You win" } else { "You lose" };
        assert_eq!(me_red.verdict(), Some(format!("{words} {red}-{black}")));
        let me_black = finished([Seat::Engine(Level::Club), Seat::Human]);
        let words = if black > red { "You win" } else { "You lose" };
        assert_eq!(me_black.verdict(), Some(format!("{words} {black}-{red}")));
        assert_eq!(two_people.score_parts(), [format!("Tiles {}-{}", score.red.tiles, score.black.tiles)]);
        assert_eq!(GameState::default().verdict(), None);
    }

    #[test]
    fn a_rematch_exchanges_the_colours_on_the_same_board() {
        let mut state = finished([Seat::Human, Seat::Engine(Level::Club)]);
        state.apply(Action::Rematch);
        assert_eq!(state.game().position().move_count(), 0);
        assert_eq!(state.game().position().layout().to_one_line(), "AAB/CCB");
        assert_eq!(state.seats_by_color(), [Seat::Engine(Level::Club), Seat::Human]);
        assert!(state.can_bring_back(), "the finished game can still be looked at");
    }

    #[test]
    fn good_news_and_problems_are_told_apart() {
        let mut state = GameState::default();
        state.apply(Action::Undo);
        assert_eq!(state.message_tone(), Some(Tone::Problem));
        state.apply(Action::Tell("Game saved.".into()));
        assert_eq!((state.message(), state.message_tone()), (Some("Game saved."), Some(Tone::Good)));
        state.apply(Action::Place("d4".parse().unwrap()));
        state.apply(Action::Place("e5".parse().unwrap()));
        assert_eq!(state.message_tone(), Some(Tone::Problem), "an illegal hole");
    }

    #[test]
    fn the_turn_clock_times_a_person_against_the_engine_only() {
        let mut state = GameState::default();
        assert!(!state.turn_is_timed(), "two people at one screen are not timed");
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Club)));
        assert!(state.turn_is_timed());
        state.apply(Action::Place("d4".parse().unwrap()));
        assert!(!state.turn_is_timed(), "the engine's turn");
    }

    #[test]
    fn the_engine_answers_a_person_only_in_a_live_game_on_its_last_move() {
        let mut state = GameState::default();
        assert_eq!(state.engine_to_answer(), None, "two people");
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Master)));
        assert_eq!(state.engine_to_answer(), Some(Level::Master));
        state.apply(Action::Place("d4".parse().unwrap()));
        assert_eq!(state.engine_to_answer(), None, "the engine's own turn");
        state.apply(Action::Place("d7".parse().unwrap()));
        assert_eq!(state.engine_to_answer(), Some(Level::Master));
        state.apply(Action::Pause(true));
        assert_eq!(state.engine_to_answer(), None, "paused");
        state.apply(Action::Pause(false));
        state.apply(Action::StepTo(1));
        assert_eq!(state.engine_to_answer(), None, "looking back");
    }

    #[test]
    fn a_pause_ends_with_the_game() {
        let mut state = GameState::default();
        state.apply(Action::Seat(Color::Red, Seat::Engine(Level::Beginner)));
        state.apply(Action::Pause(true));
        assert_eq!(state.engine_to_move(), None);
        state.apply(Action::NewGame);
        assert_eq!(state.engine_to_move(), Some(Level::Beginner));
        state.apply(Action::Pause(true));
        state.apply(Action::ChangeBoard(BoardChoice::Preset("easy".into())));
        assert_eq!(state.engine_to_move(), Some(Level::Beginner));
    }

    #[test]
    fn a_replaced_game_can_be_brought_back() {
        let mut state = GameState::default();
        state.apply(Action::Place("d4".parse().unwrap()));
        state.apply(Action::NewGame);
        assert_eq!(state.game().position().move_count(), 0);
        assert!(state.can_bring_back());
        state.apply(Action::BringBackGame);
        assert_eq!(kulami_core::notation::format_moves(&state.game().record().moves), "d4");
        // Every way of starting over keeps what it replaced: a board, a scoring, a shuffle.
        state.apply(Action::ChangeBoard(BoardChoice::Random { shape: Shape::Irregular, seed: 3 }));
        state.apply(Action::BringBackGame);
        assert_eq!(state.board(), &BoardChoice::Preset("classic".into()));
        assert_eq!(state.game().position().move_count(), 1);
        state.apply(Action::ChangeScoring(Scoring::Both));
        state.apply(Action::BringBackGame);
        assert_eq!((state.game().scoring(), state.game().position().move_count()), (Scoring::Standard, 1));
        // Bringing back swaps the two games, so a second press undoes the first.
        state.apply(Action::BringBackGame);
        assert_eq!(state.game().scoring(), Scoring::Both);
        // An empty game is not worth keeping.
        let mut fresh = GameState::default();
        fresh.apply(Action::NewGame);
        assert!(!fresh.can_bring_back());
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
