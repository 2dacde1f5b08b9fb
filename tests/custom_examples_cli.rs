//! The worked examples of docs/custom-programs.md (examples/games/) through the commands a user
//! types: `verify custom` agrees on Kayles and the C++ subtraction game, gives Grundy's game the
//! same distribution as the built-in `verify grundy`, and catches the misprinted Kayles claim at
//! its smallest counterexample.

mod common;

use common::{example_game, read, sprague};
use std::path::Path;

fn python(file: &str) -> String {
    format!("python3 {}", example_game(file).display())
}

/// `verify custom --game-cmd COMMAND --max MAX -q --out OUT`, its exit code and what it printed.
fn verify_custom(command: &str, max: u32, out: &Path) -> (i32, String) {
    let output = sprague()
        .args(["verify", "custom", "--game-cmd", command, "--max", &max.to_string(), "-q", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let printed = [output.stdout, output.stderr].concat();
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&printed).into_owned())
}

/// The rows of a distribution.csv without its header and its game and rule columns.
fn counts(path: &Path) -> Vec<String> {
    read(path).lines().skip(1).map(|l| l.splitn(3, ',').nth(2).unwrap_or_default().to_string()).collect()
}

#[test]
fn kayles_with_its_published_claim_and_its_rows_as_components_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout) = verify_custom(&python("kayles.py"), 16, dir.path());
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("17 sizes, 915 positions, 0 mismatches"), "{stdout}");
}

#[test]
fn grundy_s_game_in_python_has_the_built_in_distribution() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout) = verify_custom(&python("grundy.py"), 14, &dir.path().join("custom"));
    assert_eq!(code, 0, "{stdout}");
    sprague().args(["verify", "grundy", "--max", "14", "-q", "--out"]).arg(dir.path().join("built-in")).assert().code(0);
    let custom = counts(&dir.path().join("custom/distribution.csv"));
    // The built-in run starts at one stone; the program also lists the empty position (size 0).
    assert_eq!(custom[0], "1,0,0,0,1", "size 0: one position, no heaps, value 0");
    assert_eq!(custom[1..], counts(&dir.path().join("built-in/distribution.csv"))[..]);
}

#[test]
fn the_misprinted_kayles_claim_is_caught_at_one_row_of_eleven() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout) = verify_custom(&python("kayles_wrong.py"), 14, dir.path());
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("first counterexample: rows 1, size 11, position 11 — claim 4, naive 6"), "{stdout}");
    let mismatches = read(&dir.path().join("mismatches.csv"));
    assert!(mismatches.lines().skip(1).all(|l| l.ends_with(",11,4,6,First,claim")), "every failure shrinks to the row of 11, a wrong claim:\n{mismatches}");
}

#[test]
fn subtraction_in_cpp_agrees_and_shows_period_seven() {
    let dir = tempfile::tempdir().unwrap();
    let Some(binary) = common::compile_subtraction_cpp(dir.path(), "subtraction_in_cpp_agrees_and_shows_period_seven") else { return };
    let (code, stdout) = verify_custom(&binary.display().to_string(), 300, &dir.path().join("out"));
    assert_eq!(code, 0, "{stdout}");
    let table = sprague().args(["table", "custom", "--game-cmd"]).arg(&binary).args(["--max", "60"]).output().unwrap();
    let summary = String::from_utf8_lossy(&table.stderr);
    assert!(summary.contains("period 7 after a preperiod of 0 (observed on sizes 0..=60, not proved)"), "{summary}");
}
