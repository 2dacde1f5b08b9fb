//! results/SHA256SUMS: the digests of the committed files no manifest lists, and the check that every committed file has one.

use super::protect::{protect_files, Damage};
use crate::output::digests::{check_digest, sums_lines, Omitted};
use crate::output::verify_files::{tree_dirs, CHECKPOINT, MANIFEST, UNFINISHED};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub use crate::output::digests::SUMS;

/// What is wrong with the files SHA256SUMS lists under `root` (a file missing, changed, a line
/// not in the form), and every file under `root` that no digest protects: neither listed by a
/// manifest.json of its directory or one above, nor by SHA256SUMS (documentation, `*.md`, and
/// hidden or temporary files aside). A checkpoint.json is a run in progress, which committed
/// results do not hold.
pub(super) fn protect_sums(root: &Path, omitted: Omitted) -> Vec<Damage> {
    let path = root.join(SUMS);
    let damaged = |file: PathBuf, message: &str| Damage { file, message: message.to_string() };
    if !path.exists() {
        return vec![damaged(path, "missing (a copy of the committed results needs it: it holds the digests of the files no manifest lists)")];
    }
    let Ok(text) = std::fs::read_to_string(&path) else { return vec![damaged(path, "unreadable")] };
    let mut damage = Vec::new();
    let mut covered: BTreeSet<PathBuf> = [path.clone()].into();
    for line in sums_lines(&text) {
        let (digest, name) = match line {
            Ok(line) => line,
            Err(why) => {
                damage.push(damaged(path.clone(), &why));
                continue;
            }
        };
        let file = root.join(name);
        match check_digest(&file, digest, SUMS) {
            Ok(()) => {}
            Err(_) if !file.exists() => damage.push(damaged(file.clone(), &format!("missing (listed in {SUMS})"))),
            Err(error) => damage.push(Damage::of_error(file.clone(), &error)),
        }
        covered.insert(file);
    }
    let (listed, unreadable) = listed_by_manifests(root, omitted);
    covered.extend(listed);
    damage.extend(unreadable);
    damage.extend(unprotected(root, &covered).into_iter().map(|file| {
        let running = file.file_name().is_some_and(|name| name == CHECKPOINT || name == UNFINISHED);
        damaged(file, &if running { RUNNING.to_string() } else { format!("protected by no digest (list it in {SUMS})") })
    }));
    damage
}

/// What a checkpoint.json (or another run's unfinished.json) in the committed results is: a
/// run that never finished, whose files no manifest seals.
const RUNNING: &str = "a run in progress (or stopped) left in the committed results: finish it (a verify or census run with --resume, another by running its command again), or delete it";

/// Every manifest.json under `root` and every file one lists, with what [`protect_files`]
/// finds wrong with them (a broken seal, a changed or missing file: also in directories no
/// registry entry covers). A manifest that cannot be read is damage; the files under its
/// directory count as covered, so that they are not each named again for it.
fn listed_by_manifests(root: &Path, omitted: Omitted) -> (Vec<PathBuf>, Vec<Damage>) {
    let (mut out, mut damage) = (Vec::new(), Vec::new());
    for (_, dir) in tree_dirs(root) {
        let path = dir.join(MANIFEST);
        match protect_files(&dir, &[], omitted) {
            Ok((manifest, found)) => {
                out.extend(manifest.files.keys().map(|name| dir.join(name)));
                damage.extend(found);
            }
            Err(error) if path.is_file() => {
                damage.push(Damage::in_dir(&dir, &error));
                out.extend(files_under(&dir));
            }
            Err(_) => continue,
        }
        out.push(path);
    }
    (out, damage)
}

/// The plain files of `dir` and every directory below it.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (_, dir) in tree_dirs(dir) {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        out.extend(entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_file())).map(|e| e.path()));
    }
    out
}

/// The files under `root` not in `covered`, but documentation (`*.md`) and hidden or
/// temporary files (`.sprague.lock`, `*.tmp.*`).
fn unprotected(root: &Path, covered: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let skipped = |path: &Path| path.file_name().map(|n| n.to_string_lossy()).is_some_and(|name| name.starts_with('.') || name.ends_with(".md") || name.contains(".tmp."));
    let mut out: Vec<PathBuf> = files_under(root).into_iter().filter(|p| !skipped(p) && !covered.contains(p)).collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::atomic::sha256_file;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("run")).unwrap();
        std::fs::write(dir.path().join("run/values.csv"), "n,g\n0,0\n").unwrap();
        let digest = sha256_file(&dir.path().join("run/values.csv")).unwrap();
        std::fs::write(dir.path().join(SUMS), format!("{digest}  run/values.csv\n")).unwrap();
        std::fs::write(dir.path().join("README.md"), "notes\n").unwrap();
        dir
    }

    #[test]
    fn listed_files_are_protected_and_every_file_needs_a_digest() {
        let dir = tree();
        assert_eq!(protect_sums(dir.path(), |_, _| false), []);
        std::fs::write(dir.path().join("run/values.csv"), "n,g\n0,1\n").unwrap();
        std::fs::write(dir.path().join("run/extra.csv"), "x\n").unwrap();
        let found: Vec<String> = protect_sums(dir.path(), |_, _| false).iter().map(|d| d.to_string()).collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("values.csv: sha256 ") && found[1].contains("extra.csv: protected by no digest"), "{found:?}");
        std::fs::remove_file(dir.path().join("run/values.csv")).unwrap();
        assert!(protect_sums(dir.path(), |_, _| false)[0].to_string().ends_with("values.csv: missing (listed in SHA256SUMS)"));
    }

    #[test]
    fn an_unreadable_manifest_is_named_once_not_each_of_its_files() {
        let dir = tree();
        std::fs::create_dir_all(dir.path().join("other/sub")).unwrap();
        std::fs::write(dir.path().join("other/summary.csv"), "x\n").unwrap();
        std::fs::write(dir.path().join("other/sub/values.csv"), "x\n").unwrap();
        std::fs::write(dir.path().join("other").join(MANIFEST), "[").unwrap();
        let found: Vec<String> = protect_sums(dir.path(), |_, _| false).iter().map(|d| d.to_string()).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("other/manifest.json: "), "{found:?}");
    }
}
