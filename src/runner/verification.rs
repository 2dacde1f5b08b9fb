//! A verification as a game describes it: jobs of indexed positions, how to evaluate them, what to write.

use super::tally::RunResults;
use crate::error::Result;
use crate::output::records::Columns;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

/// Memory every run needs besides its tables: the process, threads and results.
pub const BASE_PEAK_BYTES: u64 = 64 << 20;

/// One unit of a run: positions 0..total of one kind (a board size, a node count, …),
/// evaluated in parallel chunks of `chunk` positions. Shards slice every job's range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Progress label and checkpoint name, e.g. `4x5` or `N=3`.
    pub label: String,
    /// Sizes (rows, cols) that get a summary row even when nothing is counted in them.
    pub sizes: Vec<(u32, u32)>,
    pub total: u64,
    pub chunk: u64,
    /// Patterns a complete run counts in `sizes`, when the game knows it (e.g. 2^(h·w) boards
    /// of h×w two-state cells); checked on resume, at the end of a run, on merge and by `check`.
    pub patterns: Option<u64>,
}

impl Job {
    pub fn new(label: impl Into<String>, sizes: Vec<(u32, u32)>, total: u64, chunk: u64) -> Job {
        Job { label: label.into(), sizes, total, chunk: chunk.max(1), patterns: None }
    }

    /// The same job, declaring that each of its positions is counted as exactly one pattern.
    pub fn one_pattern_each(self) -> Job {
        Job { patterns: Some(self.total), ..self }
    }
}

/// Checks the counts of complete runs: no size has more mismatches than patterns, and the
/// patterns counted in the sizes of each of the first `finished` jobs that declare their count
/// ([`Job::patterns`]) add up to it, whatever the symmetry reduction. Jobs that share a size
/// with another job are checked together.
pub fn check_totals(jobs: &[Job], finished: usize, results: &RunResults) -> std::result::Result<(), String> {
    for tally in results.sizes.values() {
        if tally.mismatches > tally.patterns {
            return Err(format!("{}x{}: {} mismatches among {} patterns", tally.rows, tally.cols, tally.mismatches, tally.patterns));
        }
    }
    for group in size_groups(jobs) {
        let declared: Option<u64> = group.iter().map(|&i| jobs[i].patterns).sum();
        let Some(expected) = declared.filter(|_| group.iter().all(|&i| i < finished)) else { continue };
        let sizes: std::collections::BTreeSet<(u32, u32)> = group.iter().flat_map(|&i| jobs[i].sizes.iter().copied()).collect();
        let counted = sizes.iter().filter_map(|key| results.sizes.get(key)).fold(0u64, |sum, t| sum.saturating_add(t.patterns));
        if counted != expected {
            let labels: Vec<&str> = group.iter().map(|&i| jobs[i].label.as_str()).collect();
            return Err(format!("{} counts {counted} patterns, not the {expected} it has", labels.join(", ")));
        }
    }
    Ok(())
}

/// The jobs grouped so that no two groups share a size (usually one job per group), each group
/// and the list sorted; linear in the jobs' sizes (runs of a million one-size jobs).
pub fn size_groups(jobs: &[Job]) -> Vec<Vec<usize>> {
    let mut leader: Vec<usize> = (0..jobs.len()).collect();
    let mut owner: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    for (index, job) in jobs.iter().enumerate() {
        for &size in &job.sizes {
            let other = *owner.entry(size).or_insert(index);
            let (a, b) = (root(&mut leader, index), root(&mut leader, other));
            leader[a.max(b)] = a.min(b);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for index in 0..jobs.len() {
        groups.entry(root(&mut leader, index)).or_default().push(index);
    }
    groups.into_values().collect()
}

/// The first job of `index`'s group (union-find with path halving).
fn root(leader: &mut [usize], mut index: usize) -> usize {
    while leader[index] != index {
        leader[index] = leader[leader[index]];
        index = leader[index];
    }
    index
}

/// Evaluates positions of one job (claim and oracle) and counts them.
pub trait Evaluate: Sync {
    /// Evaluates the positions with indices in `positions`, counting into `results`; an error
    /// (a device that failed mid-run) stops the run, keeping its last checkpoint.
    fn evaluate(&self, positions: Range<u64>, results: &mut RunResults) -> Result<()>;
}

/// A closure that cannot fail.
impl<F: Fn(Range<u64>, &mut RunResults) + Sync> Evaluate for F {
    fn evaluate(&self, positions: Range<u64>, results: &mut RunResults) -> Result<()> {
        self(positions, results);
        Ok(())
    }
}

/// A game's verification: which positions (as jobs), how each is checked, and the files and
/// manifest entries it adds to the common summary, distribution and mismatches files.
pub trait Verification: Sync {
    /// Game name written in the result files.
    fn game(&self) -> &str;
    /// Rule (claim variant, random spec) written in the result files.
    fn rule(&self) -> String;
    /// The names of the size, key and position columns of the game's verify files (the
    /// game's [`Columns`] constant, as its registry entry declares them).
    fn columns(&self) -> Columns;
    /// `verify` (claim against the oracle) or `census` (claim only).
    fn mode(&self) -> &'static str {
        "verify"
    }
    /// What one job is, in messages (a game whose jobs are board sizes says `size`).
    fn job_noun(&self) -> &'static str {
        "job"
    }
    /// The jobs, in the order they run.
    fn jobs(&self) -> Result<Vec<Job>>;
    /// What evaluating job `index` needs (tables, position lists), built once per job.
    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>>;
    /// Measured core-seconds per position of job `index` (preparation included), for the
    /// estimate a run is refused on and for sizing parallel chunks; `None` when unknown.
    fn seconds_per_position(&self, _index: usize) -> Option<f64> {
        None
    }
    /// Estimated core-seconds of evaluating `positions` of job `index` in parallel chunks of
    /// `chunk` positions (preparation included), for a game whose positions differ in cost (a
    /// chunk that rebuilds what earlier ones built); `None` when unknown. The default is
    /// [`Verification::seconds_per_position`] times the positions.
    fn job_seconds(&self, index: usize, positions: Range<u64>, _chunk: u64) -> Option<f64> {
        self.seconds_per_position(index).map(|rate| rate * positions.end.saturating_sub(positions.start) as f64)
    }
    /// Core-seconds of work besides the jobs (a file the run computes when it writes its
    /// results, on one thread), added to the estimate a run is refused on.
    fn extra_seconds(&self) -> f64 {
        0.0
    }
    /// Whether job `index` is spread over the host's threads, so that its core-seconds divide
    /// among them; false when one device counts it whatever the thread count (a GPU), its
    /// `seconds_per_position` then being wall seconds.
    fn uses_host_threads(&self, _index: usize) -> bool {
        true
    }
    /// The device that counts the run when not the CPU (recorded in the manifest), e.g. `gpu`.
    fn device(&self) -> Option<String> {
        None
    }
    /// Estimated peak memory of preparing and evaluating job `index` on `threads` threads (a
    /// game whose workers each keep their own memo needs it per thread). The default is for
    /// games whose memory does not grow with the run.
    fn peak_bytes(&self, _index: usize, _threads: usize) -> u64 {
        BASE_PEAK_BYTES
    }
    /// Parameters recorded in manifest.json (besides game, rule, mode and shard).
    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::new()
    }
    /// What else its results depend on, beyond game, rule, mode and sizes (a game program's
    /// command and the SHA-256 of its files): a checkpoint resumes only when these are equal.
    fn identity(&self) -> BTreeMap<String, Value> {
        BTreeMap::new()
    }
    /// Remarks recorded in manifest.json, given the results.
    fn notes(&self, _results: &RunResults) -> Vec<String> {
        Vec::new()
    }
    /// Takes in the manifest parameters of the run this verification was rebuilt from (`merge`,
    /// `check`): a game whose jobs come from an outside program reads them there instead of
    /// starting it, and may refuse a manifest that no longer describes its inputs.
    fn adopt_manifest(&mut self, _parameters: &BTreeMap<String, Value>) -> Result<()> {
        Ok(())
    }
    /// Whether a fresh run that fails with an error keeps its checkpoint for `--resume` (true),
    /// or leaves nothing in the directory because its inputs were at fault (a user's game
    /// program, which must be fixed first, making it another run).
    fn resumable_after_error(&self) -> bool {
        true
    }
    /// Writes the game's own files into `dir` (beyond summary, distribution and mismatches)
    /// and returns their names.
    fn write_extra(&self, _dir: &Path, _results: &RunResults) -> Result<Vec<&'static str>> {
        Ok(Vec::new())
    }
}
