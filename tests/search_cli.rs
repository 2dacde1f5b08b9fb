//! `sprague search wall`: the best board per size in best.csv, reproducible from the row's seed
//! and evaluation; a better committed row is kept; `check` recomputes the committed values.

mod common;
use common::sprague;

use predicates::prelude::*;
use sprague::games::wall::claim::dp::RectDp;
use sprague::games::wall::search::{maximize_grundy, BestRow};
use sprague::games::wall::search::command::{compare_best, BEST};
use sprague::games::wall::Board;
use sprague::output::csv::{read_csv, write_csv};
use sprague::output::manifest::Manifest;

fn search(args: &[&str]) -> assert_cmd::assert::Assert {
    sprague().args(["search", "wall", "--maximize", "grundy", "-q"]).args(args).assert()
}

#[test]
fn best_rows_replay_from_their_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    search(&["--size", "5x4", "--seed", "9", "--budget", "1", "--evaluations", "200", "--out", out])
        .success()
        .stdout(predicate::str::starts_with("search wall 5x4: Grundy "));
    let rows: Vec<BestRow> = read_csv(&tmp.path().join(BEST)).unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!((row.rows, row.cols, row.evaluations), (5, 4, 200));
    let board = Board::from_slashed(&row.board).unwrap();
    assert_eq!(RectDp::new(&board).grundy(), row.grundy);
    let replayed = maximize_grundy(&row.replay(), |_| {});
    assert_eq!((replayed.board.to_slashed(), replayed.grundy, replayed.at_evaluation), (row.board.clone(), row.grundy, row.at_evaluation));
    let manifest = Manifest::read(&tmp.path().join("manifest.json")).unwrap();
    assert!(manifest.files.contains_key(BEST));
    assert!(compare_best(&tmp.path().join(BEST)).unwrap().is_empty());
}

#[test]
fn a_better_row_is_kept_and_other_sizes_added() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let path = tmp.path().join(BEST);
    let fake = BestRow { rows: 3, cols: 3, grundy: 99, seed: 1, evaluations: 1, at_evaluation: 1, board: ".../.../...".into() };
    // A best.csv that no search recorded is refused, untouched.
    write_csv(&path, std::slice::from_ref(&fake)).unwrap();
    let written = std::fs::read(&path).unwrap();
    search(&["--size", "3x3", "--rounds", "1", "--evaluations", "1", "--out", out]).code(2).stderr(predicate::str::contains("holds files no sprague run recorded (best.csv; no manifest.json)"));
    assert_eq!(std::fs::read(&path).unwrap(), written);
    std::fs::remove_file(&path).unwrap();
    // Seed 1's first round starts from the board that one evaluation of seed 1 finds: the
    // longer search's row is at least as good, and is kept.
    search(&["--size", "3x3", "--rounds", "4", "--evaluations", "50", "--out", out]).success();
    let kept: Vec<BestRow> = read_csv(&path).unwrap();
    search(&["--size", "3x3", "--rounds", "1", "--evaluations", "1", "--out", out]).success().stdout(predicate::str::contains(format!("keeps its {}", kept[0].grundy)));
    search(&["--size", "2x3", "--budget", "0.5", "--evaluations", "50", "--out", out]).success();
    let rows: Vec<BestRow> = read_csv(&path).unwrap();
    assert_eq!(rows.iter().map(|r| (r.rows, r.cols)).collect::<Vec<_>>(), [(2, 3), (3, 3)]);
    assert_eq!(rows[1], kept[0]);
}

/// A best.csv changed since its search is refused before a search runs, untouched: one whose
/// digest is not the manifest's, and (resealed) one whose row's value, board or size is false.
/// `check` names the false value's line.
#[test]
fn a_changed_best_csv_is_refused_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let path = tmp.path().join(BEST);
    search(&["--size", "3x3", "--rounds", "1", "--evaluations", "20", "--out", out]).success();
    search(&["--size", "2x3", "--rounds", "1", "--evaluations", "20", "--out", out]).success();
    let rows: Vec<BestRow> = read_csv(&path).unwrap();
    let (line, grundy) = ("3,3,", rows[1].grundy);
    let again = ["--size", "3x3", "--rounds", "1", "--evaluations", "1", "--out", out];
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen(&format!("{line}{grundy},"), &format!("{line}99,"), 1)).unwrap();
    let tampered = std::fs::read(&path).unwrap();
    search(&again).code(2).stderr(predicate::str::contains("best.csv: sha256")).stderr(predicate::str::contains("(the file was changed)"));
    assert_eq!(std::fs::read(&path).unwrap(), tampered);
    let differences = compare_best(&path).unwrap();
    assert_eq!(differences.len(), 1, "{differences:?}");
    assert!(differences[0].to_string().contains("line 3"), "{}", differences[0]);
    std::fs::write(&path, &text).unwrap();
    let board = rows[1].board.clone();
    let cases = [
        (format!("{line}{grundy},"), format!("{line}99,"), format!("line 3: the board's Grundy value is {grundy}, not the 99 the row says")),
        (board.clone(), board.replacen('.', "Q", 1), "line 3: board:".to_string()),
        (format!(",{board}"), format!(",{board}/..."), "line 3: the board is 4x3, not the row's 3x3".to_string()),
        (text.lines().nth(1).unwrap().to_string(), text.lines().nth(2).unwrap().to_string(), "line 3: a second row of 3x3".to_string()),
    ];
    for (from, to, why) in cases {
        common::edit_and_reseal(tmp.path(), BEST, &from, &to);
        let edited = std::fs::read(&path).unwrap();
        search(&again).code(2).stderr(predicate::str::contains(why));
        assert_eq!(std::fs::read(&path).unwrap(), edited);
        std::fs::write(&path, &text).unwrap();
        common::edit_and_reseal(tmp.path(), BEST, "\n", "\n");
    }
    search(&again).success();
}

#[test]
fn bad_sizes_are_usage_errors() {
    search(&["--size", "21x3", "--budget", "1"]).code(2).stderr(predicate::str::contains("at most 20"));
    search(&["--size", "3", "--budget", "1"]).code(2);
    search(&["--size", "3x3", "--budget", "0"]).code(2).stderr(predicate::str::contains("--budget"));
    search(&["--size", "3x3", "--budget", "1e9"]).code(2).stderr(predicate::str::contains("below 1000000000"));
    search(&["--size", "3x3", "--budget", "1", "--evaluations", "0"]).code(2).stderr(predicate::str::contains("--evaluations must be at least 1"));
}

/// A round of N evaluations finds its best board at evaluation N at the latest.
#[test]
fn the_best_board_is_found_within_the_evaluations() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    search(&["--size", "3x3", "--budget", "1", "--evaluations", "1", "--out", out])
        .success()
        .stdout(predicate::str::contains(", evaluation 1 of 1)"));
    let rows: Vec<BestRow> = read_csv(&tmp.path().join(BEST)).unwrap();
    assert_eq!((rows[0].evaluations, rows[0].at_evaluation), (1, 1));
}

/// The search `--rounds N` runs (seeds seed … seed + N - 1) ends on the same best board whatever
/// the budget and the threads: a replay does not depend on the machine's speed.
#[test]
fn a_search_of_given_rounds_ends_on_the_same_board_on_any_machine() {
    let run = |extra: &[&str]| -> BestRow {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().to_str().unwrap();
        let args = [&["--size", "5x5", "--seed", "4", "--rounds", "3", "--evaluations", "300", "--out", out][..], extra].concat();
        search(&args).success().stdout(predicate::str::contains(" after 3 rounds; written to best.csv in "));
        let manifest = Manifest::read(&tmp.path().join("manifest.json")).unwrap();
        assert_eq!(manifest.parameters["options"]["rounds"], "3");
        read_csv::<BestRow>(&tmp.path().join(BEST)).unwrap().remove(0)
    };
    let row = run(&[]);
    assert!((4..7).contains(&row.seed), "{row:?}");
    for extra in [&["--threads", "2"][..], &["--threads", "3", "--budget", "600"], &["--budget", "300"]] {
        assert_eq!(run(extra), row, "{extra:?}");
    }
}

/// A budget that ends a round early says so: the result then depends on the machine.
#[test]
fn a_round_the_budget_cuts_short_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    search(&["--size", "12x12", "--rounds", "4", "--budget", "0.2", "--evaluations", "100000000", "--out", out])
        .success()
        .stdout(predicate::str::contains(" after 1 of 4 rounds (1 cut short of 100000000 evaluations by the budget); written"));
    search(&["--size", "3x3", "--rounds", "0"]).code(2).stderr(predicate::str::contains("--rounds must be at least 1"));
}
