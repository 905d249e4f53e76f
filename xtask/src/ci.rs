//! `cargo xtask ci`: the one command CI and people run to check the whole workspace (the tidy
//! checks are among its tests).

use crate::cargo;

pub fn run() -> anyhow::Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--all-features", "--", "-D", "warnings"])?;
    cargo(&["test", "--workspace", "--all-features"])?;
    // The libraries are fit for crates.io: metadata, readme, and a build from the packaged files.
    cargo(&[
        "package",
        "--allow-dirty",
        "-p",
        "game-search",
        "-p",
        "kulami-core",
        "-p",
        "kulami-layouts",
        "-p",
        "kulami-ai",
    ])?;
    Ok(())
}
