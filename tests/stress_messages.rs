//! What `sprague stress` tells people: counted nouns, the CPU time once, a checker's reason,
//! output that is not UTF-8 escaped, a helper's traceback kept by lines, and a failure found
//! before Ctrl-C saved and shown.

mod common;
use common::sprague;

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;

/// A shell script in `dir` and the command that runs it.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// `stress problem` of `cmd` against `cat` on the seeds as inputs, one thread, with `args`.
fn problem(dir: &Path, cmd: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    problem_of(dir, cmd, ("echo {seed}", "cat"), args)
}

/// [`problem`] with the generator and the reference `(gen, reference)`.
fn problem_of(dir: &Path, cmd: &str, (gen, reference): (&str, &str), args: &[&str]) -> assert_cmd::assert::Assert {
    let common = ["stress", "problem", "-q", "--threads", "1", "--gen", gen, "--ref", reference, "--search-budget", "0"];
    sprague().args(common).args(["--cmd", cmd]).arg("--out").arg(dir.join("out")).args(args).assert()
}

#[test]
fn one_run_is_counted_in_the_singular_and_a_checker_says_why_it_refused() {
    let dir = tempfile::tempdir().unwrap();
    let checker = script(dir.path(), "checker.sh", "echo 'wrong answer: never accepted' >&2\nexit 1\n");
    let out = problem(dir.path(), "cat", &["--checker", &checker, "--shrink-budget", "5"]).code(1);
    out.stdout(contains("stress problem: 1 run in ").and(contains("random 1 run (largest")))
        .stdout(contains("  got 0 (exit 0, ").and(contains("), refused: the checker `sh ")).and(contains("says exit 1: wrong answer: never accepted\n")))
        .stdout(contains("expected 0, got 0").not());
}

#[test]
fn a_time_limit_says_its_cpu_time_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = problem(dir.path(), "sh -c 'while :; do :; done'", &["--timeout", "0.2", "--shrink-budget", "1"]).code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let line = text.lines().find(|l| l.contains("(time limit: ")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(line.matches("s CPU").count(), 1, "{line}");
}

#[test]
fn output_that_is_not_utf8_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let out = problem(dir.path(), r"printf '\377\033[31mred\n'", &["--shrink-budget", "1"]).code(1);
    let stdout = &out.get_output().stdout;
    assert!(!stdout.contains(&0xff) && !stdout.contains(&0x1b), "{}", String::from_utf8_lossy(stdout));
    out.stdout(contains(r"got \xff\u{1b}[31mred (exit 0").and(contains("stdout is not UTF-8")));
}

#[test]
fn a_generator_traceback_keeps_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gen.py"), "def f():\n    raise ValueError('boom')\nf()\n").unwrap();
    let gen = format!("python3 {} {{seed}}", dir.path().join("gen.py").display());
    let out = sprague().args(["stress", "problem", "-q", "--cmd", "cat", "--ref", "cat", "--gen", &gen]).arg("--out").arg(dir.path().join("out")).assert().code(2);
    out.stderr(contains("failed on seed 1: exit 1:\n    Traceback (most recent call last):\n      File ").and(contains("\n        f()\n")).and(contains("\n    ValueError: boom")));
}

#[test]
fn ctrl_c_saves_and_shows_the_failure_found() {
    let dir = tempfile::tempdir().unwrap();
    // Wrong on every input; on the second it interrupts sprague (its parent) as a user's
    // Ctrl-C would, and is killed before it answers.
    let cmd = script(dir.path(), "interrupting.sh", "read n\nif [ \"$n\" -gt 1 ]; then kill -INT $PPID; sleep 30; fi\necho wrong\n");
    let out = problem(dir.path(), &cmd, &["--budget", "30", "--failures", "2"]).code(130);
    out.stdout(contains("\ninterrupted: judging stopped at the signal (1 run in flight at the signal, not judged); shrinking and the search below the failures were cut short\n"))
        .stdout(contains("FAILED 001: wrong-answer (random generator)").and(contains("expected 1, got wrong")).and(contains("FAILED 002").not()))
        .stdout(contains("not shrunk (interrupted before the first step)"))
        .stderr(contains("stopping"));
    assert_eq!(std::fs::read_to_string(dir.path().join("out/failures/001.ans")).unwrap().trim(), "1");
    let manifest = std::fs::read_to_string(dir.path().join("out/manifest.json")).unwrap();
    assert!(manifest.contains("\"interrupted\": true"), "{manifest}");
}

#[test]
fn ctrl_c_leaves_the_game_program_answering_so_the_failure_found_is_confirmed_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    // Wrong on every position; on the second it interrupts sprague (its parent) as a user's
    // Ctrl-C would, and is killed before it answers. The game program, which confirms the
    // failure found before it is saved, is not killed by that first signal.
    let mark = dir.path().join("asked");
    let solution = dir.path().join("interrupting.py");
    std::fs::write(&solution, "import os, signal, sys, time\ninput()\nif os.path.exists(sys.argv[1]):\n    os.kill(os.getppid(), signal.SIGINT)\n    time.sleep(30)\nopen(sys.argv[1], 'w').close()\nprint(99)\n").unwrap();
    let cmd = format!("python3 {} {}", solution.display(), mark.display());
    let game = format!("python3 {}", common::example_game("subtraction.py").display());
    let out = sprague()
        .args(["stress", "custom", "--game-cmd", &game, "--cmd", &cmd, "--max", "12", "--generator", "random", "--threads", "1", "--budget", "30", "--failures", "2", "-q", "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(130);
    out.stdout(contains("\ninterrupted: judging stopped at the signal (1 run in flight at the signal, not judged); shrinking and the search below the failures were cut short\n"))
        .stdout(contains("FAILED 001: wrong-answer (random generator)").and(contains("FAILED 002").not()))
        .stderr(contains("error").not());
    assert!(dir.path().join("out/failures/001.in").exists());
}

#[test]
fn ctrl_c_lets_the_reference_generator_and_checker_finish_so_the_failure_found_is_saved() {
    // On the second input the helper interrupts sprague (its parent) once, as a user's Ctrl-C
    // would, then finishes its work and leaves a mark: that first signal does not kill it, and
    // its case in flight is no error of its.
    let interrupt = |value: &str, done: &Path| {
        let done = done.display();
        format!("if [ \"{value}\" -gt 1 ] && [ ! -e {done} ]; then kill -INT $PPID; sleep 0.5; touch {done}; fi\n")
    };
    for helper in ["ref", "gen", "checker"] {
        let dir = tempfile::tempdir().unwrap();
        let done = dir.path().join("done");
        let (mut gen, mut reference, mut cmd) = ("echo {seed}".to_string(), "cat".to_string(), "sh -c 'read n; echo wrong'");
        let mut args = vec!["--budget", "30", "--failures", "2"];
        let checker;
        match helper {
            "ref" => reference = script(dir.path(), "ref.sh", &format!("read n\n{}echo $n\n", interrupt("$n", &done))),
            "gen" => gen = format!("{} {{seed}}", script(dir.path(), "gen.sh", &format!("{}echo $1\n", interrupt("$1", &done)))),
            _ => {
                // Refuses every answer (the program's is the reference's).
                checker = script(dir.path(), "checker.sh", &format!("{}exit 1\n", interrupt("$(cat \"$1\")", &done)));
                (cmd, args) = ("cat", [&args[..], &["--checker", &checker]].concat());
            }
        }
        let out = problem_of(dir.path(), cmd, (&gen, &reference), &args).code(130);
        // The checker's case: its program had answered before the signal, so the run is judged
        // with the checker's verdict, a second failure.
        let shown = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert_eq!(shown.contains("FAILED 002: wrong-answer (random generator)"), helper == "checker", "--{helper}: {shown}");
        out.stdout(contains("\ninterrupted: judging stopped at the signal").and(contains("FAILED 001: wrong-answer (random generator)")))
            .stderr(contains("stopping").and(contains("error").not()));
        assert!(done.exists(), "--{helper} was killed before it finished");
        assert_eq!(std::fs::read_to_string(dir.path().join("out/failures/001.in")).unwrap(), "1\n", "--{helper}");
        assert_eq!(dir.path().join("out/failures/002.in").exists(), helper == "checker", "--{helper}");
    }
}
