//! Issue 9 (footholds, cards, kings): examples, bad input → exit 2, claims on small sizes, broken claims caught, committed results recompute.

mod common;
use common::sprague;

use predicates::str::contains;
use sprague::games::cards::claim::Claim as CardsClaim;
use sprague::games::footholds::claim::Policy;
use sprague::games::kings::claim::Claim as KingsClaim;
use sprague::games::{cards::verify as cards, footholds::verify as footholds, kings::verify as kings};

fn solve(game: &str, extra: &[&str], input: &str) -> assert_cmd::assert::Assert {
    sprague().args(["solve", game]).args(extra).write_stdin(input).assert()
}

const FULL_3X3: &str = "3 3\n1 1 1\n1 1 1\n1 1 1\n1 0 1 2\n";

#[test]
fn footholds_issue_examples_with_both_engines() {
    let hole = "3 3\n1 1 1\n1 0 1\n1 1 1\n1 0 1 2\n";
    for (input, moves) in [(FULL_3X3, "5\n"), (hole, "4\n"), ("1 5\n1 1 1 1 1\n0 0 0 4\n", "4\n"), ("1 1\n1\n0 0 0 0\n", "0\n")] {
        solve("footholds", &[], input).success().stdout(moves);
        solve("footholds", &["--engine", "naive"], input).success().stdout(moves);
    }
    solve("footholds", &["--format", "json"], FULL_3X3).success().stdout("{\"moves\":5,\"winner\":\"A\"}\n");
}

#[test]
fn cards_and_kings_answers() {
    let cards = "2\n4\n1 2 5 2\n9\n1 1 1 1 2 2 2 2 2\n";
    solve("cards", &[], cards).success().stdout("6\n8\n");
    solve("cards", &["--engine", "naive"], cards).success().stdout("6\n8\n");
    // Heaps 1 and 1: nim-sum 0, the player to move (Black) loses.
    solve("kings", &[], "2\n3 3\nBlackking\n").success().stdout("Whiteking\n");
    solve("kings", &["--engine", "naive"], "2\n3 3\nBlackking\n").success().stdout("Whiteking\n");
    // Heaps 1 xor 2 = 3 ≠ 0: White, to move, wins; also at full limits (lengths near 10^9).
    solve("kings", &["--engine", "naive"], "2\n3 4\nWhiteking\n").success().stdout("Whiteking\n");
    solve("kings", &[], "3\n1000000000 1000000000 2\nWhiteking\n").success().stdout("Blackking\n");
}

#[test]
fn bad_input_exits_2_with_position() {
    let cases: &[(&str, &str, &str)] = &[
        ("footholds", "", "<stdin>:1:1: empty input"),
        ("footholds", "3 x\n", "<stdin>:1:3: expected C (number of columns) (a number), found \"x\""),
        ("footholds", "2 2\n1 1\n1\n", "<stdin>:3:2: board row 2 has 1 cells, expected 2"),
        ("footholds", "1 5\n1 1 1 1\n0 0 0 4\n", "<stdin>:2:8: board row 1 has 4 cells, expected 5"),
        ("footholds", "1 2\n1 3\n0 0 0 0\n", "<stdin>:2:3: cell (0, 1) (row, column; 0-based) of the board (0 or 1) must be between 0 and 1, found 3"),
        ("footholds", "1 2\n0 1\n0 0 0 1\n", "<stdin>:3:1: A stands on (0, 0) (0-based), which has no foothold"),
        ("footholds", "1 2\n1 1\n0 0 1 0\n", "<stdin>:3:5: row of B (0-based) must be between 0 and 0, found 1"),
        ("footholds", "1 1\n1\n0 0 0 0 0\n", "<stdin>:3:9: unexpected extra input \"0\""),
        ("cards", "0\n", "<stdin>:1:1: T (number of test cases) must be between 1 and 100000, found 0"),
        ("cards", "1\n2\n5 10001\n", "<stdin>:3:3: card 2 of case 1 must be between 1 and 10000, found 10001"),
        ("cards", "1\n3\n5 1\n", "<stdin>:3:4: expected card 3 of case 1, found end of input"),
        ("cards", "1\n1\n5 6\n", "<stdin>:3:3: unexpected extra input \"6\""),
        ("kings", "101\n", "<stdin>:1:1: N (number of bridges) must be between 1 and 100, found 101"),
        ("kings", "2\n3 1000000001\nWhiteking\n", "<stdin>:2:3: length A_2 of bridge 2 must be between 2 and 1000000000"),
        ("kings", "1\n3\nRedking\n", "<stdin>:3:1: expected the first player (Whiteking or Blackking), found \"Redking\""),
        ("kings", "1\n3\n", "<stdin>:2:2: expected the first player, found end of input"),
    ];
    for &(game, input, message) in cases {
        solve(game, &[], input).code(2).stderr(contains(message));
    }
    // Inputs too large for the reference engines are usage errors, not panics.
    solve("cards", &["--engine", "naive"], &format!("1\n23\n{}\n", "1 ".repeat(23))).code(2).stderr(contains("at most 22"));
    solve("kings", &["--engine", "naive"], "2\n1000 1000\nWhiteking\n").code(2).stderr(contains("retrograde"));
}

#[test]
fn claims_hold_on_small_sizes() {
    for (rows, cols) in footholds::shapes(9) {
        let r = footholds::verify_shape(rows, cols, Policy::LoseSlow).unwrap();
        assert!(r.all_agree(), "{rows}x{cols}: {:?}", r.mismatches);
    }
    for len in 1..=8 {
        assert!(cards::verify_length(len, 4, CardsClaim::Dp).unwrap().all_agree(), "length {len}");
    }
    let results = kings::verify_sets(3, 6, KingsClaim::NimMinus2).unwrap();
    assert!(results.all_agree(), "{:?}", results.mismatches);
    let graphs = kings::graph_rows(&results).unwrap();
    assert_eq!(graphs.len(), 5 + 15 + 35);
    assert!(graphs.iter().all(|g| g.draws == 0 && g.positions == g.wins + g.losses));
}

#[test]
fn broken_claims_are_caught() {
    let r = footholds::verify_shape(2, 3, Policy::LoseFast).unwrap();
    assert!(r.mismatches.iter().any(|m| m.board == "2x3|011/111|0,2,0,1"), "{:?}", r.mismatches);
    // Greedy takes the 2 and hands over the 10.
    let g = cards::verify_length(4, 10, CardsClaim::Greedy).unwrap();
    assert!(g.mismatches.iter().any(|m| m.board == "1 10 2 1" && m.dp_grundy == 3 && m.naive_grundy == Some(11)));
    // Nim on A_i − 1 says a single 2-cell bridge is won by the mover; it is lost (no move).
    let k = kings::verify_sets(1, 3, KingsClaim::NimMinus1).unwrap();
    assert!(k.mismatches.iter().any(|m| m.board == "2 Whiteking"), "{:?}", k.mismatches);
}

#[test]
fn cli_verify_writes_files_and_fails_on_broken_claims() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    sprague().args(["verify", "footholds", "--max", "6", "-q", "--out", &out("f")]).assert().success();
    let outcomes = std::fs::read_to_string(dir.path().join("f/outcomes.csv")).unwrap();
    assert!(outcomes.starts_with("game,rule,rows,cols,winner,moves,positions\nfootholds,exhaustive,1,1,B,0,1\n"), "{outcomes}");
    sprague().args(["verify", "footholds", "--max", "6", "--claim", "lose-fast", "-q", "--out", &out("fb")]).assert().code(1);
    sprague().args(["verify", "cards", "--max", "5", "--claim", "greedy", "-q", "--out", &out("cb")]).assert().code(1);
    sprague().args(["verify", "kings", "--max", "2x4", "-q", "--out", &out("k")]).assert().success();
    assert!(dir.path().join("k/graphs.csv").exists());
    sprague().args(["verify", "kings", "--claim", "nim-minus-1", "--max", "1x7", "-q", "--out", &out("kb")]).assert().code(1);
    sprague().args(["verify", "kings", "--max", "5x7", "-q", "--out", &out("kx")]).assert().code(2);
}

