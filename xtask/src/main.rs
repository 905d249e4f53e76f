//! `cargo xtask <task>`: the project's maintenance tasks, in Rust so they run wherever cargo does.
//!
//! - `ci`: what CI runs, and what to run before pushing: formatting, clippy with warnings as
//!   errors, and every test of the workspace.

mod ci;
mod puzzles;

use std::process::{Command, ExitCode};

use anyhow::{Context as _, bail};

const USAGE: &str = "usage: cargo xtask <task>\n\ntasks:\n  ci    fmt check, clippy (warnings are errors), all tests";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::run(),
        Some("puzzles") => puzzles::run(args.get(1).is_some_and(|a| a == "--check")),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(anyhow::anyhow!("unknown task `{other}`\n{USAGE}")),
        None => Err(anyhow::anyhow!("no task given\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_owned()
}

/// Runs `cargo` with `args` from the workspace root, failing if it fails.
fn cargo(args: &[&str]) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let root = root();
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(cargo).args(args).current_dir(root).status().context("cannot run cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}
