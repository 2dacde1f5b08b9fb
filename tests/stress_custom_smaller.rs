//! `stress custom` shrinks a failing position with the game program's own `smaller`
//! candidates when it answers them (else the position's moves): a game where one move takes
//! two stones, whose starting positions are heaps of 12 and more, against a solution wrong on
//! heaps of 5, 9, 13, … The moves of 13 lead only to 11 (where the solution is right), so
//! only `smaller` reaches 5.

mod common;
use common::sprague;

use predicates::str::contains;
use std::path::Path;

const GAME: &str = r#"import sys
SMALLER = sys.argv[1] == "smaller"
for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "sprague":
        print("positions moves smaller" if SMALLER else "positions moves")
    elif verb == "positions":
        print(arg if int(arg) >= 12 else "")
    elif verb == "moves":
        print(int(arg) - 2 if int(arg) >= 2 else "")
    elif verb == "smaller":
        print(" ".join(str(k) for k in range(1, int(arg))))
    elif verb == "flush":
        sys.stdout.flush()
"#;

const WRONG: &str = "n = int(input())\nprint(1 if n % 4 == 1 and n >= 5 else n // 2 % 2)\n";

fn shrunk(dir: &Path, verbs: &str) -> String {
    std::fs::write(dir.join("game.py"), GAME).unwrap();
    std::fs::write(dir.join("wrong.py"), WRONG).unwrap();
    let game = format!("python3 {} {verbs}", dir.join("game.py").display());
    let wrong = format!("python3 {}", dir.join("wrong.py").display());
    let out = dir.join(verbs);
    let args = ["stress", "custom", "-q", "--game-cmd", &game, "--cmd", &wrong, "--max", "13", "--generator", "exhaustive", "--out"];
    sprague().args(args).arg(&out).assert().code(1).stdout(contains("FAILED 001: wrong-answer"));
    assert_eq!(std::fs::read_to_string(out.join("failures/001.orig.in")).unwrap(), "13\n", "found on the first failing start");
    std::fs::read_to_string(out.join("failures/001.in")).unwrap()
}

#[test]
fn a_failing_position_shrinks_through_the_programs_smaller_candidates() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(shrunk(dir.path(), "smaller"), "5\n");
    assert_eq!(shrunk(dir.path(), "moves"), "13\n", "by its moves alone it cannot shrink");
}

/// A chain game whose starting position of size N is N × 40000: exploring size 3 asks
/// 120 000 positions their moves, far more than a budget of 1 s allows.
const CHAIN: &str = r#"import sys
for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "sprague": print("positions moves smaller")
    elif verb == "positions": print(int(arg) * 40000)
    elif verb == "moves": print(" ".join(str(int(arg) - k) for k in (1, 3, 4) if k <= int(arg)))
    elif verb == "smaller": print("%d %s" % (int(arg) + 7, arg))
    elif verb == "flush": sys.stdout.flush()
"#;

#[test]
fn the_games_exploration_stops_at_the_budget_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chain.py"), CHAIN).unwrap();
    std::fs::write(dir.path().join("wrong.py"), WRONG).unwrap();
    let game = format!("python3 {}", dir.path().join("chain.py").display());
    let wrong = format!("python3 {}", dir.path().join("wrong.py").display());
    let started = std::time::Instant::now();
    let args = ["stress", "custom", "-q", "--game-cmd", &game, "--cmd", &wrong, "--max", "3", "--budget", "1", "--generator", "exhaustive", "--out"];
    let out = sprague().args(args).arg(dir.path().join("out")).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("exploring the game used the whole --budget 1 s") && stderr.contains("judged and"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(8), "bounded by the budget: {:?}", started.elapsed());
}

#[test]
fn smaller_candidates_that_are_not_smaller_are_not_taken() {
    // `smaller` answers a larger position and the position itself, and the solution is wrong
    // on every heap from 9 on: taken, they would grow the input or loop.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chain.py"), CHAIN.replace("int(arg) * 40000", "int(arg)")).unwrap();
    std::fs::write(dir.path().join("wrong.py"), "n = int(input())\nprint([0, 1, 0, 1, 2, 3, 2][n % 7] ^ (n >= 9))\n").unwrap();
    let game = format!("python3 {}", dir.path().join("chain.py").display());
    let wrong = format!("python3 {}", dir.path().join("wrong.py").display());
    let out = dir.path().join("out");
    let args = ["stress", "custom", "-q", "--game-cmd", &game, "--cmd", &wrong, "--max", "13", "--generator", "exhaustive", "--out"];
    sprague().args(args).arg(&out).assert().code(1).stdout(contains("already minimal"));
    assert_eq!(std::fs::read_to_string(out.join("failures/001.in")).unwrap(), "9\n");
}
