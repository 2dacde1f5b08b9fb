//! `stress --answer move` for the games beyond the wall, Nim and Grundy's game: take-and-break
//! codes (`i` and the heaps left), misère Nim (`i k`) and kings' bridge (`i c`) — any winning
//! move passes, a wrong one is caught and reported on the smallest input — and the games whose
//! answer is not a move refused (exit 2); a trusted side that failed is an error, not a verdict.

mod common;
use common::altered::Altered;
use common::{example_binary, sprague};

use sprague::games::wall::search::contest::WallContest;
use sprague::games::wall::{Board, Shape};
use sprague::output::csv::read_csv;
use sprague::stress::moves::ByMove;
use sprague::stress::{stress, CommandLine, Contest, FailureRow, Limits, Source, StressConfig};
use sprague::Error;
use std::path::Path;
use std::time::Duration;

/// `stress GAME --answer move --cmd CMD` into `out`: the exit code and failures.csv's rows.
fn stress_moves(game: &str, cmd: &str, out: &Path, args: &[&str]) -> (i32, Vec<FailureRow>) {
    let run = sprague().args(["stress", game, "--answer", "move", "--cmd", cmd, "--threads", "2", "-q", "--out"]).arg(out).args(args).output().unwrap();
    (run.status.code().unwrap(), read_csv(&out.join("failures.csv")).unwrap_or_default())
}

#[test]
fn octal_any_winning_move_passes_and_a_losing_one_is_caught_on_the_smallest_input() {
    let tmp = tempfile::tempdir().unwrap();
    let small = ["--generator", "exhaustive", "--max", "7", "--budget", "5"];
    let right = format!("{} last", example_binary("octal_moves").display());
    assert_eq!(stress_moves("octal", &right, &tmp.path().join("right"), &small), (0, vec![]));
    let wrong = format!("{} losing", example_binary("octal_moves").display());
    let (code, rows) = stress_moves("octal", &wrong, &tmp.path().join("wrong"), &small);
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    assert!(row.smallest && row.detail.contains("the move leaves the opponent a win"), "{row:?}");
    // Kayles (the pool's first code): heap 2 is won by taking both tokens; the program takes one.
    assert_eq!(std::fs::read_to_string(tmp.path().join("wrong/failures/001.in")).unwrap(), "0.77\n1\n2\n");
    assert_eq!((row.expected.as_str(), row.got.as_str()), ("1", "1 1"), "{row:?}");
}

#[test]
fn misere_nim_any_winning_move_passes_and_normal_play_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/moves/misere_nim.py");
    let right = format!("python3 {}", script.display());
    assert_eq!(stress_moves("misere-nim", &right, &tmp.path().join("right"), &["--budget", "3"]), (0, vec![]));
    let (code, rows) = stress_moves("misere-nim", &format!("{right} normal"), &tmp.path().join("wrong"), &["--budget", "5"]);
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    // One pile of one stone: the player to move must take it and lose under misère play.
    assert_eq!(std::fs::read_to_string(tmp.path().join("wrong/failures/001.in")).unwrap(), "1\n1\n");
    assert_eq!((row.expected.as_str(), row.got.as_str(), row.smallest), ("cubelover", "1 1", true), "{row:?}");
    assert!(row.detail.contains("the position is lost"), "{row:?}");
}

#[test]
fn kings_any_winning_slide_passes_and_a_misplaced_one_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/moves/kings.py");
    let right = format!("python3 {}", script.display());
    assert_eq!(stress_moves("kings", &right, &tmp.path().join("right"), &["--budget", "3"]), (0, vec![]));
    let (code, rows) = stress_moves("kings", &format!("{right} white-cells"), &tmp.path().join("wrong"), &["--budget", "5"]);
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    // Black to move on one bridge of 4: slide to cell 2; the program slides to cell 3.
    assert_eq!(std::fs::read_to_string(tmp.path().join("wrong/failures/001.in")).unwrap(), "1\n4\nBlackking\n");
    assert_eq!((row.expected.as_str(), row.got.as_str(), row.smallest), ("1 2", "1 3", true), "{row:?}");
}

#[test]
fn games_whose_answer_is_not_a_move_refuse_move_answers() {
    let tmp = tempfile::tempdir().unwrap();
    for game in ["nim-count", "cross", "cards", "footholds"] {
        let run = sprague().args(["stress", game, "--cmd", "true", "--answer", "move", "--out"]).arg(tmp.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{game}: {stderr}");
        assert!(stderr.contains(&format!("stress {game} has no move answers")), "{game}: {stderr}");
    }
}

/// The wall's trusted side whose judge failed (a game program that crashed, say): every
/// failure it is asked about is refused.
fn failed_judge(wall: WallContest) -> Altered<WallContest> {
    Altered {
        take_failure: Some(|_| Some(Error::Usage("the judge failed".into()))),
        confirm: Some(|_, _| Err(Error::Usage("the judge answers otherwise now".into()))),
        ..Altered::new(wall)
    }
}

/// Under `--answer move` a failed trusted side is still an error, not a verdict on the
/// program: nothing is saved.
#[test]
fn a_failed_judge_under_move_answers_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let side = ByMove(failed_judge(WallContest { exhaustive_max: Shape::new(2, 2) }));
    let board = Board::from_slashed("../..").unwrap();
    assert!(side.confirm(&board).is_err() && side.take_failure().is_some());
    let config = StressConfig {
        sources: vec![Source::Exhaustive],
        seed: 1,
        jobs: 1,
        limits: Limits::default(),
        budget: Duration::from_secs(5),
        shrink_budget: Duration::from_secs(5),
        search_budget: None,
        max_failures: 1,
        out: tmp.path().to_path_buf(),
        command_line: vec!["test".into()],
        parameters: Default::default(),
    };
    // Always `Second`: wrong on every won board.
    let program = CommandLine::parse("echo Second").unwrap();
    let error = stress(&side, &program, &config, &|_| {}).unwrap_err().to_string();
    assert!(error.contains("the judge failed") && error.contains("nothing saved"), "{error}");
    assert!(!tmp.path().join("failures.csv").exists());
}
