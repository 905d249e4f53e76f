//! `kulami-gui`: the desktop game.

use std::path::PathBuf;

use clap::Parser;
use kulami_core::Color;
use kulami_gui::state::{Action, Seat};

/// The Kulami desktop game. Without arguments it opens the game left last time.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// A game record to open in place of the game left last time (which is kept until the
    /// window saves).
    record: Option<PathBuf>,
    /// Show the three strongest holes from the start.
    #[arg(long)]
    hints: bool,
    /// Who plays red: `human` or a level 1-5 for the computer.
    #[arg(long, value_name = "human|1-5")]
    red: Option<Seat>,
    /// Who plays black: `human` or a level 1-5 for the computer.
    #[arg(long, value_name = "human|1-5")]
    black: Option<Seat>,
    /// Review the game at once: the engine's view of every move (with a game file).
    #[arg(long, requires = "record")]
    review: bool,
    /// The window's size in pixels, e.g. 800x600.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    size: Option<[f32; 2]>,
    /// For tests and tools: after each frame that changes it, write what the window shows (the
    /// screen, the game, where its holes and main buttons are) to FILE as JSON, as the browser
    /// edition's `window.kulami.probe()` hands it out.
    #[arg(long, value_name = "FILE")]
    probe: Option<PathBuf>,
}

/// `WxH` in pixels, from 320x240 to 7680x4320.
fn parse_size(text: &str) -> Result<[f32; 2], String> {
    let bad = || format!("`{text}` is not a window size: expected WIDTHxHEIGHT, like 800x600");
    let (width, height) = text.split_once('x').ok_or_else(bad)?;
    let (width, height): (u32, u32) = (width.parse().map_err(|_| bad())?, height.parse().map_err(|_| bad())?);
    if !(320..=7680).contains(&width) || !(240..=4320).contains(&height) {
        return Err(format!("`{text}`: a window from 320x240 to 7680x4320"));
    }
    Ok([width as f32, height as f32])
}

fn main() -> std::process::ExitCode {
    match run(Args::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kulami-gui: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> anyhow::Result<()> {
    // Read the record before opening a window, so that a bad file is one line on stderr.
    let opened = args.record.as_deref().map(kulami_gui::files::load_game).transpose().map_err(anyhow::Error::msg)?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Kulami")
            .with_inner_size(args.size.unwrap_or([1100.0, 760.0]))
            .with_min_inner_size([520.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Kulami",
        options,
        Box::new(move |creation| {
            let mut app = kulami_gui::KulamiApp::new(kulami_gui::autosave::Autosave::in_storage_dir());
            if let Some(game) = opened {
                app.apply(Action::Load(Box::new(game)));
                app.skip_start();
            }
            if args.hints {
                app.apply(Action::ShowHints(true));
            }
            for (color, seat) in [(Color::Red, args.red), (Color::Black, args.black)] {
                if let Some(seat) = seat {
                    app.apply(Action::Seat(color, seat));
                    app.skip_start();
                }
            }
            if args.review {
                app.review(&creation.egui_ctx);
            }
            Ok(match args.probe {
                Some(file) => Box::new(Probed { app, file, written: None }),
                None => Box::new(app),
            })
        }),
    )
    .map_err(|error| anyhow::anyhow!("the window could not open: {error}"))
}

/// The app, writing its [`Probe`](kulami_gui::app::Probe) to `file` whenever it changes.
struct Probed {
    app: kulami_gui::KulamiApp,
    file: PathBuf,
    written: Option<kulami_gui::app::Probe>,
}

impl eframe::App for Probed {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        eframe::App::logic(&mut self.app, ctx, frame);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        eframe::App::ui(&mut self.app, ui, frame);
        let probe = self.app.probe(ui.ctx());
        if self.written.as_ref() == Some(&probe) {
            return;
        }
        let report = serde_json::json!({ "app": probe, "pixels_per_point": ui.ctx().pixels_per_point() });
        // Written aside and renamed into place, so that a reader never sees half of it.
        let aside = self.file.with_extension("partial");
        match std::fs::write(&aside, report.to_string()).and_then(|()| std::fs::rename(&aside, &self.file)) {
            Ok(()) => self.written = Some(probe),
            Err(error) => eprintln!("kulami-gui: could not write the probe to {}: {error}", self.file.display()),
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut self.app, storage);
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    use super::{Args, parse_size};

    #[test]
    fn the_command_line_is_sound_and_sizes_are_checked() {
        Args::command().debug_assert();
        assert_eq!(parse_size("800x600"), Ok([800.0, 600.0]));
        for bad in ["800", "800x", "x600", "10x10", "99999x600", "8OOx600"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
