//! Reading the files players keep: text files with a size limit that holds for devices and
//! pipes too, and game record files replayed into a game. The one reader of files for the
//! command line and the desktop game (boards are read by [`crate::Board::read`], with these).

use std::path::{Path, PathBuf};

use kulami_core::{Game, GameFromRecordError, GameRecord, ParseRecordError};

/// Layout files are small; anything larger is not one.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// A text file that could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadTextError {
    /// Longer than the limit.
    #[error("{} is too large: {size} bytes or more, where at most {limit} are expected", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The bytes found, at least.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Missing, unreadable or not UTF-8.
    #[error("cannot read {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// Reads a UTF-8 text file of at most `limit` bytes. The limit holds for whatever the path
/// names, a device or a pipe included: at most `limit + 1` bytes are ever read.
///
/// # Errors
/// If the file is too large, cannot be read or is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadTextError> {
    use std::io::Read as _;
    let io = |error| ReadTextError::Io { path: path.to_owned(), error };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let too_large = |size| ReadTextError::TooLarge { path: path.to_owned(), size, limit };
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|error| io(std::io::Error::new(std::io::ErrorKind::InvalidData, error)))
}

/// Game record files are small; anything larger is not one.
pub const MAX_RECORD_BYTES: u64 = 64 * 1024;

/// Why a game record file could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadGameError {
    /// The file could not be read, or is far larger than any record.
    #[error(transparent)]
    Read(#[from] ReadTextError),
    /// The text is not a game record.
    #[error("{}: {error}", path.display())]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// The first bad line.
        error: ParseRecordError,
    },
    /// The record's game breaks the rules.
    #[error("{}: {error}", path.display())]
    Illegal {
        /// The file.
        path: PathBuf,
        /// The bad board or the first illegal move.
        error: GameFromRecordError,
    },
}

/// Reads a game record file (the text form of `GameRecord`) and replays it: the one reader of
/// record files for the command line and the desktop game.
///
/// # Errors
/// If the file cannot be read, is too large, is not a record, or holds an illegal move.
pub fn read_game(path: &Path) -> Result<Game, ReadGameError> {
    let text = read_text(path, MAX_RECORD_BYTES)?;
    let record =
        GameRecord::from_text(&text).map_err(|error| ReadGameError::NotARecord { path: path.to_owned(), error })?;
    Game::from_record(&record).map_err(|error| ReadGameError::Illegal { path: path.to_owned(), error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_files_are_read_only_up_to_the_limit() {
        let dir = std::env::temp_dir().join(format!("kulami-layouts-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file.txt");
        std::fs::write(&path, "AABB\n").unwrap();
        assert_eq!(read_text(&path, 5).unwrap(), "AABB\n");
        let error = read_text(&path, 4).unwrap_err().to_string();
        assert!(error.ends_with("is too large: 5 bytes or more, where at most 4 are expected"), "{error}");
        // A device reports no size; it is still read no further than the limit.
        let endless = read_text(Path::new("/dev/zero"), 1000).unwrap_err().to_string();
        assert!(endless.contains("1001 bytes or more"), "{endless}");
        std::fs::write(&path, b"AA\xffBB").unwrap();
        assert!(read_text(&path, 100).unwrap_err().to_string().starts_with("cannot read"));
        assert!(matches!(
            crate::Board::read(&dir.join("missing.txt")),
            Err(crate::ReadBoardError::Read(ReadTextError::Io { .. }))
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_game_file_is_read_and_replayed_and_a_bad_one_says_where() {
        let dir = std::env::temp_dir().join(format!("kulami-layouts-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.txt");
        std::fs::write(&path, "layout: AABB/CCDD/EEFF\nswap: on\nmoves: a1 swap a3\n").unwrap();
        let game = read_game(&path).unwrap();
        assert!(game.position().swapped());
        std::fs::write(&path, "layout: AABB/CCDD/EEFF\nmoves: a1 swap a3\n").unwrap();
        let error = read_game(&path).unwrap_err().to_string();
        assert!(error.ends_with("game.txt: move 2 (swap): the swap rule is off in this game"), "{error}");
        std::fs::write(&path, "layout: AABB\nmoves: a1 q7\n").unwrap();
        assert!(matches!(read_game(&path), Err(ReadGameError::NotARecord { .. })));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
