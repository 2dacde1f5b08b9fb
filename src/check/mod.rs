//! `check`: recompute the committed results that fit a time budget and compare them row by row.
//!
//! Which directories exist and how each is recomputed comes from the game registry
//! ([`crate::games::REGISTRY`], [`crate::game::Game::results`]). A size's cost is estimated from
//! its directory's manifest (the run's wall time shared out by patterns, scaled by threads),
//! and the cheapest sizes are taken first until the budget is spent.

pub mod compare;
pub mod protect;
mod recompute;
mod report;
mod shards;
pub mod sums;
mod tree;
mod tree_merges;

pub use compare::{compare_rows, Difference, Row};
pub use protect::{protect, Damage, Rebuild};
pub use recompute::{MergedCheck, Recompute, ResultsDir};
pub use report::{passed, report};

use compare::compare_size;
use crate::error::{Error, Result};
use crate::output::digests::Omitted;
use crate::output::verify_files::{tree_dirs, unwalked_text, walk_tree, MANIFEST, SUMMARY};
use protect::{existing, Committed};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Default budget of `check` in estimated seconds: the cheap tables and sizes of every game
/// (for the flagship game every size up to 4×5).
pub const DEFAULT_BUDGET: f64 = 20.0;

/// (game, rule, rows, cols): one size of one committed run.
pub type SizeKey = (String, String, u32, u32);

/// What one unit of work recomputes.
enum Work {
    Size { entry: usize, key: SizeKey },
    Table { entry: usize },
    /// One row of a [`Recompute::Rows`] table, by its key.
    Row { entry: usize, key: String },
    Sharded { entry: usize, part: shards::Part },
    /// A group of jobs of a run found in a tree of runs.
    Group { run: usize, group: usize },
    /// A merged run found in a tree of runs against the sum of its shards (runs of the tree).
    TreeMerge { run: usize, shards: Vec<usize> },
}

/// One unit of `check`: a size of a directory, or a whole table file.
pub struct Unit {
    /// What is recomputed, e.g. `<game>/<dir> 4x5` or a table file.
    pub label: String,
    /// Estimated seconds.
    pub estimate: f64,
    work: Work,
}

/// Everything `check` read, and which units fit the budget.
pub struct Plan {
    root: PathBuf,
    registry: Vec<ResultsDir>,
    rebuild: Rebuild,
    omitted: Omitted,
    committed: BTreeMap<&'static str, Committed>,
    units: Vec<Unit>,
    selected: Vec<bool>,
    /// Directories under the root with a summary.csv that no registry entry covers.
    pub unregistered: Vec<String>,
    /// Committed files found damaged while reading (every directory, whatever the budget).
    pub damage: Vec<Damage>,
    /// Directories whose files were checked against their manifest.
    protected: BTreeSet<&'static str>,
    sharded: shards::Sharded,
    /// The run directories of a tree of runs (not the committed results).
    runs: Vec<tree::Run>,
}

impl Plan {
    /// Reads the results under `root` and selects the cheapest units whose estimates add up to
    /// at most `budget`. The committed results (this project's results/, or a copy holding every
    /// directory of `registry`) are read as [`Plan::with_registry`] reads them. Any other
    /// directory is a tree of runs (e.g. `out/` after some `verify` runs): each run directory
    /// under it is checked on its own, as its manifest records it (`rebuild`). `omitted` says
    /// which files a manifest lists that its game leaves out by design.
    pub fn read(root: &Path, budget: f64, registry: Vec<ResultsDir>, rebuild: Rebuild, omitted: Omitted) -> Result<Plan> {
        if is_committed(root, &registry) {
            let mut plan = Self::with_registry(root, budget, registry, rebuild, omitted)?;
            plan.read_unsealed(false);
            plan.require_sums();
            plan.damage.sort();
            plan.damage.dedup();
            Ok(plan)
        } else {
            Self::tree(root, budget, rebuild, omitted)
        }
    }

    /// Reads every run directory under `root` (a tree of runs) and selects within `budget`.
    pub fn tree(root: &Path, budget: f64, rebuild: Rebuild, omitted: Omitted) -> Result<Plan> {
        let mut plan = Self::with_registry(root, budget, Vec::new(), rebuild, omitted)?;
        plan.unregistered.clear();
        plan.read_tree(rayon::current_num_threads().max(1) as f64)?;
        plan.damage.sort();
        plan.damage.dedup();
        plan.selected = select(&plan.units, budget);
        Ok(plan)
    }

    /// Reads every directory of `registry` under `root` (any missing or malformed file is an
    /// error naming it) and selects the cheapest units whose estimates add up to at most
    /// `budget`; `rebuild` makes a run's verification from its manifest, `omitted` says which
    /// listed files its game leaves out by design.
    pub fn with_registry(root: &Path, budget: f64, registry: Vec<ResultsDir>, rebuild: Rebuild, omitted: Omitted) -> Result<Plan> {
        if !root.is_dir() {
            return Err(Error::Usage(format!("results directory {} does not exist (or is not a directory)", root.display())));
        }
        let threads = rayon::current_num_threads().max(1) as f64;
        let mut plan = Plan {
            root: root.to_path_buf(),
            registry,
            rebuild,
            omitted,
            committed: BTreeMap::new(),
            units: Vec::new(),
            selected: Vec::new(),
            unregistered: Vec::new(),
            damage: Vec::new(),
            protected: BTreeSet::new(),
            sharded: shards::Sharded::default(),
            runs: Vec::new(),
        };
        plan.damage.extend(unwalked(root));
        for index in 0..plan.registry.len() {
            plan.read_registered(index, threads)?;
        }
        if !plan.registry.is_empty() && (is_own_results(root) || root.join(sums::SUMS).exists()) {
            plan.damage.extend(sums::protect_sums(root, plan.omitted));
        }
        plan.damage.sort();
        plan.damage.dedup();
        plan.selected = select(&plan.units, budget);
        let registered: BTreeSet<&str> = plan.registry.iter().map(|e| e.dir).collect();
        let known = |d: &String| registered.contains(d.as_str()) || plan.is_shard_dir(d);
        plan.unregistered = result_dirs(root).into_iter().filter(|d| !known(d)).collect();
        Ok(plan)
    }

    /// A copy of the committed results without SHA256SUMS is damaged: deleting it must not
    /// switch off the protection of the files no manifest lists.
    fn require_sums(&mut self) {
        if !self.root.join(sums::SUMS).exists() {
            self.damage.extend(sums::protect_sums(&self.root, self.omitted));
            self.damage.sort();
        }
    }

    /// Reads registry entry `index` ([`Plan::read_entry`]). A directory that is missing is
    /// damage, named once; so is a file in it that is missing or cannot be read as what it
    /// should hold (the entry then adds no unit, and the check goes on with the others). What
    /// is wrong with a directory as a whole (shards finished but not merged) stays an error.
    fn read_registered(&mut self, index: usize, threads: f64) -> Result<()> {
        let dir = self.root.join(self.registry[index].dir);
        if !dir.is_dir() {
            self.damage.push(Damage { file: dir, message: "missing (a registered results directory)".into() });
            return Ok(());
        }
        let units = self.units.len();
        let read = self.read_entry(index, threads);
        match read.as_ref().err().and_then(|error| file_damage(error, &dir)) {
            Some(damage) => {
                self.units.truncate(units);
                self.damage.push(damage);
                Ok(())
            }
            None => read,
        }
    }

    /// Reads the files of registry entry `index` and adds its units.
    fn read_entry(&mut self, index: usize, threads: f64) -> Result<()> {
        let entry = self.registry[index];
        let dir = self.root.join(entry.dir);
        match entry.recompute {
            Recompute::Table { file, seconds, .. } => {
                existing(&dir, file)?;
                self.protect_table(entry.dir, &dir)?;
                self.units.push(Unit { label: format!("{}/{file}", entry.dir), estimate: seconds, work: Work::Table { entry: index } });
            }
            Recompute::Rows { file, rows, .. } => {
                let path = existing(&dir, file)?;
                self.protect_table(entry.dir, &dir)?;
                let label = |key: &str| format!("{}/{file} {key}", entry.dir);
                self.units.extend(rows(&path)?.into_iter().map(|(key, estimate)| Unit { label: label(&key), estimate, work: Work::Row { entry: index, key } }));
            }
            Recompute::Sizes(_) => {
                if !self.committed.contains_key(entry.dir) {
                    let (committed, damage) = Committed::read(&dir, self.rebuild, self.omitted)?;
                    self.committed.insert(entry.dir, committed);
                    self.protected.insert(entry.dir);
                    self.damage.extend(damage);
                }
                self.units.extend(size_units(entry.dir, index, &self.committed[entry.dir], threads));
            }
            Recompute::Sharded { .. } => self.read_sharded(index, threads)?,
        }
        Ok(())
    }

    /// Checks the files of a table directory against its manifest once, if it has one.
    fn protect_table(&mut self, name: &'static str, dir: &Path) -> Result<()> {
        if dir.join(MANIFEST).is_file() && self.protected.insert(name) {
            self.damage.extend(protect::protect_files(dir, &[], self.omitted)?.1);
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

    /// Recomputes every selected unit and compares; `done` is told of each unit and the
    /// seconds it took.
    pub fn run(&self, done: &dyn Fn(&Unit, f64)) -> Result<Outcome> {
        let clock = Instant::now();
        let mut differences = Vec::new();
        let mut damage = Vec::new();
        let mut checked = 0;
        for unit in self.selected() {
            let unit_clock = Instant::now();
            match self.run_unit(unit) {
                Ok(found) => differences.extend(found),
                Err(error) => damage.push(file_damage(&error, &self.root).ok_or(error)?),
            }
            done(unit, unit_clock.elapsed().as_secs_f64());
            checked += 1;
        }
        damage.retain(|d| !self.damage.contains(d));
        damage.sort();
        damage.dedup();
        Ok(Outcome { checked, differences, damage, seconds: clock.elapsed().as_secs_f64() })
    }

    fn run_unit(&self, unit: &Unit) -> Result<Vec<Difference>> {
        match &unit.work {
            Work::Table { entry } => match self.registry[*entry].recompute {
                Recompute::Table { file, compare, .. } => compare(&self.root.join(self.registry[*entry].dir).join(file)),
                _ => unreachable!("table units come from table entries"),
            },
            Work::Row { entry, key } => match self.registry[*entry].recompute {
                Recompute::Rows { file, compare, .. } => compare(&self.root.join(self.registry[*entry].dir).join(file), key),
                _ => unreachable!("row units come from row entries"),
            },
            Work::Sharded { entry, part } => self.run_sharded(*entry, part),
            Work::Group { run, group } => self.run_group(*run, *group),
            Work::TreeMerge { run, shards } => self.run_tree_merge(*run, shards),
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
    let run_seconds = committed.manifest.cpu_seconds_on(threads);
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

/// True when `root` is this project's results/ or a copy of it: one holding more than half of
/// the registered directories (a tree of runs may hold one or two by chance, e.g. `out/nim`),
/// so that a copy missing a directory names it rather than being read as a tree of runs.
fn is_committed(root: &Path, registry: &[ResultsDir]) -> bool {
    let dirs: BTreeSet<&str> = registry.iter().map(|entry| entry.dir).collect();
    let present = dirs.iter().filter(|dir| root.join(dir).is_dir()).count();
    is_own_results(root) || (!dirs.is_empty() && 2 * present > dirs.len())
}

/// True when `root` is this project's results/.
fn is_own_results(root: &Path) -> bool {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    matches!((root.canonicalize(), own.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Directories under `root` (relative, '/'-separated) holding a summary.csv.
fn result_dirs(root: &Path) -> Vec<String> {
    tree_dirs(root).into_iter().filter(|(rel, dir)| rel != "." && dir.join(SUMMARY).is_file()).map(|(rel, _)| rel).collect()
}

/// The directories under `root` that cannot be listed in full (unreadable, or holding a path
/// longer than the system allows): damage, since the runs nested there would go unchecked.
fn unwalked(root: &Path) -> Vec<Damage> {
    let damage = |(dir, error): (PathBuf, std::io::Error)| {
        let message = format!("{}; whatever lies under it (runs nested there) is not checked", unwalked_text(&dir, error));
        Damage { file: dir, message }
    };
    walk_tree(root).unreachable.into_iter().map(damage).collect()
}

/// The damage an error says, when it names a file under `dir` (missing, or not what it should
/// hold: a directory standing where a file named `NAME.EXT` should be is one) rather than
/// something wrong with a directory as a whole or with the check itself.
fn file_damage(error: &Error, dir: &Path) -> Option<Damage> {
    let path = error.path().filter(|path| path.starts_with(dir) && (!path.is_dir() || path.extension().is_some()))?;
    Some(Damage::of_error(path.to_path_buf(), error))
}

/// What a `check` run found.
#[derive(Debug)]
pub struct Outcome {
    /// Units recomputed.
    pub checked: usize,
    pub differences: Vec<Difference>,
    /// Committed files a unit found it could not read (missing, or not what they should hold).
    pub damage: Vec<Damage>,
    pub seconds: f64,
}

#[cfg(test)]
mod tests;
