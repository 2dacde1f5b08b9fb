//! A verification as a game describes it: jobs of indexed positions, how to evaluate them, what to write.

use super::tally::RunResults;
use crate::error::Result;
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
}

impl Job {
    pub fn new(label: impl Into<String>, sizes: Vec<(u32, u32)>, total: u64, chunk: u64) -> Job {
        Job { label: label.into(), sizes, total, chunk: chunk.max(1) }
    }
}

/// Evaluates positions of one job (claim and oracle) and counts them.
pub trait Evaluate: Sync {
    /// Evaluates the positions with indices in `positions`, counting into `results`.
    fn evaluate(&self, positions: Range<u64>, results: &mut RunResults);
}

impl<F: Fn(Range<u64>, &mut RunResults) + Sync> Evaluate for F {
    fn evaluate(&self, positions: Range<u64>, results: &mut RunResults) {
        self(positions, results)
    }
}

/// A game's verification: which positions (as jobs), how each is checked, and the files and
/// manifest entries it adds to the common summary, distribution and mismatches files.
pub trait Verification: Sync {
    /// Game name written in the result files.
    fn game(&self) -> &str;
    /// Rule (claim variant, random spec) written in the result files.
    fn rule(&self) -> String;
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
    /// Estimated peak memory of preparing and evaluating job `index`.
    fn peak_bytes(&self, _index: usize) -> u64 {
        BASE_PEAK_BYTES
    }
    /// Parameters recorded in manifest.json (besides game, rule, mode and shard).
    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::new()
    }
    /// Remarks recorded in manifest.json, given the results.
    fn notes(&self, _results: &RunResults) -> Vec<String> {
        Vec::new()
    }
    /// Writes the game's own files into `dir` (beyond summary, distribution and mismatches)
    /// and returns their names.
    fn write_extra(&self, _dir: &Path, _results: &RunResults) -> Result<Vec<&'static str>> {
        Ok(Vec::new())
    }
}
