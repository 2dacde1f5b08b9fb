//! Merging the output directories of `--shard K/N` runs into the results of one unsharded run.

use super::checkpoint::Checkpoint;
use super::directory::{replaced, write_files, Cost, Report};
use super::verification::{check_totals, Verification};
use crate::output::manifest::RunClock;
use super::shard::Shard;
use super::tally::RunResults;
use crate::error::{Error, Result};
use crate::output::digests::check_digest;
use crate::output::manifest::{merged_kind, Manifest};
use crate::output::takeover::{remove_stale, withdraw};
use super::files::read_verify_files;
use crate::output::verify_files::{MANIFEST, SUMMARY};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The manifest parameters that differ between the shards of one run (all others must agree).
const PER_SHARD: [&str; 2] = ["shard", "merged_from"];

/// The finished output of one shard.
#[derive(Debug, Clone)]
pub struct ShardOutput {
    pub dir: PathBuf,
    pub shard: Shard,
    pub parameters: BTreeMap<String, Value>,
    pub results: RunResults,
    /// The device that counted the shard, when not the CPU (the manifest's `device`).
    pub device: Option<String>,
    /// Its thread-seconds, what recomputing it costs ([`Manifest::cpu_seconds_on`] one thread).
    pub cpu_seconds: f64,
    /// The sprague version that wrote the shard, and the commit it was built from when known.
    pub version: String,
    pub git_commit: Option<String>,
    /// The SHA-256 its manifest records of itself (absent in manifests of older versions):
    /// recorded in the merge's `merged_from`, so that `check` finds this shard wherever it lies.
    pub manifest_digest: Option<String>,
}

/// Reads a finished shard's directory: its manifest (sealed by its own digest, which it must
/// have; the files must still have the digests it lists) and its verify files. Refuses
/// unfinished runs and directories without a manifest.
pub fn load_shard(dir: &Path) -> Result<ShardOutput> {
    let shown = dir.display();
    if Checkpoint::exists(dir) {
        return Err(Error::Usage(format!("{shown}: unfinished run (checkpoint.json present); finish it with --resume")));
    }
    if !dir.is_dir() {
        let why = if dir.exists() { "not a directory" } else { "no such directory" };
        return Err(Error::Usage(format!("{shown}: {why}")));
    }
    let manifest_path = dir.join(MANIFEST);
    if !manifest_path.exists() {
        return Err(Error::Usage(format!("{shown}: no {MANIFEST}; not the output of a finished verify or census run")));
    }
    let manifest = Manifest::read_digested(&manifest_path)?;
    for (name, digest) in &manifest.files {
        check_digest(&dir.join(name), digest, MANIFEST)?;
    }
    let results = read_verify_files(dir)?;
    shard_output(dir, manifest, results)
}

/// A shard's directory as read: its manifest (whose digests the caller has checked), the shard
/// it records, and its verify files (`results`).
pub fn shard_output(dir: &Path, manifest: Manifest, results: RunResults) -> Result<ShardOutput> {
    let manifest_path = dir.join(MANIFEST);
    let shard_text = manifest.parameters.get("shard").and_then(Value::as_str);
    let shard = shard_text
        .ok_or_else(|| Error::malformed(&manifest_path, "no \"shard\" parameter (not the output of a verify or census run)"))?
        .parse::<Shard>()
        .map_err(|e| Error::malformed(&manifest_path, e))?;
    let cpu_seconds = manifest.cpu_seconds_on(1.0);
    let Manifest { parameters, device, version, git_commit, digest: manifest_digest, .. } = manifest;
    Ok(ShardOutput { dir: dir.to_path_buf(), shard, parameters, results, device, cpu_seconds, version, git_commit, manifest_digest })
}

/// The results one unsharded run would have produced, from all N shards of a run.
pub fn merge_shards(outputs: &[ShardOutput]) -> Result<RunResults> {
    let first = outputs.first().ok_or_else(|| Error::Usage("nothing to merge".into()))?;
    check_shard_set(outputs, true)?;
    let mut results = RunResults::new(first.results.game.clone(), first.results.rule.clone()).with_columns(first.results.columns);
    for output in outputs {
        results.merge(&output.results);
    }
    Ok(results)
}

/// The shards are of one run (the parameters of the first, one split), each at most once, and,
/// when `complete`, every one of the split is there; a usage error names what is wrong.
pub fn check_shard_set(outputs: &[ShardOutput], complete: bool) -> Result<()> {
    if outputs.is_empty() {
        return Ok(());
    }
    check_compatible(outputs)?;
    check_distinct(outputs)?;
    if complete {
        check_complete(outputs)?;
    }
    Ok(())
}

/// Every shard was written by the version of the first and has its parameters (game, rule,
/// mode, sizes, options …) but the shard. (Shards built from different commits of one version
/// may be merged: the merged manifest records each shard's commit, [`merged_parameters`].)
fn check_compatible(outputs: &[ShardOutput]) -> Result<()> {
    let first = &outputs[0];
    for other in &outputs[1..] {
        if other.version != first.version {
            return Err(Error::Usage(format!(
                "{} and {} were written by different versions of sprague: {} vs {}; merge only shards of one version",
                first.dir.display(),
                other.dir.display(),
                first.version,
                other.version
            )));
        }
        let (kind, other_kind) = (merged_kind(&first.parameters), merged_kind(&other.parameters));
        if kind != other_kind {
            return Err(Error::Usage(format!(
                "{} and {} are different runs: a {kind} run and a {other_kind} run",
                first.dir.display(),
                other.dir.display()
            )));
        }
        let mut keys: Vec<&String> = first.parameters.keys().chain(other.parameters.keys()).collect();
        // The parameters a reader knows first (game, rule, mode, sizes), then the rest by name.
        keys.sort_by_key(|k| (!["game", "rule", "mode", "sizes"].contains(&k.as_str()), *k));
        keys.dedup();
        for key in keys.into_iter().filter(|k| !PER_SHARD.contains(&k.as_str())) {
            let (a, b) = (first.parameters.get(key), other.parameters.get(key));
            if a != b {
                return Err(Error::Usage(format!(
                    "{} and {} are different runs: {key} is {} vs {}",
                    first.dir.display(),
                    other.dir.display(),
                    shown(a),
                    shown(b)
                )));
            }
        }
    }
    Ok(())
}

fn shown(value: Option<&Value>) -> String {
    value.map_or("absent".into(), Value::to_string)
}

/// The shards are of one split 1/N … N/N, each at most once.
fn check_distinct(outputs: &[ShardOutput]) -> Result<()> {
    let count = outputs[0].shard.count;
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for output in outputs {
        if output.shard.count != count {
            return Err(Error::Usage(format!(
                "shards of different splits: {} is shard {} but {} is shard {}",
                outputs[0].dir.display(),
                outputs[0].shard,
                output.dir.display(),
                output.shard
            )));
        }
        if let Some(before) = seen.insert(output.shard.index, &output.dir) {
            return Err(Error::Usage(format!(
                "shard {} given twice: {} and {}",
                output.shard,
                before.display(),
                output.dir.display()
            )));
        }
    }
    Ok(())
}

/// Every shard of the split 1/N … N/N is there (the shards are distinct: [`check_distinct`]).
fn check_complete(outputs: &[ShardOutput]) -> Result<()> {
    let count = outputs[0].shard.count;
    let seen: std::collections::BTreeSet<u128> = outputs.iter().map(|output| u128::from(output.shard.index)).collect();
    // The gaps between the shards given, never a walk over all N (which may be 2^64 - 1).
    let bounds = std::iter::once(0).chain(seen.iter().copied()).zip(seen.iter().copied().chain(std::iter::once(u128::from(count) + 1)));
    let gaps: Vec<(u128, u128)> = bounds.filter(|(before, after)| after - before > 1).map(|(before, after)| (before + 1, after - 1)).collect();
    if gaps.is_empty() {
        return Ok(());
    }
    let shown = |&(first, last): &(u128, u128)| match first == last {
        true => format!("{first}/{count}"),
        false => format!("{first}/{count}–{last}/{count}"),
    };
    let mut list: Vec<String> = gaps.iter().take(MISSING_SHOWN).map(shown).collect();
    if gaps.len() > MISSING_SHOWN {
        let missing: u128 = gaps.iter().map(|(first, last)| last - first + 1).sum();
        list.push(format!("… ({missing} missing in {} runs)", gaps.len()));
    }
    Err(Error::Usage(format!("missing shard(s) {} of the {count}", list.join(", "))))
}

/// Runs of missing shards a message lists before it sums up the rest.
const MISSING_SHOWN: usize = 8;

/// Manifest parameters of the merged output: the shared ones, shard 1/1, and the inputs (each
/// shard's directory, shard and the commit its binary was built from, when known).
pub fn merged_parameters(outputs: &[ShardOutput]) -> BTreeMap<String, Value> {
    let mut parameters: BTreeMap<String, Value> = outputs
        .first()
        .map(|first| first.parameters.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|(key, _)| !PER_SHARD.contains(&key.as_str()))
        .collect();
    parameters.insert("shard".into(), Shard::ALL.to_string().into());
    let inputs = outputs
        .iter()
        .map(|o| {
            let mut input = serde_json::json!({ "dir": o.dir.display().to_string(), "shard": o.shard.to_string() });
            if let Some(commit) = &o.git_commit {
                input["git_commit"] = commit.clone().into();
            }
            if let Some(digest) = &o.manifest_digest {
                input["manifest_digest"] = digest.clone().into();
            }
            input
        })
        .collect();
    parameters.insert("merged_from".into(), Value::Array(inputs));
    parameters
}

/// Merges the finished shard directories `dirs` into `out`: the files one unsharded run would
/// have written (the game's own files from the verification `rebuild` makes of the shards'
/// manifest parameters) and a manifest that lists the inputs. `current` rewrites a shard's
/// parameters as the current version records them (old option names) before they are compared.
pub fn merge_into(
    dirs: &[PathBuf],
    out: &Path,
    clock: &RunClock,
    rebuild: impl Fn(&BTreeMap<String, Value>) -> Result<Box<dyn Verification>>,
    current: impl Fn(&mut BTreeMap<String, Value>) -> Result<()>,
) -> Result<Report> {
    refuse_input_as_output(dirs, out)?;
    let mut outputs = dirs.iter().map(|dir| load_shard(dir)).collect::<Result<Vec<_>>>()?;
    for output in &mut outputs {
        current(&mut output.parameters)?;
    }
    let results = merge_shards(&outputs)?;
    let parameters = merged_parameters(&outputs);
    let verification = rebuild(&parameters)?;
    let columns = verification.columns();
    if let Some(other) = outputs.iter().find(|o| o.results.columns != columns) {
        let summary = other.dir.join(SUMMARY);
        return Err(Error::malformed(summary, format!("line 1: the files name the columns {}, not the {} game's {columns}", other.results.columns, results.game)));
    }
    check_totals(&verification.jobs()?, usize::MAX, &results).map_err(|message| {
        Error::Usage(format!("the merged shards do not add up to the run their manifests describe: {message}"))
    })?;
    let mut notes = verification.notes(&results);
    notes.push(format!("merged from {} shard directories", outputs.len()));
    // A merge may replace only an earlier run of the kind and game it merges (never a census
    // by a verification, nor the reverse, nor a run of another game).
    let game = crate::output::takeover::game_of(&parameters).unwrap_or_else(|| results.game.clone());
    let _lock = clock.lock_as(out, &merged_kind(&parameters), &game)?;
    // A merge with any shard a device counted is recorded as the device's (check cannot
    // estimate recomputing it from the shards' times).
    let device = outputs.iter().find_map(|o| o.device.clone());
    let cost = Cost { device, shards_seconds: Some(outputs.iter().map(|o| o.cpu_seconds).sum::<f64>()).filter(|s| s.is_finite()) };
    let replaced = replaced(out, &results, &parameters);
    // The earlier run's manifest goes first: a merge that fails or is killed while writing
    // leaves no manifest listing files it changed (check names the directory as unfinished).
    let earlier = withdraw(out)?;
    let manifest = write_files(&*verification, out, clock, &results, parameters, notes, cost)?;
    if let Some(earlier) = earlier {
        remove_stale(out, &earlier, &manifest)?;
    }
    Ok(Report { results, manifest, replaced })
}

/// Refuses an output directory that is one of the inputs (merging would overwrite a shard).
fn refuse_input_as_output(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let Ok(out_real) = out.canonicalize() else { return Ok(()) };
    for dir in dirs {
        if dir.canonicalize().is_ok_and(|d| d == out_real) {
            return Err(Error::Usage(format!(
                "--out {} is one of the shard directories being merged; choose a new directory",
                out.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(dir: &str, index: u64, count: u64, rule: &str) -> ShardOutput {
        let mut results = RunResults::new("toy", rule);
        results.size_mut(1, 1).record(0, index as u32, 1);
        let parameters = BTreeMap::from([("rule".to_string(), Value::from(rule))]);
        ShardOutput { dir: dir.into(), shard: Shard { index, count }, parameters, results, device: None, cpu_seconds: 1.0, version: "0.1.0".into(), git_commit: Some(format!("c{index}")), manifest_digest: Some(format!("d{index}")) }
    }

    #[test]
    fn merges_complete_sets_in_any_order() {
        let outputs = [output("b", 2, 2, "standard"), output("a", 1, 2, "standard")];
        let merged = merge_shards(&outputs).unwrap();
        assert_eq!(merged.sizes[&(1, 1)].patterns, 2);
        let parameters = merged_parameters(&outputs);
        assert_eq!(parameters["shard"], "1/1");
        assert_eq!(parameters["merged_from"][1]["shard"], "1/2");
        assert_eq!(parameters["merged_from"][1]["git_commit"], "c1", "each shard's commit is recorded");
        assert_eq!(parameters["merged_from"][1]["manifest_digest"], "d1", "and its manifest's digest");
    }

    #[test]
    fn refuses_bad_sets() {
        let err = |outputs: &[ShardOutput]| merge_shards(outputs).unwrap_err().to_string();
        assert_eq!(err(&[output("a", 1, 3, "standard"), output("c", 3, 3, "standard")]), "missing shard(s) 2/3 of the 3");
        // Runs of missing shards, without a walk over all N (once a list of 10^8 shards).
        assert_eq!(err(&[output("a", 3, 9, "standard"), output("c", 5, 9, "standard")]), "missing shard(s) 1/9–2/9, 4/9, 6/9–9/9 of the 9");
        assert_eq!(err(&[output("a", 1, u64::MAX, "standard")]), format!("missing shard(s) 2/{0}–{0}/{0} of the {0}", u64::MAX));
        let every_other: Vec<ShardOutput> = (1..=20).map(|k| output("a", 2 * k, 40, "standard")).collect();
        assert_eq!(err(&every_other), "missing shard(s) 1/40, 3/40, 5/40, 7/40, 9/40, 11/40, 13/40, 15/40, … (20 missing in 20 runs) of the 40");
        assert_eq!(err(&[output("a", 1, 2, "standard"), output("b", 1, 2, "standard")]), "shard 1/2 given twice: a and b");
        assert!(err(&[output("a", 1, 2, "standard"), output("b", 2, 3, "standard")]).starts_with("shards of different"));
        assert_eq!(
            err(&[output("a", 1, 2, "standard"), output("b", 2, 2, "misere")]),
            "a and b are different runs: rule is \"standard\" vs \"misere\""
        );
        let mut census = output("b", 2, 2, "standard");
        census.parameters.insert("mode".into(), Value::from("census"));
        assert_eq!(err(&[output("a", 1, 2, "standard"), census]), "a and b are different runs: a verify run and a census run");
        assert_eq!(err(&[]), "nothing to merge");
        let mut older = output("b", 2, 2, "standard");
        older.version = "0.0.1".into();
        assert_eq!(
            err(&[output("a", 1, 2, "standard"), older]),
            "a and b were written by different versions of sprague: 0.1.0 vs 0.0.1; merge only shards of one version"
        );
    }
}
