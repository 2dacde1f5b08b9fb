//! Tests of `check`: row comparison, budget selection, a plan over a tampered directory.

use super::*;
use crate::output::records::DistributionRow;
use crate::runner::RunResults;
use crate::output::manifest::RunClock;
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES};
use crate::runner::files::write_verify_files;
use crate::runner::Job;

#[test]
fn check_protects_without_recomputing() {
    let damage = |edit: &dyn Fn(&mut RunResults), tamper: &dyn Fn(String) -> String| {
        let root = tempfile::tempdir().unwrap();
        write_toy_dir(root.path(), edit, tamper);
        let plan = toy_plan(root.path(), 0.0).unwrap();
        plan.damage.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(damage(&|_| {}, &|s| s), "");
    let changed = damage(&|_| {}, &|s| s.replace("toy,standard,2,2,16,", "toy,standard,2,2,17,"));
    assert!(changed.contains("summary.csv: sha256 ") && changed.contains("(the file was changed)"), "{changed}");
    assert!(changed.contains("2x2 says patterns/p_positions/max_grundy 17/"), "{changed}");
    let one_more = damage(&|r| r.count((2, 2), 0, 0, 1), &|s| s);
    assert!(one_more.ends_with("w/summary.csv: 2x2 counts 17 patterns, not the 16 it has"), "{one_more}");
}

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
            "d.csv, line 5, committed toy,standard,2,2,0,2,1, recomputed (none)",
            "d.csv, line 3, committed toy,standard,2,2,1,1,5, recomputed toy,standard,2,2,1,1,4",
            "d.csv, missing row, committed (none), recomputed toy,standard,2,2,2,0,6",
            "d.csv, line 4, committed toy,standard,2,2,3,0,1, recomputed (none)",
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

/// The toy run a manifest describes: sizes 2×2 and 1×3, 16 and 12 positions.
struct ToyRun;

impl crate::runner::Verification for ToyRun {
    fn game(&self) -> &str {
        "toy"
    }
    fn columns(&self) -> crate::output::records::Columns {
        crate::output::records::Columns::BOARD
    }
    fn rule(&self) -> String {
        "standard".into()
    }
    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(vec![Job::new("2x2", vec![(2, 2)], 16, 1).one_pattern_each(), Job::new("1x3", vec![(1, 3)], 12, 1).one_pattern_each()])
    }
    fn prepare(&self, _: usize) -> Result<Box<dyn crate::runner::Evaluate + '_>> {
        unreachable!("check only lists the toy's jobs")
    }
}

fn toy_rebuild(_: &BTreeMap<String, serde_json::Value>) -> Result<Box<dyn crate::runner::Verification>> {
    Ok(Box::new(ToyRun))
}

/// Writes toy results (after `edit`) with their manifest into `root/w`, then `tamper`s summary.csv.
fn write_toy_dir(root: &Path, edit: impl Fn(&mut RunResults), tamper: impl Fn(String) -> String) {
    let dir = root.join("w");
    let mut results = toy("toy", "standard", 2, 2).unwrap();
    results.merge(&toy("toy", "standard", 1, 3).unwrap());
    edit(&mut results);
    write_verify_files(&dir, &results).unwrap();
    let table: Vec<String> = (1..=3).flat_map(|r| (1..=3).map(move |c| format!("{r}x{c}\n"))).collect();
    std::fs::write(dir.join("table.txt"), table.concat()).unwrap();
    let clock = RunClock::start(vec!["test".into()], 1);
    clock.finish(&dir, &[SUMMARY, DISTRIBUTION, MISMATCHES]).unwrap().write(&dir.join(MANIFEST)).unwrap();
    let summary = dir.join(SUMMARY);
    std::fs::write(&summary, tamper(std::fs::read_to_string(&summary).unwrap())).unwrap();
}

fn toy_plan(root: &Path, budget: f64) -> Result<Plan> {
    Plan::with_registry(root, budget, test_registry(), toy_rebuild, |_, _| false)
}

/// A one-directory registry over toy results written here (after `edit`).
fn toy_dir(edit: impl Fn(&mut RunResults)) -> (tempfile::TempDir, Plan) {
    let root = tempfile::tempdir().unwrap();
    write_toy_dir(root.path(), edit, |s| s);
    let plan = toy_plan(root.path(), 100.0).unwrap();
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
    let (_root, plan) = toy_dir(|_| {});
    assert_eq!(plan.selected().count(), 3);
    assert!(plan.run(&|_, _| {}).unwrap().differences.is_empty());
    // One position moved from value 0 to value 1: same totals, a recomputation tells.
    let (_root, plan) = toy_dir(|r| {
        let tally = r.size_mut(2, 2);
        *tally.distribution.get_mut(&(0, 0)).unwrap() -= 1;
        *tally.distribution.entry((0, 1)).or_default() += 1;
    });
    let diffs = plan.run(&|_, _| {}).unwrap().differences;
    assert!(!diffs.is_empty(), "{diffs:?}");
    let (root, plan) = toy_dir(|_| {});
    assert!(plan.unregistered.is_empty());
    let tight = toy_plan(root.path(), 0.01).unwrap();
    let skipped: Vec<&str> = tight.skipped().map(|u| u.label.as_str()).collect();
    assert_eq!(skipped, ["w/table.txt"]);
}

#[test]
fn huge_budgets_are_shown_in_powers_of_ten() {
    use super::report::budget_text;
    assert_eq!(budget_text(1e300), "1e300");
    assert_eq!(budget_text(2.5e12), "2.5e12");
    assert_eq!(budget_text(100000.0), "100000");
    assert_eq!(budget_text(0.5), "0.5");
    assert_eq!(budget_text(f64::INFINITY), "inf");
}
