//! `cargo xtask tidy`: the documentation tells the truth about the tree. Every file or folder
//! that a Markdown file or a Rust comment names exists, and the command line's definition is
//! sound and every command of it has help (that check is a test of the `kulami` binary, run
//! from here too).

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::{cargo, root};

pub fn run() -> anyhow::Result<()> {
    let missing = missing_paths(&root());
    if !missing.is_empty() {
        bail!("{} references to files that do not exist:\n{}", missing.len(), missing.join("\n"));
    }
    eprintln!("tidy: every path named in the docs and comments exists");
    cargo(&["test", "--quiet", "-p", "kulami-cli", "--bin", "kulami", "command_line"])
}

/// Folders that hold no documentation of ours.
const SKIPPED_DIRS: [&str; 4] = ["target", ".git", "corpus", "artifacts"];

/// Every reference to a missing path, as `file:line: path`.
fn missing_paths(root: &Path) -> Vec<String> {
    let mut tree = Vec::new();
    collect_tree(root, &mut tree);
    let tree: Vec<String> =
        tree.iter().filter_map(|path| path.strip_prefix(root).ok()).map(|p| p.display().to_string()).collect();
    let mut files = Vec::new();
    collect_files(root, &mut files);
    let mut missing = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let is_rust = file.extension().is_some_and(|extension| extension == "rs");
        for (index, line) in text.lines().enumerate() {
            let prose = if is_rust { comment_of(line) } else { Some(line) };
            for reference in prose.into_iter().flat_map(references) {
                if !resolves(root, &file, reference) && !names_a_tree_path(&tree, reference) {
                    let shown = file.strip_prefix(root).unwrap_or(&file).display();
                    missing.push(format!("{shown}:{}: {reference}", index + 1));
                }
            }
        }
    }
    missing
}

/// Every file and folder of the tree, less the skipped folders.
fn collect_tree(dir: &Path, paths: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if SKIPPED_DIRS.iter().any(|skipped| entry.file_name() == *skipped) {
            continue;
        }
        if path.is_dir() {
            collect_tree(&path, paths);
        }
        paths.push(path);
    }
}

/// Whether some path of the tree ends with `reference` (as `cell.rs` names the file of the crate
/// a sentence is about).
fn names_a_tree_path(tree: &[String], reference: &str) -> bool {
    let reference = reference.trim_end_matches('/');
    tree.iter().any(|path| path == reference || path.ends_with(&format!("/{reference}")))
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !SKIPPED_DIRS.iter().any(|skipped| name == *skipped) {
                collect_files(&path, files);
            }
        } else if path.extension().is_some_and(|extension| extension == "md" || extension == "rs") {
            files.push(path);
        }
    }
}

/// The comment part of a line of Rust (`//`, `///`, `//!`), if it has one outside a string.
fn comment_of(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    trimmed.starts_with("//").then_some(trimmed)
}

/// What in `text` names a file of the tree: `code spans` and link targets that look like a
/// path (with a `/` or a `.md` or `.rs` name), less what is plainly not in the tree (URLs,
/// home and system paths, build outputs, patterns and placeholders).
fn references(text: &str) -> impl Iterator<Item = &str> {
    let code_spans = text.split('`').skip(1).step_by(2);
    let links = text.split("](").skip(1).filter_map(|rest| rest.split(')').next());
    code_spans.chain(links).filter(|candidate| looks_like_a_tree_path(candidate))
}

fn looks_like_a_tree_path(candidate: &str) -> bool {
    let is_path_like = candidate.contains('/') || candidate.ends_with(".md") || candidate.ends_with(".rs");
    let plainly_elsewhere = candidate.contains("://")
        || candidate.starts_with(['~', '/', '.', '-', '#'])
        || candidate.starts_with("target/")
        || candidate.contains(|c: char| c.is_whitespace() || "<>{}*$…|:=,()[]\"'".contains(c));
    // Layout text on one line (`AABB/CCDD`) and move lists are not paths.
    let is_layout =
        candidate.split('/').all(|row| !row.is_empty() && row.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
            && !candidate.contains(".md")
            && !candidate.contains(".rs")
            && !candidate.contains(".txt");
    is_path_like && !plainly_elsewhere && !is_layout
}

/// Whether `reference`, named in `file`, exists beside the file, in its crate or at the root.
fn resolves(root: &Path, file: &Path, reference: &str) -> bool {
    let reference = reference.trim_end_matches('/');
    let mut bases: Vec<&Path> = file.ancestors().skip(1).take_while(|dir| dir.starts_with(root)).collect();
    bases.push(root);
    bases.iter().any(|base| base.join(reference).exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_the_docs_and_comments_name_exists() {
        let missing = missing_paths(&root());
        assert!(missing.is_empty(), "references to files that do not exist:\n{}", missing.join("\n"));
    }

    #[test]
    fn the_check_finds_a_missing_file_and_passes_over_what_is_no_path() {
        let found: Vec<&str> =
            references("see `docs/RULES.md`, `kulami.md`, [the rules](docs/RULES.md) and `AABB/CCDD`").collect();
        assert_eq!(found, ["docs/RULES.md", "kulami.md", "docs/RULES.md"]);
        assert_eq!(references("`https://x/y` `~/.local/share` `target/dist` `d4 d7`").count(), 0);
        let root = root();
        let readme = root.join("README.md");
        assert!(resolves(&root, &readme, "docs/RULES.md"));
        assert!(!resolves(&root, &readme, "kulami.md"));
        let tree = ["crates/kulami-core/src/cell.rs".to_owned(), "crates/kulami-layouts/src/generate".to_owned()];
        assert!(names_a_tree_path(&tree, "cell.rs") && names_a_tree_path(&tree, "generate/"));
        assert!(!names_a_tree_path(&tree, "ell.rs") && !names_a_tree_path(&tree, "kulami.md"));
        assert!(resolves(&root, &root.join("crates/kulami-ai/src/puzzle.rs"), "data/puzzles.txt"));
        assert_eq!(comment_of("    /// the `x` file"), Some("/// the `x` file"));
        assert_eq!(comment_of("let path = \"a/b.md\";"), None);
    }
}
