//! The autosave: the game in progress and the settings, written after every change so that a
//! killed process loses nothing. Each write replaces the save atomically (on disk a temporary
//! file, then a rename), after keeping the last good save as a backup; a damaged save is
//! reported, the backup restored, and the damaged save set aside rather than overwritten.
//!
//! The desktop keeps it in a file; a browser in the page's `localStorage`, under the same names.

use std::path::PathBuf;

use crate::saved::Saved;

/// Saves are small; a larger one is damaged.
const MAX_SAVE_BYTES: usize = 1 << 20;

/// The autosave (and its backup beside it).
#[derive(Clone, Debug)]
pub struct Autosave {
    shelf: Shelf,
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

/// One of the three saves the autosave keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// The save.
    Current,
    /// The good save before it.
    Backup,
    /// A damaged save, set aside.
    Damaged,
}

impl Slot {
    fn suffix(self) -> &'static str {
        match self {
            Slot::Current => "",
            Slot::Backup => ".backup",
            Slot::Damaged => ".damaged",
        }
    }
}

/// Where the saves are kept.
#[derive(Clone, Debug)]
enum Shelf {
    /// In a file (the backup and the damaged save beside it).
    File(PathBuf),
    /// In the page's `localStorage`, under this key and its suffixed siblings.
    #[cfg(target_arch = "wasm32")]
    Page(web_sys::Storage, &'static str),
}

impl Shelf {
    #[cfg(not(target_arch = "wasm32"))]
    fn path(path: &std::path::Path, slot: Slot) -> PathBuf {
        let mut name = path.file_name().unwrap_or_default().to_owned();
        name.push(slot.suffix());
        path.with_file_name(name)
    }

    /// Where `slot` is, in the player's words.
    fn name(&self, slot: Slot) -> String {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Shelf::File(path) => Shelf::path(path, slot).display().to_string(),
            #[cfg(target_arch = "wasm32")]
            Shelf::File(path) => path.display().to_string(),
            #[cfg(target_arch = "wasm32")]
            Shelf::Page(_, key) => format!("{key}{} in this page's storage", slot.suffix()),
        }
    }

    /// The text in `slot`, `None` if there is none.
    fn read(&self, slot: Slot) -> Result<Option<String>, String> {
        let too_large = || "it is far too large to be a save".to_owned();
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Shelf::File(path) => {
                use kulami_layouts::files::{ReadTextError, read_text};
                match read_text(&Shelf::path(path, slot), MAX_SAVE_BYTES as u64) {
                    Ok(text) => Ok(Some(text)),
                    Err(ReadTextError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(ReadTextError::Io { error, .. }) => Err(crate::files::in_words(&error).to_owned()),
                    Err(_) => Err(too_large()),
                }
            }
            #[cfg(target_arch = "wasm32")]
            Shelf::File(_) => Ok(None),
            #[cfg(target_arch = "wasm32")]
            Shelf::Page(storage, key) => {
                let text = storage
                    .get_item(&format!("{key}{}", slot.suffix()))
                    .map_err(|_| "the page's storage cannot be read".to_owned())?;
                if text.as_ref().is_some_and(|text| text.len() > MAX_SAVE_BYTES) {
                    return Err(too_large());
                }
                Ok(text)
            }
        }
    }

    /// Puts `text` in `slot`, whole or not at all.
    fn write(&self, slot: Slot, text: &str) -> Result<(), String> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Shelf::File(path) => {
                let path = Shelf::path(path, slot);
                if let Some(folder) = path.parent() {
                    std::fs::create_dir_all(folder).map_err(|error| {
                        format!("the folder {} could not be made: {}", folder.display(), crate::files::in_words(&error))
                    })?;
                }
                crate::files::write_atomically(&path, text)
            }
            #[cfg(target_arch = "wasm32")]
            Shelf::File(path) => Err(format!("{} cannot be written in a browser", path.display())),
            #[cfg(target_arch = "wasm32")]
            Shelf::Page(storage, key) => storage
                .set_item(&format!("{key}{}", slot.suffix()), text)
                .map_err(|_| "the page's storage is full or turned off".to_owned()),
        }
    }

    /// Moves the save in `from` to `to`, replacing what was there.
    fn rename(&self, from: Slot, to: Slot) -> Result<(), String> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Shelf::File(path) => std::fs::rename(Shelf::path(path, from), Shelf::path(path, to))
                .map_err(|error| crate::files::in_words(&error).to_owned()),
            #[cfg(target_arch = "wasm32")]
            _ => {
                let text = self.read(from)?.unwrap_or_default();
                self.write(to, &text)
            }
        }
    }
}

impl Autosave {
    /// The autosave at `path`.
    #[must_use]
    pub fn new(path: PathBuf) -> Autosave {
        Autosave { shelf: Shelf::File(path), written: None }
    }

    /// The usual place: `autosave.json` in eframe's storage folder for the app.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn in_storage_dir() -> Option<Autosave> {
        eframe::storage_dir("Kulami").map(|dir| Autosave::new(dir.join("autosave.json")))
    }

    /// The page's `localStorage`, if the browser lets the page keep anything.
    #[cfg(target_arch = "wasm32")]
    #[must_use]
    pub fn in_page_storage() -> Option<Autosave> {
        let storage = web_sys::window()?.local_storage().ok()??;
        Some(Autosave { shelf: Shelf::Page(storage, "kulami.autosave"), written: None })
    }

    fn read(&self, slot: Slot) -> Result<Option<Saved>, String> {
        self.shelf.read(slot)?.map(|text| Saved::parse(&text)).transpose()
    }

    /// Reads the save; if it is damaged, the backup, and the damaged save is set aside as
    /// `*.damaged` so that the next save does not overwrite it.
    pub fn load(&mut self) -> Loaded {
        match self.read(Slot::Current) {
            Ok(Some(saved)) => Loaded { saved: Some(saved), message: None },
            // Killed between keeping the backup and writing the new save: the backup is the last.
            Ok(None) => Loaded { saved: self.read(Slot::Backup).ok().flatten(), message: None },
            Err(problem) => {
                let kept = match self.shelf.rename(Slot::Current, Slot::Damaged) {
                    Ok(()) => format!("it was kept as {}", self.shelf.name(Slot::Damaged)),
                    Err(error) => format!("it could not be set aside ({error})"),
                };
                match self.read(Slot::Backup) {
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
    /// If the save cannot be written.
    pub fn store(&mut self, saved: &Saved) -> Result<(), String> {
        let text = saved.to_text();
        if self.written.as_ref() == Some(&text) {
            return Ok(());
        }
        if matches!(self.read(Slot::Current), Ok(Some(_))) {
            self.shelf
                .rename(Slot::Current, Slot::Backup)
                .map_err(|error| format!("the last save could not be kept: {error}"))?;
        }
        self.shelf.write(Slot::Current, &text)?;
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
        assert_eq!(autosave.read(Slot::Backup).unwrap(), Some(game_with(&["d4"])));
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
