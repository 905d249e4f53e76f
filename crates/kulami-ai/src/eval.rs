//! The evaluation of Kulami positions: a weighted sum of features that know more than the score.
//!
//! The weights are fitted by least squares to the final margins of self-play games
//! (`cargo run --release -p kulami-ai --example tune` plays the games and prints them), not
//! guessed.

use kulami_core::line_sum;

use crate::kulami::{KulamiState, POINT};
use game_search::{Evaluator, SearchGame};

/// The features, each from the side to move's point of view (mine minus the opponent's).
pub const FEATURES: [&str; 7] = ["tiles", "secured", "leaning", "mobility", "area", "lines", "tempo"];

/// Feature values of a position; see [`FEATURES`].
pub type Features = [i32; FEATURES.len()];

/// Computes the features:
/// - `tiles`: tile points as the board stands;
/// - `secured`: points of tiles whose majority can no longer change (more of one colour than
///   the other colour plus the empty holes);
/// - `leaning`: for each undecided tile, its points times the lead, times 8, over the holes left
///   plus one;
/// - `mobility`: the legal moves of the side to move (few replies is the start of being blocked);
/// - `area`, `lines`: the Biggest Area and Lines measures, when that variant counts;
/// - `tempo`: 1, the value of being the side to move.
#[must_use]
pub fn features(state: &KulamiState) -> Features {
    let position = state.position();
    let me = position.side_to_move();
    let other = me.other();
    let layout = position.layout();
    let occupied = position.occupied();
    let (mut secured, mut leaning) = (0, 0);
    for (index, tile) in layout.tiles().iter().enumerate() {
        let holes = tile.holes() as i32;
        let lead = position.tile_count(index, me) as i32 - position.tile_count(index, other) as i32;
        let empty = (tile.cells() & !occupied).len() as i32;
        if lead.abs() > empty {
            secured += holes * lead.signum();
        } else {
            leaning += holes * lead * 8 / (empty + 1);
        }
    }
    let tiles = state.tile_lead();
    let mobility = position.legal_moves().len() as i32;
    let measure = |on: bool, f: fn(kulami_core::CellSet) -> usize| {
        if on { f(position.marbles(me)) as i32 - f(position.marbles(other)) as i32 } else { 0 }
    };
    let area = if state.scoring().counts_area() {
        state.largest_area(me) as i32 - state.largest_area(other) as i32
    } else {
        0
    };
    let lines = measure(state.scoring().counts_lines(), line_sum);
    [tiles, secured, leaning, mobility, area, lines, 1]
}

/// How far the game has gone, 0 at the start to [`PHASES`] when every marble is placed.
#[must_use]
pub fn phase(state: &KulamiState) -> i32 {
    let position = state.position();
    let total = 2 * position.layout().marbles_per_player();
    (position.ply() * PHASES as usize / total.max(1)) as i32
}

/// The scale of [`phase`].
pub const PHASES: i32 = 64;

/// The evaluation: features weighted by weights that slide from the opening's to the end's as
/// the game goes on (a tapered evaluation), in hundredths of a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KulamiEvaluator {
    /// Weights at the start of the game, in hundredths of a point per unit of each feature.
    pub opening: Features,
    /// Weights when every marble is placed.
    pub end: Features,
}

/// Weights fitted to self-play (see the module documentation): `(opening, end)`. They were fitted
/// to games of the former casual level (two plies, a random move within a point of the best);
/// `examples/tune.rs` now plays club-level games, whose weights are not adopted until matches show
/// them better (every level but the first would change with them).
pub const TUNED_WEIGHTS: (Features, Features) = ([13, 53, 9, 0, 51, 135, 39], [37, 60, 11, 22, 105, 92, 42]);

impl Default for KulamiEvaluator {
    fn default() -> KulamiEvaluator {
        KulamiEvaluator { opening: TUNED_WEIGHTS.0, end: TUNED_WEIGHTS.1 }
    }
}

impl KulamiEvaluator {
    /// The evaluation of the public engine's design: the tile score and nothing else.
    #[must_use]
    pub fn tiles_only() -> KulamiEvaluator {
        let weights = [POINT, 0, 0, 0, 0, 0, 0];
        KulamiEvaluator { opening: weights, end: weights }
    }
}

impl Evaluator<KulamiState> for KulamiEvaluator {
    fn evaluate(&self, state: &KulamiState) -> i32 {
        if let Some(value) = state.terminal_value() {
            return value;
        }
        let phase = phase(state);
        let features = features(state);
        (0..features.len())
            .map(|i| features[i] * (self.opening[i] * (PHASES - phase) + self.end[i] * phase))
            .sum::<i32>()
            / PHASES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::{Color, Layout, Position, Scoring};
    use std::sync::Arc;

    #[test]
    fn features_see_secured_and_leaning_tiles() {
        // A is 2x3, B (d1 d2), C (a3 b3) and D (c3 d3) are 1x2.
        let layout = Arc::new(Layout::parse("AAAB/AAAB/CCDD").unwrap());
        let moves = kulami_core::notation::parse_moves("a1 d1 d3 b3 b2 d2").unwrap();
        let state = KulamiState::new(Position::from_moves(layout, &moves).unwrap(), Scoring::Both);
        assert_eq!(state.position().side_to_move(), Color::Red);
        let [tiles, secured, leaning, mobility, area, lines, tempo] = features(&state);
        assert_eq!(tempo, 1);
        // Red holds A (6) and D (2), black B and C (2 + 2).
        assert_eq!(tiles, 6 + 2 - 4);
        // Only B is decided (black 2, no hole left).
        assert_eq!(secured, -2);
        // A: 6 * 2 * 8 / (4 + 1) = 19; C: 2 * -1 * 8 / 2 = -8; D: 2 * 1 * 8 / 2 = 8.
        assert_eq!(leaning, 19 - 8 + 8);
        assert_eq!(mobility, state.position().legal_moves().len() as i32);
        // Red's largest group is 1 (a1, b2, d3 apart), black's 2 (d1 d2); no lines.
        assert_eq!((area, lines), (1 - 2, 0));
    }
}
