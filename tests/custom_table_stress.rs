//! `table custom` and `stress custom` on game programs in Python: the subtraction game {1, 3, 4}
//! (examples/games/subtraction.py) shows period 7 from 0; docs/custom-programs.md's Kayles
//! program, with its components trusted, shows period 12 after a preperiod of 71 (OEIS A002186:
//! the last exception is n = 70); a right solution passes stress, a wrong one is caught and
//! shrunk to the smallest position it gets wrong, unless the game program answers otherwise when
//! asked again about it; every `table` command's summary goes to stderr.

mod common;
use common::{example_game, read, sprague};

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;

fn example(name: &str) -> String {
    format!("python3 {}", example_game(name).display())
}

/// docs/custom-programs.md's Kayles program, as written there, saved in `dir`.
fn documented_kayles(dir: &Path) -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/custom-programs.md")).unwrap();
    let code = doc.split("```python\n").nth(1).and_then(|rest| rest.split("```").next()).expect("the doc's Python program");
    std::fs::write(dir.join("kayles.py"), code).unwrap();
    format!("python3 {}", dir.join("kayles.py").display())
}

/// A solution under test, saved in `dir`: reads one position, prints `body`'s answer.
fn solution(dir: &Path, name: &str, body: &str) -> String {
    std::fs::write(dir.join(name), body).unwrap();
    format!("python3 {}", dir.join(name).display())
}

#[test]
fn subtraction_shows_period_seven_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sub/table.csv");
    let game = example("subtraction.py");
    sprague().args(["table", "custom", "--game-cmd", &game, "--max", "30", "--out"]).arg(&out).assert().success().stderr(
        contains("31 starting positions, values up to 3").and(contains("period 7 after a preperiod of 0 (observed on sizes 0..=30, not proved)")),
    );
    let table = read(&out);
    assert!(table.starts_with("size,position,value\n0,0,0\n1,1,1\n2,2,0\n3,3,1\n4,4,2\n5,5,3\n6,6,2\n7,7,0\n"), "{table}");
    assert_eq!(table.lines().count(), 32);
    // Without --out: the CSV on stdout, the summary on stderr; 13 values hold period 7 once only.
    let shown = sprague().args(["table", "custom", "--game-cmd", &game, "--max", "12"]).assert().success();
    shown.stdout(contains("size,position,value\n0,0,0\n").and(contains("12,12,3\n"))).stderr(contains("period: none observed on sizes 0..=12"));
    // Misère: outcomes (0 wins at once; 1 must move to 0 and lose).
    let misere = sprague().args(["table", "custom", "--game-cmd", &game, "--max", "3", "--convention", "misere"]).assert().success();
    misere.stdout("size,position,value\n0,0,1\n1,1,0\n2,2,1\n3,3,0\n");
}

#[test]
fn kayles_with_its_components_shows_period_twelve_after_seventy_one() {
    let dir = tempfile::tempdir().unwrap();
    let game = documented_kayles(dir.path());
    let out = dir.path().join("kayles.csv");
    let run = sprague().args(["table", "custom", "--components", "--max", "94", "--game-cmd", &game, "--out"]).arg(&out).assert().success();
    run.stderr(contains("period 12 after a preperiod of 71 (observed on sizes 0..=94, not proved)"));
    let table = read(&out);
    assert!(table.contains("\n70,70,6\n") && table.contains("\n82,82,2\n") && table.contains("\n94,94,2\n"), "{table}");
    // g(70) = 6 ≠ g(82) = 2: the last exception. 94 sizes are too few to see the period twice after 71.
    let short = sprague().args(["table", "custom", "--components", "--max", "93", "--game-cmd", &game]).assert().success();
    short.stderr(contains("period: none observed on sizes 0..=93"));
    // Two or more starting positions of a size: no sequence, no period looked for.
    let pairs = solution(dir.path(), "pairs.py", &read(&dir.path().join("kayles.py")).replace("print(arg)  ", "print(arg, arg + \".1\")  "));
    sprague().args(["table", "custom", "--max", "3", "--game-cmd", &pairs]).assert().success().stderr(contains("period: not looked for"));
    sprague().args(["table", "custom", "--components", "--convention", "misere", "--max", "3", "--game-cmd", &game]).assert().code(2).stderr(contains("needs normal play"));
}

/// Runs `sprague ARGS` (in `dir`), expecting success: its stdout and stderr.
fn streams(dir: &Path, args: &[&str]) -> (String, String) {
    let run = sprague().current_dir(dir).args(args).assert().success();
    let output = run.get_output();
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn every_table_command_prints_its_summary_on_stderr_with_or_without_out() {
    let dir = tempfile::tempdir().unwrap();
    let game = example("subtraction.py");
    // Without --out: the CSV alone on stdout, the summary on stderr.
    let to_stdout: [(&[&str], &str, &str); 2] = [
        (&["table", "custom", "--game-cmd", &game, "--max", "8"], "size,position,value\n", "table custom: 9 starting positions"),
        (&["table", "octal", "0.77", "--max", "8"], "n,grundy\n", "0.77: g(0..=8)"),
    ];
    for (args, header, summary) in to_stdout {
        let (stdout, stderr) = streams(dir.path(), args);
        assert!(stdout.starts_with(header) && !stdout.contains(summary), "{args:?}: stdout {stdout:?}");
        assert!(stderr.contains(summary), "{args:?}: stderr {stderr:?}");
    }
    // With --out (or --out-dir): nothing on stdout, the summary on stderr.
    let to_files: [(&[&str], &str); 4] = [
        (&["table", "custom", "--game-cmd", &game, "--max", "8", "--out", "custom.csv"], "table custom: 9 starting positions, values up to 3 (sizes 0..=8, normal play, Grundy values, 9 positions explored); written to custom.csv"),
        (&["table", "octal", "0.77", "--max", "8", "--out", "octal.csv"], "; written to octal.csv"),
        (&["table", "wall-empty", "--max", "3x3", "--out", "empty.csv"], "wall empty boards: 9 sizes up to 3x3; written to empty.csv"),
        (&["table", "wall-empty", "--max", "3x3", "--out-dir", "empty"], "files in empty"),
    ];
    for (args, summary) in to_files {
        let (stdout, stderr) = streams(dir.path(), args);
        assert_eq!(stdout, "", "{args:?}: stdout");
        assert!(stderr.contains(summary), "{args:?}: stderr {stderr:?}");
    }
    assert!(read(&dir.path().join("custom.csv")).starts_with("size,position,value\n0,0,0\n"));
}

/// `moves N` of the take-one-or-two game; with a state folder as its argument, the program
/// drops its last move the third time it is asked the same `moves` (a count kept in that folder,
/// shared by its copies): its first two answers agree, so only a third ask sees the change.
/// Position 1 loses its only move, so every position but 0 changes (`--slowest` may keep 0 and 1).
const FLAKY: &str = r#"import os, sys
def asked(arg):
    path = os.path.join(sys.argv[1], "moves-" + arg)
    with open(path, "a") as f:
        f.write("x")
    return os.path.getsize(path)
for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "flush":
        sys.stdout.flush()
    elif verb == "sprague":
        print("positions moves")
    elif verb == "positions":
        print(arg)
    else:
        moves = [str(int(arg) - k) for k in (1, 2) if k <= int(arg)]
        print(" ".join(moves[:-1] if len(sys.argv) > 1 and asked(arg) >= 3 else moves))
"#;

#[test]
fn a_game_program_answering_otherwise_when_asked_again_is_refused_not_the_solution_blamed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("flaky.py"), FLAKY).unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let program = format!("python3 {}", dir.path().join("flaky.py").display());
    // g(n) = n mod 3; the solution is wrong from 5 on.
    let wrong = solution(dir.path(), "wrong.py", "n = int(input())\nprint(n % 3 if n < 5 else 7)\n");
    let run = |game: &str, out: &Path| {
        let mut command = sprague();
        command.args(["stress", "custom", "--game-cmd", game, "--cmd", &wrong, "--max", "12", "--generator", "random", "--seed", "2", "-q", "--out"]).arg(out);
        command.assert()
    };
    // Deterministic: the solution is wrong, shrunk to the smallest position it gets wrong.
    let out = dir.path().join("steady");
    run(&program, &out).code(1).stdout(contains("FAILED 001: wrong-answer (random generator)").and(contains("expected 2, got 7")));
    assert_eq!(read(&out.join("failures/001.in")), "5\n");
    // Asked again before the failure is reported, the program answers otherwise: exit 2,
    // the request and both answers named, no failure reported and nothing written.
    let out = dir.path().join("flaky");
    let refused = run(&format!("{program} {}", state.display()), &out).code(2).stdout(contains("FAILED").not());
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("game program: request `moves 5`") && stderr.contains("non-deterministic") && stderr.contains("first \"3 4\", then \"4\""), "{stderr}");
    assert_eq!(snapshot(&out), Vec::new());
    // --slowest saves the game program's answers as tests: they are asked again first too.
    let right = solution(dir.path(), "right.py", "print(int(input()) % 3)\n");
    let slowest = |game: &str, name: &str| {
        let mut command = sprague();
        command.args(["stress", "custom", "--game-cmd", game, "--cmd", &right, "--max", "12", "--slowest", "2", "--budget", "1", "-q", "--out"]);
        command.arg(dir.path().join(name)).arg("--save-tests").arg(dir.path().join(format!("{name}-tests"))).assert()
    };
    slowest(&program, "slow-steady").success();
    assert_eq!(read(&dir.path().join("slow-steady-tests/001.in")).trim().parse::<u32>().unwrap() % 3, read(&dir.path().join("slow-steady-tests/001.ans")).trim().parse::<u32>().unwrap());
    let fresh_state = dir.path().join("slow-state");
    std::fs::create_dir(&fresh_state).unwrap();
    let refused = slowest(&format!("{program} {}", fresh_state.display()), "slow-flaky").code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("non-deterministic"), "{stderr}");
    assert!(!dir.path().join("slow-flaky-tests/001.ans").exists());
}

#[test]
fn bad_options_and_failing_game_programs_exit_2() {
    let game = example("subtraction.py");
    sprague().args(["table", "custom", "--game-cmd", &game, "--max", "x"]).assert().code(2).stderr(contains("--max"));
    let crash = "python3 -c 'import sys; sys.exit(3)'";
    sprague().args(["table", "custom", "--game-cmd", crash, "--max", "3"]).assert().code(2).stderr(contains("game program"));
    let dir = tempfile::tempdir().unwrap();
    let args = ["stress", "custom", "--game-cmd", crash, "--cmd", "true", "-q", "--out"];
    sprague().args(args).arg(dir.path().join("s")).assert().code(2).stderr(contains("game program"));
    // stress custom's --timeout is the solution's; the game program's is --game-timeout.
    let args = ["stress", "custom", "--game-cmd", &game, "--cmd", "true", "--game-timeout", "0", "-q", "--out"];
    sprague().args(args).arg(dir.path().join("t")).assert().code(2).stderr(contains("--game-timeout must be a positive number"));
}

#[test]
fn a_right_solution_passes_stress() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["stress", "custom", "--game-cmd", &example("subtraction.py"), "--cmd", &example("subtraction_solution.py")];
    let run = sprague().args(args).args(["--max", "20", "--generator", "exhaustive", "-q", "--out"]).arg(dir.path().join("s")).assert().success();
    run.stdout(contains("stress custom: 21 runs").and(contains("every input judged")).and(contains("exhaustive 21 runs (largest position 20)")).and(contains("no failure")));
    let manifest = read(&dir.path().join("s/manifest.json"));
    assert!(manifest.contains("\"game_program\"") && manifest.contains("subtraction.py") && manifest.contains("\"convention\": \"normal\""), "{manifest}");
}

#[test]
fn a_wrong_kayles_solution_is_caught_and_shrunk_to_the_smallest_position() {
    let dir = tempfile::tempdir().unwrap();
    let game = documented_kayles(dir.path());
    // Kayles is not Nim: the XOR of the row lengths is right up to 3 pins only.
    let nim = solution(dir.path(), "nim.py", "x = 0\nfor row in input().split('.'):\n    x ^= int(row)\nprint(x)\n");
    let out = dir.path().join("s");
    let args = ["stress", "custom", "--game-cmd", &game, "--cmd", &nim, "--max", "12", "--generator", "random", "--seed", "3", "-q", "--out"];
    let run = sprague().args(args).arg(&out).assert().code(1);
    run.stdout(contains("FAILED 001: wrong-answer (random generator)").and(contains("expected 1, got 4")));
    assert_eq!(read(&out.join("failures/001.in")), "4\n");
    assert_eq!(read(&out.join("failures/001.ans")).trim(), "1");
    assert_ne!(read(&out.join("failures/001.orig.in")), "4\n", "found on a larger position, then shrunk");
    // Under misère play only the winner counts: a number is not an answer.
    let args = ["stress", "custom", "--game-cmd", &game, "--cmd", &nim, "--convention", "misere", "--generator", "exhaustive", "-q", "--out"];
    sprague().args(args).arg(dir.path().join("m")).assert().code(1).stdout(contains("format").and(contains("First or Second")));
}

/// Every file under `dir` (the lock file aside) with its contents, by path.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if entry.file_name() != ".sprague.lock" {
                files.push((path.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_failing_game_program_leaves_the_output_directory_untouched() {
    let dir = tempfile::tempdir().unwrap();
    // The subtraction game {1, 3, 4}; with `exit`, the program exits at `moves 5`; with `hang`,
    // it never answers it.
    let game = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'flush':\n        sys.stdout.flush()\n    elif verb == 'sprague':\n        print('positions moves')\n    elif verb == 'positions':\n        print(arg)\n    elif arg == '5' and sys.argv[1:] == ['exit']:\n        sys.stdout.flush()\n        sys.exit(3)\n    elif arg == '5' and sys.argv[1:] == ['hang']:\n        sys.stdout.flush()\n        __import__('time').sleep(30)\n    else:\n        print(' '.join(str(int(arg) - k) for k in (1, 3, 4) if k <= int(arg)))\n";
    std::fs::write(dir.path().join("game.py"), game).unwrap();
    let (good, bad) = (format!("python3 {}", dir.path().join("game.py").display()), format!("python3 {} exit", dir.path().join("game.py").display()));
    // Right except on 12.
    let wrong = solution(dir.path(), "wrong.py", "n = int(input())\nprint([0, 1, 0, 1, 2, 3, 2][n % 7] if n != 12 else 5)\n");
    let out = dir.path().join("s");
    let run = |game: &str, extra: &[&str]| {
        let mut command = sprague();
        command.args(["stress", "custom", "--game-cmd", game, "--cmd", &wrong, "--max", "20", "--generator", "exhaustive", "-q", "--out"]).arg(&out).args(extra);
        command.assert()
    };
    run(&good, &[]).code(1);
    let kept = snapshot(&out);
    assert!(kept.iter().any(|(name, _)| name == "failures/001.in") && kept.iter().any(|(name, _)| name == "manifest.json"), "{kept:?}");
    for extra in [&[][..], &["--slowest", "3"]] {
        let failed = run(&bad, extra).code(2);
        let stderr = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
        assert!(stderr.contains("game program") && stderr.contains("request `moves 5`") && stderr.contains("exited (status 3)"), "{extra:?}: {stderr}");
        assert!(snapshot(&out) == kept, "{extra:?}: the earlier run's files changed");
    }
    // A first run that fails writes nothing.
    let fresh = dir.path().join("fresh");
    let mut command = sprague();
    command.args(["stress", "custom", "--game-cmd", &bad, "--cmd", &wrong, "--max", "20", "--generator", "exhaustive", "-q", "--out"]).arg(&fresh);
    command.assert().code(2);
    assert_eq!(snapshot(&fresh), Vec::new());
    // A game program out of time names the option that sets its time (--timeout is the
    // program under test's in stress).
    let hang = format!("python3 {} hang", dir.path().join("game.py").display());
    let failed = run(&hang, &["--game-timeout", "0.5"]).code(2);
    let stderr = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(stderr.contains("request `moves 5`: gave no answer within 0.5 s (--game-timeout)"), "{stderr}");
    assert!(snapshot(&out) == kept, "the earlier run's files changed");
}

#[test]
fn a_components_cycle_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    // Each heap lists itself twice among its parts.
    let game = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'flush':\n        sys.stdout.flush()\n    elif verb == 'sprague':\n        print('positions moves components')\n    elif verb == 'positions':\n        print(arg)\n    elif verb == 'components':\n        print(arg, arg)\n    else:\n        print(' '.join(str(int(arg) - k) for k in (1, 2) if k <= int(arg)))\n";
    std::fs::write(dir.path().join("pp.py"), game).unwrap();
    let game = format!("python3 {}", dir.path().join("pp.py").display());
    let run = sprague().args(["table", "custom", "--game-cmd", &game, "--max", "3", "--components"]).assert().code(2);
    run.stderr(contains("the components form a cycle of 1 position: 0 -> 0").and(contains("`components` must split")));
}

#[test]
fn components_with_no_parts_are_taken_as_zero_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    // Heaps of a subtraction game {1, 2}; `components` answers an empty line (no parts) for
    // every heap above 2, as a program that forgot to print them would.
    let game = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'flush':\n        sys.stdout.flush()\n    elif verb == 'sprague':\n        print('positions moves components')\n    elif verb == 'positions':\n        print(arg)\n    elif verb == 'components':\n        print('-' if int(arg) <= 2 else '')\n    else:\n        print(' '.join(str(int(arg) - k) for k in (1, 2) if k <= int(arg)))\n";
    std::fs::write(dir.path().join("empty.py"), game).unwrap();
    let game = format!("python3 {}", dir.path().join("empty.py").display());
    let run = sprague().args(["table", "custom", "--game-cmd", &game, "--max", "5", "--components"]).assert().success();
    let output = run.get_output();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "size,position,value\n0,0,0\n1,1,1\n2,2,2\n3,3,0\n4,4,0\n5,5,0\n", "the protocol's meaning: value 0");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning: 3 positions answered `components` with no parts (the first: \"3\") and were taken as the empty game, value 0; a position that does not split answers `-`"), "{stderr}");
    // Without --components the answers are not asked: no warning, the exact values.
    let exact = sprague().args(["table", "custom", "--game-cmd", &game, "--max", "5"]).assert().success();
    assert!(String::from_utf8_lossy(&exact.get_output().stdout).ends_with("3,3,0\n4,4,1\n5,5,2\n"));
    exact.stderr(contains("warning").not());
}
