//! `check` of a merged run in a tree of runs (`sprague merge`'s output, e.g. a Slurm census's `OUT/merged`) against the sum of its shards, when they are runs of the same tree: at no cost, as for the committed results' sharded runs.

use super::compare::Difference;
use super::{Plan, Unit, Work};
use crate::error::Result;
use crate::output::verify_files::{dir_under, MANIFEST};
use crate::runner::files::read_verify_files_unchecked;
use crate::runner::merge::{shard_output, ShardOutput};
use crate::runner::Shard;
use serde_json::Value;
use std::path::{Component, Path, PathBuf};

impl Plan {
    /// Adds a unit comparing each merged run of the tree with the sum of its shards, once every
    /// input its manifest's `merged_from` names is found among the tree's runs ([`Plan::find_input`])
    /// with a sound manifest; a merge whose shards are not all there is noted, not compared.
    pub(super) fn read_merges(&mut self) {
        // Every run's directory resolved once (not once per input and candidate), when some
        // merge of an older version needs them.
        let mut canonical: Option<Vec<Option<PathBuf>>> = None;
        for merged in 0..self.runs.len() {
            let Some(inputs) = merged_from(&self.runs[merged].committed.manifest.parameters) else { continue };
            if inputs.iter().any(|input| input.manifest_digest.is_none()) && canonical.is_none() {
                canonical = Some(self.runs.iter().map(|run| std::fs::canonicalize(dir_under(&self.root, &run.dir)).ok()).collect());
            }
            let found: Vec<Option<usize>> = inputs.iter().map(|input| self.find_input(merged, input, canonical.as_deref().unwrap_or_default())).collect();
            let dir = self.run_name(&self.runs[merged].dir);
            let missing = found.iter().filter(|f| f.is_none()).count();
            let damaged = found.iter().flatten().any(|&shard| self.manifest_damaged(shard));
            match found.into_iter().collect::<Option<Vec<usize>>>() {
                Some(shards) if !damaged && !shards.is_empty() => {
                    let label = format!("{dir} merge of {} shards", shards.len());
                    self.units.push(Unit { label, estimate: 0.0, work: Work::TreeMerge { run: merged, shards } });
                }
                Some(_) => self.note(format!("{dir}: a merge whose shards under {} have a damaged manifest, so it is not compared with them", self.root.display())),
                None => self.note(format!(
                    "{dir}: a merge of {} shards, {missing} of them not under {} as its manifest names them (merged_from), so it is not compared with its shards",
                    inputs.len(),
                    self.root.display()
                )),
            }
        }
    }

    /// The run of the tree that is input `input` of merged run `merged`: the run whose manifest
    /// has the digest the input records (merges of this version); for an older merge, the
    /// directory the input names, from where `merge` ran (worked out from the merge's own
    /// `--out` and where the merged run lies now, never from where `check` runs), or else the one
    /// run whose path under the root ends with it (a tree moved since). Its shard must be the
    /// input's. `canonical`: each run's directory resolved (needed for an older merge only).
    fn find_input(&self, merged: usize, input: &Input, canonical: &[Option<PathBuf>]) -> Option<usize> {
        let shards = || (0..self.runs.len()).filter(|&i| i != merged && self.runs[i].shard.to_string() == input.shard);
        if let Some(digest) = &input.manifest_digest {
            return shards().find(|&i| self.runs[i].committed.manifest.digest.as_ref() == Some(digest));
        }
        let recorded = Path::new(&input.dir);
        let merged_at = canonical.get(merged).cloned().flatten();
        let ran_in = merged_at.and_then(|at| ran_in(&at, &self.runs[merged].committed.manifest.command_line));
        let named = if recorded.is_absolute() { Some(recorded.to_path_buf()) } else { ran_in.map(|dir| dir.join(recorded)) };
        if let Some(wanted) = named.and_then(|path| std::fs::canonicalize(path).ok()) {
            if let Some(found) = shards().find(|&i| canonical.get(i).and_then(Option::as_ref) == Some(&wanted)) {
                return Some(found);
            }
        }
        let ends: Vec<usize> = shards().filter(|&i| ends_with(recorded, &self.runs[i].dir)).collect();
        (ends.len() == 1).then(|| ends[0])
    }

    /// Whether the manifest of run `run` is damage (its own digest does not match): it is then
    /// not taken for a shard of another run.
    fn manifest_damaged(&self, run: usize) -> bool {
        let manifest = dir_under(&self.root, &self.runs[run].dir).join(MANIFEST);
        self.damage.iter().any(|d| d.file == manifest)
    }

    /// Compares merged run `run` with the merge of runs `shards` (its inputs, in its order).
    pub(super) fn run_tree_merge(&self, run: usize, shards: &[usize]) -> Result<Vec<Difference>> {
        let outputs = shards.iter().map(|&i| self.shard_output_of(i)).collect::<Result<Vec<ShardOutput>>>()?;
        let merged = &self.runs[run];
        let dir = dir_under(&self.root, &merged.dir);
        super::shards::compare_merge(&dir, &merged.committed, &outputs, &dir.join(MANIFEST))
    }

    fn shard_output_of(&self, run: usize) -> Result<ShardOutput> {
        let dir = dir_under(&self.root, &self.runs[run].dir);
        let (results, _) = read_verify_files_unchecked(&dir, None)?;
        shard_output(&dir, self.runs[run].committed.manifest.clone(), results)
    }
}

/// One input of a merge, as its manifest's `merged_from` records it.
#[derive(Debug, PartialEq, Eq)]
struct Input {
    /// The directory as `merge` was given it.
    dir: String,
    shard: String,
    manifest_digest: Option<String>,
}

/// The inputs a merged run's manifest parameters list, or `None` for a run that is no merge (or
/// a list that is not one of shards).
fn merged_from(parameters: &std::collections::BTreeMap<String, Value>) -> Option<Vec<Input>> {
    let inputs = parameters.get("merged_from")?.as_array()?;
    let input = |v: &Value| {
        let shard = v.get("shard")?.as_str()?.parse::<Shard>().ok()?.to_string();
        let manifest_digest = v.get("manifest_digest").and_then(Value::as_str).map(str::to_string);
        Some(Input { dir: v.get("dir")?.as_str()?.to_string(), shard, manifest_digest })
    };
    inputs.iter().map(input).collect()
}

/// The directory `merge` ran in, from where its output lies now (`merged_at`, canonical) and the
/// `--out` its command line gave (`out` by default): `merged_at` less the components of a
/// relative `--out`; `None` for an absolute one or one that climbs (`..`), or one that does not
/// end `merged_at`.
fn ran_in(merged_at: &Path, command_line: &[String]) -> Option<PathBuf> {
    let out = command_line.iter().enumerate().find_map(|(i, arg)| match arg.strip_prefix("--out=") {
        Some(value) => Some(value.to_string()),
        None => (arg == "--out").then(|| command_line.get(i + 1).cloned()).flatten(),
    });
    let out = PathBuf::from(out.unwrap_or_else(|| "out".to_string()));
    if out.is_absolute() {
        return None;
    }
    let mut dir = merged_at.to_path_buf();
    for component in out.components().rev() {
        match component {
            Component::CurDir => {}
            Component::Normal(name) if dir.file_name() == Some(name) => {
                dir.pop();
            }
            _ => return None,
        }
    }
    Some(dir)
}

/// Whether `path`'s last components are those of `rel` (a '/'-separated path under the root;
/// `.`, the root itself, matches nothing).
fn ends_with(path: &Path, rel: &str) -> bool {
    let normal = |p: &Path| -> Vec<PathBuf> { p.components().filter(|c| matches!(c, Component::Normal(_))).map(|c| PathBuf::from(c.as_os_str())).collect() };
    let (path, rel) = (normal(path), normal(Path::new(rel)));
    !rel.is_empty() && path.ends_with(&rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_merge_ran_in_is_its_output_less_its_out() {
        let line = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let at = Path::new("/data/4x4/run/merged");
        assert_eq!(ran_in(at, &line(&["sprague", "merge", "run/shards/1", "--out", "run/merged"])), Some("/data/4x4".into()));
        assert_eq!(ran_in(at, &line(&["sprague", "merge", "shards/1", "--out=./merged"])), Some("/data/4x4/run".into()));
        assert_eq!(ran_in(Path::new("/data/out"), &line(&["sprague", "merge", "a"])), Some("/data".into()), "--out's default");
        assert_eq!(ran_in(at, &line(&["sprague", "merge", "a", "--out", "/abs/merged"])), None);
        assert_eq!(ran_in(at, &line(&["sprague", "merge", "a", "--out", "../merged"])), None);
        assert_eq!(ran_in(at, &line(&["sprague", "merge", "a", "--out", "other"])), None, "not where it lies now");
    }

    #[test]
    fn an_input_is_found_by_the_end_of_its_path() {
        assert!(ends_with(Path::new("/tmp/x/out/shards/2"), "shards/2"));
        assert!(ends_with(Path::new("out/shards/2"), "out/shards/2"));
        assert!(!ends_with(Path::new("out/shards/12"), "shards/2"));
        assert!(!ends_with(Path::new("out/shards/2"), "."));
    }

    #[test]
    fn merged_from_lists_the_inputs_or_nothing() {
        let parameters = |v: Value| [("merged_from".to_string(), v)].into_iter().collect();
        let two = serde_json::json!([{ "dir": "a/1", "shard": "1/2" }, { "dir": "a/2", "shard": "2/2", "git_commit": "x", "manifest_digest": "d" }]);
        let input = |dir: &str, shard: &str, digest: Option<&str>| Input { dir: dir.into(), shard: shard.into(), manifest_digest: digest.map(Into::into) };
        assert_eq!(merged_from(&parameters(two)), Some(vec![input("a/1", "1/2", None), input("a/2", "2/2", Some("d"))]));
        assert_eq!(merged_from(&parameters(serde_json::json!([{ "dir": "a/1", "shard": "one" }]))), None);
        assert_eq!(merged_from(&Default::default()), None);
    }
}
