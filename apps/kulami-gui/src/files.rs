//! Game records and boards on disk. Writes go to a temporary file beside the target and are then
//! renamed over it, so a crash mid-write leaves the old file whole; reads go through
//! `kulami_layouts::files::read_game` (size-limited). Every failure is one message in a player's
//! words that names the file (no error codes, no format internals).

use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};

use kulami_layouts::files::{ReadGameError, ReadTextError};

use kulami_core::{Game, Layout};

/// Writes `text` to `path` atomically.
///
/// # Errors
/// A message naming the file and the system's reason.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let fail = |error: std::io::Error| format!("{} could not be saved: {}", path.display(), in_words(&error));
    let name = path.file_name().ok_or_else(|| format!("{} is not a file name", path.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(".tmp");
    let temporary = path.with_file_name(temporary_name);
    // The file is closed (at the block's end) before it is renamed.
    let written = {
        let mut file = std::fs::File::create(&temporary).map_err(fail)?;
        file.write_all(text.as_bytes()).and_then(|()| file.sync_all())
    };
    if let Err(error) = written.and_then(|()| std::fs::rename(&temporary, path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(fail(error));
    }
    Ok(())
}

/// Saves `game` as a game record (the text form of `GameRecord`).
///
/// # Errors
/// If the file cannot be written.
pub fn save_game(path: &Path, game: &Game) -> Result<(), String> {
    write_atomically(path, &game.record().to_text())
}

/// Reads a game record and replays it.
///
/// # Errors
/// A message naming the file and what is wrong: unreadable, not a record, or an illegal move.
pub fn load_game(path: &Path) -> Result<Game, String> {
    let shown = path.display();
    kulami_layouts::files::read_game(path).map_err(|error| match error {
        ReadGameError::Read(ReadTextError::TooLarge { .. }) => format!("{shown} is too large to be a game file"),
        ReadGameError::Read(ReadTextError::Io { error, .. }) => {
            format!("{shown} could not be opened: {}", in_words(&error))
        }
        ReadGameError::NotARecord { .. } => format!("{shown} is not a Kulami game file"),
        ReadGameError::Illegal { error, .. } => format!("{shown} holds a game that breaks the rules ({error})"),
        other => other.to_string(),
    })
}

/// Why a file could not be read or written, as a player would say it.
#[must_use]
pub fn in_words(error: &std::io::Error) -> &'static str {
    match error.kind() {
        ErrorKind::NotFound => "there is no such file or folder",
        ErrorKind::PermissionDenied => "you may not use that file or folder",
        ErrorKind::InvalidData => "it is not a text file",
        ErrorKind::IsADirectory => "that is a folder, not a file",
        ErrorKind::StorageFull => "the disk is full",
        ErrorKind::ReadOnlyFilesystem => "that disk can only be read",
        _ => "the system refused",
    }
}

/// Where file dialogs open: the user's documents folder, else the home folder, else here.
#[must_use]
pub fn default_folder() -> PathBuf {
    dirs::document_dir().or_else(dirs::home_dir).unwrap_or_else(|| PathBuf::from("."))
}

/// Asks the player for a game file to open, in the desktop's file dialog (blocks until the
/// dialog closes: run it off the UI thread).
#[cfg(not(target_arch = "wasm32"))]
#[must_use]
pub fn ask_for_game_to_open(folder: &Path) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Open a Kulami game")
        .set_directory(folder)
        .add_filter("Kulami game", &["txt"])
        .pick_file()
}

/// What a file to save holds, for its dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saving {
    /// A game record.
    Game,
    /// A board (layout file).
    Board,
}

/// Asks the player where to save a game or a board, in the desktop's file dialog (blocks: run it
/// off the UI thread).
#[cfg(not(target_arch = "wasm32"))]
#[must_use]
pub fn ask_where_to_save(folder: &Path, what: Saving) -> Option<PathBuf> {
    let (noun, file) = match what {
        Saving::Game => ("game", "game.txt"),
        Saving::Board => ("board", "board.txt"),
    };
    rfd::FileDialog::new()
        .set_title(format!("Save the Kulami {noun}"))
        .set_directory(folder)
        .set_file_name(file)
        .add_filter(format!("Kulami {noun}"), &["txt"])
        .save_file()
}

/// Saves `layout` as a layout file.
///
/// # Errors
/// If the file cannot be written.
pub fn save_board(path: &Path, layout: &Layout) -> Result<(), String> {
    write_atomically(path, &kulami_layouts::Board::from_layout(layout.clone()).to_file_text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("kulami-gui-files-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_game_round_trips_and_damage_is_reported_with_the_file_name() {
        let dir = scratch("round");
        let path = dir.join("game.txt");
        let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
        let mut game = Game::new(layout, kulami_core::Scoring::Lines);
        game.play("a1".parse().unwrap()).unwrap();
        save_game(&path, &game).unwrap();
        assert_eq!(load_game(&path).unwrap().record(), game.record());
        assert!(!dir.join(".game.txt.tmp").exists(), "the temporary file is renamed away");

        std::fs::write(&path, "layout: AABB/CCDD/EEFF\nmoves: a1 a1\n").unwrap();
        let error = load_game(&path).unwrap_err();
        assert!(error.contains("game.txt holds a game that breaks the rules") && error.contains("move 2"), "{error}");
        std::fs::write(&path, "nonsense\n").unwrap();
        assert!(load_game(&path).unwrap_err().ends_with("game.txt is not a Kulami game file"));
        std::fs::write(&path, vec![b'#'; 2 << 20]).unwrap();
        assert!(load_game(&path).unwrap_err().ends_with("is too large to be a game file"));
        // A device is read no further than the limit.
        assert!(load_game(std::path::Path::new("/dev/zero")).unwrap_err().contains("too large"));
        let missing = load_game(&dir.join("missing.txt")).unwrap_err();
        assert!(missing.ends_with("missing.txt could not be opened: there is no such file or folder"), "{missing}");
        assert!(!missing.contains("os error"), "no error codes: {missing}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn dialogs_open_in_a_folder_that_exists() {
        assert!(default_folder().is_dir());
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = scratch("keep");
        let path = dir.join("board.txt");
        let layout = Layout::parse("AABB").unwrap();
        save_board(&path, &layout).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        assert_eq!(kulami_layouts::Board::parse(&before).unwrap().layout(), &layout);
        // A directory where the temporary file should go makes the write fail.
        std::fs::create_dir(dir.join(".board.txt.tmp")).unwrap();
        let error = save_board(&path, &Layout::parse("AA").unwrap()).unwrap_err();
        assert!(error.contains("board.txt could not be saved: ") && !error.contains("os error"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
