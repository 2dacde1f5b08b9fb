//! `prove octal-family` (every code 0.d1…dk) through the command line: the files, a run stopped
//! and resumed, bad options; `check` of the committed family finding a changed digit.

mod common;
use common::{copy_dir, read, sprague};

use predicates::prelude::PredicateBooleanExt;
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
    family(&resumed, &["--stop-after-codes", "3"]).code(3).stderr(contains("stopped with 3 of 8 codes done"));
    assert_eq!(std::fs::read_dir(resumed.join("rows")).unwrap().count(), 3, "one row saved per code done");
    family(&resumed, &[]).success();
    assert_eq!(read(&resumed.join("family.csv")), table);
    assert_eq!(read(&resumed.join("equivalences.csv")), read(&whole.join("equivalences.csv")));
}

/// `prove octal-family --digits 2 --max MAX` into `out`, one thread.
fn two_digits(out: &Path, max: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    sprague().args(["prove", "octal-family", "--digits", "2", "--max", max, "--threads", "1", "-q", "--out"]).arg(out).args(extra).assert()
}

#[test]
fn saved_rows_are_checked_before_a_rerun_uses_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    // 0.0, 0.01, 0.02, 0.03 done; 0.02 is proved, period 4.
    two_digits(&out, "4096", &["--stop-after-codes", "4"]).code(3).stderr(contains("stopped with 4 of 64 codes done"));
    let (row, values) = (out.join("rows/0.02.json"), out.join("values/0.02.csv"));
    let (row_text, values_text) = (read(&row), read(&values));
    assert!(row_text.contains("\"period\":4,"), "{row_text}");
    // The row edited (period 4 -> 5): its digest refuses it, naming the file.
    std::fs::write(&row, row_text.replace("\"period\":4,", "\"period\":5,")).unwrap();
    two_digits(&out, "4096", &[]).code(2).stderr(contains("rows/0.02.json: content does not match its sha256")).stderr(contains("to compute 0.02 again"));
    assert!(!out.join("family.csv").exists());
    // The values edited (g(1) 0 -> 3): the row's digest of them refuses them.
    std::fs::write(&row, &row_text).unwrap();
    assert!(values_text.contains("\n1,0\n"), "{values_text}");
    std::fs::write(&values, values_text.replacen("\n1,0\n", "\n1,3\n", 1)).unwrap();
    two_digits(&out, "4096", &[]).code(2).stderr(contains("values/0.02.csv does not prove this row")).stderr(contains("sha256: the row"));
    assert!(!out.join("family.csv").exists());
    // Restored, the run goes on to the table a run in one sitting writes.
    std::fs::write(&values, &values_text).unwrap();
    two_digits(&out, "4096", &[]).success();
    let clean = dir.path().join("clean");
    two_digits(&clean, "4096", &[]).success();
    assert_eq!(read(&out.join("family.csv")), read(&clean.join("family.csv")));
    assert_eq!(read(&out.join("values/0.02.csv")), values_text);
}

#[test]
fn rows_saved_with_other_parameters_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    two_digits(&out, "8192", &["--stop-after-codes", "4"]).code(3);
    two_digits(&out, "2048", &[])
        .code(2)
        .stderr(contains("rows/0.0.json was saved by a run with other parameters (max: saved 8192, this run 2048)"))
        .stderr(contains("delete"));
    two_digits(&out, "8192", &["--dense-from", "4096"]).code(2).stderr(contains("dense_from: saved 32768, this run 4096"));
    sprague().args(["prove", "octal-family", "--digits", "1", "--max", "8192", "-q", "--out"]).arg(&out).assert().code(2).stderr(contains("digits: saved 2, this run 1"));
    assert!(!out.join("family.csv").exists() && !out.join("manifest.json").exists());
    // Without the stale rows, --max 2048 writes what a clean run writes.
    std::fs::remove_dir_all(out.join("rows")).unwrap();
    two_digits(&out, "2048", &[]).success();
    let clean = dir.path().join("clean");
    two_digits(&clean, "2048", &[]).success();
    assert_eq!(read(&out.join("family.csv")), read(&clean.join("family.csv")));
    let listing = |dir: &Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir.join("values")).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    assert_eq!(listing(&out), listing(&clean), "no values file of the stale rows is left");
}

/// Another family's run is another game's: refused (exit 2) naming both families, the files
/// kept; the same family within other limits is replaced, with a line naming both; the same
/// parameters again are admitted, with no such line.
#[test]
fn another_familys_run_is_refused_and_the_same_familys_replaced_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |digits: &str, max: &str| sprague().current_dir(d).args(["prove", "octal-family", "--digits", digits, "--max", max, "-q", "--out", "f"]).assert();
    run("1", "1024").success();
    let kept = (read(&d.join("f/family.csv")), read(&d.join("f/manifest.json")));
    let refused = "f holds the results of a run of `octal 0.d1…d1` (`sprague prove octal-family --digits 1 --max 1024 -q --out f`, manifest.json), not of `octal 0.d1…d2`";
    run("2", "1024").code(2).stderr(contains(refused));
    assert_eq!((read(&d.join("f/family.csv")), read(&d.join("f/manifest.json"))), kept, "the refused run changed nothing");
    assert!(!d.join("f/rows").exists());
    let replaced = "replaced the run of up to 1024 values, dense codes from 32768 in f (`sprague prove octal-family --digits 1 --max 1024 -q --out f`) by one of up to 2048 values, dense codes from 32768";
    run("1", "2048").success().stderr(contains(replaced));
    assert!(read(&d.join("f/manifest.json")).contains("\"max\": 2048"));
    run("1", "2048").success().stderr(contains("replaced").not());
}

/// A run of the family to another reach withdraws the earlier manifest before it overwrites
/// the values files: stopped partway, it leaves no manifest listing files that have changed,
/// and `check` does not take the half-replaced directory for a sealed run.
#[test]
fn a_stopped_replacement_leaves_no_stale_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |max: &str, extra: &[&str]| sprague().current_dir(d).args(["prove", "octal-family", "--digits", "1", "--max", max, "-q", "--out", "f"]).args(extra).assert();
    run("1024", &[]).success();
    run("1024", &["--stop-after-codes", "2"]).code(3);
    assert!(d.join("f/manifest.json").is_file(), "a stopped rerun of the same reach keeps the sealed run");
    run("2048", &[]).code(2).stderr(contains("was saved by a run with other parameters"));
    assert!(d.join("f/manifest.json").is_file(), "a refused run withdraws nothing");
    run("1024", &[]).success();
    run("2048", &["--stop-after-codes", "2"]).code(3);
    assert!(!d.join("f/manifest.json").exists(), "the 1024-value manifest was withdrawn");
    run("2048", &[]).success().stderr(contains("replaced").not());
    assert!(read(&d.join("f/manifest.json")).contains("\"max\": 2048"));
    sprague().current_dir(d).args(["check", "--results", "f"]).assert().success().stdout(contains("0 damaged"));
}

/// Rows a stopped run of another family left (none of a code both families share) are
/// refused: the run would delete them with rows/ at its end.
#[test]
fn rows_of_another_familys_codes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    two_digits(&out, "4096", &["--stop-after-codes", "4"]).code(3);
    std::fs::remove_file(out.join("rows/0.0.json")).unwrap();
    family(&out, &[]).code(2).stderr(contains("rows/0.01.json is the row of 0.01, not a code of the family 0.d1…d1"));
    assert!(out.join("rows/0.02.json").is_file() && !out.join("family.csv").exists());
}

/// `rows/`, which a finished run deletes, and `values/` are the run's: files of the user's there,
/// in a directory no run recorded, are refused untouched before anything is written.
#[test]
fn a_directory_of_the_users_rows_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    std::fs::create_dir_all(out.join("rows")).unwrap();
    std::fs::write(out.join("rows/notes.txt"), "my notes\n").unwrap();
    let refused = format!("{} holds files no sprague run recorded (rows/notes.txt; no manifest.json)", out.display());
    family(&out, &[]).code(2).stderr(contains(refused.as_str()));
    assert_eq!(read(&out.join("rows/notes.txt")), "my notes\n");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1, "nothing written beside the user's folder");
}

#[test]
fn bad_options_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = |option: &str, value: &str| sprague().args(["prove", "octal-family", option, value, "--out"]).arg(dir.path()).assert();
    run("--digits", "9").code(2).stderr(contains("--digits must be between 1 and 5, found 9"));
    run("--max", "1").code(2).stderr(contains("--max must be at least 2"));
}

/// A run that could take years is refused before it writes anything: the whole run without
/// --budget, one code with it (a code is not stopped midway); --force starts it.
#[test]
fn a_run_that_could_take_years_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("family");
    let run = |extra: &[&str]| sprague().args(["prove", "octal-family", "--digits", "2", "--max", "1073741824", "--dense-from", "1073741824", "-q", "--out"]).arg(&out).args(extra).assert();
    run(&[]).code(2).stderr(contains("every code on").and(contains("years; lower --max or --dense-from")).and(contains("give --budget SECONDS")));
    run(&["--budget", "10"]).code(2).stderr(contains("one code (a code is not stopped midway, whatever --budget)").and(contains("or pass --force")));
    assert!(!out.exists(), "nothing written");
    run(&["--force", "--budget", "0"]).code(3).stderr(contains("stopped with 0 of 64 codes done"));
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
        .stdout(contains("committed 0.77,proved,2,71,13,"));
    // g(30) of Kayles is 7 (A002186); as 6 the file no longer proves period 12 with n0 = 71.
    check_edited("octal/family/values/0.77.csv", "\n30,7\n", "\n30,6\n")
        .code(1)
        .stdout(contains("octal/family/values/0.77.csv: sha256"))
        .stdout(contains("committed 0.77,proved,"));
    // An unreadable table is damage, named with its line; the check goes on with the rest.
    check_edited("octal/family/family.csv", "code,status", "code;status")
        .code(1)
        .stdout(contains("octal/family/family.csv: line 1: header is"))
        .stdout(contains("recomputed "));
}
