//! `cargo xtask <task>`: the project's maintenance tasks, in Rust so they run wherever cargo does.
//!
//! - `ci`: what CI runs, and what to run before pushing: formatting, clippy and the docs with
//!   warnings as errors, and every test of the workspace.
//! - `dist`: release archives with checksums under `target/dist`.
//! - `layouts`, `puzzles`: the checked-in data, made or checked (`--check`, also run by tests).
//! - `screenshots`: the README's pictures of the real window.
//! - `tidy`: every path the docs and comments name exists, and every command has help.
//! - `web`: the browser edition's site in `target/site`.

mod ci;
mod dist;
mod layouts;
mod puzzles;
mod screenshots;
mod tidy;
mod web;

use std::process::{Command, ExitCode};

use anyhow::{Context as _, bail};

const USAGE: &str = "usage: cargo xtask <task> [--check]

tasks:
  ci [--no-postgres]  fmt check, clippy and docs (warnings are errors), all tests (the server's on
                      SQLite and PostgreSQL, which .ci/postgres installs and starts; --no-postgres
                      leaves it out)
  dist                release builds packed with the docs into target/dist, with checksums
  layouts [--check]   put every layout file in canonical form (--check: fail instead)
  puzzles [--check]   make the puzzle bank from its seeds (--check: fail if stale)
  screenshots         the README's screenshots of the real window, under Xvfb
  tidy                every path named in docs and comments exists; every command has help
  web                 the browser edition's site in target/site (needs the wasm32-unknown-unknown
                      target and wasm-bindgen-cli at Cargo.lock's version)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().skip(1).any(|arg| arg == "--check");
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::run(args.iter().skip(1).any(|arg| arg == "--no-postgres")),
        Some("dist") => dist::run(),
        Some("layouts") => layouts::run(check),
        Some("puzzles") => puzzles::run(check),
        Some("screenshots") => screenshots::run(),
        Some("tidy") => tidy::run(),
        Some("web") => web::run(),
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
    cargo_with_env(args, &[])
}

/// Runs `cargo` with `args` and the environment variables `env`, failing if it fails.
fn cargo_with_env(args: &[&str], env: &[(&str, &str)]) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let root = root();
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}
