//! A whole stress run through the library: failures saved as NNN.in / NNN.ans / NNN.orig.in
//! and failures.csv, reproducible with the program and with `sprague solve`; the output
//! directory is locked.

mod common;
use common::{example_binary, sprague};

use sprague::games::wall::search::contest::WallContest;
use sprague::games::wall::Shape;
use sprague::output::csv::read_csv;
use sprague::output::lock::DirLock;
use sprague::stress::{stress, CommandLine, FailureKind, FailureRow, Limits, Source, StressConfig};
use std::path::Path;
use std::time::Duration;

/// A test program built by cargo from examples/.
fn program(name: &str) -> CommandLine {
    CommandLine::parse(&example_binary(name).to_string_lossy()).unwrap()
}

fn config(out: &Path, sources: Vec<Source>) -> StressConfig {
    StressConfig {
        sources,
        seed: 3,
        jobs: 2,
        limits: Limits::default(),
        budget: Duration::from_secs(20),
        shrink_budget: Duration::from_secs(20),
        search_budget: Some(Duration::from_secs(5)),
        max_failures: 1,
        out: out.to_path_buf(),
        command_line: vec!["test".into()],
        parameters: Default::default(),
    }
}

#[test]
fn a_wrong_program_leaves_a_reproducible_shrunk_failure() {
    let tmp = tempfile::tempdir().unwrap();
    let game = WallContest { exhaustive_max: Shape::new(3, 3) };
    let summary = stress(&game, &program("wall_xor_components"), &config(tmp.path(), vec![Source::Exhaustive]), &|_| {}).unwrap();
    assert_eq!(summary.failures.len(), 1);
    let rows: Vec<FailureRow> = read_csv(&tmp.path().join("failures.csv")).unwrap();
    assert_eq!(rows, summary.failures);
    let row = &rows[0];
    assert_eq!((row.id.as_str(), row.kind, row.source.as_str()), ("001", FailureKind::WrongAnswer, "exhaustive"));
    assert!(row.minimal);
    let dir = tmp.path().join("failures");
    let input = std::fs::read(dir.join("001.in")).unwrap();
    let answer = std::fs::read_to_string(dir.join("001.ans")).unwrap();
    assert!(dir.join("001.orig.in").exists());
    assert_eq!(answer.trim(), row.expected);
    // `sprague solve wall 001.in` prints 001.ans; the program still gets it wrong.
    sprague().args(["solve", "wall"]).arg(dir.join("001.in")).assert().success().stdout(answer.clone());
    let got = std::process::Command::new(match program("wall_xor_components") {
        CommandLine::Direct { program, .. } => program,
        CommandLine::Shell { .. } => unreachable!(),
    })
    .stdin(std::fs::File::open(dir.join("001.in")).unwrap())
    .output()
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&got.stdout).trim(), row.got);
    assert_ne!(String::from_utf8_lossy(&got.stdout).trim(), answer.trim());
    assert!(!input.is_empty());
}

#[test]
fn the_right_program_leaves_an_empty_failure_list() {
    let tmp = tempfile::tempdir().unwrap();
    let game = WallContest { exhaustive_max: Shape::new(2, 3) };
    let mut cfg = config(tmp.path(), vec![]);
    cfg.budget = Duration::from_secs(3);
    let summary = stress(&game, &program("wall_right"), &cfg, &|_| {}).unwrap();
    assert!(summary.failures.is_empty() && summary.runs > 100, "{summary:?}");
    let rows: Vec<FailureRow> = read_csv(&tmp.path().join("failures.csv")).unwrap();
    assert!(rows.is_empty());
}

#[test]
fn a_locked_output_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let _held = DirLock::acquire(tmp.path(), "sprague verify wall --max 4x4").unwrap();
    let game = WallContest::default();
    let err = stress(&game, &program("wall_right"), &config(tmp.path(), vec![Source::Random]), &|_| {}).unwrap_err();
    assert!(err.to_string().contains("in use by another run") && err.to_string().contains("verify wall"), "{err}");
    assert!(!tmp.path().join("failures.csv").exists());
}
