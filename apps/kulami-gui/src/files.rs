//! Game records and boards on disk. Writes go to a temporary file beside the target and are then
//! renamed over it, so a crash mid-write leaves the old file whole; reads go through
//! `kulami_layouts::files::read_game` (size-limited), and every failure is one message naming the file.

use std::io::Write as _;
use std::path::Path;

use kulami_core::{Game, Layout};

/// Writes `text` to `path` atomically.
///
/// # Errors
/// A message naming the file and the system's reason.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let fail = |error: std::io::Error| format!("could not write {}: {error}", path.display());
    let name = path.file_name().ok_or_else(|| format!("{} is not a file name", path.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(".tmp");
    let temporary = path.with_file_name(temporary_name);
    let mut file = std::fs::File::create(&temporary).map_err(fail)?;
    let written = file.write_all(text.as_bytes()).and_then(|()| file.sync_all());
    drop(file);
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
    kulami_layouts::files::read_game(path).map_err(|error| error.to_string())
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
        assert!(error.contains("game.txt") && error.contains("move 2"), "{error}");
        std::fs::write(&path, "nonsense\n").unwrap();
        assert!(load_game(&path).unwrap_err().contains("line 1"));
        std::fs::write(&path, vec![b'#'; 2 << 20]).unwrap();
        assert!(load_game(&path).unwrap_err().contains("too large"));
        // A device is read no further than the limit.
        assert!(load_game(std::path::Path::new("/dev/zero")).unwrap_err().contains("too large"));
        assert!(load_game(&dir.join("missing.txt")).unwrap_err().contains("cannot read"));
        std::fs::remove_dir_all(dir).unwrap();
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
        assert!(save_board(&path, &Layout::parse("AA").unwrap()).unwrap_err().contains("board.txt"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
