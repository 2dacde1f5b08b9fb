//! `sprague stress problem`: any problem — the user's program against the user's reference on
//! the user's generator's inputs (examples/stress/ and small Python and shell scripts): caught
//! and shrunk within a validator, a checker, a float tolerance, --save-tests, --slowest, and the
//! helpers' failures as usage errors (exit 2).

mod common;
use common::{read, sprague};

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use sprague::stress::{FailureRow, SlowRow};
use std::path::Path;

/// `python3 examples/stress/NAME.py`.
fn example(name: &str) -> String {
    format!("python3 {}/examples/stress/{name}.py", env!("CARGO_MANIFEST_DIR"))
}

/// A Python script in `dir` and the command that runs it.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("python3 {}", path.display())
}

/// `stress problem` on examples/stress/ (Kadane's slip against the brute force) with `args`.
fn kadane(out: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    let cmd = ["stress", "problem", "-q", "--cmd", &example("fast"), "--ref", &example("brute")];
    let gen = format!("{} {{seed}}", example("gen"));
    sprague().args(cmd).args(["--gen", &gen, "--budget", "30"]).arg("--out").arg(out).args(args).assert()
}

/// Whether examples/stress/validator.py accepts `input`.
fn valid(input: &str) -> bool {
    let path = format!("{}/examples/stress/validator.py", env!("CARGO_MANIFEST_DIR"));
    let mut child = std::process::Command::new("python3").arg(path).stdin(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    child.wait().unwrap().success()
}

#[test]
fn a_wrong_fast_program_is_caught_and_shrunk_within_the_validator() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let validator = example("validator");
    let run = kadane(&out, &["--validator", &validator]).code(1);
    run.stdout(contains("FAILED 001: wrong-answer").and(contains("expected -1, got 0")));
    assert_eq!(read(&out.join("failures/001.in")), "1\n-1\n", "the smallest legal input");
    assert_eq!(read(&out.join("failures/001.ans")), "-1\n");
    assert!(valid(&read(&out.join("failures/001.orig.in"))));
    let rows: Vec<FailureRow> = sprague::output::csv::read_csv(&out.join("failures.csv")).unwrap();
    assert!(rows[0].minimal && rows[0].size_after.starts_with("2 lines, 2 tokens, 5 bytes (seed "), "{rows:?}");
    let manifest = read(&out.join("manifest.json"));
    assert!(manifest.contains("\"problem\"") && manifest.contains("validator.py"), "{manifest}");
    // Without the validator the count on the first line is shrunk too: an illegal input.
    let loose = dir.path().join("loose");
    kadane(&loose, &[]).code(1);
    let shrunk = read(&loose.join("failures/001.in"));
    assert!(!valid(&shrunk), "{shrunk:?} should be refused by the validator");
}

#[test]
fn a_checker_accepts_an_answer_in_another_form() {
    let dir = tempfile::tempdir().unwrap();
    let gen = script(dir.path(), "gen.py", "import sys\nprint(int(sys.argv[1]) % 7)\n");
    let upper = script(dir.path(), "upper.py", "print('YES' if int(input()) % 2 == 0 else 'NO')\n");
    let lower = script(dir.path(), "lower.py", "print('yes' if int(input()) % 2 == 0 else 'no')\n");
    let checker = script(dir.path(), "check.py", "import sys\nout, ans = (open(f).read().strip().lower() for f in sys.argv[2:4])\nsys.exit(0 if out == ans else 1)\n");
    let run = |extra: &[&str], out: &str| {
        let args = ["stress", "problem", "-q", "--cmd", &lower, "--ref", &upper, "--gen", &format!("{gen} {{seed}}"), "--budget", "1"];
        sprague().args(args).args(extra).arg("--out").arg(dir.path().join(out)).assert()
    };
    run(&[], "plain").code(1).stdout(contains("expected YES, got yes").or(contains("expected NO, got no")));
    run(&["--checker", &checker], "checked").code(0).stdout(contains("no failure"));
    let wrong = script(dir.path(), "wrong.py", "print('yes')\n");
    let args = ["stress", "problem", "-q", "--cmd", &wrong, "--ref", &upper, "--gen", &format!("{gen} {{seed}}"), "--checker", &checker];
    sprague().args(args).arg("--out").arg(dir.path().join("w")).assert().code(1).stdout(contains("expected NO, got yes"));
}

#[test]
fn numbers_within_the_float_tolerance_agree() {
    let dir = tempfile::tempdir().unwrap();
    // 3 or 9: 1/3 and 1/9 are not exact in 7 decimals, so every input tells the tolerances apart.
    let gen = script(dir.path(), "gen.py", "import sys\nprint(3 + 6 * (int(sys.argv[1]) % 2))\n");
    let exact = script(dir.path(), "exact.py", "print('%.12f' % (1 / int(input())))\n");
    let rounded = script(dir.path(), "rounded.py", "print('%.7f' % (1 / int(input())))\n");
    let run = |extra: &[&str], out: &str| {
        let args = ["stress", "problem", "-q", "--cmd", &rounded, "--ref", &exact, "--gen", &format!("{gen} {{seed}}"), "--budget", "1"];
        sprague().args(args).args(extra).arg("--out").arg(dir.path().join(out)).assert()
    };
    run(&[], "exact").code(1).stdout(contains("wrong-answer"));
    run(&["--float-tolerance", "1e-6"], "tolerant").code(0);
    run(&["--float-tolerance", "1e-9"], "strict").code(1);
    run(&["--float-tolerance", "-1"], "bad").code(2).stderr(contains("--float-tolerance"));
}

#[test]
fn save_tests_writes_a_test_folder_and_never_over_existing_tests() {
    let dir = tempfile::tempdir().unwrap();
    let (out, tests) = (dir.path().join("s"), dir.path().join("tests"));
    let validator = example("validator");
    let saved = kadane(&out, &["--validator", &validator, "--save-tests", tests.to_str().unwrap()]).code(1);
    saved.stdout(contains("saved 1 test in"));
    let mut names: Vec<String> = std::fs::read_dir(&tests).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["001.ans", "001.in"]);
    assert_eq!(read(&tests.join("001.in")), read(&out.join("failures/001.in")));
    assert_eq!(read(&tests.join("001.ans")), "-1\n");
    // Refused before any run: the numbered tests are there.
    kadane(&out, &["--save-tests", tests.to_str().unwrap()]).code(2).stderr(contains("001.in already exists"));
    kadane(&out, &["--overwrite"]).code(2).stderr(contains("--save-tests"));
    std::fs::write(tests.join("001.in"), "mine").unwrap();
    kadane(&out, &["--validator", &validator, "--save-tests", tests.to_str().unwrap(), "--overwrite"]).code(1);
    assert_eq!(read(&tests.join("001.in")), "1\n-1\n");
}

#[test]
fn failing_helpers_are_usage_errors_naming_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (fast, brute) = (example("fast"), example("brute"));
    let run = |gen: &str, reference: &str| {
        let args = ["stress", "problem", "-q", "--cmd", &fast, "--ref", reference, "--gen", gen, "--budget", "20"];
        sprague().args(args).arg("--out").arg(dir.path().join("s")).assert().code(2)
    };
    let crashing = script(dir.path(), "gen.py", "import sys\nassert int(sys.argv[1]) < 3, 'no seed 3'\nprint(1)\nprint(5)\n");
    run(&format!("{crashing} {{seed}}"), &brute).stderr(contains("failed on seed 3").and(contains("AssertionError: no seed 3")));
    let gen = format!("{} {{seed}}", example("gen"));
    let bad_ref = script(dir.path(), "ref.py", "raise SystemExit('reference down')\n");
    run(&gen, &bad_ref).stderr(contains("seed 1: the reference").and(contains("reference down")).and(contains("gen.py 1` makes the input")));
    run(&example("gen"), &brute).stderr(contains("has no {seed}"));
    run(&gen, "no-such-reference-xyz").stderr(contains("--ref").and(contains("not found on PATH")));
    run("no-such-generator-xyz {seed} | cat", &brute).stderr(contains("did not start").and(contains("sh:")));
    let args = ["stress", "problem", "-q", "--cmd", "python3 no_such_file.py", "--ref", &brute, "--gen", &gen];
    sprague().args(args).arg("--out").arg(dir.path().join("c")).assert().code(2).stderr(contains("did not start"));
}

#[test]
fn slowest_climbs_past_the_generated_inputs_to_the_slow_region() {
    let dir = tempfile::tempdir().unwrap();
    let spin = assert_cmd::cargo::cargo_bin("sprague").parent().unwrap().join("examples/spin");
    let spin = spin.to_str().unwrap();
    // The generator stays below 51; the validator allows up to 100, where spin is slowest.
    let gen = "sh -c 'echo $(( {seed} * 37 % 50 + 1 ))'";
    let validator = "sh -c 'read n && [ \"$n\" -ge 1 ] && [ \"$n\" -le 100 ] && ! read more'";
    let (out, tests) = (dir.path().join("s"), dir.path().join("tests"));
    let args = ["stress", "problem", "-q", "--cmd", spin, "--ref", spin, "--gen", gen, "--validator", validator, "--slowest", "3", "--budget", "6"];
    let run = sprague().args(args).arg("--out").arg(&out).arg("--save-tests").arg(&tests).assert().code(0);
    run.stdout(contains("rank  seconds").and(contains("climbed")).and(contains("saved 3 tests")));
    let rows: Vec<SlowRow> = sprague::output::csv::read_csv(&out.join("slowest.csv")).unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.windows(2).all(|w| w[0].seconds >= w[1].seconds), "{rows:?}");
    let top: u64 = read(&out.join("slowest/001.in")).trim().parse().unwrap();
    assert!(top >= 90 && rows[0].origin == "climbed", "the slowest input {top} ({rows:?})");
    assert_eq!(read(&tests.join("001.in")), read(&out.join("slowest/001.in")));
    assert_eq!(read(&tests.join("001.ans")).trim(), top.to_string());
    let manifest = read(&out.join("manifest.json"));
    assert!(manifest.contains("\"mode\": \"slowest\"") && manifest.contains("slowest/001.in"), "{manifest}");
}

#[test]
fn slowest_on_a_game_ranks_its_generated_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("sprague");
    let right = exe.parent().unwrap().join("examples/wall_right");
    let args = ["stress", "wall", "-q", "--generator", "adversarial", "--slowest", "2", "--budget", "1", "--cmd", right.to_str().unwrap()];
    sprague().args(args).arg("--out").arg(dir.path().join("w")).assert().code(0).stdout(contains("stress wall --slowest"));
    let rows: Vec<SlowRow> = sprague::output::csv::read_csv(&dir.path().join("w/slowest.csv")).unwrap();
    assert!(rows.len() == 2 && rows.iter().all(|r| r.origin == "generated" && r.exit_status == "exit 0"), "{rows:?}");
    let args = ["stress", "wall", "-q", "--slowest", "0", "--cmd", right.to_str().unwrap()];
    sprague().args(args).arg("--out").arg(dir.path().join("z")).assert().code(2).stderr(contains("--slowest"));
}

#[test]
fn slowest_ranks_a_run_cut_short_at_the_time_limit_first() {
    let dir = tempfile::tempdir().unwrap();
    // Input 3 waits (killed at the wall-clock cap, little CPU time used); the others compute.
    let program = script(dir.path(), "hang.py", "import time\nn = int(input())\nif n == 3:\n    time.sleep(100)\nprint(sum(range(10**6)) and n)\n");
    let args = ["stress", "problem", "-q", "--cmd", &program, "--ref", "cat", "--gen", "echo {seed}", "--slowest", "1", "--timeout", "0.5", "--threads", "2", "--budget", "2"];
    let run = sprague().args(args).arg("--out").arg(dir.path().join("s")).assert().code(1);
    // Timed once, then twice more as the slowest kept.
    run.stdout(contains("\ncut short at the time limit: 3 runs, ranked first (CPU time only a lower bound)\n"));
    let rows: Vec<SlowRow> = sprague::output::csv::read_csv(&dir.path().join("s/slowest.csv")).unwrap();
    assert!(rows.len() == 1 && rows[0].exit_status.starts_with("time limit: "), "{rows:?}");
    assert_eq!(read(&dir.path().join("s/slowest/001.in")), "3\n");
    let manifest = read(&dir.path().join("s/manifest.json"));
    assert!(manifest.contains("\"timed_out_runs\": 3") && manifest.contains("\"interrupted\": false"), "{manifest}");
}

#[test]
fn ctrl_c_while_slowest_confirms_starts_no_further_input() {
    let dir = tempfile::tempdir().unwrap();
    let marks = dir.path().join("marks");
    std::fs::create_dir(&marks).unwrap();
    // Every start leaves a mark; a start after the signal leaves a `late` one. The second run
    // of an input (the kept ones are timed again) interrupts sprague (its parent) as a user's
    // Ctrl-C would; the other kept inputs of that batch must not start.
    let m = marks.display();
    let body = format!("read n\n[ -e {m}/signalled ] && touch {m}/late.$n\nif [ -e {m}/seen.$n ]; then touch {m}/signalled; kill -INT $PPID; sleep 30; fi\ntouch {m}/seen.$n\necho $n\n");
    std::fs::write(dir.path().join("interrupting.sh"), body).unwrap();
    let program = format!("sh {}", dir.path().join("interrupting.sh").display());
    let args = ["stress", "problem", "-q", "--cmd", &program, "--ref", "cat", "--gen", "echo {seed}", "--slowest", "5", "--threads", "1", "--budget", "1"];
    let run = sprague().args(args).arg("--out").arg(dir.path().join("s")).assert().code(130);
    run.stdout(contains("\ninterrupted: timing stopped at the signal (1 run in flight killed, not timed)\n")).stderr(contains("error").not());
    let names: Vec<String> = std::fs::read_dir(&marks).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().filter(|n| n.starts_with("seen.")).count() > 5 && names.contains(&"signalled".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("late.")), "inputs started after the signal: {names:?}");
    let rows: Vec<SlowRow> = sprague::output::csv::read_csv(&dir.path().join("s/slowest.csv")).unwrap();
    assert_eq!(rows.len(), 5, "{rows:?}");
    assert!(read(&dir.path().join("s/manifest.json")).contains("\"interrupted\": true"));
}

#[test]
fn ctrl_c_stops_slowest_and_ranks_the_inputs_timed_without_the_run_it_killed() {
    let dir = tempfile::tempdir().unwrap();
    // On input 3 the program interrupts sprague (its parent) as a user's Ctrl-C would, and is
    // killed before it ends.
    let program = script(dir.path(), "interrupting.py", "import os, signal, time\nn = int(input())\nif n == 3:\n    os.kill(os.getppid(), signal.SIGINT)\n    time.sleep(30)\nprint(n)\n");
    let args = ["stress", "problem", "-q", "--cmd", &program, "--ref", "cat", "--gen", "echo {seed}", "--slowest", "5", "--threads", "1", "--budget", "30"];
    let run = sprague().args(args).arg("--out").arg(dir.path().join("s")).assert().code(130);
    run.stdout(contains("--slowest: 2 runs in ").and(contains("median of the runs timed")).and(contains("\ninterrupted: timing stopped at the signal (1 run in flight killed, not timed)\n")))
        .stderr(contains("stopping").and(contains("error").not()));
    let rows: Vec<SlowRow> = sprague::output::csv::read_csv(&dir.path().join("s/slowest.csv")).unwrap();
    assert!(rows.len() == 2 && rows.iter().all(|r| r.exit_status == "exit 0"), "{rows:?}");
    let mut inputs: Vec<String> = ["001", "002"].iter().map(|r| read(&dir.path().join(format!("s/slowest/{r}.in")))).collect();
    inputs.sort();
    assert_eq!(inputs, ["1\n", "2\n"]);
    let manifest = read(&dir.path().join("s/manifest.json"));
    assert!(manifest.contains("\"interrupted\": true") && manifest.contains("\"unjudged_runs\": 1"), "{manifest}");
}

#[test]
fn ctrl_c_judges_a_run_whose_checker_finishes_after_it_and_not_the_one_it_killed() {
    let dir = tempfile::tempdir().unwrap();
    let (waiting, checked) = (dir.path().join("waiting"), dir.path().join("checked"));
    // Wrong on every input; on input 2 it leaves a mark and waits (killed by the signal).
    let program = script(dir.path(), "program.py", &format!("import time\nif input() == '2':\n    open({waiting:?}, 'w').close()\n    time.sleep(30)\nprint('wrong')\n"));
    // On input 1, once the program runs on input 2, the checker interrupts sprague (its parent)
    // as a user's Ctrl-C would, then takes its time and refuses the answer: that run had ended
    // before the signal, so it is judged by that verdict.
    let interrupt = format!("if inp == '1' and not os.path.exists({checked:?}):\n    for _ in range(600):\n        if os.path.exists({waiting:?}): break\n        time.sleep(0.05)\n    os.kill(os.getppid(), signal.SIGINT)\n    time.sleep(1)\n    open({checked:?}, 'w').close()\n");
    let checker = script(dir.path(), "checker.py", &format!("import os, signal, sys, time\ninp, out, ans = (open(p).read().strip() for p in sys.argv[1:4])\n{interrupt}sys.exit(0 if out == ans else 1)\n"));
    let args = ["stress", "problem", "-q", "--cmd", &program, "--ref", "cat", "--gen", "echo {seed}", "--checker", &checker, "--threads", "2", "--budget", "30"];
    let run = sprague().args(args).arg("--out").arg(dir.path().join("out")).assert().code(130);
    run.stdout(contains("stress problem: 1 run in ").and(contains("\ninterrupted: judging stopped at the signal (1 run in flight at the signal, not judged); shrinking and the search below the failures were cut short\n")))
        .stdout(contains("FAILED 001: wrong-answer (random generator)").and(contains("says exit 1")).and(contains("FAILED 002").not()))
        .stderr(contains("stopping").and(contains("error").not()));
    assert!(checked.exists(), "the checker was killed before it finished");
    assert_eq!(read(&dir.path().join("out/failures/001.in")), "1\n");
    let manifest = read(&dir.path().join("out/manifest.json"));
    assert!(manifest.contains("\"interrupted\": true") && manifest.contains("\"failures\": 1") && manifest.contains("\"runs\": 1"), "{manifest}");
}
