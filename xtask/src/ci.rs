//! `cargo xtask ci [--no-postgres]`: the one command CI and people run to check the whole
//! workspace (the tidy checks are among its tests; the browser test builds the site and needs
//! the wasm32 target, wasm-bindgen-cli and Chromium, which `.ci/run` installs).

use anyhow::{Context as _, bail};

use crate::{cargo, cargo_with_env, root};

/// The variable the server tests read the PostgreSQL server from (or `skip`).
const POSTGRES_VARIABLE: &str = "KULAMI_TEST_POSTGRES";

pub fn run(no_postgres: bool) -> anyhow::Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--all-features", "--", "-D", "warnings"])?;
    // The browser edition's own code exists only for WebAssembly: lint it there too.
    cargo(&[
        "clippy",
        "-p",
        "kulami-web",
        "-p",
        "kulami-gui",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--",
        "-D",
        "warnings",
    ])?;
    let postgres = postgres(no_postgres)?;
    cargo_with_env(&["test", "--workspace", "--all-features"], &[(POSTGRES_VARIABLE, &postgres)])?;
    if postgres == "skip" {
        eprintln!("note: the server tests ran on SQLite only: PostgreSQL was left out (--no-postgres)");
    }
    // The libraries are fit for crates.io: metadata, readme, and a build from the packaged files,
    // in a target directory of its own. Cargo takes what it built from an earlier package of the
    // same version as unchanged (registry crates never change), so those builds go first, or a
    // library would check against the last run's copy of the one it uses.
    let libraries = [
        "-p",
        "game-search",
        "-p",
        "kulami-core",
        "-p",
        "kulami-layouts",
        "-p",
        "kulami-ai",
        "-p",
        "kalah",
        "-p",
        "gorami",
    ];
    let verify = [("CARGO_TARGET_DIR", "target/package-verify")];
    cargo_with_env(&[["clean"].as_slice(), &libraries].concat(), &verify)?;
    cargo_with_env(&[["package", "--allow-dirty"].as_slice(), &libraries].concat(), &verify)?;
    Ok(())
}

/// The PostgreSQL server for the server tests: the one already named, `skip` when asked, or
/// the local one `.ci/postgres` installs and starts.
fn postgres(no_postgres: bool) -> anyhow::Result<String> {
    if no_postgres {
        eprintln!("note: --no-postgres: the server tests will leave PostgreSQL out");
        return Ok("skip".to_owned());
    }
    if let Ok(url) = std::env::var(POSTGRES_VARIABLE) {
        return Ok(url);
    }
    let script = root().join(".ci/postgres");
    eprintln!("$ {}", script.display());
    let output = std::process::Command::new("bash")
        .arg(&script)
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("cannot run .ci/postgres")?;
    if !output.status.success() {
        bail!(
            "cannot start PostgreSQL for the server tests ({}); set {POSTGRES_VARIABLE}=postgres://USER:PASSWORD@HOST:PORT \
             to use another server, or pass --no-postgres to leave it out",
            output.status
        );
    }
    Ok(String::from_utf8(output.stdout).context("the PostgreSQL URL")?.trim().to_owned())
}
