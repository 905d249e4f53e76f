//! `kulami-gui`: the desktop game.

use std::path::PathBuf;

use clap::Parser;
use kulami_gui::state::Action;

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
            .with_inner_size([1100.0, 760.0])
            .with_min_inner_size([520.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Kulami",
        options,
        Box::new(move |_creation| {
            let mut app = kulami_gui::KulamiApp::new(kulami_gui::autosave::Autosave::in_storage_dir());
            if let Some(game) = opened {
                app.apply(Action::Load(Box::new(game)));
                app.skip_start();
            }
            if args.hints {
                app.apply(Action::ShowHints(true));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|error| anyhow::anyhow!("the window could not open: {error}"))
}
