//! Long `table octal` runs: stopped by --budget (exit 3) or killed, resumed with --resume, the
//! output identical byte for byte to an uninterrupted run; bad checkpoints refused (exit 2);
//! one and two threads agree.

mod common;
use common::sprague;

use assert_cmd::Command;
use sprague::games::octal::resume::State;
use sprague::output::sealed::{seal, unseal};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;
use std::time::{Duration, Instant};

const MAX: &str = "200000";

fn table(out: &Path, extra: &[&str]) -> Command {
    let mut cmd = sprague();
    cmd.args(["table", "octal", "0.6", "--max", MAX, "-q", "--out"]).arg(out).args(extra);
    cmd
}

fn whole(dir: &Path) -> String {
    let out = dir.join("whole.csv");
    table(&out, &["--threads", "1"]).assert().success();
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn stopped_and_resumed_runs_write_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let expected = whole(dir.path());
    let out = dir.path().join("part.csv");
    let step = ["--budget", "0", "--checkpoint-heaps", "30000"];
    table(&out, &step).assert().code(3).stderr(contains("stopped at the --budget after g(0..=29999)")).stderr(contains("--resume"));
    for _ in 0..3 {
        table(&out, &[&step[..], &["--resume"]].concat()).assert().code(3);
    }
    assert!(!out.exists());
    table(&out, &["--resume", "--threads", "2"]).assert().success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);
    assert!(!dir.path().join("part.csv.checkpoint.json").exists() && !dir.path().join("part.csv.values.bin").exists());
}

/// The command a stopped run prints to continue it keeps every option but --budget (here
/// --binary and --stats), so that running it as printed writes what an uninterrupted run does.
#[test]
fn the_printed_resume_command_writes_the_uninterrupted_files() {
    let dir = tempfile::tempdir().unwrap();
    let options = ["--binary", "--stats"];
    let (whole, part) = (dir.path().join("whole.bin"), dir.path().join("part.bin"));
    table(&whole, &options).arg(dir.path().join("whole-stats")).assert().success();
    let stopped = table(&part, &options).arg(dir.path().join("part-stats")).args(["--budget", "0", "--checkpoint-heaps", "30000"]).assert().code(3);
    let stderr = String::from_utf8_lossy(&stopped.get_output().stderr).into_owned();
    let again = stderr.split("continue with --resume: ").nth(1).and_then(|rest| rest.lines().next()).unwrap_or_else(|| panic!("{stderr}"));
    assert!(again.starts_with("sprague table octal 0.6 ") && again.ends_with(" --resume") && !again.contains("--budget"), "{again}");
    let words = shlex::split(again).unwrap();
    sprague().args(&words[1..]).assert().success();
    assert_eq!(std::fs::read(&part).unwrap(), std::fs::read(&whole).unwrap());
    for name in ["summary.csv", "values.csv", "rare.csv"] {
        let stats = |run: &str| std::fs::read(dir.path().join(run).join(name)).unwrap();
        assert_eq!(stats("part-stats"), stats("whole-stats"), "{name}");
    }
}

#[test]
fn a_killed_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let expected = whole(dir.path());
    let out = dir.path().join("killed.csv");
    let checkpoint = dir.path().join("killed.csv.checkpoint.json");
    let bin = assert_cmd::cargo::cargo_bin("sprague");
    let mut child = std::process::Command::new(bin)
        .args(["table", "octal", "0.6", "--max", MAX, "-q", "--checkpoint-secs", "0", "--checkpoint-heaps", "2000", "--delay-ms", "30", "--out"])
        .arg(&out)
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !checkpoint.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(100));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!out.exists(), "the run finished before it was killed");
    table(&out, &["--resume"]).assert().success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);
}

#[test]
fn bad_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    table(&out, &["--resume"]).assert().code(2).stderr(contains(format!("no checkpoint to continue at {}.checkpoint.json", out.display())));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing left behind");
    table(&out, &["--budget", "0", "--checkpoint-heaps", "1000"]).assert().code(3);
    table(&out, &[]).assert().code(2).stderr(contains("add --resume"));
    let mut other = sprague();
    other.args(["table", "octal", "0.7", "--max", "5000", "-q", "--resume", "--out"]).arg(&out);
    other.assert().code(2).stderr(contains("is a checkpoint of 0.6 (sparse), not of 0.7"));
    let values = dir.path().join("t.csv.values.bin");
    let mut bytes = std::fs::read(&values).unwrap();
    bytes[1234] ^= 4;
    std::fs::write(&values, bytes).unwrap();
    table(&out, &["--resume"]).assert().code(2).stderr(contains("refused"));
    let mut stdout = sprague();
    stdout.args(["table", "octal", "0.6", "--budget", "5"]).assert().code(2).stderr(contains("need --out"));
    // The heap's parity (domain type) claimed for 0.44, whose splits remove 1 or 2 tokens: the
    // rule would not be exact there, so the checkpoint is refused.
    let mixed = dir.path().join("mixed.csv");
    let run = |extra: &[&str]| {
        let mut cmd = sprague();
        cmd.args(["table", "octal", "0.44", "--max", "50000", "-q", "--out"]).arg(&mixed).args(extra);
        cmd
    };
    run(&["--budget", "0", "--checkpoint-heaps", "2000"]).assert().code(3);
    let json = dir.path().join("mixed.csv.checkpoint.json");
    let text = std::fs::read_to_string(&json).unwrap();
    let state: State = unseal(&json, &text, 2).unwrap();
    assert!(!state.domain, "{state:?}");
    // Every field lies under the checkpoint's digest: an edited one is refused as such.
    for (from, to) in [("\"domain\":false", "\"domain\":true"), ("\"mask\":", "\"mask\":1"), ("\"review_at\":", "\"review_at\":9")] {
        assert!(text.contains(from), "{text}");
        std::fs::write(&json, text.replacen(from, to, 1)).unwrap();
        run(&["--resume"]).assert().code(2).stderr(contains("mixed.csv.checkpoint.json: content does not match its sha256"));
    }
    // Sealed again with the domain type claimed, the rule itself is refused.
    std::fs::write(&json, seal(&State { domain: true, ..state }, 2)).unwrap();
    run(&["--resume"]).assert().code(2).stderr(contains("splits remove tokens of both parities"));
    // A checkpoint that is not UTF-8 is named as damaged, never taken for a missing one.
    std::fs::write(&json, b"{\"format\":2,\xff}").unwrap();
    run(&["--resume"]).assert().code(2)
        .stderr(contains(format!("{}: unreadable: not UTF-8 text (the file is damaged); delete it and ", json.display())))
        .stderr(contains("no checkpoint").not());
}

#[test]
fn a_max_below_the_checkpoint_is_refused_and_the_checkpoint_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.csv");
    table(&out, &["--budget", "0", "--checkpoint-heaps", "30000"]).assert().code(3);
    let json = dir.path().join("a.csv.checkpoint.json");
    let saved = std::fs::read(&json).unwrap();
    let mut short = sprague();
    short.args(["table", "octal", "0.6", "--max", "1000", "-q", "--resume", "--out"]).arg(&out);
    short.assert().code(2).stderr(contains("a.csv.checkpoint.json holds g(0..=29999), more than --max 1000 asks for: resume with --max 29999 or more"));
    assert_eq!(std::fs::read(&json).unwrap(), saved, "the checkpoint is kept");
    assert!(!out.exists());
    // Temporary files of killed writers of a.csv and its checkpoint (dead pids) are removed;
    // another file's are not this run's to remove.
    let (mine, theirs) = ([".a.csv.tmp.4194305", ".a.csv.checkpoint.json.tmp.4194305"], ".b.csv.tmp.4194305");
    for name in mine.iter().chain([&theirs]) {
        std::fs::write(dir.path().join(name), b"partial").unwrap();
    }
    let mut exact = sprague();
    exact.args(["table", "octal", "0.6", "--max", "29999", "-q", "--resume", "--out"]).arg(&out);
    exact.assert().success().stderr(contains("g(0..=29999) by sparse space"));
    assert!(mine.iter().all(|name| !dir.path().join(name).exists()), "stale temporary files left");
    assert!(dir.path().join(theirs).exists());
}

#[test]
fn a_second_run_into_the_same_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let bin = assert_cmd::cargo::cargo_bin("sprague");
    let mut first = std::process::Command::new(bin)
        .args(["table", "octal", "0.6", "--max", MAX, "-q", "--checkpoint-heaps", "2000", "--delay-ms", "30", "--out"])
        .arg(&out)
        .spawn()
        .unwrap();
    let lock = dir.path().join("o.csv.lock");
    let started = Instant::now();
    let values = dir.path().join("o.csv.values.bin");
    while !(std::fs::read_to_string(&lock).is_ok_and(|text| text.contains(&format!("pid {}", first.id()))) && values.exists()) {
        assert!(started.elapsed() < Duration::from_secs(60), "the first run never locked {}", out.display());
        std::thread::sleep(Duration::from_millis(5));
    }
    table(&out, &[]).assert().code(2).stderr(contains(format!("{} is in use by another run", out.display())));
    // Nor may a run write into its values file or checkpoint as its own output.
    for companion in [&values, &dir.path().join("o.csv.checkpoint.json")] {
        table(companion, &[]).assert().code(2).stderr(contains(format!("{} is in use by another run", out.display())));
    }
    assert!(values.exists(), "the first run's values are kept");
    // Killed before its first checkpoint: its lock is taken over and a fresh run starts again.
    first.kill().unwrap();
    first.wait().unwrap();
    table(&out, &[]).assert().success();
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["o.csv"], "no lock or checkpoint left");
}

#[test]
fn outputs_that_cannot_be_written_are_refused_before_computing() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "").unwrap();
    let out = dir.path().join("h2.csv");
    let started = Instant::now();
    table(&out, &["--stats"]).arg(plain.join("x")).assert().code(2).stderr(contains(format!("{} is a file, not a directory", plain.display())));
    assert!(started.elapsed() < Duration::from_secs(5), "refused before computing");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["plain"], "no stray files");
    table(&plain.join("o.csv"), &[]).assert().code(2).stderr(contains(format!("{} is a file, not a directory", plain.display())));
}
