//! Irregular boards: the standard tiles laid one by one edge to edge inside the 10x10 frame,
//! then kept only if they play well (see [`crate::playability`]).
//!
//! Each tile goes to a random free spot touching the board, with spots that touch it along more
//! edges more likely; this fills bays often enough to avoid long thin arms while still leaving
//! holes and bays. Boards outside the wanted bounding boxes, with a single-tile row or column,
//! or whose random games end early, are thrown away and the next attempt drawn from the same stream.

use std::sync::Arc;

use kulami_core::{CellSet, Layout, TileShape};

use super::Grid;
use super::random::SeededRng;
use crate::playability::{median, random_game_length, single_tile_lines_of};
use crate::standard_set;

const FRAME: usize = kulami_core::FRAME;

/// Random games played to judge a board.
const TRIAL_GAMES: usize = 15;
/// The shortest median random game a board may have, of the 56 marbles. On random 8x8 squares
/// random games fill the board (median 56, 10th percentile 54, `kulami layout stats`); 48 keeps
/// irregular boards close to that and throws out the ones that lock up early.
pub(crate) const MIN_MEDIAN_GAME: usize = 48;

pub(crate) fn generate(rng: &mut SeededRng) -> Grid {
    loop {
        if let Some(grid) = attempt(rng) {
            return grid;
        }
    }
}

/// A tile laid on the board being built: where, and its cells.
#[derive(Clone, Copy)]
struct Placed {
    shape: TileShape,
    spot: Spot,
    cells: CellSet,
}

/// `(top, left, height, width)` of a tile.
type Spot = (usize, usize, usize, usize);

/// One try: lay out the tiles, mend a lone protruding tile, then check the board, cheapest
/// checks first.
fn attempt(rng: &mut SeededRng) -> Option<Grid> {
    let mut shapes = standard_set();
    rng.shuffle(&mut shapes);
    let mut placed: Vec<Placed> = Vec::with_capacity(shapes.len());
    let mut filled = CellSet::EMPTY;
    for shape in shapes {
        let spot = choose_spot(rng, shape, filled, |_| true)?;
        let cells = rectangle(spot);
        placed.push(Placed { shape, spot, cells });
        filled |= cells;
    }
    if single_tile_lines_of(&cells_of(&placed)) > 0 {
        move_lone_tile(rng, &mut placed)?;
    }
    let (rows, columns) = extent(placed.iter().fold(CellSet::EMPTY, |all, tile| all | tile.cells));
    if rows.min(columns) < 8 || rows.max(columns) < 9 {
        return None;
    }
    let mut grid = Grid::default();
    for (index, tile) in placed.iter().enumerate() {
        let (top, left, height, width) = tile.spot;
        grid.place(top, left, height, width, index as u8);
    }
    plays_long(grid.to_layout().ok()?, rng).then_some(grid)
}

fn cells_of(placed: &[Placed]) -> Vec<CellSet> {
    placed.iter().map(|tile| tile.cells).collect()
}

/// Most single-tile rows and columns come from one tile sticking out. When exactly one tile is
/// alone in its lines and the board stays connected without it, lay that tile again at a spot
/// that leaves no single-tile line; otherwise give up on this board.
fn move_lone_tile(rng: &mut SeededRng, placed: &mut Vec<Placed>) -> Option<()> {
    let cells = cells_of(placed);
    let lone: Vec<usize> = (0..placed.len())
        .filter(|&index| {
            (0..FRAME).flat_map(|i| [CellSet::row(i), CellSet::column(i)]).any(|line| {
                let touching = cells.iter().filter(|&&tile| !(tile & line).is_empty()).count();
                touching == 1 && !(cells[index] & line).is_empty()
            })
        })
        .collect();
    let [index] = lone[..] else { return None };
    let moved = placed.remove(index);
    let mut others = cells_of(placed);
    let filled = others.iter().fold(CellSet::EMPTY, |all, &tile| all | tile);
    let start = CellSet::from_cell(filled.first()?);
    if start.flood_fill(filled) != filled {
        return None;
    }
    let spot = choose_spot(rng, moved.shape, filled, |cells| {
        others.push(cells);
        let fine = single_tile_lines_of(&others) == 0;
        others.pop();
        fine
    })?;
    placed.push(Placed { shape: moved.shape, spot, cells: rectangle(spot) });
    Some(())
}

/// Rows and columns spanned by `cells`.
fn extent(cells: CellSet) -> (usize, usize) {
    let span = |lines: &mut dyn Iterator<Item = usize>| {
        let used: Vec<usize> = lines.collect();
        used.last().map_or(0, |last| last - used[0] + 1)
    };
    let rows = span(&mut (0..FRAME).filter(|&r| !(cells & CellSet::row(r)).is_empty()));
    let columns = span(&mut (0..FRAME).filter(|&c| !(cells & CellSet::column(c)).is_empty()));
    (rows, columns)
}

fn plays_long(layout: Layout, rng: &mut SeededRng) -> bool {
    let layout = Arc::new(layout);
    let lengths: Vec<usize> = (0..TRIAL_GAMES).map(|_| random_game_length(&layout, rng)).collect();
    median(&lengths) >= MIN_MEDIAN_GAME
}

/// The cells of a rectangle inside the frame.
fn rectangle((top, left, height, width): Spot) -> CellSet {
    let row_bits = ((1u128 << width) - 1) << left;
    let bits = (top..top + height).fold(0u128, |bits, row| bits | row_bits << (row * FRAME));
    CellSet::from_bits_truncate(bits)
}

/// A free spot for `shape` touching `filled` (anywhere near the middle for the first tile) whose
/// cells `acceptable` allows, weighted by the square of the number of shared edges.
fn choose_spot(
    rng: &mut SeededRng,
    shape: TileShape,
    filled: CellSet,
    mut acceptable: impl FnMut(CellSet) -> bool,
) -> Option<Spot> {
    let (short, long) = shape.sides();
    let orientations: &[(usize, usize)] =
        if short == long { &[(short, long)] } else { &[(short, long), (long, short)] };
    let frontier = filled.grow() & !filled;
    let mut spots = Vec::new();
    let mut total_weight = 0u64;
    for &(height, width) in orientations {
        for anchor in anchors(height, width, filled, frontier) {
            let spot = (anchor.row(), anchor.column(), height, width);
            let cells = rectangle(spot);
            if !acceptable(cells) {
                continue;
            }
            let weight = if filled.is_empty() {
                1
            } else {
                let contacts = shared_edges(cells, filled);
                contacts * contacts
            };
            total_weight += weight;
            spots.push((weight, spot));
        }
    }
    if total_weight == 0 {
        return None;
    }
    let mut pick = rng.below(total_weight);
    spots.into_iter().find_map(|(weight, spot)| {
        if pick < weight {
            return Some(spot);
        }
        pick -= weight;
        None
    })
}

/// Top-left cells where a `height` x `width` tile fits the frame, misses `filled` and covers a
/// cell of `frontier`; on an empty board, the cells near the middle.
///
/// A tile anchored at `a` covers `a + (dr, dc)`, so the anchors that cover a cell of a set are
/// the set shifted back by every such offset. Shifting back by `dc` columns wraps cells into the
/// previous row's last columns, but only anchors too far right to fit, which the frame mask drops.
fn anchors(height: usize, width: usize, filled: CellSet, frontier: CellSet) -> CellSet {
    let fits =
        (0..=FRAME - height).fold(0u128, |bits, row| bits | ((1u128 << (FRAME - width + 1)) - 1) << (row * FRAME));
    if filled.is_empty() {
        return CellSet::from_bits_truncate(fits) & rectangle((3, 3, 3, 3));
    }
    let (mut blocked, mut touching) = (0u128, 0u128);
    for dr in 0..height {
        for dc in 0..width {
            let offset = dr * FRAME + dc;
            blocked |= filled.bits() >> offset;
            touching |= frontier.bits() >> offset;
        }
    }
    CellSet::from_bits_truncate(fits & !blocked & touching)
}

/// The number of edges between a cell of `a` and a cell of `b`.
fn shared_edges(a: CellSet, b: CellSet) -> u64 {
    use kulami_core::Direction::{East, South};
    [a.shift(East), a.shift_back(East), a.shift(South), a.shift_back(South)]
        .into_iter()
        .map(|moved| (moved & b).len() as u64)
        .sum()
}
