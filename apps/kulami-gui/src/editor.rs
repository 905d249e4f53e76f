//! The board editor's state: tiles laid in the 10x10 frame, placed, moved, turned and removed,
//! and the layout they make, checked on every change. No drawing here (see `editor_view`).

use kulami_core::{FRAME, Layout, TileShape};

/// A tile laid in the frame: its top-left corner and its size in rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaidTile {
    /// Row of the top-left hole, from 0.
    pub row: usize,
    /// Column of the top-left hole, from 0.
    pub column: usize,
    /// Rows covered.
    pub height: usize,
    /// Columns covered.
    pub width: usize,
}

impl LaidTile {
    fn covers(&self, row: usize, column: usize) -> bool {
        (self.row..self.row + self.height).contains(&row) && (self.column..self.column + self.width).contains(&column)
    }

    fn overlaps(&self, other: &LaidTile) -> bool {
        self.row < other.row + other.height
            && other.row < self.row + self.height
            && self.column < other.column + other.width
            && other.column < self.column + self.width
    }

    fn fits_frame(&self) -> bool {
        self.row + self.height <= FRAME && self.column + self.width <= FRAME
    }

    /// The tile's shape.
    ///
    /// # Panics
    /// Never: the editor lays only the four shapes.
    #[must_use]
    pub fn shape(&self) -> TileShape {
        TileShape::from_size(self.height, self.width).expect("the editor lays only the four shapes")
    }
}

/// The editor: the tiles laid, the shape to lay next and the tile picked up, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editor {
    tiles: Vec<LaidTile>,
    /// The shape the next click lays, and whether it stands upright (long side down).
    shape: TileShape,
    upright: bool,
    /// A tile picked up: the next click on free holes moves it there.
    selected: Option<usize>,
    /// Why the last action did nothing.
    message: Option<String>,
    /// The tiles the last Clear removed, to put back.
    cleared: Vec<LaidTile>,
}

impl Default for Editor {
    fn default() -> Editor {
        Editor {
            tiles: Vec::new(),
            shape: TileShape::TwoByThree,
            upright: false,
            selected: None,
            message: None,
            cleared: Vec::new(),
        }
    }
}

impl Editor {
    /// An editor holding the tiles of `layout`.
    #[must_use]
    pub fn from_layout(layout: &Layout) -> Editor {
        let tiles = layout
            .tiles()
            .iter()
            .map(|tile| {
                let (height, width) = tile.size();
                LaidTile { row: tile.top_left().row(), column: tile.top_left().column(), height, width }
            })
            .collect();
        Editor { tiles, ..Editor::default() }
    }

    /// The tiles laid.
    #[must_use]
    pub fn tiles(&self) -> &[LaidTile] {
        &self.tiles
    }

    /// The index of the tile picked up.
    #[must_use]
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The shape to lay next and whether it stands upright.
    #[must_use]
    pub fn next_shape(&self) -> (TileShape, bool) {
        (self.shape, self.upright)
    }

    /// Why the last action did nothing, if it did nothing.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The tile covering a cell of the frame.
    #[must_use]
    pub fn tile_at(&self, row: usize, column: usize) -> Option<usize> {
        self.tiles.iter().position(|tile| tile.covers(row, column))
    }

    /// Chooses the shape to lay next (and drops any tile picked up).
    pub fn choose_shape(&mut self, shape: TileShape) {
        self.shape = shape;
        self.selected = None;
        self.message = None;
    }

    /// A click on a cell of the frame: picks up the tile there (or puts it down again), moves the
    /// picked-up tile so that its corner is here, or lays the next shape here.
    pub fn click(&mut self, row: usize, column: usize) {
        self.message = None;
        match (self.tile_at(row, column), self.selected) {
            (Some(index), Some(selected)) if index == selected => self.selected = None,
            (Some(index), _) => self.selected = Some(index),
            (None, Some(selected)) => {
                let moved = LaidTile { row, column, ..self.tiles[selected] };
                if self.try_set(Some(selected), moved) {
                    self.selected = None;
                }
            }
            (None, None) => {
                let (short, long) = self.shape.sides();
                let (height, width) = if self.upright { (long, short) } else { (short, long) };
                self.try_set(None, LaidTile { row, column, height, width });
            }
        }
    }

    /// Turns the picked-up tile a quarter about its corner, or else the shape to lay next.
    pub fn rotate(&mut self) {
        self.message = None;
        match self.selected {
            Some(selected) => {
                let tile = self.tiles[selected];
                self.try_set(Some(selected), LaidTile { height: tile.width, width: tile.height, ..tile });
            }
            None => self.upright = !self.upright,
        }
    }

    /// Removes the picked-up tile.
    pub fn remove(&mut self) {
        self.message = None;
        match self.selected.take() {
            Some(selected) => {
                self.tiles.remove(selected);
            }
            None => self.message = Some("Pick up a tile first: click it.".into()),
        }
    }

    /// Removes every tile, keeping them for [`Editor::undo_clear`].
    pub fn clear(&mut self) {
        let cleared = std::mem::take(&mut self.tiles);
        *self = Editor { shape: self.shape, upright: self.upright, cleared, ..Editor::default() };
    }

    /// Whether a Clear can be taken back (nothing was laid since).
    #[must_use]
    pub fn can_undo_clear(&self) -> bool {
        !self.cleared.is_empty() && self.tiles.is_empty()
    }

    /// Puts back the tiles the last Clear removed, if nothing was laid since.
    pub fn undo_clear(&mut self) {
        if self.can_undo_clear() {
            self.tiles = std::mem::take(&mut self.cleared);
        }
    }

    /// Puts `tile` in place of tile `index` (or adds it), if it fits the frame and overlaps none
    /// of the others; says why not otherwise.
    fn try_set(&mut self, index: Option<usize>, tile: LaidTile) -> bool {
        if !tile.fits_frame() {
            self.message = Some("That tile would stick out of the 10x10 frame.".into());
            return false;
        }
        let overlapped =
            self.tiles.iter().enumerate().any(|(other, laid)| Some(other) != index && laid.overlaps(&tile));
        if overlapped {
            self.message = Some("That tile would overlap another one.".into());
            return false;
        }
        match index {
            Some(index) => self.tiles[index] = tile,
            None => self.tiles.push(tile),
        }
        true
    }

    /// The layout text of the tiles, cut to the rows and columns they use: tiles are named
    /// `A`-`Z`, then `a`-`z`, then `0`-`9`, in the order laid.
    #[must_use]
    pub fn text(&self) -> String {
        let names: Vec<char> = ('A'..='Z').chain('a'..='z').chain('0'..='9').collect();
        let rows = self.tiles.iter().map(|t| t.row).min().unwrap_or(0)
            ..self.tiles.iter().map(|t| t.row + t.height).max().unwrap_or(0);
        let columns = self.tiles.iter().map(|t| t.column).min().unwrap_or(0)
            ..self.tiles.iter().map(|t| t.column + t.width).max().unwrap_or(0);
        rows.map(|row| {
            columns
                .clone()
                .map(|column| self.tile_at(row, column).map_or('.', |index| names[index % names.len()]))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
    }

    /// The board the tiles make, or every reason they do not make one.
    ///
    /// # Errors
    /// The problems the layout parser finds (no tiles, tiles that do not touch).
    pub fn layout(&self) -> Result<Layout, Vec<String>> {
        Layout::parse(&self.text()).map_err(|error| error.problems().iter().map(ToString::to_string).collect())
    }

    /// Tiles of `shape` laid, against the standard set's count.
    #[must_use]
    pub fn count(&self, shape: TileShape) -> usize {
        self.tiles.iter().filter(|tile| tile.shape() == shape).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laying_moving_turning_and_removing_tiles() {
        let mut editor = Editor::default();
        editor.click(0, 0); // a 2x3 lying flat
        editor.choose_shape(TileShape::OneByTwo);
        editor.click(0, 3);
        assert_eq!(editor.text(), "AAABB\nAAA..");
        assert_eq!(editor.layout().unwrap().tiles().len(), 2);
        // Pick up B and turn it upright about its corner: it now covers d1 and d2.
        editor.click(0, 4);
        assert_eq!(editor.selected(), Some(1));
        editor.rotate();
        assert_eq!(editor.text(), "AAAB\nAAAB");
        // Move it off the board's edge: refused with a reason, and it stays picked up.
        editor.click(9, 9);
        assert!(editor.message().unwrap().contains("frame"));
        editor.click(1, 2);
        assert!(editor.message().is_none());
        assert_eq!(editor.selected(), Some(0), "a click on a tile picks that tile up instead");
        editor.click(1, 2);
        assert_eq!(editor.selected(), None, "a second click puts it down");
        editor.click(0, 3);
        editor.click(2, 0);
        assert_eq!(editor.text(), "AAA\nAAA\nB..\nB..");
        editor.click(2, 0);
        editor.remove();
        assert_eq!(editor.text(), "AAA\nAAA");
        editor.remove();
        assert!(editor.message().unwrap().contains("Pick up"));
    }

    #[test]
    fn overlaps_are_refused_and_gaps_are_reported() {
        let mut editor = Editor::default();
        editor.click(0, 0);
        editor.click(1, 2); // on tile A: picks it up
        editor.click(1, 2);
        editor.choose_shape(TileShape::TwoByTwo);
        editor.click(1, 3);
        assert_eq!(editor.tiles().len(), 2);
        editor.choose_shape(TileShape::OneByThree);
        editor.rotate(); // upright
        editor.click(0, 8);
        assert_eq!(editor.count(TileShape::OneByThree), 1);
        let problems = editor.layout().unwrap_err();
        assert!(problems[0].contains("not connected"), "{problems:?}");
        editor.choose_shape(TileShape::TwoByTwo);
        editor.click(0, 3);
        assert!(editor.message().unwrap().contains("overlap"));
        assert_eq!(editor.tiles().len(), 3);
        assert!(Editor::default().layout().unwrap_err()[0].contains("no tiles"));
    }

    #[test]
    fn a_clear_can_be_taken_back_until_a_tile_is_laid() {
        let layout = Layout::parse("AABB/CCDD").unwrap();
        let mut editor = Editor::from_layout(&layout);
        editor.clear();
        assert!(editor.tiles().is_empty() && editor.can_undo_clear());
        editor.undo_clear();
        assert_eq!(editor.layout().unwrap(), layout);
        editor.clear();
        editor.click(5, 5);
        assert!(!editor.can_undo_clear(), "a tile laid since starts a new board");
    }

    #[test]
    fn a_board_goes_in_and_comes_out_the_same() {
        let layout = kulami_layouts::preset("classic").unwrap().into_layout();
        let editor = Editor::from_layout(&layout);
        assert_eq!(editor.layout().unwrap(), layout);
        assert!(TileShape::ALL.iter().all(|&shape| editor.count(shape) == shape.standard_count()));
    }
}
