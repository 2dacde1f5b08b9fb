//! `check` of a merged run in a tree of runs (`sprague merge`'s output, e.g. a Slurm census's `OUT/merged`) against the sum of its shards, when they are runs of the same tree: at no cost, as for the committed results' sharded runs.

use super::compare::Difference;
use super::{Plan, Unit, Work};
use crate::error::Result;
use crate::output::verify_files::MANIFEST;
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
        for merged in 0..self.runs.len() {
            let Some(inputs) = merged_from(&self.runs[merged].committed.manifest.parameters) else { continue };
            let found: Vec<Option<usize>> = inputs.iter().map(|(dir, shard)| self.find_input(merged, dir, shard)).collect();
            let dir = self.runs[merged].dir.clone();
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

    /// The run of the tree that is input `recorded` (a directory as `merge` was given it, from
    /// the directory it ran in) of merged run `merged`, with shard `shard`: the directory itself
    /// when it still exists there or beside the merge (a merge run beside its shards), or else the
    /// one run whose path under the root ends with it (a tree moved since).
    fn find_input(&self, merged: usize, recorded: &str, shard: &str) -> Option<usize> {
        let recorded = Path::new(recorded);
        let beside = self.root.join(&self.runs[merged].dir).parent().map(|parent| parent.join(recorded));
        let shards = || (0..self.runs.len()).filter(|&i| i != merged && self.runs[i].shard.to_string() == shard);
        let canonical = |path: &Path| std::fs::canonicalize(path).ok();
        for candidate in [Some(recorded.to_path_buf()), beside].into_iter().flatten() {
            let Some(wanted) = canonical(&candidate) else { continue };
            if let Some(found) = shards().find(|&i| canonical(&self.root.join(&self.runs[i].dir)) == Some(wanted.clone())) {
                return Some(found);
            }
        }
        let ends: Vec<usize> = shards().filter(|&i| ends_with(recorded, &self.runs[i].dir)).collect();
        (ends.len() == 1).then(|| ends[0])
    }

    /// Whether the manifest of run `run` is damage (its own digest does not match): it is then
    /// not taken for a shard of another run.
    fn manifest_damaged(&self, run: usize) -> bool {
        let manifest = self.root.join(&self.runs[run].dir).join(MANIFEST);
        self.damage.iter().any(|d| d.file == manifest)
    }

    /// Compares merged run `run` with the merge of runs `shards` (its inputs, in its order).
    pub(super) fn run_tree_merge(&self, run: usize, shards: &[usize]) -> Result<Vec<Difference>> {
        let outputs = shards.iter().map(|&i| self.shard_output_of(i)).collect::<Result<Vec<ShardOutput>>>()?;
        let merged = &self.runs[run];
        let dir = self.root.join(&merged.dir);
        super::shards::compare_merge(&dir, &merged.committed, &outputs, &dir.join(MANIFEST))
    }

    fn shard_output_of(&self, run: usize) -> Result<ShardOutput> {
        let dir = self.root.join(&self.runs[run].dir);
        let (results, _) = read_verify_files_unchecked(&dir, None)?;
        shard_output(&dir, self.runs[run].committed.manifest.clone(), results)
    }
}

/// The inputs (directory, shard) a merged run's manifest parameters list, or `None` for a run
/// that is no merge (or a list that is not one of shards).
fn merged_from(parameters: &std::collections::BTreeMap<String, Value>) -> Option<Vec<(String, String)>> {
    let inputs = parameters.get("merged_from")?.as_array()?;
    let input = |v: &Value| Some((v.get("dir")?.as_str()?.to_string(), v.get("shard")?.as_str()?.parse::<Shard>().ok()?.to_string()));
    inputs.iter().map(input).collect()
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
    fn an_input_is_found_by_the_end_of_its_path() {
        assert!(ends_with(Path::new("/tmp/x/out/shards/2"), "shards/2"));
        assert!(ends_with(Path::new("out/shards/2"), "out/shards/2"));
        assert!(!ends_with(Path::new("out/shards/12"), "shards/2"));
        assert!(!ends_with(Path::new("out/shards/2"), "."));
    }

    #[test]
    fn merged_from_lists_the_inputs_or_nothing() {
        let parameters = |v: Value| [("merged_from".to_string(), v)].into_iter().collect();
        let two = serde_json::json!([{ "dir": "a/1", "shard": "1/2" }, { "dir": "a/2", "shard": "2/2", "git_commit": "x" }]);
        assert_eq!(merged_from(&parameters(two)), Some(vec![("a/1".into(), "1/2".into()), ("a/2".into(), "2/2".into())]));
        assert_eq!(merged_from(&parameters(serde_json::json!([{ "dir": "a/1", "shard": "one" }]))), None);
        assert_eq!(merged_from(&Default::default()), None);
    }
}
