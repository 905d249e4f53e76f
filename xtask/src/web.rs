//! `cargo xtask web`: the browser edition's site in `target/site` (in `$CARGO_TARGET_DIR/site` when
//! that is set): the game compiled to
//! WebAssembly (profile `web`), its JavaScript glue from wasm-bindgen, and the page and worker
//! scripts of `apps/kulami-web/web`, each also gzipped and in brotli. `kulami-server --web
//! target/site` serves it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

use crate::{cargo, root};

const TARGET: &str = "wasm32-unknown-unknown";

pub fn run() -> anyhow::Result<()> {
    let root = root();
    let wanted = locked_version(&root.join("Cargo.lock"), "wasm-bindgen")?;
    check_wasm_bindgen(&wanted)?;
    cargo(&["build", "-p", "kulami-web", "--lib", "--profile", "web", "--target", TARGET]).with_context(|| {
        format!("the WebAssembly build failed; is the target installed? `rustup target add {TARGET}`")
    })?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let site = target.join("site");
    if site.exists() {
        std::fs::remove_dir_all(&site).with_context(|| format!("cannot empty {}", site.display()))?;
    }
    let program = target.join(TARGET).join("web/kulami_web.wasm");
    let status = Command::new("wasm-bindgen")
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--remove-name-section",
            "--remove-producers-section",
            "--out-dir",
        ])
        .arg(&site)
        .arg(&program)
        .status()
        .context("cannot run wasm-bindgen")?;
    if !status.success() {
        bail!("wasm-bindgen failed ({status})");
    }
    for page in ["index.html", "worker.js"] {
        let from = root.join("apps/kulami-web/web").join(page);
        std::fs::copy(&from, site.join(page)).with_context(|| format!("cannot copy {}", from.display()))?;
    }
    compress(&site)?;
    eprintln!("serve it with: cargo run --release -p kulami-server -- --web {}", site.display());
    Ok(())
}

/// The version of `package` that `Cargo.lock` pins (the CLI must be the same, or the glue it
/// writes does not fit the program).
fn locked_version(lock: &Path, package: &str) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(lock).with_context(|| format!("cannot read {}", lock.display()))?;
    let name = format!("name = \"{package}\"");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line == name
            && let Some(version) = lines.next().and_then(|line| line.strip_prefix("version = \""))
        {
            return Ok(version.trim_end_matches('"').to_owned());
        }
    }
    bail!("{} pins no {package}", lock.display())
}

/// Fails, saying how to install it, unless wasm-bindgen `wanted` is on the PATH: nothing is
/// downloaded during the build.
fn check_wasm_bindgen(wanted: &str) -> anyhow::Result<()> {
    let install = format!("install it with `cargo install wasm-bindgen-cli --version {wanted}`");
    let output = Command::new("wasm-bindgen").arg("--version").output();
    let found = match output {
        Ok(output) if output.status.success() => String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        _ => bail!("wasm-bindgen {wanted} is needed and is not installed: {install}"),
    };
    if found.split_whitespace().nth(1) != Some(wanted) {
        bail!("`{found}` is installed, but Cargo.lock pins wasm-bindgen {wanted}: {install}");
    }
    Ok(())
}

/// Writes each file's gzip and brotli forms beside it (`kulami-server` sends the smallest the
/// browser accepts, without compressing anything per request), and prints the sizes.
fn compress(site: &Path) -> anyhow::Result<()> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(site)?.map(|entry| entry.map(|entry| entry.path())).collect::<Result<_, _>>()?;
    files.sort();
    let mut totals = [0; 3];
    eprintln!("{:>24} {:>10} {:>10} {:>10}", "", "bytes", "gzip", "brotli");
    for file in &files {
        let bytes = std::fs::read(file)?;
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzip.write_all(&bytes)?;
        let gzip = gzip.finish()?;
        let mut brotli = Vec::new();
        let quality = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 24, ..Default::default() };
        brotli::BrotliCompress(&mut bytes.as_slice(), &mut brotli, &quality)?;
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for (extension, compressed) in [("gz", &gzip), ("br", &brotli)] {
            let path = site.join(format!("{name}.{extension}"));
            std::fs::write(&path, compressed).with_context(|| format!("cannot write {}", path.display()))?;
        }
        eprintln!("{name:>24} {:>10} {:>10} {:>10}", bytes.len(), gzip.len(), brotli.len());
        for (total, size) in totals.iter_mut().zip([bytes.len(), gzip.len(), brotli.len()]) {
            *total += size;
        }
    }
    let [raw, gzip, brotli] = totals;
    eprintln!("{:>24} {raw:>10} {gzip:>10} {brotli:>10}", "the site");
    Ok(())
}
