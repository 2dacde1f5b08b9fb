//! `check` of a run committed as shards and their merge ([`Recompute::Sharded`]): the merge
//! against what its shards add up to (no cost), each shard recomputed and the game's own check
//! of the merged files when the budget allows.

use super::compare::{compare_size, Difference, Row};
use super::{Committed, Plan, SizeKey, Unit, Work};
use crate::error::{Error, Result};
use super::{Rebuild, Recompute};
use super::protect::{protect_files, Damage};
use crate::output::digests::Omitted;
use crate::runner::checkpoint::Checkpoint;
use crate::runner::files::read_verify_files_unchecked;
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use crate::runner::merge::{check_shard_set, merge_shards, merged_parameters, shard_output, ShardOutput};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What one unit of a sharded run checks.
#[derive(Debug, Clone, Copy)]
pub(super) enum Part {
    /// The merged files against the sum of the shards.
    Merge,
    /// Shard number `.0` (in the order read) against its recomputation.
    Shard(usize),
    /// The game's own check of the merged files.
    Merged,
}

/// What a plan read of its sharded runs.
#[derive(Default)]
pub(super) struct Sharded {
    dirs: BTreeMap<&'static str, ShardedDir>,
    /// Remarks, e.g. a run in progress.
    notes: Vec<String>,
}

/// The committed shards of one directory and their merge (absent while shards are missing).
struct ShardedDir {
    shards: Vec<(ShardOutput, Committed)>,
    merged: Option<Committed>,
}

impl Plan {
    /// Reads the shards and the merge of registry entry `index` and adds its units.
    pub(super) fn read_sharded(&mut self, index: usize, threads: f64) -> Result<()> {
        let entry = self.registry[index];
        let Recompute::Sharded { merged: own_check, .. } = entry.recompute else { unreachable!("a sharded entry") };
        let dir = self.root.join(entry.dir);
        let found = shard_dirs(&dir.join("shards"))?;
        let running = self.read_running(&found.running);
        if found.finished.is_empty() {
            self.sharded.notes.push(format!("{}: no shard finished yet, {running} (a run in progress)", entry.dir));
            return Ok(());
        }
        let (shards, sealed) = self.read_finished(&found.finished)?;
        let count = shards[0].0.shard.count;
        let merged = if dir.join(MANIFEST).is_file() {
            let (committed, damage) = Committed::read(&dir, self.rebuild, self.omitted)?;
            self.damage.extend(damage);
            self.damage.extend(found.running.iter().map(|shard| unfinished_beside_merge(shard)));
            Some(committed)
        } else if shards.len() as u64 >= count {
            return Err(Error::malformed(dir.join(MANIFEST), format!("missing: all {count} shards are finished but not merged")));
        } else {
            self.sharded.notes.push(format!("{}: {} of {count} shards finished, {running}, not merged yet (a run in progress)", entry.dir, shards.len()));
            None
        };
        let comparable = sealed && self.shard_set_sound(&dir, &shards, merged.is_some());
        let mut unit = |label: String, estimate: f64, part: Part| self.units.push(Unit { label, estimate, work: Work::Sharded { entry: index, part } });
        if merged.is_some() && comparable {
            unit(format!("{} merge of {} shards", entry.dir, shards.len()), 0.0, Part::Merge);
        }
        if let Some(check) = own_check.filter(|_| merged.is_some()) {
            unit(format!("{} {}", entry.dir, check.label), check.seconds, Part::Merged);
        }
        for (i, (output, committed)) in shards.iter().enumerate() {
            let run_seconds = committed.manifest.cpu_seconds_on(threads);
            unit(format!("{} shard {}", entry.dir, output.shard), run_seconds, Part::Shard(i));
        }
        self.sharded.dirs.insert(entry.dir, ShardedDir { shards, merged });
        Ok(())
    }

    /// The finished shards in `dirs`, their damage noted (a checkpoint left beside a manifest
    /// too), and whether every one's manifest is sound (its digest matches): only then are
    /// they compared as one run, so that a damaged manifest is named as such, not as another run.
    fn read_finished(&mut self, dirs: &[PathBuf]) -> Result<(Vec<(ShardOutput, Committed)>, bool)> {
        let mut shards = Vec::new();
        let mut sealed = true;
        for shard in dirs {
            let (output, committed, damage) = read_shard(shard, self.rebuild, self.omitted)?;
            sealed &= !damage.iter().any(|d| d.file == shard.join(MANIFEST));
            self.damage.extend(damage);
            self.damage.extend(leftover_checkpoint(shard));
            shards.push((output, committed));
        }
        Ok((shards, sealed))
    }

    /// Whether `shards` (their manifests sound) are of one run, each once and, for a run that
    /// was `merged`, all there; when not, that is damage of the `shards` directory of `dir`.
    fn shard_set_sound(&mut self, dir: &Path, shards: &[(ShardOutput, Committed)], merged: bool) -> bool {
        let outputs: Vec<ShardOutput> = shards.iter().map(|(output, _)| output.clone()).collect();
        let Err(error) = check_shard_set(&outputs, merged) else { return true };
        self.damage.push(Damage { file: dir.join("shards"), message: error.to_string() });
        false
    }

    /// Checks the checkpoints of shards still running against their digests (a damaged one is
    /// damage, like any committed file); says how many there are, e.g. "2 running".
    pub(super) fn read_running(&mut self, running: &[PathBuf]) -> String {
        for dir in running {
            if let Err(e) = Checkpoint::load(dir) {
                self.damage.push(Damage::of_error(Checkpoint::path(dir), &e));
            }
        }
        format!("{} running (a checkpoint alone)", running.len())
    }

    /// Remarks on what was read: runs still in progress.
    pub fn notes(&self) -> &[String] {
        &self.sharded.notes
    }

    /// Adds a remark on what was read.
    pub(super) fn note(&mut self, note: String) {
        self.sharded.notes.push(note);
    }

    /// True when `dir` (relative to the root) is a shard of a sharded registry entry.
    pub(super) fn is_shard_dir(&self, dir: &str) -> bool {
        self.registry.iter().any(|entry| {
            matches!(entry.recompute, Recompute::Sharded { .. })
                && dir.strip_prefix(entry.dir).is_some_and(|rest| rest.starts_with("/shards/"))
        })
    }

    /// Runs one unit of sharded registry entry `entry`.
    pub(super) fn run_sharded(&self, entry: usize, part: &Part) -> Result<Vec<Difference>> {
        let entry = self.registry[entry];
        let Recompute::Sharded { recompute, merged: own_check } = entry.recompute else { unreachable!("a sharded entry") };
        let dir = self.root.join(entry.dir);
        let sharded = &self.sharded.dirs[entry.dir];
        match *part {
            Part::Merge => {
                let merged = sharded.merged.as_ref().expect("merge units come from merged runs");
                let outputs: Vec<ShardOutput> = sharded.shards.iter().map(|(output, _)| output.clone()).collect();
                compare_merge(&dir, merged, &outputs, &dir.join("shards"))
            }
            Part::Merged => (own_check.expect("units of a game's own check come from one").compare)(&dir),
            Part::Shard(i) => {
                let (output, committed) = &sharded.shards[i];
                let mut differences = Vec::new();
                for key in size_keys(committed) {
                    let (game, rule, rows, cols) = &key;
                    let fresh = recompute(game, rule, *rows, *cols, output.shard).map_err(|e| {
                        let what = format!("cannot recompute {game} {rule} {rows}x{cols} shard {}: {e}", output.shard);
                        Error::malformed(output.dir.join(SUMMARY), what)
                    })?;
                    differences.extend(compare_size(&output.dir, committed, &key, &fresh));
                }
                Ok(differences)
            }
        }
    }
}

/// The numbered subdirectories of a run's `shards` folder.
struct ShardDirs {
    /// Those with a finished run's manifest, by number.
    finished: Vec<PathBuf>,
    /// Those with only a checkpoint: shards still running (or stopped, to be resumed).
    running: Vec<PathBuf>,
}

/// The shard directories under `shards`; an error when none is finished or running.
fn shard_dirs(shards: &Path) -> Result<ShardDirs> {
    let entries = std::fs::read_dir(shards).map_err(|e| Error::io(shards, e))?;
    let mut numbered: Vec<(u64, PathBuf)> = entries.flatten().filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path()))).collect();
    numbered.sort();
    let (finished, rest): (Vec<_>, Vec<_>) = numbered.into_iter().map(|(_, path)| path).partition(|path| path.join(MANIFEST).is_file());
    let running: Vec<PathBuf> = rest.into_iter().filter(|path| Checkpoint::exists(path)).collect();
    if finished.is_empty() && running.is_empty() {
        return Err(Error::malformed(shards, "no shard directory (shards/K with a manifest.json, or a checkpoint.json while it runs)"));
    }
    Ok(ShardDirs { finished, running })
}

/// One finished shard, with what is wrong with it at no cost ([`protect_files`]: its
/// manifest's own digest, the three verify files listed in it, every listed file's SHA-256;
/// the summary against the distribution).
fn read_shard(dir: &Path, rebuild: Rebuild, omitted: Omitted) -> Result<(ShardOutput, Committed, Vec<Damage>)> {
    let (manifest, mut damage) = protect_files(dir, &[SUMMARY, DISTRIBUTION, MISMATCHES], omitted)?;
    let (results, consistency) = read_verify_files_unchecked(dir, None)?;
    damage.extend(consistency.err().map(|message| Damage { file: dir.join(SUMMARY), message }));
    let output = shard_output(dir, manifest.clone(), results)?;
    Ok((output, Committed::with_manifest(dir, manifest, rebuild)?, damage))
}

/// A checkpoint beside a finished shard's manifest: damage (`merge` refuses the directory as
/// an unfinished run, so the committed merge could not be made again from it).
fn leftover_checkpoint(shard: &Path) -> Option<Damage> {
    Checkpoint::exists(shard).then(|| Damage {
        file: Checkpoint::path(shard),
        message: format!("a finished shard holds a checkpoint beside its {MANIFEST} (merge refuses the directory as unfinished)"),
    })
}

/// A shard with only a checkpoint in a run that was merged: damage (the merge needs every shard finished).
fn unfinished_beside_merge(shard: &Path) -> Damage {
    let message = format!("a shard with no {MANIFEST}, only a checkpoint, in a run whose shards were merged");
    Damage { file: Checkpoint::path(shard), message }
}

/// Every (game, rule, rows, cols) in a directory's summary.
fn size_keys(committed: &Committed) -> Vec<SizeKey> {
    committed.summary.iter().map(|r| (r.game.clone(), r.rule.clone(), r.rows, r.cols)).collect()
}

/// The files of `merged` (in `dir`) against the merge of the shards `outputs`: every size's
/// rows, and the manifest's parameters (besides the list of inputs, which names directories as
/// the merge saw them); shards that cannot be merged are an error naming `shards`.
pub(super) fn compare_merge(dir: &Path, merged: &Committed, outputs: &[ShardOutput], shards: &Path) -> Result<Vec<Difference>> {
    let fresh = merge_shards(outputs).map_err(|e| Error::malformed(shards, e.to_string()))?;
    let mut keys = size_keys(merged);
    keys.extend(fresh.summary_rows().into_iter().map(|r| (r.game, r.rule, r.rows, r.cols)));
    keys.sort();
    keys.dedup();
    let mut differences: Vec<Difference> = keys.iter().flat_map(|key| compare_size(dir, merged, key, &fresh)).collect();
    let without_inputs = |parameters: &BTreeMap<String, Value>| {
        let mut parameters = parameters.clone();
        parameters.remove("merged_from");
        Value::from(serde_json::Map::from_iter(parameters))
    };
    let (expected, got) = (without_inputs(&merged.manifest.parameters), without_inputs(&merged_parameters(outputs)));
    if expected != got {
        let file = dir.join(MANIFEST);
        differences.push(Difference { file, row: Row::Missing, committed: Some(expected.to_string()), recomputed: Some(got.to_string()) });
    }
    Ok(differences)
}

#[cfg(test)]
#[path = "shards_tests.rs"]
mod tests;
