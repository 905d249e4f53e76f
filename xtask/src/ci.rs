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
    // The libraries are documented for reuse: a broken link in their docs fails as a lint does.
    cargo_with_env(&["doc", "--no-deps", "--workspace", "--all-features"], &[("RUSTDOCFLAGS", "-D warnings")])?;
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
    forget_unpacked_libraries(&libraries)?;
    cargo_with_env(&[["clean"].as_slice(), &libraries].concat(), &verify)?;
    cargo_with_env(&[["package", "--allow-dirty"].as_slice(), &libraries].concat(), &verify)?;
    Ok(())
}

/// Removes the copies of our libraries that an earlier `cargo package` unpacked into Cargo's
/// home from its local registry of the packages (a folder per crate and version, in a registry
/// folder whose name starts with a dash, beside crates.io's). Cargo never unpacks a registry
/// crate twice, so one verified against a library would build against an old copy of it (a new
/// module missing) rather than the one just packaged.
fn forget_unpacked_libraries(libraries: &[&str]) -> anyhow::Result<()> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".cargo")))
        .context("neither CARGO_HOME nor HOME is set")?;
    forget_unpacked_in(&home, libraries)
}

/// [`forget_unpacked_libraries`] in the Cargo home `home`.
fn forget_unpacked_in(home: &std::path::Path, libraries: &[&str]) -> anyhow::Result<()> {
    let Ok(registries) = std::fs::read_dir(home.join("registry/src")) else { return Ok(()) };
    for registry in registries.flatten() {
        // crates.io's directory is `index.crates.io-HASH`; a local registry's has no name.
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for unpacked in std::fs::read_dir(registry.path())?.flatten() {
            let name = unpacked.file_name().to_string_lossy().into_owned();
            let ours = libraries.iter().filter(|library| !library.starts_with('-')).any(|library| {
                name.strip_prefix(library)
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
            });
            if ours {
                std::fs::remove_dir_all(unpacked.path())
                    .with_context(|| format!("removing the stale unpacked {}", unpacked.path().display()))?;
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_libraries_unpacked_from_a_local_registry_are_forgotten() {
        let home = std::env::temp_dir().join(format!("xtask-cargo-home-{}", std::process::id()));
        let unpacked = ["-1a2b/game-search-0.1.0", "-1a2b/kulami-core-0.1.0", "-1a2b/serde-1.0.0"];
        let kept = ["index.crates.io-1949/game-search-0.1.0", "-1a2b/game-search-extra-0.1.0", "-1a2b/serde-1.0.0"];
        for dir in unpacked.iter().chain(&kept) {
            std::fs::create_dir_all(home.join("registry/src").join(dir)).unwrap();
        }
        forget_unpacked_in(&home, &["-p", "game-search", "-p", "kulami-core"]).unwrap();
        let exists = |dir: &str| home.join("registry/src").join(dir).exists();
        assert!(!exists(unpacked[0]) && !exists(unpacked[1]), "our libraries are gone");
        assert!(kept.iter().all(|dir| exists(dir)), "crates.io's copies and other crates stay");
        std::fs::remove_dir_all(home).unwrap();
        // A Cargo home with no registry yet is fine.
        forget_unpacked_in(std::path::Path::new("/nonexistent"), &["game-search"]).unwrap();
    }
}
