//! Measures of how well a board plays, used to reject poor generated boards and to report on
//! curated ones.
//!
//! - A *single-tile line* is a row or column whose holes all lie on one tile. A marble there
//!   leaves the reply only the other direction, and such boards tend to lock early.
//! - The *random game length* is the number of marbles placed in a game where both sides pick
//!   uniformly among their legal holes. On 8x8 squares random games nearly always place all 56
//!   marbles; boards with long thin arms lock up after far fewer.

use std::sync::Arc;

use kulami_core::{Cell, CellSet, Layout, Position};

use crate::generate::SeededRng;

/// Rows and columns whose holes all lie on a single tile.
#[must_use]
pub fn single_tile_lines(layout: &Layout) -> usize {
    single_tile_lines_of(&layout.tiles().iter().map(kulami_core::Tile::cells).collect::<Vec<_>>())
}

/// [`single_tile_lines`] of a board given as its tiles' cells, for boards still being built.
pub(crate) fn single_tile_lines_of(tiles: &[CellSet]) -> usize {
    (0..kulami_core::FRAME)
        .flat_map(|i| [CellSet::row(i), CellSet::column(i)])
        .filter(|&line| tiles.iter().filter(|&&tile| !(tile & line).is_empty()).count() == 1)
        .count()
}

/// The lengths of `games` random games on `layout`, from `seed`.
#[must_use]
pub fn random_game_lengths(layout: &Arc<Layout>, games: usize, seed: u64) -> Vec<usize> {
    let mut rng = SeededRng::new(seed);
    (0..games).map(|_| random_game_length(layout, &mut rng)).collect()
}

pub(crate) fn random_game_length(layout: &Arc<Layout>, rng: &mut SeededRng) -> usize {
    let mut position = Position::new(Arc::clone(layout));
    loop {
        let legal = position.legal_moves();
        if legal.is_empty() {
            return position.ply();
        }
        let cell: Cell = legal.iter().nth(rng.index(legal.len())).expect("index below len");
        position.play_unchecked(cell);
    }
}

/// The median of `values` (the upper one for an even count); 0 for none.
#[must_use]
pub fn median(values: &[usize]) -> usize {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_tile_lines_are_found() {
        // Row 1 holds only tile A, columns c and d only tile C.
        let layout = Layout::parse("AA../BBCC/BBCC").unwrap();
        assert_eq!(single_tile_lines(&layout), 3);
        let classic = crate::preset("classic").unwrap().into_layout();
        assert_eq!(single_tile_lines(&classic), 0);
    }

    #[test]
    fn random_games_on_the_classic_board_are_long() {
        let classic = Arc::new(crate::preset("classic").unwrap().into_layout());
        let lengths = random_game_lengths(&classic, 200, 1);
        assert_eq!(lengths, random_game_lengths(&classic, 200, 1), "seeded");
        assert!(lengths.iter().all(|&n| (2..=56).contains(&n)));
        assert!(median(&lengths) >= 40, "median {}", median(&lengths));
    }
}
