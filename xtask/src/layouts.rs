//! `cargo xtask layouts [--check]`: every curated board file must be a valid board in canonical
//! form (the text `Board::to_file_text` writes). Without `--check`, rewrites the files that are
//! valid but not canonical.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use kulami_layouts::Board;

/// The curated boards' folder from the workspace root.
const LAYOUTS: &str = "crates/kulami-layouts/layouts";

/// Checks (and without `check`, rewrites) every `.txt` file of the layouts folder.
pub fn run(check: bool) -> anyhow::Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(crate::root().join(LAYOUTS))
        .context("cannot list the layouts folder")?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|path| path.extension().is_some_and(|extension| extension == "txt"));
    files.sort();
    let mut problems = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        match Board::parse(&text) {
            Err(error) => problems.push(format!("{}: {error}", path.display())),
            Ok(board) if board.to_file_text() != text => {
                if check {
                    problems.push(format!("{}: not in canonical form (run `cargo xtask layouts`)", path.display()));
                } else {
                    std::fs::write(path, board.to_file_text())?;
                    eprintln!("rewrote {}", path.display());
                }
            }
            Ok(_) => {}
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    eprintln!("{} layout files are valid and canonical", files.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_layout_file_is_valid_and_canonical() {
        super::run(true).unwrap();
    }
}
