//! `check`: recompute the committed results that fit a time budget and compare them row by row.
//!
//! Which directories exist and how each is recomputed comes from the game registry
//! ([`crate::games::REGISTRY`], [`crate::game::Game::results`]). A size's cost is estimated from
//! its directory's manifest (the run's wall time shared out by patterns, scaled by threads),
//! and the cheapest sizes are taken first until the budget is spent.

pub mod compare;

pub use compare::{compare_rows, Difference, Row};

use compare::compare_size;
use crate::error::{Error, Result};
use crate::game::{Recompute, ResultsDir};
use crate::output::csv::read_csv;
use crate::output::manifest::Manifest;
use crate::output::records::{DistributionRow, MismatchRow, SummaryRow};
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Every committed results directory of every registered game.
pub fn registry() -> Vec<ResultsDir> {
    crate::games::REGISTRY.iter().flat_map(|g| g.results()).collect()
}

/// Default budget of `check` in estimated seconds: the empty-board table, every wall size up
/// to 4×5 (and the other sizes of at most 2^20 patterns) and the cheap sizes of the other games.
pub const DEFAULT_BUDGET: f64 = 20.0;

/// The committed verify files of one directory, as read.
pub struct Committed {
    summary: Vec<SummaryRow>,
    distribution: Vec<DistributionRow>,
    mismatches: Vec<MismatchRow>,
    manifest: Manifest,
}

impl Committed {
    fn read(dir: &Path) -> Result<Self> {
        Ok(Committed {
            summary: read_csv(&existing(dir, SUMMARY)?)?,
            distribution: read_csv(&existing(dir, DISTRIBUTION)?)?,
            mismatches: read_csv(&existing(dir, MISMATCHES)?)?,
            manifest: Manifest::read(&existing(dir, MANIFEST)?)?,
        })
    }
}

/// `dir/name`, or an error naming it when it does not exist.
fn existing(dir: &Path, name: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    if !path.is_file() {
        return Err(Error::malformed(&path, "missing (every registered results directory needs it)"));
    }
    Ok(path)
}

/// (game, rule, rows, cols): one size of one committed run.
pub type SizeKey = (String, String, u32, u32);

/// What one unit of work recomputes.
enum Work {
    Size { entry: usize, key: SizeKey },
    Table { entry: usize },
}

/// One unit of `check`: a size of a directory, or a whole table file.
pub struct Unit {
    /// What is recomputed, e.g. `wall/standard 4x5` or `wall/standard/empty.csv`.
    pub label: String,
    /// Estimated seconds.
    pub estimate: f64,
    work: Work,
}

/// Everything `check` read, and which units fit the budget.
pub struct Plan {
    root: PathBuf,
    registry: Vec<ResultsDir>,
    committed: BTreeMap<&'static str, Committed>,
    units: Vec<Unit>,
    selected: Vec<bool>,
    /// Directories under the root with a summary.csv that no registry entry covers.
    pub unregistered: Vec<String>,
}

impl Plan {
    /// Reads every registered directory under `root` (any missing or malformed file is an error
    /// naming it) and selects the cheapest units whose estimates add up to at most `budget`.
    pub fn new(root: &Path, budget: f64) -> Result<Plan> {
        Self::with_registry(root, budget, registry())
    }

    fn with_registry(root: &Path, budget: f64, registry: Vec<ResultsDir>) -> Result<Plan> {
        if !root.is_dir() {
            return Err(Error::Usage(format!("results directory {} does not exist", root.display())));
        }
        let threads = rayon::current_num_threads().max(1) as f64;
        let mut plan = Plan {
            root: root.to_path_buf(),
            registry,
            committed: BTreeMap::new(),
            units: Vec::new(),
            selected: Vec::new(),
            unregistered: Vec::new(),
        };
        for index in 0..plan.registry.len() {
            plan.read_entry(index, threads)?;
        }
        plan.selected = select(&plan.units, budget);
        let registered: BTreeSet<&str> = plan.registry.iter().map(|e| e.dir).collect();
        plan.unregistered = result_dirs(root).into_iter().filter(|d| !registered.contains(d.as_str())).collect();
        Ok(plan)
    }

    /// Reads the files of registry entry `index` and adds its units.
    fn read_entry(&mut self, index: usize, threads: f64) -> Result<()> {
        let entry = self.registry[index];
        let dir = self.root.join(entry.dir);
        match entry.recompute {
            Recompute::Table { file, seconds, .. } => {
                existing(&dir, file)?;
                self.units.push(Unit { label: format!("{}/{file}", entry.dir), estimate: seconds, work: Work::Table { entry: index } });
            }
            Recompute::Sizes(_) => {
                if !self.committed.contains_key(entry.dir) {
                    self.committed.insert(entry.dir, Committed::read(&dir)?);
                }
                self.units.extend(size_units(entry.dir, index, &self.committed[entry.dir], threads));
            }
        }
        Ok(())
    }

    /// The units that fit the budget, in registry order.
    pub fn selected(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().zip(&self.selected).filter(|(_, &s)| s).map(|(u, _)| u)
    }

    /// The units left out for the budget, in registry order.
    pub fn skipped(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().zip(&self.selected).filter(|(_, &s)| !s).map(|(u, _)| u)
    }

    /// Recomputes every selected unit and compares; `starting` is told of each unit first.
    pub fn run(&self, starting: &dyn Fn(&Unit)) -> Result<Outcome> {
        let clock = Instant::now();
        let mut differences = Vec::new();
        let mut checked = 0;
        for unit in self.selected() {
            starting(unit);
            differences.extend(self.run_unit(unit)?);
            checked += 1;
        }
        Ok(Outcome { checked, differences, seconds: clock.elapsed().as_secs_f64() })
    }

    fn run_unit(&self, unit: &Unit) -> Result<Vec<Difference>> {
        match &unit.work {
            Work::Table { entry } => match self.registry[*entry].recompute {
                Recompute::Table { file, compare, .. } => compare(&self.root.join(self.registry[*entry].dir).join(file)),
                Recompute::Sizes(_) => unreachable!("table units come from table entries"),
            },
            Work::Size { entry, key } => {
                let entry = &self.registry[*entry];
                let (game, rule, rows, cols) = key;
                let Recompute::Sizes(recompute) = entry.recompute else { unreachable!("size units come from size entries") };
                let fresh = recompute(game, rule, *rows, *cols).map_err(|e| {
                    let summary = self.root.join(entry.dir).join(SUMMARY);
                    Error::malformed(summary, format!("cannot recompute {game} {rule} {rows}x{cols}: {e}"))
                })?;
                Ok(compare_size(&self.root.join(entry.dir), &self.committed[entry.dir], key, &fresh))
            }
        }
    }
}

/// The size units of one directory: every (game, rule, size) its files mention, with the
/// manifest's wall time shared out by patterns (sizes only in distribution or mismatches get
/// their distribution's count).
fn size_units(dir: &str, entry: usize, committed: &Committed, threads: f64) -> Vec<Unit> {
    let mut patterns: BTreeMap<SizeKey, u64> = BTreeMap::new();
    for r in &committed.distribution {
        *patterns.entry((r.game.clone(), r.rule.clone(), r.rows, r.cols)).or_default() += r.patterns;
    }
    for r in &committed.mismatches {
        patterns.entry((r.game.clone(), r.rule.clone(), r.rows, r.cols)).or_default();
    }
    for r in &committed.summary {
        patterns.insert((r.game.clone(), r.rule.clone(), r.rows, r.cols), r.patterns);
    }
    let total = patterns.values().sum::<u64>().max(1) as f64;
    let run_seconds = committed.manifest.wall_seconds * committed.manifest.threads.max(1) as f64 / threads;
    patterns
        .into_iter()
        .map(|(key, n)| Unit {
            label: format!("{dir} {}x{}", key.2, key.3),
            estimate: run_seconds * n as f64 / total,
            work: Work::Size { entry, key },
        })
        .collect()
}

/// Which units fit `budget`: cheapest first (ties in registry order) while the sum fits.
fn select(units: &[Unit], budget: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by(|&a, &b| units[a].estimate.total_cmp(&units[b].estimate).then(a.cmp(&b)));
    let mut selected = vec![false; units.len()];
    let mut spent = 0.0;
    for i in order {
        if spent + units[i].estimate > budget {
            break;
        }
        spent += units[i].estimate;
        selected[i] = true;
    }
    selected
}

/// Directories under `root` (relative, '/'-separated) holding a summary.csv.
fn result_dirs(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut subdirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        subdirs.sort();
        if dir != root && dir.join(SUMMARY).is_file() {
            let rel = dir.strip_prefix(root).expect("walk stays under root");
            out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
        for sub in subdirs {
            walk(root, &sub, out);
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// What a `check` run found.
#[derive(Debug)]
pub struct Outcome {
    /// Units recomputed.
    pub checked: usize,
    pub differences: Vec<Difference>,
    pub seconds: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::verify::{self as wall, EMPTY};
    use crate::game::Game;
    use crate::games::wall::Shape;
    use crate::output::csv::write_csv;
    use crate::output::records::DistributionRow;
    use crate::output::manifest::RunClock;
    use crate::output::verify_files::write_verify_files;

    fn row(xs: u32, grundy: u32, patterns: u64) -> DistributionRow {
        DistributionRow { game: "wall".into(), rule: "standard".into(), rows: 2, cols: 2, xs, grundy, patterns }
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
                "d.csv, line 5, expected wall,standard,2,2,0,2,1, got (none)",
                "d.csv, line 3, expected wall,standard,2,2,1,1,5, got wall,standard,2,2,1,1,4",
                "d.csv, missing row, expected (none), got wall,standard,2,2,2,0,6",
                "d.csv, line 4, expected wall,standard,2,2,3,0,1, got (none)",
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

    /// A one-directory registry over wall results written here; `tamper` edits summary.csv.
    fn wall_dir(tamper: impl Fn(String) -> String) -> (tempfile::TempDir, Plan) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("w");
        let mut results = wall::recompute_size("standard", 2, 2).unwrap();
        results.merge(&wall::recompute_size("standard", 1, 3).unwrap());
        write_verify_files(&dir, &results).unwrap();
        write_csv(&dir.join(EMPTY), &wall::empty_table(Shape::new(20, 20)).unwrap()).unwrap();
        let clock = RunClock::start(vec!["test".into()], 1);
        clock.finish(&dir, &[SUMMARY]).unwrap().write(&dir.join(MANIFEST)).unwrap();
        let summary = dir.join(SUMMARY);
        std::fs::write(&summary, tamper(std::fs::read_to_string(&summary).unwrap())).unwrap();
        let plan = Plan::with_registry(root.path(), 100.0, test_registry()).unwrap();
        (root, plan)
    }

    /// Directory `w`: the wall game's standard results (empty.csv and sizes).
    fn test_registry() -> Vec<ResultsDir> {
        let wall_standard = crate::games::wall::GAME.results();
        wall_standard.into_iter().filter(|e| e.dir == "wall/standard").map(|e| ResultsDir { dir: "w", ..e }).collect()
    }

    #[test]
    fn plan_recomputes_and_finds_a_changed_count() {
        let (_root, plan) = wall_dir(|s| s);
        assert_eq!(plan.selected().count(), 3);
        assert!(plan.run(&|_| {}).unwrap().differences.is_empty());
        let (_root, plan) = wall_dir(|s| s.replace("wall,standard,2,2,16,", "wall,standard,2,2,17,"));
        let diffs = plan.run(&|_| {}).unwrap().differences;
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert_eq!((diffs[0].row, diffs[0].got.as_deref()), (Row::Line(3), Some("wall,standard,2,2,16,0,4,2")));
        let (root, plan) = wall_dir(|s| s);
        assert!(plan.unregistered.is_empty());
        let tight = Plan::with_registry(root.path(), 0.01, test_registry()).unwrap();
        let skipped: Vec<&str> = tight.skipped().map(|u| u.label.as_str()).collect();
        assert_eq!(skipped, ["w/empty.csv"]);
    }
}
