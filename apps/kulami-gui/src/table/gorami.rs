//! GORami at the table: the board chosen.

use gorami::board::Shape;
use gorami::{Move, Player, Position};
use serde::{Deserialize, Serialize};

use super::{Setup, TableRules};

/// The GORami board of a game, as plain data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GoramiSetup {
    /// The triangle of 16 fields.
    #[default]
    Triangle,
    /// The triangle of 22 fields, its corners cut off.
    Truncated,
    /// The hexagon of 24 fields.
    Hexagon,
}

impl GoramiSetup {
    /// Every board, smallest first.
    pub const ALL: [GoramiSetup; 3] = [GoramiSetup::Triangle, GoramiSetup::Truncated, GoramiSetup::Hexagon];

    /// The board.
    #[must_use]
    pub fn shape(self) -> Shape {
        match self {
            GoramiSetup::Triangle => Shape::Triangle,
            GoramiSetup::Truncated => Shape::Truncated,
            GoramiSetup::Hexagon => Shape::Hexagon,
        }
    }

    /// The board in words.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            GoramiSetup::Triangle => "Triangle (16 fields)",
            GoramiSetup::Truncated => "Cut triangle (22 fields)",
            GoramiSetup::Hexagon => "Hexagon (24 fields)",
        }
    }
}

impl TableRules for GoramiSetup {
    type Position = Position;
    type Move = Move;

    const NAME: &'static str = "GORami";

    fn start(self) -> Position {
        Position::start(self.shape())
    }

    fn play(position: &mut Position, mv: Move) -> Result<(), String> {
        position.play(mv).map(|_| ()).map_err(|error| super::sentence(&error.to_string()))
    }

    fn player_to_move(position: &Position) -> Option<usize> {
        (!position.is_over()).then(|| position.to_move().index())
    }

    fn winner(position: &Position) -> Option<usize> {
        position.is_over().then(|| position.score().leader()).flatten().map(Player::index)
    }

    fn player_name(_: &Position, player: usize) -> String {
        Player::BOTH[player.min(1)].to_string()
    }

    fn tally(position: &Position) -> String {
        let score = position.score();
        format!(
            "Stripes: Yellow {}, Blue {} (middle {} to {}).",
            score.fish[0], score.fish[1], score.middle[0], score.middle[1]
        )
    }

    /// 100 a stripe, and the middle's lead below that.
    fn value_text(value: i32) -> String {
        // Rounded to the nearest stripe, half a stripe away from zero.
        let stripes = (value + value.signum() * 50) / 100;
        match stripes {
            0 => "level".to_owned(),
            1 | -1 => format!("{stripes:+} stripe"),
            _ => format!("{stripes:+} stripes"),
        }
    }

    fn engine_move(position: &Position, level: u8) -> Option<Move> {
        gorami::search::engine_move(position, level)
    }

    fn ranked_moves(position: &Position) -> Vec<(Move, i32)> {
        // Level 4's budget: well under a second.
        let mut limits = game_search::Limits::depth(24);
        limits.nodes = Some(300_000);
        gorami::search::ranked_moves(position, limits).moves
    }

    fn setup(self) -> Setup {
        Setup::Gorami(self)
    }
}
