//! A toy run in two shards and their merge, checked whole, tampered with and in progress.

use super::super::Plan;
use crate::error::Result;
use crate::check::{MergedCheck, Recompute, ResultsDir};
use crate::output::manifest::RunClock;
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use crate::runner::files::write_verify_files;
use crate::runner::merge::{load_shard, merged_parameters};
use crate::runner::checkpoint::{Checkpoint, Position, RunParams};
use crate::runner::{Job, RunResults, Shard};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Toy positions: size rows×cols has rows·cols·4 of them; position i counts under (i mod 2, i mod 3).
fn toy_shard(_: &str, rule: &str, rows: u32, cols: u32, shard: Shard) -> Result<RunResults> {
    let mut results = RunResults::new("toy", rule);
    results.size_mut(rows, cols);
    for i in shard.slice(u64::from(rows * cols) * 4) {
        results.count((rows, cols), (i % 2) as u32, (i % 3) as u32, 1);
    }
    Ok(results)
}

/// The same, but shard 2 counts one position twice.
fn off_by_one(game: &str, rule: &str, rows: u32, cols: u32, shard: Shard) -> Result<RunResults> {
    let mut results = toy_shard(game, rule, rows, cols, shard)?;
    if shard.index == 2 {
        results.count((rows, cols), 0, 0, 1);
    }
    Ok(results)
}

/// The toy run a manifest describes: one size, 2×3 (24 positions).
struct ToyShardedRun;

impl crate::runner::Verification for ToyShardedRun {
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
        Ok(vec![Job::new("2x3", vec![(2, 3)], 24, 1).one_pattern_each()])
    }
    fn prepare(&self, _: usize) -> Result<Box<dyn crate::runner::Evaluate + '_>> {
        unreachable!("check only lists the toy's jobs")
    }
}

fn rebuild(_: &BTreeMap<String, Value>) -> Result<Box<dyn crate::runner::Verification>> {
    Ok(Box::new(ToyShardedRun))
}

/// Writes `results` with a manifest carrying `parameters` into `dir`.
fn write_run(dir: &Path, results: &RunResults, parameters: BTreeMap<String, Value>) {
    write_verify_files(dir, results).unwrap();
    let mut manifest = RunClock::start(vec!["test".into()], 1).finish(dir, &[SUMMARY, DISTRIBUTION, MISMATCHES]).unwrap();
    manifest.parameters = parameters;
    manifest.write(&dir.join(MANIFEST)).unwrap();
}

/// Shards 1/2 and 2/2 of the toy 2×3 run in `root/t/shards/K` and their merge in `root/t`,
/// the merge after `edit`.
fn write_sharded(root: &Path, edit: impl Fn(&mut RunResults)) {
    let dir = root.join("t");
    let mut merged = RunResults::new("toy", "standard");
    for k in 1..=2 {
        let shard = Shard { index: k, count: 2 };
        let results = toy_shard("toy", "standard", 2, 3, shard).unwrap();
        let parameters = BTreeMap::from([("game".into(), "toy".into()), ("shard".into(), shard.to_string().into())]);
        write_run(&dir.join(format!("shards/{k}")), &results, parameters);
        merged.merge(&results);
    }
    edit(&mut merged);
    let outputs = [load_shard(&dir.join("shards/1")).unwrap(), load_shard(&dir.join("shards/2")).unwrap()];
    write_run(&dir, &merged, merged_parameters(&outputs));
}

fn plan(root: &Path, budget: f64, recompute: fn(&str, &str, u32, u32, Shard) -> Result<RunResults>) -> Result<Plan> {
    let own = MergedCheck { label: "own check", seconds: 1.0, compare: |_| Ok(Vec::new()) };
    let registry = vec![ResultsDir { dir: "t", recompute: Recompute::Sharded { recompute, merged: Some(own) } }];
    Plan::with_registry(root, budget, registry, rebuild, |_, _| false)
}

fn differences(plan: &Plan) -> Vec<String> {
    plan.run(&|_, _| {}).unwrap().differences.iter().map(ToString::to_string).collect()
}

#[test]
fn a_whole_sharded_run_checks_clean() {
    let root = tempfile::tempdir().unwrap();
    write_sharded(root.path(), |_| {});
    let everything = plan(root.path(), 1e9, toy_shard).unwrap();
    let labels: Vec<&str> = everything.selected().map(|u| u.label.as_str()).collect();
    assert_eq!(labels, ["t merge of 2 shards", "t own check", "t shard 1/2", "t shard 2/2"]);
    assert!(everything.unregistered.is_empty() && everything.notes().is_empty());
    assert!(differences(&everything).is_empty());
    // Without budget the merge is still compared (it costs nothing); the own check is not.
    let free = plan(root.path(), 0.0, toy_shard).unwrap();
    let labels: Vec<&str> = free.selected().map(|u| u.label.as_str()).collect();
    assert!(labels.contains(&"t merge of 2 shards") && !labels.contains(&"t own check"), "{labels:?}");
    // A shard that recomputes differently is caught, in that shard's files.
    let found = differences(&plan(root.path(), 1e9, off_by_one).unwrap());
    assert!(!found.is_empty() && found.iter().all(|d| d.contains("shards/2/")), "{found:?}");
}

#[test]
fn a_merge_that_is_not_the_sum_of_its_shards_is_caught() {
    let root = tempfile::tempdir().unwrap();
    // One pattern moved from (0, 0) to (0, 1): totals still hold; two distribution rows and
    // the summary's P-positions differ.
    write_sharded(root.path(), |r| {
        let tally = r.size_mut(2, 3);
        *tally.distribution.get_mut(&(0, 0)).unwrap() -= 1;
        *tally.distribution.get_mut(&(0, 1)).unwrap() += 1;
    });
    let found = differences(&plan(root.path(), 0.0, toy_shard).unwrap());
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].contains("t/summary.csv, line 2, committed toy,standard,2,3,24,0,7,2, recomputed toy,standard,2,3,24,0,8,2"));
    assert!(found[1].contains("t/distribution.csv, line 2, committed toy,standard,2,3,0,0,3, recomputed toy,standard,2,3,0,0,4"), "{found:?}");
}

#[test]
fn a_run_in_progress_is_noted_and_an_unmerged_complete_one_is_damage() {
    let (root, dir) = unmerged_run();
    let unmerged = plan(root.path(), 1e9, toy_shard).unwrap();
    assert_eq!(unmerged.damage.len(), 1, "{:?}", unmerged.damage);
    assert!(unmerged.damage[0].to_string().ends_with("t/manifest.json: missing: all 2 shards are finished but not merged"), "{}", unmerged.damage[0]);
    assert_eq!(unmerged.selected().count(), 0);
    // Shard 2 still running: only its checkpoint is there.
    stop_midway(&dir.join("shards/2"), 2);
    let running = plan(root.path(), 1e9, toy_shard).unwrap();
    assert_eq!(running.notes(), ["t: 1 of 2 shards finished, 1 running (a checkpoint alone), not merged yet (a run in progress)"]);
    assert_eq!(running.selected().map(|u| u.label.as_str()).collect::<Vec<_>>(), ["t shard 1/2"]);
    assert!(running.damage.is_empty());
    assert!(differences(&running).is_empty());
}

/// The toy run's two finished shards without their merge: the root and the run's directory.
fn unmerged_run() -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().unwrap();
    write_sharded(root.path(), |_| {});
    let dir = root.path().join("t");
    remove_run_files(&dir);
    (root, dir)
}

/// Removes the result files and the manifest of the run in `dir`.
fn remove_run_files(dir: &Path) {
    for name in [SUMMARY, DISTRIBUTION, MISMATCHES, MANIFEST] {
        std::fs::remove_file(dir.join(name)).unwrap();
    }
}

/// Replaces the finished shard `k` of 2 in `dir` by a checkpoint halfway through it.
fn stop_midway(dir: &Path, k: u64) {
    remove_run_files(dir);
    midway(k).save(dir).unwrap();
}

/// A checkpoint halfway through shard `k` of 2.
fn midway(k: u64) -> Checkpoint {
    let shard = Shard { index: k, count: 2 };
    let params = RunParams {
        game: "toy".into(),
        rule: "standard".into(),
        mode: "verify".into(),
        sizes: vec!["2x3".into()],
        shard: shard.to_string(),
        version: "0.1.0".into(),
        identity: Default::default(),
    };
    let results = toy_shard("toy", "standard", 2, 3, shard).unwrap();
    Checkpoint { params, position: Position { job: 0, next: 6 }, covered: vec![6], results, seconds: 0.0 }
}

#[test]
fn a_run_with_no_shard_finished_is_noted_and_its_checkpoints_checked() {
    let (root, dir) = unmerged_run();
    stop_midway(&dir.join("shards/1"), 1);
    std::fs::remove_dir_all(dir.join("shards/2")).unwrap();
    let started = plan(root.path(), 1e9, toy_shard).unwrap();
    assert_eq!(started.notes(), ["t: no shard finished yet, 1 running (a checkpoint alone) (a run in progress)"]);
    assert_eq!(started.selected().count(), 0);
    assert!(started.damage.is_empty());
    // A flipped bit in a committed checkpoint is damage, like in any committed file.
    let path = Checkpoint::path(&dir.join("shards/1"));
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let damaged = plan(root.path(), 1e9, toy_shard).unwrap();
    assert_eq!(damaged.damage.len(), 1, "{:?}", damaged.damage);
    assert!(damaged.damage[0].to_string().contains("shards/1/checkpoint.json"), "{}", damaged.damage[0]);
    // Nothing at all under shards/ is an error.
    std::fs::remove_dir_all(dir.join("shards/1")).unwrap();
    let empty = plan(root.path(), 1e9, toy_shard).err().unwrap().to_string();
    assert!(empty.contains("no shard directory"), "{empty}");
}

/// The damage of a plan of the toy run, a line each.
fn damage(root: &Path) -> Vec<String> {
    plan(root, 1e9, toy_shard).unwrap().damage.iter().map(ToString::to_string).collect()
}

#[test]
fn a_damaged_shard_manifest_is_named_not_taken_for_another_run() {
    let root = tempfile::tempdir().unwrap();
    write_sharded(root.path(), |_| {});
    let manifest = root.path().join("t/shards/2").join(MANIFEST);
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("\"game\": \"toy\"", "\"game\": \"tox\"")).unwrap();
    let damaged = plan(root.path(), 1e9, toy_shard).unwrap();
    let found: Vec<String> = damaged.damage.iter().map(ToString::to_string).collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("t/shards/2/manifest.json: content does not match its digest (the manifest was changed or damaged)"), "{found:?}");
    let labels: Vec<&str> = damaged.selected().map(|u| u.label.as_str()).collect();
    assert_eq!(labels, ["t own check", "t shard 1/2", "t shard 2/2"]);
    assert!(differences(&damaged).is_empty());
}

#[test]
fn a_missing_twice_given_or_unfinished_shard_is_damage_of_the_shards() {
    let root = tempfile::tempdir().unwrap();
    write_sharded(root.path(), |_| {});
    let shards = root.path().join("t/shards");
    // A finished shard that holds a checkpoint too: merge refuses it as unfinished.
    midway(2).save(&shards.join("2")).unwrap();
    let found = damage(root.path());
    assert!(found.len() == 1 && found[0].contains("t/shards/2/checkpoint.json: a finished shard holds a checkpoint"), "{found:?}");
    // Shard 2 running (only its checkpoint) beside the merge: it is missing from the merge.
    remove_run_files(&shards.join("2"));
    let found = damage(root.path());
    assert!(found.iter().any(|d| d.ends_with("t/shards: missing shard(s) 2/2 of the 2")), "{found:?}");
    assert!(found.iter().any(|d| d.contains("t/shards/2/checkpoint.json: a shard with no manifest.json, only a checkpoint")), "{found:?}");
    // No shard 2 at all; shard 1 twice.
    std::fs::remove_dir_all(shards.join("2")).unwrap();
    assert!(damage(root.path()).iter().any(|d| d.ends_with("t/shards: missing shard(s) 2/2 of the 2")));
    std::fs::create_dir(shards.join("3")).unwrap();
    for name in [SUMMARY, DISTRIBUTION, MISMATCHES, MANIFEST] {
        std::fs::copy(shards.join("1").join(name), shards.join("3").join(name)).unwrap();
    }
    let found = damage(root.path());
    assert!(found.iter().any(|d| d.contains("t/shards: shard 1/2 given twice")), "{found:?}");
    // Each is damage: the plan still runs its other units.
    let twice = plan(root.path(), 1e9, toy_shard).unwrap();
    assert!(twice.selected().count() > 0 && differences(&twice).is_empty());
}
