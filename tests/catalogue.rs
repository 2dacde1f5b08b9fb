//! The catalogue games through the CLI (answers, bad input, verify exit codes) and against the
//! committed results.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use sprague::games::catalogue::divisor;

fn solve(game: &str, input: &str) -> assert_cmd::assert::Assert {
    Command::cargo_bin("sprague").unwrap().args(["solve", game]).write_stdin(input).assert()
}

#[test]
fn answers() {
    let cases = [
        ("nim", "3\n1 2 3\n", "cubelover"),
        ("nim", "2\n1000000000 1\n", "koosaga"),
        ("nim-count", "3\n3 4 5\n", "1"),
        ("misere-nim", "3\n1 1 1\n", "cubelover"),
        ("misere-nim", "1\n1000000000\n", "koosaga"),
        ("odd-even-nim", "2\n3 6\n", "cubelover"),
        ("pimber", "1\n4\n", "cubelover"),
        ("pimber", "2\n4 9\n", "koosaga"),
        ("polygon", "5\n", "2"),
        ("polygon", "6\n", "1"),
        ("cross", "2\n", "2"),
        ("cross", "6\n", "2"),
        ("cross", "7\n", "1"),
        ("divisor", "999999999999999989\n", "cubelover"),
        ("divisor", "999999999999999999\n", "koosaga"),
    ];
    for (game, input, answer) in cases {
        solve(game, input).success().stdout(format!("{answer}\n"));
    }
}

#[test]
fn bad_input_exits_2_with_position() {
    let cases = [
        ("nim", "101\n", "<stdin>:1:1: N (number of piles) must be between 1 and 100"),
        ("nim", "2\n1 z\n", "<stdin>:2:3: expected pile size (a number)"),
        ("pimber", "1\n3000001\n", "<stdin>:2:1: pile size must be between 1 and 3000000"),
        ("polygon", "3\n0 0\n1 0\n", "<stdin>:3:4: expected x coordinate, found end of input"),
        ("cross", "0\n", "<stdin>:1:1: N (strip length) must be between 1 and 2000"),
        ("divisor", "1000000000000000001\n", "<stdin>:1:1: N must be between 1 and"),
        ("divisor", "12 13\n", "<stdin>:1:4: unexpected extra input"),
    ];
    for (game, input, message) in cases {
        solve(game, input).code(2).stderr(predicate::str::contains(message));
    }
}

#[test]
fn verify_writes_files_and_flags_the_cross_claim() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nim");
    let mut cmd = Command::cargo_bin("sprague").unwrap();
    cmd.args(["verify", "odd-even-nim", "--piles", "3", "--max", "6", "--heaps", "20", "-q", "--out"]).arg(&out);
    cmd.assert().success();
    for file in ["summary.csv", "distribution.csv", "mismatches.csv", "sequence.csv", "manifest.json"] {
        assert!(out.join(file).exists(), "{file}");
    }
    let sequence = std::fs::read_to_string(out.join("sequence.csv")).unwrap();
    assert!(sequence.starts_with("game,n,grundy\nodd-even-nim,0,0\nodd-even-nim,1,1\nodd-even-nim,2,0\nodd-even-nim,3,2\n"));

    let out = dir.path().join("cross");
    let mut cmd = Command::cargo_bin("sprague").unwrap();
    cmd.args(["verify", "cross", "--max", "10", "-q", "--out"]).arg(&out);
    cmd.assert().code(1);
    assert_eq!(
        std::fs::read_to_string(out.join("mismatches.csv")).unwrap(),
        "game,rule,strips,cells,strip,dp_grundy,naive_grundy,naive_outcome\ncross,published,1,2,..,1,0,Second\n"
    );
}

#[test]
fn verify_rejects_bad_options() {
    let mut cmd = Command::cargo_bin("sprague").unwrap();
    cmd.args(["verify", "divisor", "--max", "999", "-q", "--out", "/nonexistent/x"]);
    cmd.assert().code(2).stderr(predicate::str::contains("power of ten"));
    let mut cmd = Command::cargo_bin("sprague").unwrap();
    cmd.args(["verify", "nim", "--rule", "misere", "--max", "2", "-q", "--out", "/nonexistent/x"]);
    cmd.assert().code(2).stderr(predicate::str::contains("no rule"));
}

proptest! {
    #[test]
    fn big_omega_is_additive(a in 1u64..1_000_000_000, b in 1u64..1_000_000_000) {
        prop_assert_eq!(divisor::big_omega(a * b), divisor::big_omega(a) + divisor::big_omega(b));
    }
}
