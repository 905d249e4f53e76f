//! The autosave: the game in progress and the settings, written after every change so that a
//! killed process loses nothing. Each write replaces the file atomically (a temporary file, then
//! a rename), after keeping the last good save as a backup; a damaged save is reported, the
//! backup restored, and the damaged file set aside rather than overwritten.

use std::path::{Path, PathBuf};

use crate::files::{in_words, write_atomically};
use crate::saved::Saved;

/// Saves are small; a larger file is damaged.
const MAX_SAVE_BYTES: u64 = 1 << 20;

/// The autosave file (and its backup beside it).
#[derive(Clone, Debug)]
pub struct Autosave {
    path: PathBuf,
    /// The text last written, so that unchanged state is not written again.
    written: Option<String>,
}

/// What loading found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The save to restore, if any was good.
    pub saved: Option<Saved>,
    /// What went wrong on the way, to tell the player.
    pub message: Option<String>,
}

impl Autosave {
    /// The autosave at `path`.
    #[must_use]
    pub fn new(path: PathBuf) -> Autosave {
        Autosave { path, written: None }
    }

    /// The usual place: `autosave.json` in eframe's storage folder for the app.
    #[must_use]
    pub fn in_storage_dir() -> Option<Autosave> {
        eframe::storage_dir("Kulami").map(|dir| Autosave::new(dir.join("autosave.json")))
    }

    fn sibling(&self, suffix: &str) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_owned();
        name.push(suffix);
        self.path.with_file_name(name)
    }

    fn read(path: &Path) -> Result<Option<Saved>, String> {
        match kulami_layouts::files::read_text(path, MAX_SAVE_BYTES) {
            Ok(text) => Saved::parse(&text).map(Some),
            Err(kulami_layouts::files::ReadTextError::Io { error, .. })
                if error.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok(None)
            }
            Err(kulami_layouts::files::ReadTextError::Io { error, .. }) => Err(in_words(&error).to_owned()),
            Err(_) => Err("it is far too large to be a save".to_owned()),
        }
    }

    /// Reads the save; if it is damaged, the backup, and the damaged file is renamed to
    /// `*.damaged` so that the next save does not overwrite it.
    pub fn load(&mut self) -> Loaded {
        match Autosave::read(&self.path) {
            Ok(Some(saved)) => Loaded { saved: Some(saved), message: None },
            // Killed between keeping the backup and writing the new save: the backup is the last.
            Ok(None) => Loaded { saved: Autosave::read(&self.sibling(".backup")).ok().flatten(), message: None },
            Err(problem) => {
                let damaged = self.sibling(".damaged");
                let kept = match std::fs::rename(&self.path, &damaged) {
                    Ok(()) => format!("it was kept as {}", damaged.display()),
                    Err(error) => format!("it could not be set aside ({})", in_words(&error)),
                };
                match Autosave::read(&self.sibling(".backup")) {
                    Ok(Some(saved)) => Loaded {
                        saved: Some(saved),
                        message: Some(format!(
                            "The autosave was damaged ({problem}); {kept}. The save before it was restored."
                        )),
                    },
                    _ => Loaded {
                        saved: None,
                        message: Some(format!("The autosave was damaged ({problem}); {kept}. A new game was started.")),
                    },
                }
            }
        }
    }

    /// Writes `saved` if it differs from what was written last: the current save becomes the
    /// backup (if it is good), then the new one replaces it atomically.
    ///
    /// # Errors
    /// If the folder or the file cannot be written.
    pub fn store(&mut self, saved: &Saved) -> Result<(), String> {
        let text = saved.to_text();
        if self.written.as_ref() == Some(&text) {
            return Ok(());
        }
        if let Some(folder) = self.path.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|error| format!("the folder {} could not be made: {}", folder.display(), in_words(&error)))?;
        }
        if matches!(Autosave::read(&self.path), Ok(Some(_))) {
            std::fs::rename(&self.path, self.sibling(".backup"))
                .map_err(|error| format!("the last save could not be kept: {}", in_words(&error)))?;
        }
        write_atomically(&self.path, &text)?;
        self.written = Some(text);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saved::Settings;
    use crate::state::{Action, GameState};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kulami-autosave-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn game_with(moves: &[&str]) -> Saved {
        let mut state = GameState::default();
        for cell in moves {
            state.apply(Action::Place(cell.parse().unwrap()));
        }
        Saved::capture(&state, Settings::default())
    }

    #[test]
    fn saves_round_trip_and_the_last_good_one_is_the_backup() {
        let dir = scratch("round");
        let mut autosave = Autosave::new(dir.join("autosave.json"));
        assert!(autosave.load().saved.is_none(), "nothing saved yet, nothing to say");
        autosave.store(&game_with(&["d4"])).unwrap();
        autosave.store(&game_with(&["d4", "d7"])).unwrap();
        assert_eq!(Autosave::new(dir.join("autosave.json")).load().saved, Some(game_with(&["d4", "d7"])));
        assert_eq!(Autosave::read(&dir.join("autosave.json.backup")).unwrap(), Some(game_with(&["d4"])));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_truncated_save_is_reported_set_aside_and_the_backup_restored() {
        let dir = scratch("truncated");
        let path = dir.join("autosave.json");
        let mut autosave = Autosave::new(path.clone());
        autosave.store(&game_with(&["d4"])).unwrap();
        autosave.store(&game_with(&["d4", "d7"])).unwrap();
        // As if the process died while something else wrote the file.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        let loaded = Autosave::new(path.clone()).load();
        assert_eq!(loaded.saved, Some(game_with(&["d4"])));
        let message = loaded.message.unwrap();
        assert!(message.starts_with("The autosave was damaged") && message.contains("restored"), "{message}");
        assert_eq!(std::fs::read_to_string(dir.join("autosave.json.damaged")).unwrap(), text[..text.len() / 2]);
        // With no good backup either, a new game, and still nothing deleted.
        std::fs::write(&path, "garbage").unwrap();
        std::fs::write(dir.join("autosave.json.backup"), "more garbage").unwrap();
        let loaded = Autosave::new(path).load();
        assert!(loaded.saved.is_none() && loaded.message.unwrap().contains("A new game was started"));
        assert_eq!(std::fs::read_to_string(dir.join("autosave.json.damaged")).unwrap(), "garbage");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_write_cut_short_leaves_the_last_save_whole() {
        let dir = scratch("cut");
        let path = dir.join("autosave.json");
        let mut autosave = Autosave::new(path.clone());
        autosave.store(&game_with(&["d4"])).unwrap();
        // A killed process can leave a half-written temporary file; it is never read.
        std::fs::write(dir.join(".autosave.json.tmp"), "{\"boa").unwrap();
        let loaded = Autosave::new(path.clone()).load();
        assert_eq!((loaded.saved, loaded.message), (Some(game_with(&["d4"])), None));
        // Killed between keeping the backup and writing the new save: the backup is found.
        std::fs::rename(&path, dir.join("autosave.json.backup")).unwrap();
        let loaded = Autosave::new(path).load();
        assert_eq!((loaded.saved, loaded.message), (Some(game_with(&["d4"])), None));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
