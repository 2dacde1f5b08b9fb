//! `sprague check` and `sprague report` on a tree of runs of our own (not the committed results).

use assert_cmd::Command;
use predicates::prelude::*;
use sprague::output::atomic::sha256_file;
use sprague::output::manifest::Manifest;
use std::path::Path;

fn sprague() -> Command {
    Command::cargo_bin("sprague").unwrap()
}

/// A tree with a Nim run, two Grundy's-game runs (one with a wrong claim) and a wall run.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let verify = |args: &[&str], out: &str, code: i32| {
        sprague().arg("verify").args(args).args(["-q", "--out"]).arg(dir.path().join(out)).assert().code(code);
    };
    verify(&["nim", "--max", "4"], "nim", 0);
    verify(&["grundy", "--max-total", "12"], "games/grundy", 0);
    verify(&["grundy", "--max-total", "8", "--claim", "equal-splits"], "games/grundy-wrong", 1);
    verify(&["wall", "--max", "2x3"], "wall", 0);
    dir
}

fn check(root: &Path) -> Command {
    let mut cmd = sprague();
    cmd.args(["check", "--results"]).arg(root);
    cmd
}

/// Replaces `from` by `to` in `dir/file` and records the file's new digest in the manifest.
fn edit_and_reseal(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{text}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let manifest_path = dir.join("manifest.json");
    let mut manifest = Manifest::read(&manifest_path).unwrap();
    manifest.files.insert(file.into(), sha256_file(&path).unwrap());
    manifest.write(&manifest_path).unwrap();
}

#[test]
fn check_passes_on_a_tree_of_runs() {
    let dir = tree();
    check(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("(0 damaged); recomputed 30 units"))
        .stdout(predicate::str::contains(": 0 differences"))
        .stdout(predicate::str::contains("missing").not());
    check(&dir.path().join("nim"))
        .args(["--budget", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("skipped for budget (4 units").and(predicate::str::contains(". piles=4 (estimated")));
}

#[test]
fn check_finds_a_changed_file_in_a_tree() {
    let dir = tree();
    let summary = dir.path().join("games/grundy/summary.csv");
    std::fs::write(&summary, std::fs::read_to_string(&summary).unwrap().replace("grundy,exhaustive,1,1,", "grundy,exhaustive,1,1,9")).unwrap();
    check(dir.path()).assert().code(1).stdout(predicate::str::contains(format!("{}: sha256 ", summary.display())));
}

#[test]
fn check_recomputes_a_resealed_edit_in_a_tree() {
    let dir = tree();
    let nim = dir.path().join("nim");
    edit_and_reseal(&nim, "distribution.csv", "nim,standard,1,3,3,3,1", "nim,standard,1,3,3,2,1");
    edit_and_reseal(&nim, "summary.csv", "nim,standard,1,3,1,0,0,3", "nim,standard,1,3,1,0,0,2");
    let (summary, distribution) = (nim.join("summary.csv").display().to_string(), nim.join("distribution.csv").display().to_string());
    check(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{summary}, line 4, expected nim,standard,1,3,1,0,0,2, got nim,standard,1,3,1,0,0,3")))
        .stdout(predicate::str::contains(format!("{distribution}, line 4, expected nim,standard,1,3,3,2,1, got (none)")))
        .stdout(predicate::str::contains(format!("{distribution}, missing row, expected (none), got nim,standard,1,3,3,3,1")));
}
