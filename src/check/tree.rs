//! `check` on a tree of runs that is not the committed results (a user's `out/`): every run directory under it (a verify or census run's manifest.json beside its summary.csv) is checked on its own — digests and totals at no cost, then its jobs recomputed by the verification its manifest records, cheapest first within the budget; another command's output (a manifest of `table --stats`, `prove`, …) is checked against its digests alone.

use super::compare::compare_size;
use super::protect::{protect_files, shard_of, Committed, Damage};
use crate::output::digests::Omitted;
use super::{Plan, Unit, Work};
use crate::check::Difference;
use crate::error::{Error, Result};
use crate::output::lock::{self, LOCK_FILE};
use crate::output::verify_files::{dir_under, manifest_dirs, tree_dirs, unsealed, MANIFEST, SUMMARY};
use crate::runner::checkpoint::Checkpoint;
use crate::runner::resumable::run_job_in_memory;
use crate::runner::verification::size_groups;
use crate::runner::{Plan as RunPlan, RunResults, Shard, Silent, Verification};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What a run directory without its manifest is.
const UNSEALED: &str = "missing: the directory holds a run's files (summary.csv) but no manifest, so none of them can be checked";

/// One run directory of the tree, as read.
pub(super) struct Run {
    /// Relative to the root, '/'-separated.
    pub(super) dir: String,
    pub(super) committed: Committed,
    verification: Box<dyn Verification>,
    pub(super) shard: Shard,
    /// Groups of job indices that share no size with another group (the units).
    groups: Vec<Vec<usize>>,
}

impl Plan {
    /// Reads every run directory under the root and adds a unit per group of its jobs (a run
    /// whose files cannot be read is damage, and the others are still read); directories with
    /// a manifest that holds no verify run (no summary.csv, or another command's output:
    /// [`manifest_dirs`]) are checked against their digests and listed as not checked, those
    /// with a summary.csv but no manifest are damage, and the checkpoint of every unfinished
    /// run is checked against its digest. A tree with neither a manifest, nor a checkpoint,
    /// nor damage is an error.
    pub(super) fn read_tree(&mut self, threads: f64) -> Result<()> {
        self.read_unfinished();
        self.read_unsealed(true);
        let found = manifest_dirs(&self.root);
        if found.is_empty() && self.notes().is_empty() && self.damage.is_empty() {
            return Err(Error::Usage(format!("no run found under {} (no manifest.json, nor a checkpoint.json)", self.root.display())));
        }
        for (rel, is_run) in found {
            let dir = dir_under(&self.root, &rel);
            if !is_run {
                self.damage.extend(digests_only(&dir, self.omitted));
                self.unregistered.push(rel);
                continue;
            }
            let units = self.units.len();
            let read = self.read_run(rel, threads);
            // A file of the run that is missing or not what it should hold is damage; the
            // check goes on with the other runs.
            match read.as_ref().err().and_then(|error| super::file_damage(error, &dir)) {
                Some(damage) => {
                    self.units.truncate(units);
                    self.damage.push(damage);
                    self.damage.extend(digests_only(&dir, self.omitted));
                }
                None => read?,
            }
        }
        self.read_merges();
        Ok(())
    }

    /// How run directory `rel` is named in the units' labels and notes: relative to the root,
    /// or the root as given when the root itself is the run (not `.`).
    pub(super) fn run_name(&self, rel: &str) -> String {
        if rel == "." { self.root.display().to_string() } else { rel.to_string() }
    }

    /// Reads run directory `rel` (its files at no cost: [`Committed::read`]) and adds its units.
    fn read_run(&mut self, rel: String, threads: f64) -> Result<()> {
        let dir = dir_under(&self.root, &rel);
        let (committed, damage) = Committed::read(&dir, self.rebuild, self.omitted)?;
        self.damage.extend(damage);
        let verification = match (self.rebuild)(&committed.manifest.parameters) {
            Ok(verification) => verification,
            Err(error @ Error::UnknownGame { .. }) => {
                self.note(format!("{}: not recomputed: {error}", dir.display()));
                return Ok(());
            }
            // A manifest that cannot be rebuilt otherwise is already in `damage` (Committed::read says why).
            Err(_) => return Ok(()),
        };
        let shard = shard_of(&committed.manifest).map_err(|e| Error::malformed(dir.join(MANIFEST), e))?;
        let jobs = verification.jobs()?;
        let groups = size_groups(&jobs);
        let run = Run { dir: rel, committed, verification, shard, groups };
        let name = self.run_name(&run.dir);
        self.units.extend(job_units(&run, &name, &jobs, self.runs.len(), threads));
        self.runs.push(run);
        Ok(())
    }

    /// A directory with no manifest.json and no checkpoint that holds a run's files (summary.csv:
    /// a finished run whose manifest was deleted; only when `runs_sealed`, a tree of runs: the
    /// committed results keep some runs' files under SHA256SUMS alone) or the lock a run took
    /// (a run killed, or failed, before it wrote its manifest, as a `prove` or `table` run
    /// stopped early) is damage: nothing in it can be checked. A lock a live run holds is a
    /// run in progress. Both modes of `check` read the tree this way.
    pub(super) fn read_unsealed(&mut self, runs_sealed: bool) {
        let dirs: Vec<(String, PathBuf)> = tree_dirs(&self.root).into_iter().filter(|(_, dir)| unsealed(dir)).collect();
        for (_, dir) in dirs {
            let lock = dir.join(LOCK_FILE);
            let message = if runs_sealed && dir.join(SUMMARY).is_file() {
                UNSEALED.to_string()
            } else if lock::is_held(&lock) {
                self.note(format!("{}: a run in progress (it holds {LOCK_FILE}), with nothing finished to check yet", dir.display()));
                continue;
            } else if lock.is_file() {
                let run = lock::recorded_command(&lock).map_or_else(|| "a run".to_string(), |command| format!("the run `{command}`"));
                format!("missing: {run} took this directory ({LOCK_FILE}) but never finished (killed, or failed), so none of its files can be checked")
            } else {
                continue;
            };
            self.damage.push(Damage { file: dir.join(MANIFEST), message });
        }
    }

    /// Checks the checkpoint of every directory that has one (a run stopped or still running):
    /// a damaged one is damage; each is noted as a run in progress, over the files of an
    /// earlier run when a manifest is beside it (those files are checked as that run's).
    fn read_unfinished(&mut self) {
        let unfinished: Vec<(String, PathBuf)> = tree_dirs(&self.root).into_iter().filter(|(_, dir)| Checkpoint::exists(dir)).collect();
        for (_, dir) in unfinished {
            self.read_running(std::slice::from_ref(&dir));
            let note = match dir.join(MANIFEST).is_file() {
                false => "a run in progress (a checkpoint alone), not recomputed",
                true => "a run in progress (checkpoint.json) over an earlier run's files, which are checked as that run's; merge refuses the directory until the run ends",
            };
            self.note(format!("{}: {note}", dir.display()));
        }
    }

    /// Recomputes unit `group` of run `run` and compares its sizes with the files.
    pub(super) fn run_group(&self, run: usize, group: usize) -> Result<Vec<Difference>> {
        let run = &self.runs[run];
        let plan = RunPlan::new(&*run.verification, run.shard)?;
        let mut fresh: Option<RunResults> = None;
        for &job in &run.groups[group] {
            let part = run_job_in_memory(&plan, job, &Silent)?;
            fresh.get_or_insert_with(|| RunResults::new(part.game.clone(), part.rule.clone()).with_columns(part.columns)).merge(&part);
        }
        let Some(fresh) = fresh else { return Ok(Vec::new()) };
        let sizes: BTreeSet<(u32, u32)> = run.groups[group].iter().flat_map(|&j| plan.jobs[j].sizes.iter().copied()).collect();
        let dir = dir_under(&self.root, &run.dir);
        let key = |(rows, cols): (u32, u32)| (fresh.game.clone(), fresh.rule.clone(), rows, cols);
        Ok(sizes.into_iter().flat_map(|size| compare_size(&dir, &run.committed, &key(size), &fresh)).collect())
    }
}

/// What [`protect_files`] finds wrong with the files of `dir`, which is not recomputed (an
/// unreadable manifest is damage too).
fn digests_only(dir: &Path, omitted: Omitted) -> Vec<Damage> {
    match protect_files(dir, &[], omitted) {
        Ok((_, damage)) => damage,
        Err(error) => vec![Damage::in_dir(dir, &error)],
    }
}

/// The units of one run: a group of jobs each, with the manifest's wall time shared out by the
/// patterns its sizes hold in summary.csv.
fn job_units(run: &Run, name: &str, jobs: &[crate::runner::Job], index: usize, threads: f64) -> Vec<Unit> {
    let patterns_of = |group: &Vec<usize>| -> u64 {
        let sizes: BTreeSet<(u32, u32)> = group.iter().flat_map(|&j| jobs[j].sizes.iter().copied()).collect();
        run.committed.summary.iter().filter(|r| sizes.contains(&(r.rows, r.cols))).map(|r| r.patterns).sum()
    };
    let total = run.groups.iter().map(patterns_of).sum::<u64>().max(1) as f64;
    let manifest = &run.committed.manifest;
    let run_seconds = manifest.cpu_seconds_on(threads);
    (run.groups.iter().enumerate())
        .map(|(group, jobs_of)| {
            let labels: Vec<&str> = jobs_of.iter().map(|&j| jobs[j].label.as_str()).collect();
            Unit {
                label: format!("{name} {}", labels.join("+")),
                estimate: run_seconds * patterns_of(jobs_of) as f64 / total,
                work: Work::Group { run: index, group },
            }
        })
        .collect()
}
