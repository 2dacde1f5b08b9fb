//! Grundy's game: OEIS A002188, contest answers, bad input, and the verify command's verdicts.

mod common;
use common::sprague;

use predicates::str::contains;
use sprague::games::grundy::claim::heap_values;
use sprague::games::grundy::verify::sequence;

/// OEIS A002188, n = 0..=104.
const A002188: [u16; 105] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4, 1, 2, 4, 1, 2,
    4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3,
    2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
];

#[test]
fn one_heap_values_are_a002188() {
    assert_eq!(heap_values(104), A002188);
    let brute: Vec<u16> = sequence(40).iter().map(|r| r.grundy as u16).collect();
    assert_eq!(brute, A002188[..=40]);
    // Rare values listed by A. Flammenkamp ("Sprague-Grundy values of Grundy's game").
    let g = heap_values(181);
    assert_eq!((g[87], g[158], g[181]), (7, 11, 12));
}

#[test]
fn solve_answers_and_refuses_bad_input() {
    let solve = |input: &str| sprague().args(["solve", "grundy"]).write_stdin(input).assert();
    solve("2\n3 5\n").success().stdout("First\n");
    solve("2\n3 6\n").success().stdout("Second\n");
    solve("3\n1 2 2\n").success().stdout("Second\n");
    let full = format!("1000\n{}\n", vec!["10000"; 1000].join(" "));
    solve(&full).success().stdout("Second\n");
    solve("0\n").code(2).stderr(contains("<stdin>:1:1: n (number of heaps) must be between 1 and 1000, found 0"));
    solve("2\n3 10001\n").code(2).stderr(contains("<stdin>:2:3: heap 2 must be between 1 and 10000, found 10001"));
    solve("").code(2).stderr(contains("empty input"));
}

#[test]
fn verify_agrees_and_the_misreading_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ok");
    sprague().args(["verify", "grundy", "--max", "16", "-q", "--out"]).arg(&out).assert().success();
    let sequence = std::fs::read_to_string(out.join("sequence.csv")).unwrap();
    assert!(sequence.starts_with("game,n,grundy\ngrundy,0,0\ngrundy,1,0\ngrundy,2,0\ngrundy,3,1\n"), "{sequence}");
    let bad = dir.path().join("bad");
    let first = "first counterexample: totals 1, stones 2, heap_sizes 2 — claim 1, naive 0";
    sprague().args(["verify", "grundy", "--max", "6", "--claim", "equal-splits", "-q", "--out"]).arg(&bad).assert().code(1).stderr(contains(first));
    let mismatches = std::fs::read_to_string(bad.join("mismatches.csv")).unwrap();
    assert!(mismatches.contains("grundy,exhaustive:claim=equal-splits,1,2,2,1,0,Second"), "{mismatches}");
    sprague().args(["verify", "grundy", "--max", "61", "--out"]).arg(dir.path().join("x")).assert().code(2);
}
