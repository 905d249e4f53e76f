//! What the window remembers between runs (eframe's storage): the game in progress and the
//! settings, as JSON. A damaged or outdated entry is reported and replaced by a new game; it never
//! stops the window from opening.

use kulami_core::{Color, Game, GameRecord};
use kulami_layouts::Shape;
use serde::{Deserialize, Serialize};

use crate::state::{BoardChoice, GameState, Seat};

/// The storage key.
pub const KEY: &str = "kulami";

/// The saved form of [`GameState`] and the window's settings.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Saved {
    /// `preset NAME` or `random SHAPE SEED`.
    board: String,
    /// `human` or a level number, red then black.
    seats: [String; 2],
    hints: bool,
    guide: bool,
    /// The game so far.
    record: GameRecord,
    /// Level 5's time per move, in milliseconds.
    pub move_time_ms: u64,
    /// Pause between moves of engine games, in milliseconds.
    pub watch_delay_ms: u64,
}

impl Saved {
    /// Captures `state` and the timing settings.
    #[must_use]
    pub fn capture(state: &GameState, move_time_ms: u64, watch_delay_ms: u64) -> Saved {
        let board = match state.board() {
            BoardChoice::Preset(name) => format!("preset {name}"),
            BoardChoice::Random { shape, seed } => format!("random {shape} {seed}"),
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
            record: state.game().record(),
            move_time_ms,
            watch_delay_ms,
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
    #[must_use]
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("plain data always serializes")
    }

    /// The game state it describes.
    ///
    /// # Errors
    /// A message if the board, a seat or the game is not valid.
    pub fn restore(&self) -> Result<GameState, String> {
        let board = match self.board.split_whitespace().collect::<Vec<_>>()[..] {
            ["preset", name] => BoardChoice::Preset(name.to_owned()),
            ["random", shape, seed] => BoardChoice::Random {
                shape: shape.parse::<Shape>().map_err(|e| e.to_string())?,
                seed: seed.parse().map_err(|_| format!("`{seed}` is not a seed"))?,
            },
            _ => return Err(format!("`{}` is not a saved board", self.board)),
        };
        let seat = |text: &str| match text {
            "human" => Ok(Seat::Human),
            level => level.parse().map(Seat::Engine).map_err(|e: kulami_ai::ParseLevelError| e.to_string()),
        };
        let seats = [seat(&self.seats[0])?, seat(&self.seats[1])?];
        let game = Game::from_record(&self.record).map_err(|error| format!("the saved game is not valid: {error}"))?;
        if game.position().layout().as_ref() != &board.layout() {
            return Err("the saved game does not match its board".to_owned());
        }
        Ok(GameState::restore(board, game, seats, self.hints, self.guide))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use kulami_ai::Level;

    #[test]
    fn a_game_in_progress_round_trips() {
        let mut state =
            GameState::new(BoardChoice::Random { shape: Shape::Irregular, seed: 9 }, kulami_core::Scoring::Both);
        state.apply(Action::Seat(Color::Black, Seat::Engine(Level::Expert)));
        state.apply(Action::ShowHints(true));
        let first = state.game().position().legal_moves().first().unwrap();
        state.apply(Action::Place(first));
        let saved = Saved::capture(&state, 1500, 200);
        let back = Saved::parse(&saved.to_text()).unwrap();
        assert_eq!(back, saved);
        let restored = back.restore().unwrap();
        assert_eq!(restored.game().position().moves(), state.game().position().moves());
        assert_eq!(restored.game().scoring(), kulami_core::Scoring::Both);
        assert_eq!(restored.seat(Color::Black), Seat::Engine(Level::Expert));
        assert!(restored.hints() && restored.guide());
        assert_eq!(restored.board(), state.board());
    }

    #[test]
    fn damage_is_reported_not_fatal() {
        assert!(Saved::parse("{\"board\": 3").unwrap_err().starts_with("the saved game could not be read"));
        let mut saved = Saved::capture(&GameState::default(), 1000, 500);
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
