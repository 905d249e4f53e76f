//! `cargo xtask screenshots`: starts the real window under Xvfb and saves the README's
//! screenshots to `docs/screenshots/`: the start screen, a game in progress with hints and the
//! guides, and the end summary. Needs `Xvfb` and ImageMagick's `import` (on Debian and Ubuntu:
//! `apt-get install xvfb imagemagick`); the window draws with Mesa's software OpenGL.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

use anyhow::{Context as _, bail};

use kulami_ai::{Engine, EngineOptions, Level};

use crate::{cargo, root};

const DISPLAY: &str = ":97";
const SIZE: &str = "1100x760x24";

/// Kills the child when dropped, so that no window or X server outlives the task.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A whole game on the classic board between two seeded level-3 engines, under the scoring with
/// both bonuses (so that the summary draws areas and lines).
fn self_play() -> kulami_core::GameRecord {
    let layout = std::sync::Arc::new(kulami_layouts::preset("classic").expect("a preset").into_layout());
    let scoring = kulami_core::Scoring::Both;
    let mut game = kulami_core::Game::new(layout, scoring);
    let mut engine = Engine::new(Level::Club, EngineOptions::default().with_seed(7));
    while let Some(chosen) = engine.choose(game.position(), scoring, None).best {
        game.play_move(chosen).expect("the engine plays legal moves");
    }
    game.record()
}

/// One screenshot: the window opened on `files` with `flags`, taken after `wait` seconds (the
/// review takes the engine a while), keeping only `crop` of the screen for a smaller window.
struct Shot<'a> {
    name: &'a str,
    files: Vec<&'a Path>,
    flags: &'a [&'a str],
    wait: u64,
    crop: Option<&'a str>,
}

pub fn run() -> anyhow::Result<()> {
    for tool in ["Xvfb", "import"] {
        if Command::new("which").arg(tool).stdout(Stdio::null()).status().map_or(true, |s| !s.success()) {
            bail!("`{tool}` is not installed (apt-get install xvfb imagemagick)");
        }
    }
    cargo(&["build", "--release", "-p", "kulami-gui"])?;
    let root = root();
    let out = root.join("docs/screenshots");
    std::fs::create_dir_all(&out)?;
    let scratch = root.join("target/screenshots");
    std::fs::create_dir_all(&scratch)?;
    let record = self_play();
    let finished = scratch.join("finished.txt");
    std::fs::write(&finished, record.to_text())?;
    let mut in_progress = record.clone();
    in_progress.moves.truncate(20);
    let in_progress_path = scratch.join("in-progress.txt");
    std::fs::write(&in_progress_path, in_progress.to_text())?;

    let _server = Killed(
        Command::new("Xvfb").args([DISPLAY, "-screen", "0", SIZE]).stderr(Stdio::null()).spawn().context("Xvfb")?,
    );
    sleep(Duration::from_secs(1));
    let shots = [
        Shot { name: "start", files: vec![], flags: &[], wait: 6, crop: None },
        Shot {
            name: "game-in-progress",
            files: vec![&in_progress_path],
            flags: &["--hints", "--black", "3"],
            wait: 6,
            crop: None,
        },
        Shot { name: "end-summary", files: vec![&finished], flags: &[], wait: 6, crop: None },
        Shot { name: "review", files: vec![&finished], flags: &["--review"], wait: 25, crop: None },
        Shot {
            name: "small-window",
            files: vec![&in_progress_path],
            flags: &["--size", "800x600", "--black", "3"],
            wait: 6,
            crop: Some("800x600+0+0"),
        },
    ];
    for Shot { name, files, flags, wait, crop } in shots {
        // A fresh data folder each time: the window must not open the game kept by the last one.
        let home = scratch.join(format!("home-{name}"));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home)?;
        let _window = Killed(
            Command::new(root.join("target/release/kulami-gui"))
                .args(files)
                .args(flags)
                .env("DISPLAY", DISPLAY)
                .env("HOME", &home)
                .env("XDG_DATA_HOME", home.join("data"))
                .stderr(Stdio::null())
                .spawn()
                .context("cannot start kulami-gui")?,
        );
        // Software rendering is slow to start, and the hints take the engine a moment.
        sleep(Duration::from_secs(wait));
        let target = out.join(format!("{name}.png"));
        let status = Command::new("import")
            .args(["-display", DISPLAY, "-window", "root"])
            .args(crop.map(|area| ["-crop", area]).into_iter().flatten())
            .arg(&target)
            .status()
            .context("cannot run import")?;
        if !status.success() {
            bail!("import failed for {name} ({status})");
        }
        eprintln!("wrote {}", target.display());
    }
    Ok(())
}
