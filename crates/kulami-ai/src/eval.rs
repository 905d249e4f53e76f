//! The evaluation of Kulami positions: a weighted sum of features that know more than the score.
//!
//! The weights are fitted by least squares to the final margins of self-play games
//! (`cargo run --release -p kulami-ai --example tune` plays the games and prints them), not
//! guessed.

use kulami_core::{Cell, CellSet, Direction, FRAME_CELLS, Position, Scoring, Tile, groups, line_sum};

use crate::kulami::{KulamiState, POINT};
use game_search::{Evaluator, SearchGame};

/// The named features, each from the side to move's point of view (mine minus the opponent's);
/// the tile states of [`TILE_STATES`] follow them in [`Features`], twice: every tile in that
/// state, then only those the side to move can place on now.
pub const FEATURES: [&str; 13] = [
    "tiles",
    "secured",
    "leaning",
    "mobility",
    "area",
    "lines",
    "tempo",
    "threat",
    "area room",
    "fours",
    "threes",
    "twos",
    "area next",
];

/// The states of a tile the evaluation weighs one by one: `(holes, leader's marbles, other
/// side's marbles)`, the leader strictly ahead. Each is a feature: the tiles in that state led
/// by the side to move, less those led by the opponent, so the fit learns what a 2-1 lead on a
/// six-hole tile is worth rather than a formula guessing it.
pub const TILE_STATES: [(usize, usize, usize); 24] = [
    (2, 1, 0),
    (2, 2, 0),
    (3, 1, 0),
    (3, 2, 0),
    (3, 2, 1),
    (3, 3, 0),
    (4, 1, 0),
    (4, 2, 0),
    (4, 2, 1),
    (4, 3, 0),
    (4, 3, 1),
    (4, 4, 0),
    (6, 1, 0),
    (6, 2, 0),
    (6, 2, 1),
    (6, 3, 0),
    (6, 3, 1),
    (6, 3, 2),
    (6, 4, 0),
    (6, 4, 1),
    (6, 4, 2),
    (6, 5, 0),
    (6, 5, 1),
    (6, 6, 0),
];

/// The number of features: the named ones, then one per tile state.
pub const FEATURE_COUNT: usize = FEATURES.len() + 2 * TILE_STATES.len();

/// Feature values of a position: [`FEATURES`], then [`TILE_STATES`] over every tile, then over
/// the tiles the side to move can reach.
pub type Features = [i32; FEATURE_COUNT];

/// `TILE_STATE_SLOT[holes][leader][other]`: the feature of that tile state, or 0 for none (a
/// tie, or a tile size no board has).
const TILE_STATE_SLOT: [[[u8; 7]; 7]; 7] = {
    let mut slots = [[[0; 7]; 7]; 7];
    let mut i = 0;
    while i < TILE_STATES.len() {
        let (holes, leader, other) = TILE_STATES[i];
        slots[holes][leader][other] = (FEATURES.len() + i) as u8;
        i += 1;
    }
    slots
};

/// Computes the features:
/// - `tiles`: tile points as the board stands;
/// - `secured`: points of tiles whose majority can no longer change (more of one colour than
///   the other colour plus the empty holes);
/// - `leaning`: for each undecided tile, its points times the lead, times 8, over the holes left
///   plus one;
/// - `mobility`: the legal moves of the side to move (few replies is the start of being blocked);
/// - `area`, `lines`: the Biggest Area and Lines measures, when that variant counts;
/// - `tempo`: 1, the value of being the side to move;
/// - `threat`: the most tile points the side to move's next marble can swing (a tie broken or a
///   lead levelled on a tile it can reach), what a leaf evaluated without a search of the reply
///   misses;
/// - `area room`, when Biggest Area counts: the empty holes next to the largest group, where it
///   can still grow;
/// - `area next`, when Biggest Area counts: the largest group after one more marble, which may
///   join groups (an empty hole between them is a threat a search at the horizon misses);
/// - `fours`, `threes`, `twos`, when Lines counts: the windows of five holes in a line, none
///   taken by the opponent, that hold four, three and two marbles (the lines still to be made);
/// - then each of [`TILE_STATES`]: over every tile, and again over the tiles the side to move can
///   place on now (a lead the mover can add to or the opponent cannot answer at once).
#[must_use]
pub fn features(state: &KulamiState) -> Features {
    let position = state.position();
    let me = position.side_to_move();
    let other = me.other();
    let layout = position.layout();
    let occupied = position.occupied();
    let mut features = [0; FEATURE_COUNT];
    let legal = position.legal_moves();
    let (mut secured, mut leaning, mut threat) = (0, 0, 0);
    for (index, tile) in layout.tiles().iter().enumerate() {
        let terms = TileTerms::new(tile, position.tile_count(index, me), position.tile_count(index, other), occupied);
        secured += terms.secured;
        leaning += terms.leaning;
        let reachable = !(tile.cells() & legal).is_empty();
        if reachable {
            threat = threat.max(terms.threat());
        }
        terms.count_state(&mut features, 0);
        if reachable {
            terms.count_state(&mut features, TILE_STATES.len());
        }
    }
    let tiles = state.tile_lead();
    let mobility = legal.len() as i32;
    // Each bonus's measures, mine minus the opponent's, only where that bonus counts.
    let (area, area_room, area_next) = if state.scoring().counts_area() {
        let empty = layout.holes() & !occupied;
        let (my_room, my_next) = area_prospects(position.marbles(me), empty);
        let (their_room, their_next) = area_prospects(position.marbles(other), empty);
        (
            state.largest_area(me) as i32 - state.largest_area(other) as i32,
            my_room as i32 - their_room as i32,
            my_next as i32 - their_next as i32,
        )
    } else {
        (0, 0, 0)
    };
    let (lines, fours, threes, twos) = if state.scoring().counts_lines() {
        lines_terms(position.marbles(me), position.marbles(other), layout.holes())
    } else {
        (0, 0, 0, 0)
    };
    features[..FEATURES.len()].copy_from_slice(&[
        tiles, secured, leaning, mobility, area, lines, 1, threat, area_room, fours, threes, twos, area_next,
    ]);
    features
}

/// What one tile gives the features, for the side `me`.
#[derive(Clone, Copy)]
struct TileTerms {
    /// Its points, signed, if its majority can no longer change (`secured`).
    secured: i32,
    /// Its share of `leaning`.
    leaning: i32,
    /// Its tile state's feature, or 0 for none.
    slot: usize,
    /// Its holes.
    holes: i32,
    /// `me`'s marbles on it less the other side's.
    lead: i32,
}

impl TileTerms {
    /// The terms of `tile` for the side with `mine` marbles on it against `theirs`, `occupied`
    /// being the board's taken holes.
    #[inline(always)]
    fn new(tile: &Tile, mine: usize, theirs: usize, occupied: CellSet) -> TileTerms {
        let holes = tile.holes();
        let lead = mine as i32 - theirs as i32;
        let empty = (tile.cells() & !occupied).len() as i32;
        let (secured, leaning) = if lead.abs() > empty {
            (holes as i32 * lead.signum(), 0)
        } else {
            (0, holes as i32 * lead * 8 / (empty + 1))
        };
        let slot = usize::from(TILE_STATE_SLOT[holes][mine.max(theirs)][mine.min(theirs)]);
        TileTerms { secured, leaning, slot, holes: holes as i32, lead }
    }

    /// Its points in the tile lead: the holes, to whoever leads on it.
    fn points(&self) -> i32 {
        self.holes * self.lead.signum()
    }

    /// The tile points `me`'s next marble on it would swing (`threat`, where it can reach it).
    fn threat(&self) -> i32 {
        self.holes * ((self.lead + 1).signum() - self.lead.signum())
    }

    /// Counts the tile's state in `features`, `offset` past the tile states over every tile
    /// (0 for those, [`TILE_STATES`]`.len()` for the reachable ones).
    fn count_state(&self, features: &mut Features, offset: usize) {
        if self.slot != 0 {
            features[self.slot + offset] += self.lead.signum();
        }
    }

    /// What [`TileTerms::count_state`] adds to the evaluation's sum under `weights`.
    fn weighed_state(&self, weights: &Features, offset: usize) -> i32 {
        if self.slot == 0 { 0 } else { weights[self.slot + offset] * self.lead.signum() }
    }
}

/// A colour's prospects under Biggest Area, from one pass over its groups: the `empty` holes next
/// to its largest group (the first found, if several are as large), where it can still grow; and
/// the size of its largest group once one more marble is on an empty hole, where a marble between
/// groups joins them.
fn area_prospects(marbles: CellSet, empty: CellSet) -> (usize, usize) {
    // For each empty hole, the marbles of the groups it touches.
    let mut joined = [0; FRAME_CELLS];
    let mut largest = CellSet::EMPTY;
    for group in groups(marbles) {
        for cell in group.grow() & empty {
            joined[cell.index()] += group.len();
        }
        if group.len() > largest.len() {
            largest = group;
        }
    }
    let room = (largest.grow() & empty).len();
    let next = joined.iter().filter(|&&touched| touched > 0).map(|touched| touched + 1).fold(largest.len(), usize::max);
    (room, next)
}

/// The Lines measures of `mine` against `theirs` on a board of `holes`, each mine minus theirs:
/// `(lines, fours, threes, twos)` of [`features`].
fn lines_terms(mine: CellSet, theirs: CellSet, holes: CellSet) -> (i32, i32, i32, i32) {
    let (my_windows, their_windows) = (open_windows(mine, holes & !theirs), open_windows(theirs, holes & !mine));
    (
        line_sum(mine) as i32 - line_sum(theirs) as i32,
        my_windows.0 - their_windows.0,
        my_windows.1 - their_windows.1,
        my_windows.2 - their_windows.2,
    )
}

/// The windows of five cells in a line, every one `open` (a hole with no opposing marble), that
/// hold four, three and two of `marbles`: `(fours, threes, twos)`.
fn open_windows(marbles: CellSet, open: CellSet) -> (i32, i32, i32) {
    let (mut fours, mut threes, mut twos) = (0, 0, 0);
    for direction in Direction::LINES {
        // The count of marbles in the window that starts at each cell, as three bit planes,
        // added one cell of the window at a time.
        let (mut starts, mut ahead_open, mut ahead) = (open, open, marbles);
        let (mut low, mut middle, mut high) = (marbles, CellSet::EMPTY, CellSet::EMPTY);
        for _ in 1..5 {
            ahead_open = ahead_open.shift_back(direction);
            ahead = ahead.shift_back(direction);
            starts &= ahead_open;
            let carry = low & ahead;
            low ^= ahead;
            high |= middle & carry;
            middle ^= carry;
        }
        fours += (starts & high & !middle & !low).len() as i32;
        threes += (starts & !high & middle & low).len() as i32;
        twos += (starts & !high & middle & !low).len() as i32;
    }
    (fours, threes, twos)
}

/// How far the game has gone, 0 at the start to [`PHASES`] when every marble is placed.
#[must_use]
pub fn phase(state: &KulamiState) -> i32 {
    phase_at(state.position(), state.position().ply())
}

/// [`phase`] at `ply` of `position`'s game.
fn phase_at(position: &Position, ply: usize) -> i32 {
    let total = 2 * position.layout().marbles_per_player();
    (ply * PHASES as usize / total.max(1)) as i32
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

/// Weights fitted to self-play under the standard scoring (see the module documentation):
/// `(opening, end)`, fitted to 3,200 games of level 4 against itself (2,000 playouts a move) on
/// random boards, played with the weights before these (`PLAYOUTS=2000 cargo run --release -p
/// kulami-ai --example tune -- 4000 standard`; the other 800 games held out, where the fit's
/// error is 1.757 points against the former weights' 1.78; without `threat` 1.771, without the
/// reachable tile states 1.760, without both 1.777). The bonuses' features are 0 under this
/// scoring, and so are their weights. In the tree search at 0.1 s per move these weights scored
/// 57.2% against the former ones, which had neither `threat` nor the reachable tile states
/// (`examples/mcts_tune.rs`, 200 games, +51 Elo, +15..+88); those had scored 66% against the
/// named features alone.
pub const STANDARD_WEIGHTS: (Features, Features) = (
    weights(
        [8, 68, 9, 0, 0, 0, -32, 17, 0, 0, 0, 0, 0],
        [-51, -161, -16, -43, 49, -36, -1, 6, -69, -65, -12, 20, 23, 76, -4, 44, 39, -119, -64, 41, 75, 25, 25, 16],
        [17, 0, -3, -2, 0, 0, -4, -1, 15, -21, 0, 0, 10, 7, 9, 5, 8, 52, 48, 29, 0, -41, 0, 0],
    ),
    weights(
        [33, 21, 5, 10, 0, 0, -24, 19, 0, 0, 0, 0, 0],
        [-10, -6, -10, -15, 2, -35, -14, -7, -9, -20, 3, -55, -37, 71, 18, -27, 18, -13, 7, 7, 26, -16, -21, 74],
        [-17, 0, -4, -2, 0, 0, 10, -11, -23, -19, 0, 0, 41, -24, 14, -12, -13, -26, -29, -13, 0, -16, 0, 0],
    ),
);

/// Weights fitted under the Biggest Area scoring, as [`STANDARD_WEIGHTS`] but to 1,600 games of
/// level 4 (RAVE, 2,000 playouts a move) under that scoring (`PLAYOUTS=2000 cargo run --release
/// -p kulami-ai --example tune -- 2000 area`). On the 400 held-out games the error is 2.57
/// points, against 2.63 for the weights before `area next` (and 2.74 for those of every scoring
/// before the bonuses' features). With them level 3 beat itself with the weights before by 66.8%
/// (+121, +75..+172, 200 games) and level 2 by 58.0% (+56, +8..+106).
pub const AREA_WEIGHTS: (Features, Features) = (
    weights(
        [16, 151, 14, 0, -37, 0, 42, 14, 11, 0, 0, 0, 63],
        [
            22, 121, 33, -100, -165, 136, 27, 51, -96, 8, -97, 258, 10, 101, 1, 108, 3, -258, -6, -130, -356, 81, 203,
            145,
        ],
        [8, 0, 3, -8, 0, 0, 5, 6, 14, -9, 0, 0, 23, 4, -5, 24, -1, 71, 14, 90, 0, 74, 0, 0],
    ),
    weights(
        [36, 0, 3, 12, 51, 0, -16, 19, 29, 0, 0, 0, 31],
        [-29, -52, -28, 7, 58, -72, -15, -4, -4, -28, 34, -91, 2, 69, -29, -43, 24, 22, -16, 57, 131, -19, -12, -64],
        [-10, 0, -2, 5, 0, 0, 5, -15, -16, 9, 0, 0, -15, -13, 28, -15, 0, -35, -9, -22, 0, -39, 0, 0],
    ),
);

/// Weights fitted under the Lines scoring (`... tune -- 2000 lines`, as [`AREA_WEIGHTS`]): 3.02
/// points of error on the held-out games, against 3.42 for the weights of every scoring before.
pub const LINES_WEIGHTS: (Features, Features) = (
    weights(
        [15, 73, 9, 1, 0, 63, 1, 14, 0, 185, 93, 33, 0],
        [-27, -22, -4, -35, -4, 161, 8, 9, -40, -24, 55, 210, 18, 81, -14, 27, 56, -151, 106, -64, 123, -299, -48, -20],
        [3, 0, -2, -39, 0, 0, -8, -18, 38, 30, 0, 0, -3, 1, 3, 4, -40, 108, -40, 14, 0, -89, 0, 0],
    ),
    weights(
        [27, 1, 4, 22, 0, 74, -55, 18, 0, 70, 10, -11, 0],
        [-30, -50, -25, -4, 62, -90, -24, -25, -11, -16, 32, -134, -29, 91, -1, -28, 6, 27, -23, 68, 121, -3, 20, -72],
        [-14, 0, -3, 8, 0, 0, 11, -3, -27, -18, 0, 0, 53, -26, 34, -19, 6, -46, 6, -6, 0, -65, 0, 0],
    ),
);

/// Weights fitted under both bonuses (`... tune -- 2000 both`, as [`AREA_WEIGHTS`]): 3.64
/// points of error on the held-out games, against 4.27 for the weights of every scoring. They
/// weigh `area next` 0: a fit with it erred 3.75 points on other held-out games, where these
/// err 3.77.
pub const BOTH_WEIGHTS: (Features, Features) = (
    weights(
        [20, 158, 16, 0, 32, 43, 89, 11, 24, 165, 93, 39, 0],
        [
            17, 55, 37, -66, -154, 267, 27, 82, -79, -6, -122, 521, 10, 135, -39, 99, -38, -235, -111, -125, -192, 26,
            76, 49,
        ],
        [7, 0, 2, -10, 0, 0, -5, 6, 10, 113, 0, 0, 15, 0, -19, 20, -5, 81, -66, 67, 0, 50, 0, 0],
    ),
    weights(
        [32, -8, 3, 20, 78, 80, -40, 20, 28, 83, 20, -2, 0],
        [-23, -39, -24, 14, 89, -87, -22, -22, 9, -12, 54, -123, 16, 8, -13, -43, 41, 41, -18, 79, 158, -50, 17, -129],
        [-9, 0, -2, 4, 0, 0, 9, -7, -13, -28, 0, 0, 7, -12, 40, -1, -2, -36, 40, -6, 0, -20, 0, 0],
    ),
);

/// Weights for [`FEATURES`] alone, every tile state weighed 0.
pub(crate) const fn named_weights(named: [i32; FEATURES.len()]) -> Features {
    weights(named, [0; TILE_STATES.len()], [0; TILE_STATES.len()])
}

/// The weights of [`FEATURES`], of [`TILE_STATES`] and of the tile states the side to move can
/// reach, as one [`Features`].
#[must_use]
pub const fn weights(
    named: [i32; FEATURES.len()],
    tile_states: [i32; TILE_STATES.len()],
    reachable: [i32; TILE_STATES.len()],
) -> Features {
    let mut all = [0; FEATURE_COUNT];
    let mut i = 0;
    while i < FEATURE_COUNT {
        all[i] = if i < FEATURES.len() {
            named[i]
        } else if i < FEATURES.len() + TILE_STATES.len() {
            tile_states[i - FEATURES.len()]
        } else {
            reachable[i - FEATURES.len() - TILE_STATES.len()]
        };
        i += 1;
    }
    all
}

impl KulamiEvaluator {
    /// The evaluation fitted to games under `scoring`: each scoring has its own weights, since
    /// a bonus changes what a tile, a group or a line is worth.
    #[must_use]
    pub const fn tuned(scoring: Scoring) -> KulamiEvaluator {
        let (opening, end) = match scoring {
            Scoring::Standard => STANDARD_WEIGHTS,
            Scoring::Area => AREA_WEIGHTS,
            Scoring::Lines => LINES_WEIGHTS,
            Scoring::Both => BOTH_WEIGHTS,
        };
        KulamiEvaluator { opening, end }
    }

    /// The score as it stands and nothing else: the tile points, and the bonuses as they stand
    /// where the scoring counts them (the `area` and `lines` features are 0 where it does not).
    /// Level 1 and the public engine's design evaluate so.
    #[must_use]
    pub fn score_only() -> KulamiEvaluator {
        let weights = named_weights([POINT, 0, 0, 0, POINT, POINT, 0, 0, 0, 0, 0, 0, 0]);
        KulamiEvaluator { opening: weights, end: weights }
    }
}

/// Why a text is not an evaluation's weights (see [`KulamiEvaluator`]'s `FromStr`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseWeightsError {
    /// There is no `;` between the opening's weights and the end's.
    #[error("expected the opening's weights, ';', and the end's weights")]
    NoSemicolon,
    /// One phase has too few or too many weights.
    #[error("the {phase} has {found} weights, not {FEATURE_COUNT} (one per feature and tile state)")]
    Count {
        /// `opening` or `end`.
        phase: &'static str,
        /// How many there were.
        found: usize,
    },
    /// A weight is not a whole number.
    #[error("weight {index} of the {phase} is `{text}`, not a whole number")]
    Number {
        /// `opening` or `end`.
        phase: &'static str,
        /// Its place, from 1.
        index: usize,
        /// What stood there.
        text: String,
    },
}

/// Reads weights written as `OPENING;END`, each the comma-separated weights of [`FEATURES`] and
/// then of [`TILE_STATES`] (what `examples/tune.rs` prints), so tools can try other weights.
///
/// ```
/// use kulami_ai::eval::{FEATURE_COUNT, KulamiEvaluator};
///
/// let ones = vec!["1"; FEATURE_COUNT].join(",");
/// let evaluator: KulamiEvaluator = format!("{ones};{ones}").parse().unwrap();
/// assert_eq!(evaluator.end, [1; FEATURE_COUNT]);
/// assert!("1,2;3".parse::<KulamiEvaluator>().is_err());
/// ```
impl std::str::FromStr for KulamiEvaluator {
    type Err = ParseWeightsError;

    fn from_str(text: &str) -> Result<KulamiEvaluator, ParseWeightsError> {
        let (opening, end) = text.split_once(';').ok_or(ParseWeightsError::NoSemicolon)?;
        let parse = |phase: &'static str, text: &str| -> Result<Features, ParseWeightsError> {
            let weights = (text.split(',').enumerate())
                .map(|(i, weight)| {
                    let text = weight.trim();
                    text.parse().map_err(|_| ParseWeightsError::Number { phase, index: i + 1, text: text.into() })
                })
                .collect::<Result<Vec<i32>, _>>()?;
            let found = weights.len();
            weights.try_into().map_err(|_| ParseWeightsError::Count { phase, found })
        };
        Ok(KulamiEvaluator { opening: parse("opening", opening)?, end: parse("end", end)? })
    }
}

impl KulamiEvaluator {
    /// The weights at `phase`, [`PHASES`] times over: a weighted sum of features divided by
    /// [`PHASES`] is the evaluation.
    fn weights_at(&self, phase: i32) -> Features {
        std::array::from_fn(|i| self.weight_at(i, phase))
    }

    /// Weight `i` of [`KulamiEvaluator::weights_at`].
    fn weight_at(&self, i: usize, phase: i32) -> i32 {
        self.opening[i] * (PHASES - phase) + self.end[i] * phase
    }

    /// [`Evaluator::values_after`] where Biggest Area does not count, from what `state`'s tiles
    /// give, found once: a move changes one tile and the replies, and [`features`] of each child
    /// found anew took about a sixth of the instructions of the tree search of levels 4 and 5
    /// under the standard scoring. The Lines measures are found for each child, without
    /// playing its move.
    fn values_after_from_tiles(&self, state: &KulamiState, moves: &[Cell], values: &mut Vec<i32>) {
        let position = state.position();
        // The features are the reply's: the side to move after the move, `next`.
        let next = position.side_to_move().other();
        let layout = position.layout();
        let counts_lines = state.scoring().counts_lines();
        let (occupied, mover) = (position.occupied(), next.other());
        let tiles: Vec<TileTerms> = (layout.tiles().iter().enumerate())
            .map(|(index, tile)| {
                TileTerms::new(tile, position.tile_count(index, next), position.tile_count(index, mover), occupied)
            })
            .collect();
        // The evaluation is linear in the features: each child's weighted sum is the tiles'
        // states' sum, less the filled tile's state before, plus its state after and the rest.
        let weights = self.weights_at(phase_at(position, position.ply() + 1));
        let (mut secured, mut leaning, mut points, mut states) = (0, 0, 0, 0);
        for terms in &tiles {
            (secured, leaning, points) = (secured + terms.secured, leaning + terms.leaning, points + terms.points());
            states += terms.weighed_state(&weights, 0);
        }
        let reply_holes = position.reply_holes();
        for &cell in moves {
            let index = layout.tile_index(cell).expect("a move is on a hole");
            let placed = CellSet::from_cell(cell);
            let (mine, theirs) = (position.tile_count(index, next), position.tile_count(index, mover) + 1);
            let new = TileTerms::new(&layout.tiles()[index], mine, theirs, occupied | placed);
            let old = tiles[index];
            let tile_lead = points - old.points() + new.points();
            let replies = reply_holes & layout.reply_cells(cell);
            let (lines, fours, threes, twos) = if counts_lines {
                lines_terms(position.marbles(next), position.marbles(mover) | placed, layout.holes())
            } else {
                (0, 0, 0, 0)
            };
            // Values are the reply's, negated for the player making the move.
            if replies.is_empty() {
                values.push(-(tile_lead + lines) * POINT);
                continue;
            }
            let mut sum = states - old.weighed_state(&weights, 0) + new.weighed_state(&weights, 0);
            let mut threat = 0;
            for (tile_index, (tile, terms)) in layout.tiles().iter().zip(&tiles).enumerate() {
                if !(tile.cells() & replies).is_empty() {
                    let terms = if tile_index == index { &new } else { terms };
                    threat = threat.max(terms.threat());
                    sum += terms.weighed_state(&weights, TILE_STATES.len());
                }
            }
            // [`FEATURES`] in order; Biggest Area's measures are 0 where it does not count.
            let named = [
                tile_lead,
                secured - old.secured + new.secured,
                leaning - old.leaning + new.leaning,
                replies.len() as i32,
                0,
                lines,
                1,
                threat,
                0,
                fours,
                threes,
                twos,
                0,
            ];
            sum += named.iter().zip(&weights).map(|(feature, weight)| feature * weight).sum::<i32>();
            values.push(-(sum / PHASES));
        }
    }
}

impl Evaluator<KulamiState> for KulamiEvaluator {
    fn evaluate(&self, state: &KulamiState) -> i32 {
        if let Some(value) = state.terminal_value() {
            return value;
        }
        let phase = phase(state);
        // Weighed as they are blended, without the array of `weights_at`: the solver orders
        // its moves by this at every node near its root.
        features(state).iter().enumerate().map(|(i, feature)| feature * self.weight_at(i, phase)).sum::<i32>() / PHASES
    }

    fn values_after(&self, state: &mut KulamiState, moves: &[Cell], values: &mut Vec<i32>) {
        // Levels 4 and 5 search `area` and `both` without the evaluation.
        if state.scoring().counts_area() {
            game_search::values_by_playing(self, state, moves, values);
        } else {
            self.values_after_from_tiles(state, moves, values);
        }
    }
}

#[cfg(test)]
mod tests;
