//! `sprague stress` through the command line with the test programs of examples/: wrong ones
//! (wall, a catalogue game, dagame) are caught and shrunk, their saved inputs reproduce the
//! failure and `sprague solve` prints the saved answers; the right one passes a whole budget;
//! usage errors exit 2.

mod common;
use common::{example_binary, sprague};

use assert_cmd::Command;
use predicates::prelude::*;
use sprague::output::csv::read_csv;
use sprague::output::manifest::Manifest;
use sprague::stress::FailureRow;
use std::path::Path;

/// Runs `stress GAME --cmd PROGRAM ARGS…` into `out`; the assertion on its exit.
fn stress(game: &str, program_name: &str, out: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    let cmd = example_binary(program_name);
    sprague().args(["stress", game, "--cmd"]).arg(&cmd).arg("--out").arg(out).args(["--threads", "2", "--quiet"]).args(args).assert()
}

/// The one saved failure of `out`: checked against its files, `sprague solve` and the program.
fn saved_failure(game: &str, program_name: &str, out: &Path) -> (FailureRow, String) {
    let rows: Vec<FailureRow> = read_csv(&out.join("failures.csv")).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = rows[0].clone();
    let dir = out.join("failures");
    let input = std::fs::read_to_string(dir.join("001.in")).unwrap();
    let answer = std::fs::read_to_string(dir.join("001.ans")).unwrap();
    assert!(dir.join("001.orig.in").exists());
    assert_eq!(answer.trim_end(), row.expected);
    sprague().args(["solve", game]).arg(dir.join("001.in")).assert().success().stdout(answer.clone());
    let again = std::process::Command::new(example_binary(program_name)).stdin(std::fs::File::open(dir.join("001.in")).unwrap()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout).trim(), row.got, "the saved input fails the same way again");
    let manifest = Manifest::read(&out.join("manifest.json")).unwrap();
    assert!(manifest.files.contains_key("failures/001.in") && manifest.files.contains_key("failures.csv"));
    assert_eq!(manifest.parameters["game"], game);
    (row, input)
}

#[test]
fn wall_wrong_idea_is_caught_shrunk_and_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    stress("wall", "wall_xor_components", tmp.path(), &["--generator", "exhaustive", "--max", "3x3", "--budget", "5"])
        .code(1)
        .stdout(predicate::str::contains("FAILED 001: wrong-answer"));
    let (row, input) = saved_failure("wall", "wall_xor_components", tmp.path());
    assert!(row.minimal && row.source == "exhaustive", "{row:?}");
    let cells: usize = input.lines().skip(1).map(str::len).sum();
    assert!(cells <= 4, "{input}");
}

#[test]
fn nim_sum_parity_shrinks_to_one_pile_of_two() {
    let tmp = tempfile::tempdir().unwrap();
    stress("nim", "nim_sum_parity", tmp.path(), &["--budget", "5", "--seed", "3"]).code(1);
    let (row, input) = saved_failure("nim", "nim_sum_parity", tmp.path());
    assert_eq!((row.kind.name(), row.expected.as_str(), row.got.as_str()), ("wrong-answer", "koosaga", "cubelover"));
    assert_eq!(input, "1\n2\n", "the smallest Nim position whose stone count misleads");
}

#[test]
fn dagame_without_merging_is_caught_on_a_small_dag() {
    let tmp = tempfile::tempdir().unwrap();
    stress("dagame", "dagame_independent", tmp.path(), &["--generator", "random,adversarial", "--budget", "5"]).code(1);
    let (row, input) = saved_failure("dagame", "dagame_independent", tmp.path());
    assert!(row.minimal, "{row:?}");
    let nodes: usize = input.split_whitespace().next().unwrap().parse().unwrap();
    assert!(nodes <= 4, "shrunk to {nodes} nodes:\n{input}");
    let tokens = input.lines().filter(|l| l.split_whitespace().count() == 2).count();
    assert!(tokens >= 1, "{input}");
}

#[test]
fn the_right_program_passes_a_whole_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let assert = stress("wall", "wall_right", tmp.path(), &["--budget", "3", "--max", "4x4"]).success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("no failure") && stdout.contains("exhaustive+random+adversarial"), "{stdout}");
    let rows: Vec<FailureRow> = read_csv(&tmp.path().join("failures.csv")).unwrap();
    assert!(rows.is_empty());
    let manifest = Manifest::read(&tmp.path().join("manifest.json")).unwrap();
    assert!(manifest.parameters["runs"].as_u64().unwrap() > 100, "{:?}", manifest.parameters);
    assert!(manifest.wall_seconds >= 3.0);
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let out = out_dir.to_str().unwrap();
    let run = |args: &[&str]| sprague().args(["stress"]).args(args).args(["--out", out]).assert().code(2);
    run(&["wall", "--cmd", "no-such-program-here"]).stderr(predicate::str::contains("not found on PATH"));
    let plain = tmp.path().join("plain.txt");
    std::fs::write(&plain, "x").unwrap();
    run(&["nim", "--cmd", plain.to_str().unwrap()]).stderr(predicate::str::contains("is not executable"));
    run(&["wall", "--cmd", "true", "--generator", "fuzzy"]).stderr(predicate::str::contains("unknown generator \"fuzzy\""));
    run(&["wall", "--cmd", "true", "--budget", "0"]).stderr(predicate::str::contains("--budget must be a positive number"));
    run(&["wall", "--cmd", "true", "--threads", "0"]).stderr(predicate::str::contains("--threads must be at least 1"));
    let nothing = run(&["wall", "--cmd", "python3 /nonexistent.py", "--budget", "0.0000001"]);
    nothing.stderr(predicate::str::contains("no case ran within the budget of 0.0000001 s; give a larger --budget"));
    assert!(!out_dir.join("manifest.json").exists(), "a run that tested nothing writes no manifest");
    run(&["wall", "--cmd", "true", "--max", "21x2"]).stderr(predicate::str::contains("at most 20"));
    run(&["dagame", "--cmd", "true", "--max", "9"]).stderr(predicate::str::contains("--max for dagame"));
    sprague().args(["stress", "chess", "--cmd", "true"]).assert().code(2);
    run(&["wall", "--cmd", "true", "--generator", ","]).stderr(predicate::str::contains("names no generator"));
    run(&["wall", "--cmd", "true", "--memory", "0"]).stderr(predicate::str::contains("--memory must be at least 1 MiB"));
    let inside = out_dir.join("failures");
    run(&["wall", "--cmd", "true", "--save-tests", inside.to_str().unwrap()]).stderr(predicate::str::contains("lies inside --out"));
    // Through a link to --out (which need not exist yet) as well.
    std::fs::create_dir_all(&out_dir).unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&out_dir, &link).unwrap();
    run(&["wall", "--cmd", "true", "--save-tests", link.join("failures").to_str().unwrap()]).stderr(predicate::str::contains("lies inside --out"));
    assert!(!out_dir.join("failures").exists(), "nothing saved");
    // A test folder that cannot be made is refused before the run, not after it with what it
    // found unsaved (and its report unshown).
    let test_dir = plain.join("tests");
    let refused = run(&["wall", "--cmd", "echo first", "--save-tests", test_dir.to_str().unwrap()]);
    refused.stderr(predicate::str::contains(format!("--save-tests: cannot create the output directory {}: {} is a file", test_dir.display(), plain.display())));
    run(&["wall", "--cmd", "echo first", "--slowest", "3", "--save-tests", test_dir.to_str().unwrap()]).stderr(predicate::str::contains("--save-tests: cannot create"));
}

#[test]
fn output_in_the_wrong_format_and_crashes_are_classified() {
    let tmp = tempfile::tempdir().unwrap();
    // `echo first` prints a word of the wrong case on every input.
    sprague()
        .args(["stress", "wall", "--cmd", "echo first", "--budget", "5", "-q", "--out"])
        .arg(tmp.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("format"));
    let rows: Vec<FailureRow> = read_csv(&tmp.path().join("failures.csv")).unwrap();
    assert_eq!(rows[0].kind.name(), "format");
    assert!(rows[0].detail.contains("expected First or Second"), "{}", rows[0].detail);
    assert_eq!(rows[0].size_after, "1x1, 0 X", "every input fails alike, so it shrinks to the smallest board");
    let crash = tmp.path().join("crash");
    sprague().args(["stress", "kings", "--cmd", "kill -SEGV $$", "--budget", "5", "-q", "--out"]).arg(&crash).assert().code(1);
    let rows: Vec<FailureRow> = read_csv(&crash.join("failures.csv")).unwrap();
    assert_eq!((rows[0].kind.name(), rows[0].exit_status.as_str()), ("crash", "signal 11 (SIGSEGV)"));
}

/// On a terminal the progress line is drawn by a ticker thread while the run reports counts;
/// neither may wait for the other (stderr was once locked for the whole command: a deadlock).
/// Needs `script` (util-linux) for the terminal; without it there is nothing to run.
#[test]
fn the_progress_line_on_a_terminal_does_not_hang() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        common::skip("no `script` here: the terminal run is not tested");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sprague");
    let line = format!("{} stress kings --cmd '{} solve kings' --budget 1 --out {}", bin.display(), bin.display(), tmp.path().display());
    let assert = Command::new("script").args(["-qec", &line, "/dev/null"]).timeout(std::time::Duration::from_secs(30)).assert().success();
    let shown = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(shown.contains("failures,") && shown.contains("runs/s") && shown.contains("no failure"), "{shown}");
}

/// Whether process `pid` still runs (a zombie not reaped yet counts as gone).
fn alive(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.rsplit(") ").next().unwrap_or("").starts_with('Z')
}

#[test]
fn sigint_and_sigterm_end_the_programs_under_test_and_remove_their_directories() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let tmp = tempfile::tempdir().unwrap();
        let scratch = tmp.path().join("tmp");
        std::fs::create_dir(&scratch).unwrap();
        let pids = tmp.path().join("pids");
        let hang = tmp.path().join("hang.sh");
        std::fs::write(&hang, format!("#!/bin/sh\necho $$ >> {}\nexec sleep 100\n", pids.display())).unwrap();
        std::fs::set_permissions(&hang, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"))
            .args(["stress", "wall", "--cmd"])
            .arg(&hang)
            .args(["--budget", "30", "--timeout", "20", "--threads", "2", "-q", "--out"])
            .arg(tmp.path().join("out"))
            .env("TMPDIR", &scratch)
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let started_pids = || std::fs::read_to_string(&pids).unwrap_or_default().lines().filter_map(|l| l.trim().parse::<i32>().ok()).collect::<Vec<_>>();
        while started_pids().len() < 2 {
            assert!(started.elapsed() < std::time::Duration::from_secs(60), "the programs under test never started");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: kill(2) on the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        // stress stops gently: the programs are killed, what was found saved, and the exit
        // status is the signal's.
        assert_eq!(status.code(), Some(128 + signal), "ended as by the signal: {status:?}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while started_pids().into_iter().any(alive) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let survivors: Vec<i32> = started_pids().into_iter().filter(|&p| alive(p)).collect();
        assert!(survivors.is_empty(), "programs under test left running: {survivors:?}");
        let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "temporary directories left: {left:?}");
    }
}
