//! `prove octal-family` (every code 0.d1…dk) through the command line: the files, a run stopped
//! and resumed, bad options; `check` of the committed family finding a changed digit.

mod common;
use common::{copy_dir, read, sprague};

use predicates::str::contains;
use std::path::Path;

fn family(out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    sprague().args(["prove", "octal-family", "--digits", "1", "--max", "4096", "-q", "--out"]).arg(out).args(extra).assert()
}

#[test]
fn the_one_digit_family_is_written_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    family(&whole, &[]).success().stdout(contains("8 codes: 7 proved, 1 open"));
    let table = read(&whole.join("family.csv"));
    assert_eq!(table.lines().count(), 9);
    // 0.0 (no move at all): g = 0, period 1 from the start (n0 = 1 by convention), t = 0.
    assert!(table.lines().any(|l| l.starts_with("0.0,proved,0,1,1,0,")), "{table}");
    assert!(whole.join("values/0.7.csv").is_file() && !whole.join("rows").exists());
    // A run with no time left starts nothing (exit 3); going on finishes with the same files.
    let resumed = dir.path().join("resumed");
    family(&resumed, &["--budget", "0"]).code(3).stderr(contains("stopped with 0 of 8 codes done"));
    // As a stopped run leaves it: one code done (its row and values kept).
    std::fs::copy(whole.join("values/0.7.csv"), resumed.join("values/0.7.csv")).unwrap();
    let row = table.lines().find(|l| l.starts_with("0.7,")).unwrap();
    std::fs::write(resumed.join("rows/0.7.csv"), format!("{}\n{row}\n", table.lines().next().unwrap())).unwrap();
    family(&resumed, &[]).success();
    assert_eq!(read(&resumed.join("family.csv")), table);
    assert_eq!(read(&resumed.join("equivalences.csv")), read(&whole.join("equivalences.csv")));
}

#[test]
fn bad_options_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = |option: &str, value: &str| sprague().args(["prove", "octal-family", option, value, "--out"]).arg(dir.path()).assert();
    run("--digits", "9").code(2).stderr(contains("--digits must be between 1 and 5, found 9"));
    run("--max", "1").code(2).stderr(contains("--max must be at least 2"));
}

/// `check` on a copy of the committed results with `from` replaced by `to` in `file`.
fn check_edited(file: &str, from: &str, to: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("results"), &root);
    let path = root.join(file);
    let text = read(&path);
    assert!(text.contains(from), "{file} lacks {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    sprague().args(["check", "--budget", "1", "--results"]).arg(&root).assert()
}

#[test]
fn check_finds_a_changed_digit_in_the_table_or_a_values_file() {
    // The period of Kayles: the manifest's digest and the proof from the values both object.
    check_edited("octal/family/family.csv", "\n0.77,proved,2,71,12,", "\n0.77,proved,2,71,13,")
        .code(1)
        .stdout(contains("octal/family/family.csv: sha256"))
        .stdout(contains("expected 0.77,proved,2,71,13,"));
    // g(30) of Kayles is 7 (A002186); as 6 the file no longer proves period 12 with n0 = 71.
    check_edited("octal/family/values/0.77.csv", "\n30,7\n", "\n30,6\n")
        .code(1)
        .stdout(contains("octal/family/values/0.77.csv: sha256"))
        .stdout(contains("expected 0.77,proved,"));
    // An unreadable table is damage, named with its line; the check goes on with the rest.
    check_edited("octal/family/family.csv", "code,status", "code;status")
        .code(1)
        .stdout(contains("octal/family/family.csv: line 1: header is"))
        .stdout(contains("recomputed "));
}
