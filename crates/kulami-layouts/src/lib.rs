#![doc = include_str!("../README.md")]

pub mod files;
mod generate;
pub mod playability;

pub use generate::{ParseShapeError, Shape, fresh_seed, generate, tiling_count};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kulami_core::{Layout, MarblesError, ParseLayoutError, TileShape};

use crate::files::{MAX_FILE_BYTES, ReadTextError, read_text};

/// The tiles of the standard set: four 2x3, five 2x2, four 1x3 and four 1x2, largest first.
#[must_use]
pub fn standard_set() -> Vec<TileShape> {
    TileShape::ALL.iter().rev().flat_map(|&shape| std::iter::repeat_n(shape, shape.standard_count())).collect()
}

/// A board with its header: a validated layout plus an optional name and description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    name: Option<String>,
    description: Option<String>,
    layout: Layout,
}

/// What is wrong with a layout file's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// The board itself is invalid.
    #[error(transparent)]
    Layout(#[from] ParseLayoutError),
    /// The `marbles` header is not a number.
    #[error("line {line}: `marbles: {value}` is not a number of marbles per player")]
    MarblesNotANumber {
        /// The header line, from 1.
        line: usize,
        /// Its value.
        value: String,
    },
    /// The `marbles` header is out of range.
    #[error("line {line}: {error}")]
    Marbles {
        /// The header line, from 1.
        line: usize,
        /// Why.
        error: MarblesError,
    },
}

/// Why a board could not be read from a file or a command-line argument.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadBoardError {
    /// The file could not be read, or is far larger than any board.
    #[error(transparent)]
    Read(#[from] ReadTextError),
    /// The file's text is not a valid board.
    #[error("{}: {error}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: ParseBoardError,
    },
    /// An argument that is no preset, no file, and not a valid one-line layout.
    #[error("`{argument}` is not a preset name, not a file, and not a layout: {error}")]
    NotALayout {
        /// The argument.
        argument: String,
        /// Why it is not a one-line layout.
        error: ParseLayoutError,
    },
}

impl Board {
    /// Parses a layout file's text: an optional header, then layout text.
    ///
    /// # Errors
    /// An invalid layout (with line and column) or a bad `marbles` header.
    pub fn parse(text: &str) -> Result<Board, ParseBoardError> {
        let mut layout = Layout::parse(text)?;
        let mut name = None;
        let mut description = None;
        for (index, line) in text.lines().enumerate() {
            let Some(comment) = line.trim().strip_prefix('#') else {
                // The header ends where the board starts.
                if line.trim().is_empty() {
                    continue;
                }
                break;
            };
            let Some((key, value)) = comment.split_once(':') else { continue };
            let value = value.trim();
            match key.trim() {
                "name" => name = Some(value.to_owned()),
                "description" => description = Some(value.to_owned()),
                "marbles" => {
                    let line = index + 1;
                    let marbles = value
                        .parse()
                        .map_err(|_| ParseBoardError::MarblesNotANumber { line, value: value.to_owned() })?;
                    layout = layout
                        .with_marbles_per_player(marbles)
                        .map_err(|error| ParseBoardError::Marbles { line, error })?;
                }
                _ => {}
            }
        }
        Ok(Board { name, description, layout })
    }

    /// A board without header from a layout.
    #[must_use]
    pub fn from_layout(layout: Layout) -> Board {
        Board { name: None, description: None, layout }
    }

    /// Reads a layout file.
    ///
    /// # Errors
    /// The file cannot be read, is too large, or is not a valid board.
    pub fn read(path: &Path) -> Result<Board, ReadBoardError> {
        let text = read_text(path, MAX_FILE_BYTES)?;
        Board::parse(&text).map_err(|error| ReadBoardError::Invalid { path: path.to_owned(), error })
    }

    /// Resolves a command-line argument: a preset name if there is one by that name, else a file
    /// if one exists at that path, else layout text on one line.
    ///
    /// # Errors
    /// The file cannot be read or is invalid, or the text is not a valid layout.
    pub fn resolve(argument: &str) -> Result<Board, ReadBoardError> {
        if let Some(board) = preset(argument) {
            return Ok(board);
        }
        let path = Path::new(argument);
        if path.is_file() {
            return Board::read(path);
        }
        Layout::parse(argument)
            .map(Board::from_layout)
            .map_err(|error| ReadBoardError::NotALayout { argument: argument.to_owned(), error })
    }

    /// The name from the header.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The description from the header.
    #[must_use]
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The board.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Takes the board out.
    #[must_use]
    pub fn into_layout(self) -> Layout {
        self.layout
    }

    /// The file text: the header (name, description, marbles), then the board.
    #[must_use]
    pub fn to_file_text(&self) -> String {
        let mut text = String::new();
        if let Some(name) = &self.name {
            let _ = writeln!(text, "# name: {name}");
        }
        if let Some(description) = &self.description {
            let _ = writeln!(text, "# description: {description}");
        }
        let _ = writeln!(text, "# marbles: {}", self.layout.marbles_per_player());
        text + &self.layout.to_string()
    }
}

/// Embeds `layouts/<name>.txt` for each name, so the binaries work from any folder.
macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../layouts/", $name, ".txt")))),*]
    };
}

/// The preset files, by name: the rulebook's board, beginner boards, then the curated ones.
const PRESETS: &[(&str, &str)] = presets![
    "classic",
    "easy",
    "medium",
    "square-1",
    "square-2",
    "square-3",
    "square-4",
    "square-5",
    "square-6",
    "square-7",
    "square-8",
    "irregular-1",
    "irregular-2",
    "irregular-3",
    "irregular-4",
    "irregular-5",
    "irregular-6",
    "irregular-7",
    "irregular-8",
    "wide-1",
    "wide-2",
    "wide-3",
];

/// The names of the presets.
pub fn preset_names() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|(name, _)| *name)
}

/// The preset called `name`, if there is one.
///
/// # Panics
/// Never: the embedded presets are valid boards (a test parses every one).
#[must_use]
pub fn preset(name: &str) -> Option<Board> {
    PRESETS
        .iter()
        .find(|(preset, _)| *preset == name)
        .map(|(_, text)| Board::parse(text).expect("embedded presets are valid (tested)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_set_has_17_tiles_and_64_holes() {
        let set = standard_set();
        assert_eq!(set.len(), 17);
        assert_eq!(set.iter().map(|shape| shape.holes()).sum::<usize>(), 64);
    }

    #[test]
    fn every_preset_parses_and_round_trips_to_the_same_text() {
        for (name, text) in PRESETS {
            let board = Board::parse(text).unwrap();
            assert_eq!(board.name(), Some(*name));
            assert!(board.description().is_some_and(|d| !d.is_empty()), "{name} has no description");
            assert_eq!(&board.to_file_text(), text, "{name} is not in canonical form");
            assert_eq!(Board::parse(&board.to_file_text()).unwrap(), board);
        }
    }

    #[test]
    fn every_file_in_the_layouts_folder_is_a_preset() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("layouts");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut names: Vec<&str> = preset_names().collect();
        names.sort_unstable();
        assert_eq!(files, names);
    }

    #[test]
    fn the_curated_set_has_what_players_need() {
        let boards: Vec<Board> = preset_names().map(|name| preset(name).unwrap()).collect();
        let standard = |board: &&Board| board.layout().uses_standard_set();
        let square = boards.iter().filter(standard).filter(|b| b.layout().extent() == (8, 8)).count();
        let irregular = boards.iter().filter(standard).filter(|b| b.layout().extent() != (8, 8)).count();
        let wide = boards.iter().filter(standard).filter(|b| b.layout().extent() == (8, 10)).count();
        assert!(square >= 9 && irregular >= 8 + 3 && wide >= 3, "{square} {irregular} {wide}");
        let small: Vec<usize> = boards.iter().filter(|b| !standard(b)).map(|b| b.layout().holes().len()).collect();
        assert_eq!(small, [36, 48]);
        for board in boards.iter().filter(standard) {
            assert_eq!(crate::playability::single_tile_lines(board.layout()), 0, "{:?}", board.name());
        }
    }

    #[test]
    fn header_errors_name_the_line() {
        let error = Board::parse("# name: x\n# marbles: lots\nAA\n").unwrap_err();
        assert_eq!(error.to_string(), "line 2: `marbles: lots` is not a number of marbles per player");
        let error = Board::parse("# marbles: 0\nAA\n").unwrap_err();
        assert!(error.to_string().starts_with("line 1: 0 marbles per player"));
    }

    #[test]
    fn resolve_tries_preset_then_file_then_text() {
        assert_eq!(Board::resolve("classic").unwrap().name(), Some("classic"));
        assert_eq!(Board::resolve("AABB").unwrap().layout().holes().len(), 4);
        let error = Board::resolve("nonsense").unwrap_err().to_string();
        assert!(error.starts_with("`nonsense` is not a preset name, not a file, and not a layout"), "{error}");
        let dir = std::env::temp_dir().join(format!("kulami-layouts-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("board.txt");
        std::fs::write(&file, "# name: from file\nAA\nBB\n").unwrap();
        assert_eq!(Board::resolve(file.to_str().unwrap()).unwrap().name(), Some("from file"));
        std::fs::write(&file, "AA\nB\n").unwrap();
        let error = Board::resolve(file.to_str().unwrap()).unwrap_err().to_string();
        assert!(error.contains("line 2, column 1: tile 'B' is 1x1"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
