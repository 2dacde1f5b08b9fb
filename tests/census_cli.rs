//! `sprague census wall` end to end: same distribution as a verified run, sharding, refusals.

use assert_cmd::Command;
use predicates::str::contains;
use sprague::output::manifest::Manifest;
use std::path::Path;

fn sprague() -> Command {
    Command::cargo_bin("sprague").unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn census_equals_the_verified_distribution_and_says_nothing_was_checked() {
    let root = tempfile::tempdir().unwrap();
    let (census, verified) = (root.path().join("census"), root.path().join("verified"));
    sprague().args(["census", "wall", "--max", "4x4", "-q", "--out"]).arg(&census).assert().code(0);
    sprague().args(["verify", "wall", "--max", "4x4", "-q", "--out"]).arg(&verified).assert().code(0);
    for name in ["summary.csv", "distribution.csv", "mismatches.csv"] {
        assert_eq!(read(&census.join(name)), read(&verified.join(name)), "{name}");
    }
    let manifest = Manifest::read(&census.join("manifest.json")).unwrap();
    assert_eq!(manifest.parameters["mode"], "census");
    assert!(manifest.notes.iter().any(|n| n.contains("nothing was cross-checked")), "{:?}", manifest.notes);
}

#[test]
fn census_shards_merge_to_one_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    sprague().args(["census", "wall", "--size", "3x5", "-q", "--out"]).arg(&whole).assert().code(0);
    let shards: Vec<_> = (1..=3)
        .map(|k| {
            let dir = root.path().join(k.to_string());
            let shard = format!("{k}/3");
            sprague().args(["census", "wall", "--size", "3x5", "-q", "--shard", &shard, "--out"]).arg(&dir).assert().code(0);
            dir
        })
        .collect();
    let merged = root.path().join("merged");
    sprague().arg("merge").args(&shards).arg("--out").arg(&merged).assert().code(0);
    assert_eq!(read(&merged.join("distribution.csv")), read(&whole.join("distribution.csv")));
    assert_eq!(read(&merged.join("summary.csv")), read(&whole.join("summary.csv")));
}

#[test]
fn census_refuses_what_it_cannot_count() {
    let root = tempfile::tempdir().unwrap();
    sprague()
        .args(["census", "wall", "--size", "3x9", "-q", "--out"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(contains("at most 36 cells and 8 columns, not 3x9"));
    sprague()
        .args(["census", "wall", "--size", "6x6", "-q", "--memory-limit", "1000000", "--out"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(contains("size 6x6 needs an estimated"));
}
