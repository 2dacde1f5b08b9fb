//! Tests of `check`: row comparison, budget selection, a plan over a tampered directory.

use super::*;
use crate::output::records::DistributionRow;
use crate::runner::RunResults;
use crate::output::manifest::RunClock;
use crate::output::verify_files::write_verify_files;

fn row(xs: u32, grundy: u32, patterns: u64) -> DistributionRow {
    DistributionRow { game: "toy".into(), rule: "standard".into(), rows: 2, cols: 2, xs, grundy, patterns }
}

#[test]
fn equal_rows_give_no_difference() {
    let rows = [row(0, 2, 1), row(1, 1, 4)];
    let committed: Vec<_> = rows.iter().enumerate().map(|(i, r)| (i + 2, r)).collect();
    assert!(compare_rows(Path::new("d.csv"), &committed, &rows, |r| (r.xs, r.grundy)).is_empty());
}

#[test]
fn changed_missing_extra_and_repeated_rows() {
    let file = Path::new("d.csv");
    let fresh = [row(0, 2, 1), row(1, 1, 4), row(2, 0, 6)];
    let (changed, extra, repeated) = (row(1, 1, 5), row(3, 0, 1), row(0, 2, 1));
    let committed = [(2, &fresh[0]), (3, &changed), (4, &extra), (5, &repeated)];
    let diffs = compare_rows(file, &committed, &fresh, |r| (r.xs, r.grundy));
    let shown: Vec<String> = diffs.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "d.csv, line 5, expected toy,standard,2,2,0,2,1, got (none)",
            "d.csv, line 3, expected toy,standard,2,2,1,1,5, got toy,standard,2,2,1,1,4",
            "d.csv, missing row, expected (none), got toy,standard,2,2,2,0,6",
            "d.csv, line 4, expected toy,standard,2,2,3,0,1, got (none)",
        ]
    );
}

fn unit(estimate: f64) -> Unit {
    Unit { label: String::new(), estimate, work: Work::Table { entry: 0 } }
}

#[test]
fn selects_cheapest_first_within_budget() {
    let units = [unit(5.0), unit(1.0), unit(2.0), unit(1.0)];
    assert_eq!(select(&units, 4.0), [false, true, true, true]);
    assert_eq!(select(&units, 3.9), [false, true, false, true]);
    assert_eq!(select(&units, 0.0), [false; 4]);
}

/// A toy game's results for size rows×cols: position i counts under (i mod 2, i mod 3).
fn toy(_: &str, rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let mut results = RunResults::new("toy", rule);
    for i in 0..u64::from(rows * cols) * 4 {
        results.count((rows, cols), (i % 2) as u32, (i % 3) as u32, 1);
    }
    Ok(results)
}

/// The toy's table file: one line per size up to 3×3, compared line by line.
fn toy_table(path: &Path) -> Result<Vec<Difference>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let fresh: Vec<String> = (1..=3).flat_map(|r| (1..=3).map(move |c| format!("{r}x{c}"))).collect();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let numbered: Vec<(usize, &String)> = lines.iter().enumerate().map(|(i, l)| (i + 1, l)).collect();
    Ok(compare_rows(path, &numbered, &fresh, |l| l.clone()))
}

/// A one-directory registry over toy results written here; `tamper` edits summary.csv.
fn toy_dir(tamper: impl Fn(String) -> String) -> (tempfile::TempDir, Plan) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("w");
    let mut results = toy("toy", "standard", 2, 2).unwrap();
    results.merge(&toy("toy", "standard", 1, 3).unwrap());
    write_verify_files(&dir, &results).unwrap();
    let table: Vec<String> = (1..=3).flat_map(|r| (1..=3).map(move |c| format!("{r}x{c}\n"))).collect();
    std::fs::write(dir.join("table.txt"), table.concat()).unwrap();
    let clock = RunClock::start(vec!["test".into()], 1);
    clock.finish(&dir, &[SUMMARY]).unwrap().write(&dir.join(MANIFEST)).unwrap();
    let summary = dir.join(SUMMARY);
    std::fs::write(&summary, tamper(std::fs::read_to_string(&summary).unwrap())).unwrap();
    let plan = Plan::with_registry(root.path(), 100.0, test_registry()).unwrap();
    (root, plan)
}

/// Directory `w`: the toy's sizes and its table.
fn test_registry() -> Vec<ResultsDir> {
    vec![
        ResultsDir { dir: "w", recompute: Recompute::Table { file: "table.txt", seconds: 0.05, compare: toy_table } },
        ResultsDir { dir: "w", recompute: Recompute::Sizes(toy) },
    ]
}

#[test]
fn plan_recomputes_and_finds_a_changed_count() {
    let (_root, plan) = toy_dir(|s| s);
    assert_eq!(plan.selected().count(), 3);
    assert!(plan.run(&|_, _| {}).unwrap().differences.is_empty());
    let (_root, plan) = toy_dir(|s| s.replace("toy,standard,2,2,16,", "toy,standard,2,2,17,"));
    let diffs = plan.run(&|_, _| {}).unwrap().differences;
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert_eq!((diffs[0].row, diffs[0].got.as_deref()), (Row::Line(3), Some("toy,standard,2,2,16,0,6,2")));
    let (root, plan) = toy_dir(|s| s);
    assert!(plan.unregistered.is_empty());
    let tight = Plan::with_registry(root.path(), 0.01, test_registry()).unwrap();
    let skipped: Vec<&str> = tight.skipped().map(|u| u.label.as_str()).collect();
    assert_eq!(skipped, ["w/table.txt"]);
}
