//! The smallest failing input, whatever generator finds the failure first: a program that
//! XORs the sizes of the free regions fails first on the 3-cell `.X.`; found by the
//! exhaustive, random or adversarial generator (or forced onto a large board first) it is
//! reported on 3 cells as the smallest, with the sub-rectangles it answers right. And
//! `--answer move`: any winning move passes, a losing one is caught.

mod common;
use common::altered::Altered;
use common::{example_binary, sprague};

use sprague::games::wall::search::contest::WallContest;
use sprague::games::wall::Board;
use sprague::output::csv::read_csv;
use sprague::output::manifest::Manifest;
use sprague::stress::{stress, Cases, CommandLine, FailureRow, Generator, Limits, Parts, Source, StressConfig};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `stress wall --cmd PROGRAM ARGS…` into `out`: its exit code and the rows of failures.csv.
fn stress_wall(program_name: &str, out: &Path, args: &[&str]) -> (i32, Vec<FailureRow>) {
    let run = sprague().args(["stress", "wall", "--cmd"]).arg(example_binary(program_name)).arg("--out").arg(out).args(["--threads", "2", "--quiet"]).args(args).output().unwrap();
    (run.status.code().unwrap(), read_csv(&out.join("failures.csv")).unwrap_or_default())
}

fn cells(size: &str) -> usize {
    let shape = size.split(',').next().unwrap();
    let (h, w) = shape.split_once('x').unwrap();
    h.parse::<usize>().unwrap() * w.parse::<usize>().unwrap()
}

#[test]
fn every_generator_reports_the_three_cell_board() {
    for generator in ["exhaustive", "random", "adversarial"] {
        let tmp = tempfile::tempdir().unwrap();
        let (code, rows) = stress_wall("wall_xor_components", tmp.path(), &["--generator", generator, "--budget", "10"]);
        assert_eq!((code, rows.len()), (1, 1), "{generator}");
        let row = &rows[0];
        assert_eq!((row.size_after.as_str(), row.smallest, row.source.as_str()), ("1x3, 1 X", true, generator), "{row:?}");
        assert!(row.searched.starts_with("smallest:"), "{row:?}");
        assert_eq!(std::fs::read_to_string(tmp.path().join("failures/001.in")).unwrap(), "1 3\n.X.\n");
        assert_eq!(row.cause, "the program answers all 4 sub-rectangles right (the fault is in combining them)");
        let manifest = Manifest::read(&tmp.path().join("manifest.json")).unwrap();
        assert_eq!(manifest.parameters["smallest"], serde_json::json!([true]));
    }
}

#[test]
fn without_the_search_a_random_find_stays_locally_minimal() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, rows) = stress_wall("wall_xor_components", tmp.path(), &["--generator", "random", "--budget", "10", "--search-budget", "0"]);
    assert_eq!(code, 1);
    let row = &rows[0];
    assert!(row.minimal && !row.smallest && cells(&row.size_after) > 3, "{row:?}");
    assert_eq!((row.searched.as_str(), row.size_shrunk.as_str()), ("off", row.size_after.as_str()));
}

/// The wall game whose random generator starts with a large board the program fails on, which
/// shrinking alone leaves at 4×4; it names no parts.
fn large_first() -> Altered<WallContest> {
    Altered { cases: Some(large_then), parts: Some(|_, _| Parts::default()), ..Altered::new(WallContest::default()) }
}

/// The large board, then the wall's own cases of `source`.
fn large_then(wall: &WallContest, source: Source, seed: u64) -> Cases<'_, Board> {
    let large = Board::from_slashed("X.X..../.XX..../.XX..X./..X.X../..X...X/X.X.XX./XX..XXX/.XXXXX.").unwrap();
    Box::new(std::iter::once(large).chain(wall.cases(source, seed)))
}

#[test]
fn a_large_random_find_is_searched_down_to_three_cells() {
    let tmp = tempfile::tempdir().unwrap();
    let config = StressConfig {
        sources: vec![Source::Random],
        seed: 1,
        jobs: 2,
        limits: Limits::default(),
        budget: Duration::from_secs(10),
        shrink_budget: Duration::from_secs(20),
        search_budget: Some(Duration::from_secs(20)),
        max_failures: 1,
        out: tmp.path().to_path_buf(),
        command_line: vec!["test".into()],
        parameters: Default::default(),
    };
    let command = CommandLine::parse(&example_binary("wall_xor_components").to_string_lossy()).unwrap();
    let summary = stress(&large_first(), &command, &config, &|_| {}).unwrap();
    let row = &summary.failures[0];
    assert_eq!((row.source.as_str(), row.size_before.as_str()), ("random", "8x7, 25 X"));
    assert!(cells(&row.size_shrunk) > 3, "shrinking alone stops above 3 cells: {row:?}");
    assert_eq!((row.size_after.as_str(), row.smallest, row.minimal), ("1x3, 1 X", true, true), "{row:?}");
    assert!(row.cause.is_empty(), "large_first names no parts");
}

/// A toy program: `wall_right`'s answer, turned round on every board of 2 or more cells with
/// an X. Of its failing boards `.X` comes first in the shrinking order (`verify wall --shrink`'s,
/// board/smaller.rs), while the exhaustive generator meets `X.` first and no neighbour of `X.`
/// fails: the search below it must take the same tie order and report `.X`.
#[test]
fn ties_go_the_shrinking_orders_way() {
    use sprague::games::wall::board::smaller::shrink_order;
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("toy.sh");
    let right = example_binary("wall_right");
    let toy = "in=$(cat)\nans=$(printf '%s\\n' \"$in\" | RIGHT)\n\
        if printf '%s\\n' \"$in\" | awk 'NR==1{c=$1*$2} NR>1{n+=gsub(/X/,\"\")} END{exit !(c>=2 && n>=1)}'; then\n\
        if [ \"$ans\" = First ]; then echo Second; else echo First; fi\nelse echo \"$ans\"; fi\n";
    std::fs::write(&script, toy.replace("RIGHT", &right.to_string_lossy())).unwrap();
    let out = tmp.path().join("out");
    let run = sprague().args(["stress", "wall", "--generator", "exhaustive", "--budget", "10", "--threads", "2", "--quiet", "--cmd"]).arg(format!("sh {}", script.display())).arg("--out").arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    let rows: Vec<FailureRow> = read_csv(&out.join("failures.csv")).unwrap();
    let row = &rows[0];
    assert_eq!((row.size_shrunk.as_str(), row.size_after.as_str(), row.smallest), ("1x2, 1 X", "1x2, 1 X", true), "{row:?}");
    assert!(row.searched.starts_with("smallest: found by the search below 1x2, 1 X"), "{row:?}");
    assert_eq!(std::fs::read_to_string(out.join("failures/001.in")).unwrap(), "1 2\n.X\n");
    let (dot_x, x_dot) = (Board::from_slashed(".X").unwrap(), Board::from_slashed("X.").unwrap());
    assert!(shrink_order(&dot_x, &x_dot).is_lt());
}

#[test]
fn any_winning_move_passes_and_a_losing_move_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    // The program's move differs from the one in sprague's answer files: the last winning move.
    let picked = std::process::Command::new(example_binary("wall_move_last")).stdin(std::fs::File::open(write(tmp.path(), "1 3\n...\n")).unwrap()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&picked.stdout), "1 3\n");
    let ours = sprague().args(["solve", "wall", "--format", "json"]).write_stdin("1 3\n...\n").output().unwrap();
    assert!(String::from_utf8_lossy(&ours.stdout).contains("\"winning_moves\":[[0,0],"));
    let (code, rows) = stress_wall("wall_move_last", &tmp.path().join("right"), &["--answer", "move", "--budget", "3"]);
    assert_eq!((code, rows.len()), (0, 0));

    let (code, rows) = stress_wall("wall_move_losing", &tmp.path().join("wrong"), &["--answer", "move", "--budget", "10"]);
    assert_eq!((code, rows.len()), (1, 1));
    let row = &rows[0];
    assert_eq!((row.kind.name(), row.smallest), ("wrong-answer", true), "{row:?}");
    assert!(row.detail.contains("leaves the opponent a win"), "{row:?}");
    let answer = std::fs::read_to_string(tmp.path().join("wrong/failures/001.ans")).unwrap();
    assert_eq!(answer.trim_end(), row.expected);
}

#[test]
fn move_answers_are_refused_where_the_game_has_none() {
    let tmp = tempfile::tempdir().unwrap();
    let nim = sprague().args(["stress", "nim-count", "--cmd", "true", "--answer", "move", "--out"]).arg(tmp.path()).output().unwrap();
    assert_eq!(nim.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nim.stderr).contains("no move answers"), "{}", String::from_utf8_lossy(&nim.stderr));
    let (code, _) = stress_wall("wall_right", tmp.path(), &["--answer", "winner"]);
    assert_eq!(code, 2);
}

fn write(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("input.txt");
    std::fs::write(&path, text).unwrap();
    path
}
