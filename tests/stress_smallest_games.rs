//! The smallest failing input for the games other than the wall, whatever generator finds the
//! failure first: a Nim program wrong on `1 2 3` (and on large positions) is reported on
//! `1 2 3` as the smallest input; the DAGame program that takes tokens as independent is
//! reported on the smallest DAG it fails on.

mod common;
use common::{example_binary, sprague};

use sprague::output::csv::read_csv;
use sprague::stress::FailureRow;
use std::path::Path;

/// `stress GAME --cmd PROGRAM ARGS…` into `out`: its exit code and the rows of failures.csv.
fn stress(game: &str, program_name: &str, out: &Path, args: &[&str]) -> (i32, Vec<FailureRow>) {
    let run = sprague().args(["stress", game, "--cmd"]).arg(example_binary(program_name)).arg("--out").arg(out).args(["--threads", "2", "--quiet"]).args(args).output().unwrap();
    (run.status.code().unwrap(), read_csv(&out.join("failures.csv")).unwrap_or_default())
}

#[test]
fn every_generator_reports_the_smallest_nim_position() {
    for generator in ["exhaustive", "random", "adversarial"] {
        let tmp = tempfile::tempdir().unwrap();
        let (code, rows) = stress("nim", "nim_one_wrong", tmp.path(), &["--generator", generator, "--budget", "10"]);
        assert_eq!((code, rows.len()), (1, 1), "{generator}");
        let row = &rows[0];
        assert_eq!((row.size_after.as_str(), row.smallest, row.source.as_str()), ("3 piles, largest 3", true, generator), "{row:?}");
        assert!(row.searched.starts_with("smallest:"), "{row:?}");
        assert_eq!(std::fs::read_to_string(tmp.path().join("failures/001.in")).unwrap(), "3\n1 2 3\n");
        if generator != "exhaustive" {
            assert!(row.size_shrunk != row.size_after && row.searched.contains("found by the search below"), "{row:?}");
        }
    }
}

#[test]
fn a_dagame_failure_is_searched_below() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, rows) = stress("dagame", "dagame_independent", tmp.path(), &["--generator", "random", "--budget", "10"]);
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    assert!(row.smallest && row.searched.starts_with("smallest:"), "{row:?}");
    assert!(row.size_after.starts_with("2 nodes, 1 edge"), "{row:?}");
}

#[test]
fn nim_move_answers_any_winning_move_passes_and_a_losing_one_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let right = format!("{} last", example_binary("nim_moves").display());
    let run = |cmd: &str, out: &Path| {
        let run = sprague().args(["stress", "nim", "--answer", "move", "--cmd", cmd, "--budget", "3", "--threads", "2", "-q", "--out"]).arg(out).output().unwrap();
        (run.status.code().unwrap(), read_csv::<FailureRow>(&out.join("failures.csv")).unwrap_or_default())
    };
    assert_eq!(run(&right, &tmp.path().join("right")), (0, vec![]));
    let (code, rows) = run(&format!("{} losing", example_binary("nim_moves").display()), &tmp.path().join("wrong"));
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    assert!(row.smallest && row.detail.contains("the move leaves the opponent a win"), "{row:?}");
    // The smallest won position with a pile of 3 on which taking one from the first pile loses.
    assert_eq!(std::fs::read_to_string(tmp.path().join("wrong/failures/001.in")).unwrap(), "1\n3\n");
    assert_eq!((row.expected.as_str(), row.got.as_str()), ("1 3", "1 1"));
}
