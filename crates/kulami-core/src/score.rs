//! Scoring: tile points and the Biggest Area and Lines variants.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::cell::{CellSet, Direction};
use crate::layout::Layout;
use crate::position::{Color, Position};

/// Which scoring rules are in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Scoring {
    /// Tile points only.
    #[default]
    Standard,
    /// Tile points plus the Biggest Area bonus.
    Area,
    /// Tile points plus the Lines bonus.
    Lines,
    /// Tile points plus both bonuses.
    Both,
}

impl Scoring {
    /// Every scoring, in the order of its names.
    pub const ALL: [Scoring; 4] = [Scoring::Standard, Scoring::Area, Scoring::Lines, Scoring::Both];

    /// Whether the Biggest Area bonus counts.
    #[must_use]
    pub const fn counts_area(self) -> bool {
        matches!(self, Scoring::Area | Scoring::Both)
    }

    /// Whether the Lines bonus counts.
    #[must_use]
    pub const fn counts_lines(self) -> bool {
        matches!(self, Scoring::Lines | Scoring::Both)
    }

    /// The name used in commands and records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Area => "area",
            Scoring::Lines => "lines",
            Scoring::Both => "both",
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A scoring name that is not `standard`, `area`, `lines` or `both`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a scoring: expected standard, area, lines or both")]
pub struct ParseScoringError {
    /// The text that failed to parse.
    pub text: String,
}

impl FromStr for Scoring {
    type Err = ParseScoringError;
    fn from_str(text: &str) -> Result<Scoring, ParseScoringError> {
        Scoring::ALL
            .into_iter()
            .find(|scoring| scoring.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| ParseScoringError { text: text.to_owned() })
    }
}

/// One player's score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerScore {
    /// Standard tile points.
    pub tiles: usize,
    /// Size of the largest orthogonally connected group of marbles.
    pub largest_area: usize,
    /// Sum of the lengths of all runs of five or more marbles, in all four directions.
    pub lines: usize,
    /// Biggest Area bonus (0 unless that variant is on).
    pub area_bonus: usize,
    /// Lines bonus (0 unless that variant is on).
    pub line_bonus: usize,
    /// Tile points plus bonuses.
    pub total: usize,
}

/// Who is ahead, comparing totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Winner {
    /// Red has the higher total.
    Red,
    /// Black has the higher total.
    Black,
    /// Equal totals.
    Draw,
}

impl From<Color> for Winner {
    fn from(color: Color) -> Winner {
        match color {
            Color::Red => Winner::Red,
            Color::Black => Winner::Black,
        }
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Winner::Red => "red",
            Winner::Black => "black",
            Winner::Draw => "draw",
        })
    }
}

/// The score of a position under one scoring, for both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoreBreakdown {
    /// Red's score.
    pub red: PlayerScore,
    /// Black's score.
    pub black: PlayerScore,
    /// Who has the higher total.
    pub winner: Winner,
}

impl ScoreBreakdown {
    /// The score of `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> &PlayerScore {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

/// Text summary, one line per player, for drawings and logs.
impl fmt::Display for ScoreBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::BOTH {
            let s = self.player(color);
            writeln!(
                f,
                "{color:<5}  tiles {:>2}  largest area {:>2}  lines {:>2}  area bonus {:>2}  line bonus {:>2}  total {:>2}",
                s.tiles, s.largest_area, s.lines, s.area_bonus, s.line_bonus, s.total
            )?;
        }
        write!(f, "winner: {}", self.winner)
    }
}

/// The groups of `marbles` connected through shared edges, each once, in the order of their
/// first cells.
pub fn groups(marbles: CellSet) -> impl Iterator<Item = CellSet> {
    let mut unvisited = marbles;
    std::iter::from_fn(move || {
        let group = CellSet::from_cell(unvisited.first()?).flood_fill(unvisited);
        unvisited &= !group;
        Some(group)
    })
}

/// The largest group of `marbles` connected through shared edges (the first found, if several
/// are as large).
#[must_use]
pub fn largest_group(marbles: CellSet) -> CellSet {
    groups(marbles).fold(CellSet::EMPTY, |largest, group| if group.len() > largest.len() { group } else { largest })
}

/// The size of the largest group of `marbles` connected through shared edges.
#[must_use]
pub fn largest_area(marbles: CellSet) -> usize {
    largest_group(marbles).len()
}

/// For each of [`Direction::LINES`], the cells of `marbles` in runs of five or more that way.
#[must_use]
pub fn line_cells(marbles: CellSet) -> [CellSet; 4] {
    Direction::LINES.map(|direction| {
        // Cells that start a run of at least five in this direction...
        let mut starts = marbles;
        let mut ahead = marbles;
        for _ in 1..5 {
            ahead = ahead.shift_back(direction);
            starts &= ahead;
        }
        // ...and the four cells after each start: together, every cell of such a run.
        let mut covered = starts;
        let mut step = starts;
        for _ in 1..5 {
            step = step.shift(direction);
            covered |= step;
        }
        covered
    })
}

/// The sum of the lengths of every maximal run of five or more consecutive `marbles`, in each
/// of the four line directions.
#[must_use]
pub fn line_sum(marbles: CellSet) -> usize {
    line_cells(marbles).iter().map(|cells| cells.len()).sum()
}

/// The bonus the player with the larger measure gets: the difference, or 0 for equal measures.
fn bonuses(red: usize, black: usize) -> (usize, usize) {
    (red.saturating_sub(black), black.saturating_sub(red))
}

impl Position {
    /// The score of the position as it stands, finished or not.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use kulami_core::{Layout, Position, Scoring, Winner};
    /// let layout = Arc::new(Layout::parse("AABB/CCDD").unwrap());
    /// let position = Position::from_moves(layout, &["a1".parse().unwrap()]).unwrap();
    /// let score = position.score(Scoring::Standard);
    /// assert_eq!((score.red.total, score.black.total, score.winner), (2, 0, Winner::Red));
    /// ```
    #[must_use]
    pub fn score(&self, scoring: Scoring) -> ScoreBreakdown {
        let tiles = Color::BOTH.map(|color| self.tile_points(color));
        breakdown([self.marbles(Color::Red), self.marbles(Color::Black)], tiles, scoring)
    }
}

impl Layout {
    /// The score of `red` and `black` marbles on this board, for marbles that need not come
    /// from a game (diagrams, puzzles, tests). [`Position::score`] is the fast way during play.
    ///
    /// ```
    /// use kulami_core::{CellSet, Layout, Scoring};
    /// let layout = Layout::parse("AABB").unwrap();
    /// let cells = |names: &str| names.split(' ').map(|n| n.parse().unwrap()).collect::<CellSet>();
    /// let score = layout.score_marbles(cells("a1 b1 c1"), cells("d1"), Scoring::Standard);
    /// assert_eq!((score.red.tiles, score.black.tiles), (2, 0));
    /// ```
    #[must_use]
    pub fn score_marbles(&self, red: CellSet, black: CellSet, scoring: Scoring) -> ScoreBreakdown {
        let mut tiles = [0, 0];
        for tile in self.tiles() {
            let (on_red, on_black) = ((tile.cells() & red).len(), (tile.cells() & black).len());
            match on_red.cmp(&on_black) {
                Ordering::Greater => tiles[0] += tile.holes(),
                Ordering::Less => tiles[1] += tile.holes(),
                Ordering::Equal => {}
            }
        }
        breakdown([red, black], tiles, scoring)
    }
}

/// The breakdown from both players' marbles and tile points.
fn breakdown(marbles: [CellSet; 2], tiles: [usize; 2], scoring: Scoring) -> ScoreBreakdown {
    let [mut red, mut black] = [0, 1].map(|side| PlayerScore {
        tiles: tiles[side],
        largest_area: largest_area(marbles[side]),
        lines: line_sum(marbles[side]),
        ..PlayerScore::default()
    });
    if scoring.counts_area() {
        (red.area_bonus, black.area_bonus) = bonuses(red.largest_area, black.largest_area);
    }
    if scoring.counts_lines() {
        (red.line_bonus, black.line_bonus) = bonuses(red.lines, black.lines);
    }
    for player in [&mut red, &mut black] {
        player.total = player.tiles + player.area_bonus + player.line_bonus;
    }
    let winner = match red.total.cmp(&black.total) {
        Ordering::Greater => Winner::Red,
        Ordering::Less => Winner::Black,
        Ordering::Equal => Winner::Draw,
    };
    ScoreBreakdown { red, black, winner }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Cell;

    fn cells(names: &str) -> CellSet {
        names.split_whitespace().map(|name| name.parse::<Cell>().unwrap()).collect()
    }

    #[test]
    fn runs_count_once_at_full_length_in_every_direction() {
        assert_eq!(line_sum(cells("a1 b1 c1 d1")), 0);
        assert_eq!(line_sum(cells("a1 b1 c1 d1 e1")), 5);
        assert_eq!(line_sum(cells("a1 b1 c1 d1 e1 f1 g1")), 7);
        assert_eq!(line_sum(cells("j1 j2 j3 j4 j5 j6")), 6);
        assert_eq!(line_sum(cells("a1 b2 c3 d4 e5")), 5);
        assert_eq!(line_sum(cells("j1 i2 h3 g4 f5 e6")), 6);
        // A gap splits a run into two short ones.
        assert_eq!(line_sum(cells("a1 b1 c1 e1 f1 g1 h1")), 0);
    }

    #[test]
    fn runs_do_not_wrap_around_the_frame_edge() {
        assert_eq!(line_sum(cells("h1 i1 j1 a2 b2")), 0);
        assert_eq!(line_sum(cells("i1 j2 a3 b4 c5")), 0);
    }

    #[test]
    fn groups_and_line_cells_are_the_cells_behind_the_measures() {
        assert_eq!(largest_group(cells("a1 a2 b2 d4 d5")), cells("a1 a2 b2"));
        let all: Vec<_> = groups(cells("a1 a2 b2 d4 d5 j10")).collect();
        assert_eq!(all, [cells("a1 a2 b2"), cells("d4 d5"), cells("j10")]);
        assert_eq!(groups(CellSet::EMPTY).count(), 0);
        // Of two groups as large, the first.
        assert_eq!(largest_group(cells("a1 a2 c1 c2")), cells("a1 a2"));
        let cross = cells("a3 b3 c3 d3 e3 c1 c2 c4 c5");
        let [east, south, south_east, south_west] = line_cells(cross);
        assert_eq!(east, cells("a3 b3 c3 d3 e3"));
        assert_eq!(south, cells("c1 c2 c3 c4 c5"));
        assert!(south_east.is_empty() && south_west.is_empty());
    }

    #[test]
    fn largest_area_ignores_diagonal_contact() {
        assert_eq!(largest_area(cells("a1 b2 c3")), 1);
        assert_eq!(largest_area(cells("a1 a2 b2 d4 d5")), 3);
        assert_eq!(largest_area(CellSet::EMPTY), 0);
    }

    #[test]
    fn scoring_names_round_trip() {
        for scoring in Scoring::ALL {
            assert_eq!(scoring.name().parse(), Ok(scoring));
        }
        assert!("biggest".parse::<Scoring>().is_err());
    }
}
