//! `check`: recompute the committed results that fit a time budget and compare them row by row.
//!
//! [`REGISTRY`] maps every directory under results/ to how its files are recomputed; adding a
//! game is one entry. A size's cost is estimated from its directory's manifest (the run's wall
//! time shared out by patterns, scaled by threads), and the cheapest sizes are taken first
//! until the budget is spent.

use crate::runner::tally::RunResults;
use crate::games::wall::{census, verify as wall};
use crate::games::{cards, catalogue, dagame, footholds, kings};
use crate::error::{Error, Result};
use crate::games::wall::board::MAX_SIDE;
use crate::games::wall::Shape;
use crate::output::csv::{read_csv, to_csv_line};
use crate::output::manifest::Manifest;
use crate::output::records::{DistributionRow, MismatchRow, SummaryRow};
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How the files of one results directory are recomputed.
#[derive(Clone, Copy)]
pub enum Recompute {
    /// summary/distribution/mismatches, one size at a time, from the game, rule and size.
    ByGame(fn(&str, &str, u32, u32) -> Result<RunResults>),
    /// The same from the rule and size alone (games with one module each).
    ByRule(fn(&str, u32, u32) -> Result<RunResults>),
    /// empty.csv of the wall game: every board with no X up to 20×20.
    WallEmpty,
}

/// One registered results directory (relative to the results root) and its recomputation.
pub struct Entry {
    pub dir: &'static str,
    pub recompute: Recompute,
}

/// Every committed result `check` knows how to recompute.
pub const REGISTRY: &[Entry] = &[
    Entry { dir: "wall/standard", recompute: Recompute::WallEmpty },
    Entry { dir: "wall/standard", recompute: Recompute::ByRule(wall::recompute_size) },
    Entry { dir: "wall/census", recompute: Recompute::ByRule(census::recompute_size) },
    Entry { dir: "wall/x-blocks", recompute: Recompute::ByRule(wall::recompute_size) },
    Entry { dir: "wall/misere", recompute: Recompute::ByRule(wall::recompute_size) },
    Entry { dir: "wall/t-split", recompute: Recompute::ByRule(wall::recompute_size) },
    Entry { dir: "nim", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "nim-count", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "misere-nim", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "odd-even-nim", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "pimber", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "polygon", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "cross", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "cross-solver", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "divisor", recompute: Recompute::ByGame(catalogue::verify::recompute_size) },
    Entry { dir: "dagame", recompute: Recompute::ByRule(dagame::verify::recompute_size) },
    Entry { dir: "dagame/random", recompute: Recompute::ByRule(dagame::verify::recompute_size) },
    Entry { dir: "footholds", recompute: Recompute::ByRule(footholds::verify::recompute_size) },
    Entry { dir: "footholds/random", recompute: Recompute::ByRule(footholds::verify::recompute_size) },
    Entry { dir: "cards", recompute: Recompute::ByRule(cards::verify::recompute_size) },
    Entry { dir: "cards/random", recompute: Recompute::ByRule(cards::verify::recompute_size) },
    Entry { dir: "kings", recompute: Recompute::ByRule(kings::verify::recompute_size) },
];

/// Default budget of `check` in estimated seconds: the empty-board table, every wall size up
/// to 4×5 (and the other sizes of at most 2^20 patterns) and the cheap sizes of the other games.
pub const DEFAULT_BUDGET: f64 = 20.0;

/// Estimated cost of recomputing empty.csv (400 DP runs up to 20×20: 0.05 s CPU measured on 2 cores).
const EMPTY_TABLE_SECONDS: f64 = 0.05;

/// A place in a committed file: a 1-based line, or a row the file lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Line(usize),
    Missing,
}

/// One disagreement between a committed file and its recomputation. `expected` is the
/// committed line (None: the file lacks the row), `got` the recomputed one (None: no such row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub file: PathBuf,
    pub row: Row,
    pub expected: Option<String>,
    pub got: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = match self.row {
            Row::Line(n) => format!("line {n}"),
            Row::Missing => "missing row".to_string(),
        };
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_string());
        write!(f, "{}, {row}, expected {}, got {}", self.file.display(), show(&self.expected), show(&self.got))
    }
}

/// Compares committed rows (with their line numbers) with recomputed rows, matching rows by
/// `key`: a differing row, a row only on one side and a repeated committed row are differences.
pub fn compare_rows<T, K>(file: &Path, committed: &[(usize, &T)], fresh: &[T], key: impl Fn(&T) -> K) -> Vec<Difference>
where
    T: Serialize + PartialEq,
    K: Ord,
{
    let mut old: BTreeMap<K, Vec<(usize, &T)>> = BTreeMap::new();
    for &(line, row) in committed {
        old.entry(key(row)).or_default().push((line, row));
    }
    let new: BTreeMap<K, &T> = fresh.iter().map(|row| (key(row), row)).collect();
    let keys: BTreeSet<&K> = old.keys().chain(new.keys()).collect();
    let difference = |row, expected: Option<&T>, got: Option<&T>| Difference {
        file: file.to_path_buf(),
        row,
        expected: expected.map(to_csv_line),
        got: got.map(to_csv_line),
    };
    let mut out = Vec::new();
    for k in keys {
        let lines = old.get(k).map_or(&[][..], Vec::as_slice);
        let got = new.get(k).copied();
        match (lines.split_first(), got) {
            (None, got) => out.push(difference(Row::Missing, None, got)),
            (Some((&(line, row), repeats)), got) => {
                if got != Some(row) {
                    out.push(difference(Row::Line(line), Some(row), got));
                }
                out.extend(repeats.iter().map(|&(line, row)| difference(Row::Line(line), Some(row), None)));
            }
        }
    }
    out
}

/// The committed verify files of one directory, as read.
struct Committed {
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
type SizeKey = (String, String, u32, u32);

/// What one unit of work recomputes.
enum Work {
    Size { entry: usize, key: SizeKey },
    Empty { entry: usize },
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
    committed: BTreeMap<&'static str, Committed>,
    empty: BTreeMap<&'static str, Vec<(usize, wall::EmptyRow)>>,
    units: Vec<Unit>,
    selected: Vec<bool>,
    /// Directories under the root with a summary.csv that no registry entry covers.
    pub unregistered: Vec<String>,
}

impl Plan {
    /// Reads every registered directory under `root` (any missing or malformed file is an error
    /// naming it) and selects the cheapest units whose estimates add up to at most `budget`.
    pub fn new(root: &Path, budget: f64) -> Result<Plan> {
        Self::with_registry(root, budget, REGISTRY)
    }

    fn with_registry(root: &Path, budget: f64, registry: &[Entry]) -> Result<Plan> {
        if !root.is_dir() {
            return Err(Error::Usage(format!("results directory {} does not exist", root.display())));
        }
        let threads = rayon::current_num_threads().max(1) as f64;
        let mut plan = Plan {
            root: root.to_path_buf(),
            committed: BTreeMap::new(),
            empty: BTreeMap::new(),
            units: Vec::new(),
            selected: Vec::new(),
            unregistered: Vec::new(),
        };
        for (index, entry) in registry.iter().enumerate() {
            let dir = root.join(entry.dir);
            match entry.recompute {
                Recompute::WallEmpty => {
                    let path = existing(&dir, wall::EMPTY)?;
                    let rows = read_csv::<wall::EmptyRow>(&path)?.into_iter().enumerate().map(|(i, r)| (i + 2, r));
                    plan.empty.insert(entry.dir, rows.collect());
                    plan.units.push(Unit {
                        label: format!("{}/{}", entry.dir, wall::EMPTY),
                        estimate: EMPTY_TABLE_SECONDS,
                        work: Work::Empty { entry: index },
                    });
                }
                Recompute::ByGame(_) | Recompute::ByRule(_) => {
                    if !plan.committed.contains_key(entry.dir) {
                        plan.committed.insert(entry.dir, Committed::read(&dir)?);
                    }
                    let committed = &plan.committed[entry.dir];
                    plan.units.extend(size_units(entry.dir, index, committed, threads));
                }
            }
        }
        plan.selected = select(&plan.units, budget);
        let registered: BTreeSet<&str> = registry.iter().map(|e| e.dir).collect();
        plan.unregistered = result_dirs(root).into_iter().filter(|d| !registered.contains(d.as_str())).collect();
        Ok(plan)
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
        self.run_with(REGISTRY, starting)
    }

    fn run_with(&self, registry: &[Entry], starting: &dyn Fn(&Unit)) -> Result<Outcome> {
        let clock = Instant::now();
        let mut differences = Vec::new();
        let mut checked = 0;
        for unit in self.selected() {
            starting(unit);
            differences.extend(self.run_unit(registry, unit)?);
            checked += 1;
        }
        Ok(Outcome { checked, differences, seconds: clock.elapsed().as_secs_f64() })
    }

    fn run_unit(&self, registry: &[Entry], unit: &Unit) -> Result<Vec<Difference>> {
        match &unit.work {
            Work::Empty { entry } => {
                let dir = registry[*entry].dir;
                let committed: Vec<(usize, &wall::EmptyRow)> = self.empty[dir].iter().map(|(l, r)| (*l, r)).collect();
                let fresh = wall::empty_table(Shape::new(MAX_SIDE, MAX_SIDE))?;
                let file = self.root.join(dir).join(wall::EMPTY);
                Ok(compare_rows(&file, &committed, &fresh, |r| (r.rows, r.cols)))
            }
            Work::Size { entry, key } => {
                let entry = &registry[*entry];
                let committed = &self.committed[entry.dir];
                let (game, rule, rows, cols) = key;
                let fresh = match entry.recompute {
                    Recompute::ByGame(f) => f(game, rule, *rows, *cols),
                    Recompute::ByRule(f) => f(rule, *rows, *cols),
                    Recompute::WallEmpty => unreachable!("size units come from verify-file entries"),
                }
                .map_err(|e| {
                    let summary = self.root.join(entry.dir).join(SUMMARY);
                    Error::malformed(summary, format!("cannot recompute {game} {rule} {rows}x{cols}: {e}"))
                })?;
                Ok(compare_size(&self.root.join(entry.dir), committed, key, &fresh))
            }
        }
    }
}

/// Rows that belong to one size of one run.
trait OfSize {
    fn size_key(&self) -> (&str, &str, u32, u32);

    fn is(&self, key: &SizeKey) -> bool {
        self.size_key() == (key.0.as_str(), key.1.as_str(), key.2, key.3)
    }
}

macro_rules! of_size {
    ($($t:ty),*) => {$(
        impl OfSize for $t {
            fn size_key(&self) -> (&str, &str, u32, u32) {
                (&self.game, &self.rule, self.rows, self.cols)
            }
        }
    )*};
}
of_size!(SummaryRow, DistributionRow, MismatchRow);

/// The committed rows of one size with their 1-based line numbers.
fn lines_of<'a, T: OfSize>(rows: &'a [T], key: &SizeKey) -> Vec<(usize, &'a T)> {
    rows.iter().enumerate().filter(|(_, r)| r.is(key)).map(|(i, r)| (i + 2, r)).collect()
}

/// The differences of one size: its summary row, distribution rows and mismatch rows.
fn compare_size(dir: &Path, committed: &Committed, key: &SizeKey, fresh: &RunResults) -> Vec<Difference> {
    let mut out = compare_rows(
        &dir.join(SUMMARY),
        &lines_of(&committed.summary, key),
        &fresh.summary_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |_| (),
    );
    out.extend(compare_rows(
        &dir.join(DISTRIBUTION),
        &lines_of(&committed.distribution, key),
        &fresh.distribution_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |r| (r.xs, r.grundy),
    ));
    out.extend(compare_rows(
        &dir.join(MISMATCHES),
        &lines_of(&committed.mismatches, key),
        &fresh.mismatch_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |r| r.board.clone(),
    ));
    out
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
    use crate::output::csv::write_csv;
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
        Unit { label: String::new(), estimate, work: Work::Empty { entry: 0 } }
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
        write_csv(&dir.join(wall::EMPTY), &wall::empty_table(Shape::new(MAX_SIDE, MAX_SIDE)).unwrap()).unwrap();
        let clock = RunClock::start(vec!["test".into()], 1);
        clock.finish(&dir, &[SUMMARY]).unwrap().write(&dir.join(MANIFEST)).unwrap();
        let summary = dir.join(SUMMARY);
        std::fs::write(&summary, tamper(std::fs::read_to_string(&summary).unwrap())).unwrap();
        let plan = Plan::with_registry(root.path(), 100.0, TEST_REGISTRY).unwrap();
        (root, plan)
    }

    const TEST_REGISTRY: &[Entry] = &[
        Entry { dir: "w", recompute: Recompute::WallEmpty },
        Entry { dir: "w", recompute: Recompute::ByRule(wall::recompute_size) },
    ];

    #[test]
    fn plan_recomputes_and_finds_a_changed_count() {
        let (_root, plan) = wall_dir(|s| s);
        assert_eq!(plan.selected().count(), 3);
        assert!(plan.run_with(TEST_REGISTRY, &|_| {}).unwrap().differences.is_empty());
        let (_root, plan) = wall_dir(|s| s.replace("wall,standard,2,2,16,", "wall,standard,2,2,17,"));
        let diffs = plan.run_with(TEST_REGISTRY, &|_| {}).unwrap().differences;
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert_eq!((diffs[0].row, diffs[0].got.as_deref()), (Row::Line(3), Some("wall,standard,2,2,16,0,4,2")));
        let (root, plan) = wall_dir(|s| s);
        assert!(plan.unregistered.is_empty());
        let tight = Plan::with_registry(root.path(), 0.01, TEST_REGISTRY).unwrap();
        let skipped: Vec<&str> = tight.skipped().map(|u| u.label.as_str()).collect();
        assert_eq!(skipped, ["w/empty.csv"]);
    }
}
