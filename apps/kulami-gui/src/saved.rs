//! What the window remembers between runs (in the autosave): the game in progress and the
//! settings, as JSON. A damaged or outdated save is reported and replaced by a new game; it never
//! stops the window from opening.

use kulami_ai::Level;
use kulami_core::{Color, Game, GameRecord};
use kulami_layouts::Shape;
use serde::{Deserialize, Serialize};

use crate::daily::Streak;
use crate::state::{BoardChoice, GameState, Options, Seat};

/// The saved form of [`GameState`] and the window's settings.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Saved {
    /// `preset NAME` or `random SHAPE SEED`.
    board: String,
    /// `human` or a level number, red then black.
    seats: [String; 2],
    hints: bool,
    guide: bool,
    /// Saves from before the swap option have none.
    #[serde(default)]
    swap_allowed: bool,
    /// The game so far.
    record: GameRecord,
    /// Level 5's time per move, in milliseconds.
    pub move_time_ms: u64,
    /// Pause between moves of engine games, in milliseconds.
    pub watch_delay_ms: u64,
    /// The soft turn clock in seconds, 0 for none (none in saves from before the clock).
    #[serde(default = "default_turn_seconds")]
    pub turn_seconds: u64,
    /// The daily puzzle streak: its length and the day number of its last solve.
    #[serde(default)]
    streak_days: u32,
    #[serde(default)]
    streak_last_solved: Option<i64>,
    /// The shape Shuffle deals (`square` or `irregular`); saves from before it have none.
    #[serde(default)]
    shuffle_shape: Option<String>,
    /// The last choices on the start screen: the computer's level (1-5) and the person's colour.
    #[serde(default)]
    computer_level: Option<usize>,
    #[serde(default)]
    person_color: Option<Color>,
    /// Sound effects on; off in saves from before them.
    #[serde(default)]
    sounds: bool,
    /// Level 5 thinks on the person's time; on in saves from before the setting, as it was then.
    #[serde(default = "default_pondering")]
    pondering: bool,
    /// The online account signed in (its token, never the password).
    #[serde(default)]
    pub online: Option<crate::online::Account>,
    /// The game of Kalah or GORami, if one is open (saves from before them have none).
    #[serde(default)]
    pub table: Option<crate::table::SavedTable>,
}

fn default_turn_seconds() -> u64 {
    Settings::default().turn_seconds
}

fn default_pondering() -> bool {
    Settings::default().pondering
}

impl Default for Settings {
    /// One second per move, half a second between engine moves, no turn clock, no streak, no
    /// sounds, and level 5 thinking on the person's time.
    fn default() -> Settings {
        Settings {
            streak: Streak::default(),
            move_time_ms: 1000,
            watch_delay_ms: 500,
            turn_seconds: 0,
            shuffle_shape: Shape::Square,
            computer_level: Level::Casual,
            person_color: Color::Red,
            sounds: false,
            pondering: true,
        }
    }
}

/// The window's own settings and the puzzle streak, saved beside the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The daily puzzle streak.
    pub streak: Streak,
    /// Level 5's time per move, in milliseconds.
    pub move_time_ms: u64,
    /// Pause between moves of engine games, in milliseconds.
    pub watch_delay_ms: u64,
    /// The soft turn clock in seconds, 0 for none.
    pub turn_seconds: u64,
    /// The shape of the boards Shuffle deals.
    pub shuffle_shape: Shape,
    /// The level last chosen to play against.
    pub computer_level: Level,
    /// The colour last chosen against the computer.
    pub person_color: Color,
    /// Sound effects for a placed marble and the end of a game.
    pub sounds: bool,
    /// Level 5 thinks while the person does, for its next move (not in a browser).
    pub pondering: bool,
}

impl Saved {
    /// Captures `state` and the window's settings.
    #[must_use]
    pub fn capture(state: &GameState, settings: Settings) -> Saved {
        let board = match state.board() {
            BoardChoice::Preset(name) => format!("preset {name}"),
            BoardChoice::Random { shape, seed } => format!("random {shape} {seed}"),
            // The record holds the layout.
            BoardChoice::Custom(_) => "custom".to_owned(),
        };
        let seat = |color| match state.seat(color) {
            Seat::Human => "human".to_owned(),
            Seat::Engine(level) => level.number().map_or_else(|| level.to_string(), |n| n.to_string()),
        };
        Saved {
            board,
            seats: [seat(Color::Red), seat(Color::Black)],
            hints: state.hints(),
            guide: state.guide(),
            swap_allowed: state.options().swap_allowed,
            record: state.game().record(),
            move_time_ms: settings.move_time_ms,
            watch_delay_ms: settings.watch_delay_ms,
            turn_seconds: settings.turn_seconds,
            streak_days: settings.streak.days,
            streak_last_solved: settings.streak.last_solved,
            shuffle_shape: Some(settings.shuffle_shape.to_string()),
            computer_level: settings.computer_level.number(),
            person_color: Some(settings.person_color),
            sounds: settings.sounds,
            pondering: settings.pondering,
            online: None,
            table: None,
        }
    }

    /// The window's settings.
    #[must_use]
    pub fn settings(&self) -> Settings {
        Settings {
            streak: Streak { days: self.streak_days, last_solved: self.streak_last_solved },
            move_time_ms: self.move_time_ms,
            watch_delay_ms: self.watch_delay_ms,
            turn_seconds: self.turn_seconds,
            shuffle_shape: self.shuffle_shape.as_deref().and_then(|shape| shape.parse().ok()).unwrap_or_default(),
            computer_level: self
                .computer_level
                .and_then(|number| number.checked_sub(1))
                .and_then(|index| Level::LADDER.get(index).copied())
                .unwrap_or(Settings::default().computer_level),
            person_color: self.person_color.unwrap_or(Color::Red),
            sounds: self.sounds,
            pondering: self.pondering,
        }
    }

    /// Parses the stored text.
    ///
    /// # Errors
    /// A message saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Saved, String> {
        serde_json::from_str(text).map_err(|error| format!("the saved game could not be read ({error})"))
    }

    /// The stored text.
    ///
    /// # Panics
    /// Never: plain data always serializes.
    #[must_use]
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("plain data always serializes")
    }

    /// The game state it describes.
    ///
    /// # Errors
    /// A message if the board, a seat or the game is not valid.
    pub fn restore(&self) -> Result<GameState, String> {
        let game = Game::from_record(&self.record).map_err(|error| format!("the saved game is not valid: {error}"))?;
        let board = match self.board.split_whitespace().collect::<Vec<_>>()[..] {
            ["custom"] => BoardChoice::Custom(std::sync::Arc::clone(game.position().layout())),
            ["preset", name] => BoardChoice::Preset(name.to_owned()),
            ["random", shape, seed] => BoardChoice::Random {
                shape: shape.parse::<Shape>().map_err(|e| e.to_string())?,
                seed: seed.parse().map_err(|_| format!("`{seed}` is not a seed"))?,
            },
            _ => return Err(format!("`{}` is not a saved board", self.board)),
        };
        let seat = |text: &str| text.parse::<Seat>().map_err(|error| error.to_string());
        let seats = [seat(&self.seats[0])?, seat(&self.seats[1])?];
        if game.position().layout().as_ref() != &board.layout() {
            return Err("the saved game does not match its board".to_owned());
        }
        let options = Options { hints: self.hints, guide: self.guide, swap_allowed: self.swap_allowed };
        Ok(GameState::restore(board, game, seats, options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;

    #[test]
    fn the_online_account_is_kept_as_its_token_and_older_saves_have_none() {
        let mut saved = Saved::capture(&GameState::default(), Settings::default());
        let text = saved.to_text();
        assert_eq!(Saved::parse(&text).unwrap().online, None);
        let account = crate::online::Account {
            server: "http://127.0.0.1:8080".to_owned(),
            username: "alice".to_owned(),
            token: "0123abcd".to_owned(),
        };
        saved.online = Some(account.clone());
        let text = saved.to_text();
        assert!(text.contains("0123abcd") && !text.contains("password"), "{text}");
        assert_eq!(Saved::parse(&text).unwrap().online, Some(account));
    }

    #[test]
    fn a_game_in_progress_round_trips() {
        let mut state =
            GameState::new(BoardChoice::Random { shape: Shape::Irregular, seed: 9 }, kulami_core::Scoring::Both);
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Expert)));
        state.apply(Action::ShowHints(true));
        let first = state.game().position().legal_moves().first().unwrap();
        state.apply(Action::Place(first));
        state.apply(Action::AllowSwap(true));
        state.apply(Action::Swap);
        assert_eq!(state.seat(Color::Red), Seat::Engine(Level::Expert), "the engine took the first marble over");
        let streak = Streak { days: 4, last_solved: Some(20_000) };
        let settings = Settings {
            streak,
            move_time_ms: 1500,
            watch_delay_ms: 200,
            turn_seconds: 45,
            shuffle_shape: Shape::Irregular,
            computer_level: Level::Expert,
            person_color: Color::Black,
            sounds: true,
            pondering: false,
        };
        let saved = Saved::capture(&state, settings);
        let back = Saved::parse(&saved.to_text()).unwrap();
        assert_eq!(back, saved);
        let restored = back.restore().unwrap();
        assert_eq!(restored.game().position(), state.game().position(), "the swap reopens as it was played");
        assert!(restored.game().position().swapped());
        assert_eq!(restored.game().scoring(), kulami_core::Scoring::Both);
        assert_eq!(restored.seats_by_color(), state.seats_by_color());
        assert_eq!(restored.seat(Color::Red), Seat::Engine(Level::Expert));
        assert!(restored.hints() && restored.guide());
        assert_eq!(restored.board(), state.board());
        assert_eq!(restored.options(), state.options());
        assert_eq!(back.settings(), settings);
    }

    #[test]
    fn a_custom_board_comes_back_from_the_record() {
        let layout = std::sync::Arc::new(kulami_core::Layout::parse("AABB/CCDD/EEFF").unwrap());
        let state = GameState::new(BoardChoice::Custom(layout.clone()), kulami_core::Scoring::Standard);
        let restored = Saved::parse(&Saved::capture(&state, Settings::default()).to_text()).unwrap().restore().unwrap();
        assert_eq!(restored.board(), &BoardChoice::Custom(layout));
    }

    #[test]
    fn saves_from_before_the_swap_and_the_clock_still_load() {
        let mut text = Saved::capture(&GameState::default(), Settings::default()).to_text();
        let keys = [
            "swap_allowed",
            "turn_seconds",
            "streak_days",
            "streak_last_solved",
            "shuffle_shape",
            "computer_level",
            "person_color",
            "sounds",
            "pondering",
        ];
        for key in keys {
            let start = text.find(&format!(",\"{key}\"")).unwrap();
            let end = start + 1 + text[start + 1..].find([',', '}']).unwrap();
            text.replace_range(start..end, "");
        }
        assert!(!text.contains("turn_seconds"), "{text}");
        let saved = Saved::parse(&text).unwrap();
        assert_eq!(saved.settings().turn_seconds, 0, "no clock unless asked for");
        assert_eq!(saved.settings().streak, Streak::default());
        assert_eq!(saved.settings().shuffle_shape, Shape::Square);
        assert_eq!((saved.settings().computer_level, saved.settings().person_color), (Level::Casual, Color::Red));
        assert!(!saved.settings().sounds, "no sounds unless asked for");
        assert!(saved.settings().pondering, "pondering stays on, as it was before the setting");
        assert!(!saved.restore().unwrap().options().swap_allowed);
    }

    #[test]
    fn damage_is_reported_not_fatal() {
        assert!(Saved::parse("{\"board\": 3").unwrap_err().starts_with("the saved game could not be read"));
        let mut saved = Saved::capture(&GameState::default(), Settings::default());
        saved.record.moves.push("a1".parse().unwrap());
        saved.record.moves.push("a1".parse().unwrap());
        assert!(saved.restore().unwrap_err().contains("move 2 (a1)"));
        saved.record.moves.clear();
        saved.seats[0] = "grandmaster".into();
        assert!(saved.restore().unwrap_err().contains("grandmaster"));
        saved.seats[0] = "human".into();
        saved.board = "random square".into();
        assert!(saved.restore().unwrap_err().contains("not a saved board"));
    }
}
