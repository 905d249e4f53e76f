//! Board geometry: tiles in the 10x10 frame, parsed from layout text.

use std::fmt;

use crate::cell::{Cell, CellSet, FRAME, FRAME_CELLS};

/// The most tiles a board can have: every tile covers at least two of the frame's 100 cells.
pub const MAX_TILES: usize = FRAME_CELLS / 2;

/// The most marbles per player a board may ask for: every marble needs its own cell.
pub const MAX_MARBLES_PER_PLAYER: u8 = (FRAME_CELLS / 2) as u8;

/// The marbles each player has with the standard 17-tile set.
pub const STANDARD_MARBLES_PER_PLAYER: u8 = 28;

/// The four tile shapes of Kulami, each usable in either orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileShape {
    /// Two holes in a row.
    OneByTwo,
    /// Three holes in a row.
    OneByThree,
    /// Four holes in a square.
    TwoByTwo,
    /// Six holes, two rows of three.
    TwoByThree,
}

impl TileShape {
    /// Every shape, smallest first.
    pub const ALL: [TileShape; 4] =
        [TileShape::OneByTwo, TileShape::OneByThree, TileShape::TwoByTwo, TileShape::TwoByThree];

    /// The shape of a `height` x `width` rectangle, if it is one of the four.
    #[must_use]
    pub fn from_size(height: usize, width: usize) -> Option<TileShape> {
        match (height.min(width), height.max(width)) {
            (1, 2) => Some(TileShape::OneByTwo),
            (1, 3) => Some(TileShape::OneByThree),
            (2, 2) => Some(TileShape::TwoByTwo),
            (2, 3) => Some(TileShape::TwoByThree),
            _ => None,
        }
    }

    /// The short and long side.
    #[must_use]
    pub const fn sides(self) -> (usize, usize) {
        match self {
            TileShape::OneByTwo => (1, 2),
            TileShape::OneByThree => (1, 3),
            TileShape::TwoByTwo => (2, 2),
            TileShape::TwoByThree => (2, 3),
        }
    }

    /// The number of holes: the points the tile is worth.
    #[must_use]
    pub const fn holes(self) -> usize {
        let (short, long) = self.sides();
        short * long
    }

    /// How many tiles of this shape the standard set has.
    #[must_use]
    pub const fn standard_count(self) -> usize {
        match self {
            TileShape::OneByTwo | TileShape::OneByThree | TileShape::TwoByThree => 4,
            TileShape::TwoByTwo => 5,
        }
    }
}

impl fmt::Display for TileShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (short, long) = self.sides();
        write!(f, "{short}x{long}")
    }
}

/// One tile of a board: a named rectangle of holes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    name: char,
    cells: CellSet,
    top_left: Cell,
    height: u8,
    width: u8,
}

impl Tile {
    /// The character that names the tile in layout text.
    #[must_use]
    pub fn name(&self) -> char {
        self.name
    }

    /// The tile's holes.
    #[must_use]
    pub fn cells(&self) -> CellSet {
        self.cells
    }

    /// The number of holes, which is what the tile scores.
    #[must_use]
    pub fn holes(&self) -> usize {
        // A tile is a full rectangle (checked when parsed): no population count needed.
        usize::from(self.height) * usize::from(self.width)
    }

    /// The top-left hole.
    #[must_use]
    pub fn top_left(&self) -> Cell {
        self.top_left
    }

    /// Rows and columns covered: `(height, width)`.
    #[must_use]
    pub fn size(&self) -> (usize, usize) {
        (usize::from(self.height), usize::from(self.width))
    }

    /// The shape, whatever the orientation.
    ///
    /// # Panics
    /// Never: a tile is made only by [`Layout::parse`], which checks its shape.
    #[must_use]
    pub fn shape(&self) -> TileShape {
        let (height, width) = self.size();
        TileShape::from_size(height, width).expect("a Tile is always one of the four shapes")
    }
}

/// Where in the layout text a problem is: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TextPosition {
    /// Line of the text, from 1. One-line layouts (rows joined by `/`) are line 1.
    pub line: usize,
    /// Character within the line, from 1.
    pub column: usize,
}

impl fmt::Display for TextPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// One thing wrong with a layout text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutProblem {
    /// The text has no holes at all.
    #[error("the layout has no tiles")]
    Empty,
    /// More than ten rows.
    #[error("{at}: more than {FRAME} rows; a board must fit the 10x10 frame")]
    TooManyRows {
        /// The first row past the frame.
        at: TextPosition,
    },
    /// A row longer than ten cells.
    #[error("{at}: more than {FRAME} cells in a row; a board must fit the 10x10 frame")]
    RowTooLong {
        /// The first cell past the frame.
        at: TextPosition,
    },
    /// A character that is neither `.` nor a tile name.
    #[error("{at}: {found:?} is not a tile name (A-Z, a-z, 0-9) or '.' (no hole)")]
    BadCharacter {
        /// Where it is.
        at: TextPosition,
        /// The character.
        found: char,
    },
    /// The cells named by one character are not one filled rectangle.
    #[error("{at}: tile '{tile}' is not one filled rectangle (each tile needs its own character)")]
    NotRectangle {
        /// The tile's first cell.
        at: TextPosition,
        /// The tile's name.
        tile: char,
    },
    /// A rectangle that is not 1x2, 1x3, 2x2 or 2x3.
    #[error("{at}: tile '{tile}' is {height}x{width}; tiles are 1x2, 1x3, 2x2 or 2x3")]
    BadSize {
        /// The tile's first cell.
        at: TextPosition,
        /// The tile's name.
        tile: char,
        /// Rows covered.
        height: usize,
        /// Columns covered.
        width: usize,
    },
    /// Some holes cannot be reached from the others through shared edges.
    #[error("{at}: tile '{tile}' is not connected to tile '{first}'; all holes must touch along edges")]
    NotConnected {
        /// The first cell of a cut-off part.
        at: TextPosition,
        /// A tile in the cut-off part.
        tile: char,
        /// The first tile of the board.
        first: char,
    },
}

/// A layout text that is not a valid board; holds every problem found, in text order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLayoutError {
    problems: Vec<LayoutProblem>,
}

impl ParseLayoutError {
    /// Every problem found (at least one).
    #[must_use]
    pub fn problems(&self) -> &[LayoutProblem] {
        &self.problems
    }
}

impl fmt::Display for ParseLayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid layout: {}", self.problems[0])?;
        match self.problems.len() {
            1 => Ok(()),
            n => write!(f, " (and {} more problem{})", n - 1, if n == 2 { "" } else { "s" }),
        }
    }
}

impl std::error::Error for ParseLayoutError {}

/// A marble count a board cannot use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{requested} marbles per player: a board needs between 1 and {MAX_MARBLES_PER_PLAYER}")]
pub struct MarblesError {
    /// The count asked for.
    pub requested: usize,
}

/// A validated board: tiles inside the 10x10 frame, not overlapping, holes connected.
///
/// Built only by [`Layout::parse`], so every `Layout` is a board the game can be played on.
/// It also holds the tables move generation needs, so positions share it (behind an `Arc`).
///
/// ```
/// use kulami_core::Layout;
/// let layout = Layout::parse("AAB/CCB").unwrap();
/// assert_eq!(layout.tiles().len(), 3);
/// assert_eq!(layout.holes().len(), 6);
/// assert_eq!(layout.to_one_line(), "AAB/CCB");
/// assert!(Layout::parse("AAB/C.B").is_err()); // 'C' is a lone cell
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    tiles: Vec<Tile>,
    holes: CellSet,
    marbles_per_player: u8,
    /// Index into `tiles` of each cell's tile; `NO_TILE` outside the board.
    tile_index: [u8; FRAME_CELLS],
    /// Each cell's tile as a set (empty outside the board), to avoid a double lookup.
    tile_cells: [CellSet; FRAME_CELLS],
    /// The holes of each cell's tile (0 outside the board): what a move there plays for, read
    /// at every move of a search.
    tile_holes: [u8; FRAME_CELLS],
    /// Holes in the cell's row or column but not on its tile: where the reply to a marble there may go.
    reply_cells: [CellSet; FRAME_CELLS],
}

const NO_TILE: u8 = u8::MAX;

impl Layout {
    /// Parses layout text (see `docs/FORMATS.md`): rows top to bottom, one character per cell, `.` for
    /// no hole, any of `A-Z a-z 0-9` naming a tile; `#` comment lines; rows joined by `/` on one line.
    ///
    /// # Errors
    /// A [`ParseLayoutError`] listing every problem, each with its line and column.
    pub fn parse(text: &str) -> Result<Layout, ParseLayoutError> {
        let rows = split_rows(text);
        let mut problems = Vec::new();
        let mut names = [None::<char>; FRAME_CELLS];
        let mut positions = [TextPosition { line: 0, column: 0 }; FRAME_CELLS];
        for (row, (line, first_column, text)) in rows.iter().enumerate() {
            if row == FRAME {
                problems.push(LayoutProblem::TooManyRows { at: TextPosition { line: *line, column: *first_column } });
                break;
            }
            for (column, character) in text.chars().enumerate() {
                let at = TextPosition { line: *line, column: first_column + column };
                if column == FRAME {
                    problems.push(LayoutProblem::RowTooLong { at });
                    break;
                }
                let Some(cell) = Cell::new(row, column) else { unreachable!("row and column are inside the frame") };
                positions[cell.index()] = at;
                match character {
                    '.' => {}
                    c if c.is_ascii_alphanumeric() => names[cell.index()] = Some(c),
                    found => problems.push(LayoutProblem::BadCharacter { at, found }),
                }
            }
        }

        let tiles = collect_tiles(&names, &positions, &mut problems);
        let holes = tiles.iter().fold(CellSet::EMPTY, |all, tile| all | tile.cells);
        if problems.is_empty() {
            check_connected(&tiles, holes, &positions, &mut problems);
        }
        if !problems.is_empty() {
            problems.sort_by_key(problem_position);
            return Err(ParseLayoutError { problems });
        }
        Ok(Layout::from_tiles(tiles))
    }

    fn from_tiles(tiles: Vec<Tile>) -> Layout {
        let mut tile_index = [NO_TILE; FRAME_CELLS];
        let mut tile_cells = [CellSet::EMPTY; FRAME_CELLS];
        let mut tile_holes = [0; FRAME_CELLS];
        let mut holes = CellSet::EMPTY;
        for (index, tile) in tiles.iter().enumerate() {
            holes |= tile.cells;
            for cell in tile.cells {
                tile_index[cell.index()] = index as u8;
                tile_cells[cell.index()] = tile.cells;
                tile_holes[cell.index()] = tile.holes() as u8;
            }
        }
        let mut reply_cells = [CellSet::EMPTY; FRAME_CELLS];
        for cell in Cell::all() {
            let line = CellSet::row(cell.row()) | CellSet::column(cell.column());
            reply_cells[cell.index()] = line & holes & !tile_cells[cell.index()];
        }
        let mut layout =
            Layout { tiles, holes, marbles_per_player: 0, tile_index, tile_cells, tile_holes, reply_cells };
        layout.marbles_per_player = layout.default_marbles_per_player();
        layout
    }

    /// The same board with another number of marbles per player.
    ///
    /// # Errors
    /// If `marbles` is 0 or more than [`MAX_MARBLES_PER_PLAYER`].
    pub fn with_marbles_per_player(mut self, marbles: usize) -> Result<Layout, MarblesError> {
        if marbles == 0 || marbles > usize::from(MAX_MARBLES_PER_PLAYER) {
            return Err(MarblesError { requested: marbles });
        }
        self.marbles_per_player = marbles as u8;
        Ok(self)
    }

    /// The rules' default: 28 for the standard set, else half the holes, rounded up.
    #[must_use]
    pub fn default_marbles_per_player(&self) -> u8 {
        if self.uses_standard_set() { STANDARD_MARBLES_PER_PLAYER } else { self.holes.len().div_ceil(2) as u8 }
    }

    /// The tiles, in the order their first cell appears in the text (row by row).
    #[must_use]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Every hole of the board.
    #[must_use]
    pub fn holes(&self) -> CellSet {
        self.holes
    }

    /// Marbles each player has.
    #[must_use]
    pub fn marbles_per_player(&self) -> usize {
        usize::from(self.marbles_per_player)
    }

    /// The index in [`Layout::tiles`] of the tile holding `cell`, if it is a hole.
    #[must_use]
    pub fn tile_index(&self, cell: Cell) -> Option<usize> {
        match self.tile_index[cell.index()] {
            NO_TILE => None,
            index => Some(usize::from(index)),
        }
    }

    /// The tile holding `cell`, if it is a hole.
    #[must_use]
    pub fn tile_at(&self, cell: Cell) -> Option<&Tile> {
        self.tile_index(cell).map(|index| &self.tiles[index])
    }

    /// The holes of the tile holding `cell` (empty if it is not a hole).
    #[must_use]
    pub fn tile_cells_at(&self, cell: Cell) -> CellSet {
        self.tile_cells[cell.index()]
    }

    /// The number of holes of the tile holding `cell` (0 if it is not a hole): the points that
    /// tile scores.
    #[must_use]
    pub fn tile_holes_at(&self, cell: Cell) -> usize {
        usize::from(self.tile_holes[cell.index()])
    }

    /// Holes in the row or column of `cell` that are not on its tile.
    #[must_use]
    pub fn reply_cells(&self, cell: Cell) -> CellSet {
        self.reply_cells[cell.index()]
    }

    /// Whether the tiles are exactly the standard 17: four 2x3, five 2x2, four 1x3, four 1x2.
    #[must_use]
    pub fn uses_standard_set(&self) -> bool {
        TileShape::ALL
            .iter()
            .all(|&shape| self.tiles.iter().filter(|tile| tile.shape() == shape).count() == shape.standard_count())
    }

    /// Rows and columns spanned from the frame's top-left corner: `(rows, columns)`.
    #[must_use]
    pub fn extent(&self) -> (usize, usize) {
        self.holes
            .iter()
            .fold((0, 0), |(rows, columns), cell| (rows.max(cell.row() + 1), columns.max(cell.column() + 1)))
    }

    /// The layout text as rows, each as long as the widest, `.` for no hole.
    fn text_rows(&self) -> Vec<String> {
        let (rows, columns) = self.extent();
        (0..rows)
            .map(|row| {
                (0..columns)
                    .map(|column| {
                        let cell = Cell::new(row, column).expect("inside the frame");
                        self.tile_at(cell).map_or('.', Tile::name)
                    })
                    .collect()
            })
            .collect()
    }

    /// The layout on one line, rows joined by `/`.
    #[must_use]
    pub fn to_one_line(&self) -> String {
        self.text_rows().join("/")
    }
}

/// The layout text, one row per line, each ending with a newline.
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.text_rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({:?}, {} marbles)", self.to_one_line(), self.marbles_per_player)
    }
}

impl std::str::FromStr for Layout {
    type Err = ParseLayoutError;
    fn from_str(text: &str) -> Result<Layout, ParseLayoutError> {
        Layout::parse(text)
    }
}

/// The rows of a layout text: `(line number, column of the row's first character, row text)`.
fn split_rows(text: &str) -> Vec<(usize, usize, &str)> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim_end()))
        .filter(|(_, line)| !line.trim_start().starts_with('#'))
        .collect();
    let first = lines.iter().position(|(_, line)| !line.is_empty());
    let last = lines.iter().rposition(|(_, line)| !line.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Vec::new();
    };
    let lines = &lines[first..=last];
    if let [(line, text)] = lines {
        // The one-line form; its leading spaces are not part of the board.
        let start = text.len() - text.trim_start().len();
        let mut column = start + 1;
        return text[start..]
            .split('/')
            .map(|row| {
                let entry = (*line, column, row);
                column += row.chars().count() + 1;
                entry
            })
            .collect();
    }
    lines.iter().map(|&(line, text)| (line, 1, text)).collect()
}

fn collect_tiles(
    names: &[Option<char>; FRAME_CELLS],
    positions: &[TextPosition; FRAME_CELLS],
    problems: &mut Vec<LayoutProblem>,
) -> Vec<Tile> {
    let mut seen = Vec::<char>::new();
    let mut tiles = Vec::new();
    for cell in Cell::all() {
        let Some(name) = names[cell.index()] else {
            continue;
        };
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let cells: CellSet = Cell::all().filter(|c| names[c.index()] == Some(name)).collect();
        let (rows, columns) = cells.iter().fold(((FRAME, 0), (FRAME, 0)), |((top, bottom), (left, right)), c| {
            ((top.min(c.row()), bottom.max(c.row())), (left.min(c.column()), right.max(c.column())))
        });
        let height = rows.1 - rows.0 + 1;
        let width = columns.1 - columns.0 + 1;
        let at = positions[cell.index()];
        if cells.len() != height * width {
            problems.push(LayoutProblem::NotRectangle { at, tile: name });
        } else if TileShape::from_size(height, width).is_none() {
            problems.push(LayoutProblem::BadSize { at, tile: name, height, width });
        } else {
            tiles.push(Tile { name, cells, top_left: cell, height: height as u8, width: width as u8 });
        }
    }
    if tiles.is_empty() && problems.is_empty() {
        problems.push(LayoutProblem::Empty);
    }
    tiles
}

fn check_connected(
    tiles: &[Tile],
    holes: CellSet,
    positions: &[TextPosition; FRAME_CELLS],
    problems: &mut Vec<LayoutProblem>,
) {
    let Some(first) = tiles.first() else { return };
    let mut unreached = holes;
    let mut parts = Vec::new();
    while let Some(start) = unreached.first() {
        let part = CellSet::from_cell(start).flood_fill(holes);
        unreached &= !part;
        parts.push(start);
    }
    for &start in &parts[1..] {
        let tile = tiles.iter().find(|tile| tile.cells.contains(start)).expect("a hole is on a tile");
        problems.push(LayoutProblem::NotConnected { at: positions[start.index()], tile: tile.name, first: first.name });
    }
}

fn problem_position(problem: &LayoutProblem) -> TextPosition {
    match problem {
        LayoutProblem::Empty => TextPosition { line: 0, column: 0 },
        LayoutProblem::TooManyRows { at }
        | LayoutProblem::RowTooLong { at }
        | LayoutProblem::BadCharacter { at, .. }
        | LayoutProblem::NotRectangle { at, .. }
        | LayoutProblem::BadSize { at, .. }
        | LayoutProblem::NotConnected { at, .. } => *at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";

    fn problems(text: &str) -> Vec<LayoutProblem> {
        Layout::parse(text).unwrap_err().problems().to_vec()
    }

    #[test]
    fn classic_board_uses_the_standard_set_with_28_marbles() {
        let layout = Layout::parse(CLASSIC).unwrap();
        assert_eq!(layout.tiles().len(), 17);
        assert_eq!(layout.holes().len(), 64);
        assert!(layout.uses_standard_set());
        assert_eq!(layout.marbles_per_player(), 28);
        assert_eq!(layout.to_one_line(), CLASSIC);
        assert_eq!(Layout::parse(&layout.to_string()).unwrap(), layout);
    }

    #[test]
    fn smaller_sets_get_half_the_holes_rounded_up() {
        let layout = Layout::parse("AAB/CCB/DDD").unwrap();
        assert!(!layout.uses_standard_set());
        assert_eq!(layout.marbles_per_player(), 5);
        assert_eq!(layout.with_marbles_per_player(3).unwrap().marbles_per_player(), 3);
    }

    #[test]
    fn marble_counts_out_of_range_are_rejected() {
        let layout = Layout::parse("AA").unwrap();
        assert_eq!(layout.clone().with_marbles_per_player(0), Err(MarblesError { requested: 0 }));
        assert!(layout.with_marbles_per_player(51).is_err());
    }

    #[test]
    fn comments_blank_edges_and_padding_are_accepted() {
        let text = "# a comment\n\n  \nAAB\nCCB\r\nDD\n\n";
        let layout = Layout::parse(text).unwrap();
        assert_eq!(layout.to_one_line(), "AAB/CCB/DD.");
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = "# header\nAAB\nCCB\nDD*\n";
        assert_eq!(
            problems(text)[0],
            LayoutProblem::BadCharacter { at: TextPosition { line: 4, column: 3 }, found: '*' }
        );
        assert_eq!(
            problems("AAB/CCB/**")[0],
            LayoutProblem::BadCharacter { at: TextPosition { line: 1, column: 9 }, found: '*' }
        );
    }

    #[test]
    fn every_problem_is_reported_in_text_order() {
        let found = problems("AAAA/B.CC/B*DD/..../EE");
        assert_eq!(
            found,
            vec![
                LayoutProblem::BadSize { at: TextPosition { line: 1, column: 1 }, tile: 'A', height: 1, width: 4 },
                LayoutProblem::BadCharacter { at: TextPosition { line: 1, column: 12 }, found: '*' },
            ]
        );
        assert!(matches!(problems("AA/../BB")[0], LayoutProblem::NotConnected { tile: 'B', first: 'A', .. }));
    }

    #[test]
    fn shapes_and_frame_limits() {
        assert!(matches!(problems("A")[0], LayoutProblem::BadSize { height: 1, width: 1, .. }));
        assert!(matches!(problems("AAB/ABB")[0], LayoutProblem::NotRectangle { tile: 'A', .. }));
        assert!(matches!(problems("AA.AA")[0], LayoutProblem::NotRectangle { .. }));
        assert!(matches!(
            problems("AABBCCDDEEF")[0],
            LayoutProblem::RowTooLong { at: TextPosition { line: 1, column: 11 } }
        ));
        let eleven_rows = ["AA"; 11].join("\n");
        assert!(problems(&eleven_rows).iter().any(|p| matches!(p, LayoutProblem::TooManyRows { .. })));
        assert_eq!(problems("...\n# only dots"), vec![LayoutProblem::Empty]);
        assert_eq!(problems(""), vec![LayoutProblem::Empty]);
    }

    #[test]
    fn reply_cells_exclude_the_own_tile_and_non_holes() {
        let layout = Layout::parse(CLASSIC).unwrap();
        let a1: Cell = "a1".parse().unwrap();
        let replies = layout.reply_cells(a1);
        // Row 1 and column a, less the two other cells of tile A and a1 itself.
        assert_eq!(replies.len(), 6 + 6);
        assert!(!replies.contains("b1".parse().unwrap()));
        assert!(!replies.contains("a2".parse().unwrap()));
        assert!(replies.contains("c1".parse().unwrap()));
        assert!(replies.contains("a3".parse().unwrap()));
    }
}
