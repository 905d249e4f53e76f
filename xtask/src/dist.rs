//! `cargo xtask dist`: release builds of `kulami` and `kulami-gui`, packed with the README, the
//! rules and the licence into `target/dist/kulami-<version>-<arch>-<os>.tar.gz`, with a SHA-256
//! checksum file beside each archive.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, bail};
use sha2::{Digest as _, Sha256};

use crate::{cargo, root};

/// Files packed beside the binaries, from the workspace root.
const DOCUMENTS: [&str; 3] = ["README.md", "LICENSE", "docs/RULES.md"];

pub fn run() -> anyhow::Result<()> {
    cargo(&["build", "--release", "-p", "kulami-cli", "-p", "kulami-gui"])?;
    let root = root();
    let name = format!("kulami-{}-{}-{}", env!("CARGO_PKG_VERSION"), std::env::consts::ARCH, std::env::consts::OS);
    let dist = root.join("target/dist");
    let staging = dist.join(&name);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)?;
    }
    std::fs::create_dir_all(&staging)?;
    for binary in ["kulami", "kulami-gui"] {
        let file = format!("{binary}{}", std::env::consts::EXE_SUFFIX);
        std::fs::copy(root.join("target/release").join(&file), staging.join(&file))
            .with_context(|| format!("cannot copy {file}"))?;
    }
    for document in DOCUMENTS {
        let target = staging.join(Path::new(document).file_name().context("a file name")?);
        std::fs::copy(root.join(document), target).with_context(|| format!("cannot copy {document}"))?;
    }
    let archive = format!("{name}.tar.gz");
    let status =
        Command::new("tar").args(["-czf", &archive, &name]).current_dir(&dist).status().context("cannot run tar")?;
    if !status.success() {
        bail!("tar failed ({status})");
    }
    std::fs::remove_dir_all(&staging)?;
    let digest = Sha256::digest(std::fs::read(dist.join(&archive))?);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    // The format of `sha256sum`, so that `sha256sum -c` checks it.
    std::fs::write(dist.join(format!("{archive}.sha256")), format!("{hex}  {archive}\n"))?;
    eprintln!("wrote target/dist/{archive} (sha256 {hex})");
    Ok(())
}
