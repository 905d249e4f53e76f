//! An invite's game settings: the request body of `docs/ONLINE.md` parsed into what a game is started
//! with, or one clear error.

use std::sync::Arc;

use kulami_core::{Layout, Scoring};
use kulami_layouts::Shape;
use serde::Deserialize;
use serde_json::Value;

use crate::referee::{ClockSettings, GameSettings};

/// The longest clock an invite may ask for: three hours, and three minutes a move.
const MAX_LIMIT_SECONDS: u64 = 3 * 60 * 60;
const MAX_INCREMENT_SECONDS: u64 = 3 * 60;

/// The clock of an invite that does not name one: 5 minutes plus 3 seconds a move.
const DEFAULT_CLOCK: ClockSettings = ClockSettings { limit_ms: 300_000, increment_ms: 3_000 };

/// The colour the sender of an invite plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// The sender moves first.
    Red,
    /// The invitee moves first.
    Black,
    /// Drawn when the invite is accepted.
    Random,
}

impl ColorChoice {
    /// The name on the wire and in the database.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::Red => "red",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The choice called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<ColorChoice> {
        [ColorChoice::Red, ColorChoice::Black, ColorChoice::Random].into_iter().find(|choice| choice.as_str() == name)
    }
}

/// The body of `POST /api/challenge/{username}`; every field may be left out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    #[serde(default)]
    layout: Option<Value>,
    #[serde(default)]
    marbles: Option<usize>,
    #[serde(default)]
    scoring: Option<String>,
    #[serde(default)]
    color: Option<ColorChoice>,
    #[serde(default)]
    swap: Option<bool>,
    /// Left out: the default clock; `null`: no clock.
    #[serde(default = "default_clock")]
    clock: Option<ClockRequest>,
}

fn default_clock() -> Option<ClockRequest> {
    Some(ClockRequest {
        limit: (DEFAULT_CLOCK.limit_ms / 1000).unsigned_abs(),
        increment: (DEFAULT_CLOCK.increment_ms / 1000).unsigned_abs(),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    limit: u64,
    increment: u64,
}

/// An invite's settings, checked.
#[derive(Clone, Debug)]
pub struct InviteSettings {
    /// What the board was asked as: a preset's name, `random <seed> <shape>` or `custom`.
    pub board: String,
    /// The game to start.
    pub game: GameSettings,
    /// The sender's colour.
    pub color: ColorChoice,
}

/// What is wrong with an invite's settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `layout` is a string that is neither a preset nor a valid layout.
    #[error("`layout` is neither a preset name nor a valid one-line layout: {0}")]
    Layout(String),
    /// `layout` is an object, but not `{"random": <seed>, "shape": ...}`.
    #[error(
        "`layout` must be a preset name, a one-line layout or {{\"random\": <seed>, \"shape\": \"square\"|\"irregular\"}}"
    )]
    LayoutForm,
    /// An unknown board shape.
    #[error("`shape`: {0}")]
    Shape(String),
    /// A marble count out of range.
    #[error("`marbles`: {0}")]
    Marbles(String),
    /// An unknown scoring.
    #[error("`scoring`: {0}")]
    Scoring(String),
    /// A clock with no time or too much.
    #[error(
        "`clock` must have a limit of at most {MAX_LIMIT_SECONDS} s and an increment of at most {MAX_INCREMENT_SECONDS} s, not both 0"
    )]
    Clock,
}

impl ChallengeRequest {
    /// Checks the settings and fills in the defaults.
    ///
    /// # Errors
    /// The first field that is wrong, named.
    pub fn resolve(self) -> Result<InviteSettings, SettingsError> {
        let (board, layout) = resolve_board(self.layout)?;
        let layout = match self.marbles {
            Some(marbles) => {
                layout.with_marbles_per_player(marbles).map_err(|e| SettingsError::Marbles(e.to_string()))?
            }
            None => layout,
        };
        let scoring = match self.scoring {
            Some(name) => name.parse::<Scoring>().map_err(|e| SettingsError::Scoring(e.to_string()))?,
            None => Scoring::Standard,
        };
        let clock = self.clock.map(resolve_clock).transpose()?;
        Ok(InviteSettings {
            board,
            game: GameSettings { layout: Arc::new(layout), scoring, swap: self.swap.unwrap_or(false), clock },
            color: self.color.unwrap_or(ColorChoice::Random),
        })
    }
}

fn resolve_board(requested: Option<Value>) -> Result<(String, Layout), SettingsError> {
    match requested {
        None | Some(Value::Null) => Ok(preset("classic")),
        Some(Value::String(text)) => {
            if let Some(board) = kulami_layouts::preset(&text) {
                return Ok((text, board.into_layout()));
            }
            Layout::parse(&text)
                .map(|layout| ("custom".to_owned(), layout))
                .map_err(|e| SettingsError::Layout(e.to_string()))
        }
        Some(Value::Object(fields)) => {
            let seed = fields.get("random").and_then(Value::as_u64).ok_or(SettingsError::LayoutForm)?;
            if fields.keys().any(|key| key != "random" && key != "shape") {
                return Err(SettingsError::LayoutForm);
            }
            let shape = match fields.get("shape") {
                None => Shape::Square,
                Some(Value::String(name)) => name.parse::<Shape>().map_err(|e| SettingsError::Shape(e.to_string()))?,
                Some(_) => return Err(SettingsError::LayoutForm),
            };
            Ok((format!("random {seed} {shape}"), kulami_layouts::generate(seed, shape)))
        }
        Some(_) => Err(SettingsError::LayoutForm),
    }
}

fn preset(name: &str) -> (String, Layout) {
    let board = kulami_layouts::preset(name).expect("the classic board is a preset");
    (name.to_owned(), board.into_layout())
}

fn resolve_clock(clock: ClockRequest) -> Result<ClockSettings, SettingsError> {
    if clock.limit > MAX_LIMIT_SECONDS || clock.increment > MAX_INCREMENT_SECONDS || clock.limit + clock.increment == 0
    {
        return Err(SettingsError::Clock);
    }
    let millis = |seconds: u64| i64::try_from(seconds * 1000).expect("bounded above");
    Ok(ClockSettings { limit_ms: millis(clock.limit), increment_ms: millis(clock.increment) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(json: &str) -> Result<InviteSettings, SettingsError> {
        serde_json::from_str::<ChallengeRequest>(json).expect("well-formed").resolve()
    }

    #[test]
    fn an_empty_invite_is_the_classic_board_standard_random_colour_no_swap_five_plus_three() {
        let settings = resolve("{}").unwrap();
        assert_eq!(settings.board, "classic");
        assert_eq!(settings.game.scoring, Scoring::Standard);
        assert_eq!(settings.color, ColorChoice::Random);
        assert!(!settings.game.swap);
        assert_eq!(settings.game.clock, Some(DEFAULT_CLOCK));
        assert_eq!(settings.game.layout.marbles_per_player(), 28);
    }

    #[test]
    fn a_null_clock_is_correspondence_and_every_board_form_is_read() {
        let settings = resolve(r#"{"clock": null, "layout": "AABB/CCDD", "color": "black", "swap": true}"#).unwrap();
        assert_eq!(
            (settings.game.clock, settings.board.as_str(), settings.color),
            (None, "custom", ColorChoice::Black)
        );
        let random = resolve(r#"{"layout": {"random": 7, "shape": "irregular"}, "scoring": "both"}"#).unwrap();
        assert_eq!(*random.game.layout, kulami_layouts::generate(7, Shape::Irregular));
        assert_eq!((random.board.as_str(), random.game.scoring), ("random 7 irregular", Scoring::Both));
        let clock = resolve(r#"{"clock": {"limit": 60, "increment": 0}, "layout": "easy"}"#).unwrap();
        assert_eq!(clock.game.clock, Some(ClockSettings { limit_ms: 60_000, increment_ms: 0 }));
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (r#"{"layout": "AAB/C"}"#, "`layout`"),
            (r#"{"layout": {"random": "x"}}"#, "`layout`"),
            (r#"{"layout": {"random": 1, "shape": "round"}}"#, "`shape`"),
            (r#"{"scoring": "most"}"#, "`scoring`"),
            (r#"{"marbles": 0}"#, "`marbles`"),
            (r#"{"clock": {"limit": 0, "increment": 0}}"#, "`clock`"),
            (r#"{"clock": {"limit": 99999, "increment": 0}}"#, "`clock`"),
        ];
        for (json, field) in cases {
            let error = resolve(json).unwrap_err().to_string();
            assert!(error.starts_with(field), "{json}: {error}");
        }
        let typo = serde_json::from_str::<ChallengeRequest>(r#"{"colour": "red"}"#).unwrap_err().to_string();
        assert!(typo.contains("unknown field `colour`"), "{typo}");
    }
}
