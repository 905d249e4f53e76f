//! `cargo xtask ci`: the one command CI and people run to check the whole workspace.

use crate::cargo;

pub fn run() -> anyhow::Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--all-features", "--", "-D", "warnings"])?;
    cargo(&["test", "--workspace", "--all-features"])?;
    Ok(())
}
