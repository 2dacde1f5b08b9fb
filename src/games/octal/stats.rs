//! What a long `table octal` run found, without its values file (`--stats DIR`): for 2^30 heaps
//! the `n,grundy` CSV is about 15 GB, the statistics a few kilobytes. Three files, sorted,
//! deterministic, each written atomically:
//!
//! * `summary.csv`: one row — code, heaps, largest value and the first heap with it, distinct
//!   values, the mask and the split's type (`range`, or `domain` when the heap's parity counts),
//!   how many heaps are rare under it and the last of them (where the rare values stop
//!   appearing, as far as the run saw), and the SHA-256 of the values as u16 little endian (the
//!   bytes of `--binary` and of `FILE.values.bin`).
//! * `values.csv`: per value its count, first and last heap, and how many of its heaps are rare.
//! * `rare.csv`: `n,grundy` of every rare heap (the first [`RARE_LISTED`]).
//!
//! The rule is derived from the values alone — the one under which the fewest of the newer half
//! are rare, the range type and the smallest mask on ties ([`best_rule`], what the sparse method
//! reviews to) — so the same values give the same statistics whichever run, stopped, resumed or
//! read back, they come from.

use super::code::Code;
use super::compute::{le_bytes, ValueRow};
use super::split::best_rule;
use super::values::domain_parity;
use crate::error::Result;
use crate::output::atomic::{create_dir, hex};
use crate::output::csv::{write_csv, write_csv_rows, CsvRecord};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// Rare heaps listed in `rare.csv` at most (a bad mask could make half the heaps rare).
pub const RARE_LISTED: usize = 1_000_000;

/// The files [`Stats::write`] writes.
pub const STATS_FILES: [&str; 3] = ["summary.csv", "values.csv", "rare.csv"];

/// The row of `summary.csv`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub code: String,
    pub heaps: u64,
    pub largest_value: u16,
    pub largest_first_heap: u64,
    pub distinct_values: u64,
    pub mask: u16,
    /// `range` or `domain` ([`super::split::Rule::kind`]).
    pub split: String,
    pub rare_heaps: u64,
    /// Empty when no heap is rare.
    pub last_rare_heap: Option<u64>,
    pub rare_listed: u64,
    pub sha256: String,
}

impl CsvRecord for Summary {
    const HEADER: &'static [&'static str] =
        &["code", "heaps", "largest_value", "largest_first_heap", "distinct_values", "mask", "split", "rare_heaps", "last_rare_heap", "rare_listed", "sha256"];
}

/// A row of `values.csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueStat {
    pub value: u16,
    pub count: u64,
    pub first_heap: u64,
    pub last_heap: u64,
    /// How many of its heaps are rare (all or none under the range type).
    pub rare_heaps: u64,
}

impl CsvRecord for ValueStat {
    const HEADER: &'static [&'static str] = &["value", "count", "first_heap", "last_heap", "rare_heaps"];
}

/// The statistics of g(0..len).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    pub summary: Summary,
    pub values: Vec<ValueStat>,
    pub rare: Vec<ValueRow>,
}

impl Stats {
    /// The statistics of the values `g` of `code`.
    pub fn of(code: &Code, g: &[u16]) -> Stats {
        let (rule, _) = best_rule(&g[g.len() / 2..], g.len() / 2, domain_parity(code));
        let values = tally(g, |n, v| rule.is_rare(n, v));
        let rare_heaps: u64 = values.iter().map(|s| s.rare_heaps).sum();
        let last_rare_heap = g.iter().enumerate().rev().find(|&(n, &v)| rule.is_rare(n, v)).map(|(n, _)| n as u64);
        let rare_rows = g.iter().enumerate().filter(|&(n, &v)| rule.is_rare(n, v));
        let rare: Vec<ValueRow> = rare_rows.take(RARE_LISTED).map(|(n, &grundy)| ValueRow { n: n as u64, grundy }).collect();
        let largest = values.last().copied();
        let summary = Summary {
            code: code.to_string(),
            heaps: g.len() as u64,
            largest_value: largest.map_or(0, |s| s.value),
            largest_first_heap: largest.map_or(0, |s| s.first_heap),
            distinct_values: values.len() as u64,
            mask: rule.mask,
            split: rule.kind().to_string(),
            rare_heaps,
            last_rare_heap,
            rare_listed: rare.len() as u64,
            sha256: sha256_values(g),
        };
        Stats { summary, values, rare }
    }

    /// Writes `summary.csv`, `values.csv` and `rare.csv` into `dir` (created if need be).
    pub fn write(&self, dir: &Path) -> Result<()> {
        create_dir(dir)?;
        let [summary, values, rare] = STATS_FILES;
        write_csv(&dir.join(summary), std::slice::from_ref(&self.summary))?;
        write_csv(&dir.join(values), &self.values)?;
        write_csv_rows::<ValueRow, &ValueRow>(&dir.join(rare), &self.rare)
    }

    /// One line for the report: what the statistics say.
    pub fn line(&self, dir: &Path) -> String {
        let s = &self.summary;
        let last = s.last_rare_heap.map_or(String::new(), |n| format!(", the last at n = {n}"));
        format!(
            "statistics in {}: {} values, largest {} (first at n = {}), {} distinct; mask {:#x} ({}): {} rare heaps{last}; sha256 {}",
            dir.display(),
            s.heaps,
            s.largest_value,
            s.largest_first_heap,
            s.distinct_values,
            s.mask,
            s.split,
            s.rare_heaps,
            s.sha256
        )
    }
}

/// Per value that occurs: its count, first and last heap, rare heaps; ascending by value.
fn tally(g: &[u16], rare: impl Fn(usize, u16) -> bool) -> Vec<ValueStat> {
    let mut rare_count = vec![0u64; 1 << 16];
    let mut count = vec![0u64; 1 << 16];
    let mut first = vec![u64::MAX; 1 << 16];
    let mut last = vec![0u64; 1 << 16];
    for (n, &v) in g.iter().enumerate() {
        rare_count[usize::from(v)] += u64::from(rare(n, v));
        let v = usize::from(v);
        count[v] += 1;
        first[v] = first[v].min(n as u64);
        last[v] = n as u64;
    }
    (0..=u16::MAX)
        .filter(|&v| count[usize::from(v)] > 0)
        .map(|v| {
            let i = usize::from(v);
            ValueStat { value: v, count: count[i], first_heap: first[i], last_heap: last[i], rare_heaps: rare_count[i] }
        })
        .collect()
}

/// SHA-256 of the values as u16 little endian.
pub fn sha256_values(g: &[u16]) -> String {
    let mut hasher = Sha256::new();
    for chunk in g.chunks(1 << 16) {
        hasher.update(le_bytes(chunk));
    }
    hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statistics_of_a_short_sequence() {
        let code = Code::parse("0.77").unwrap();
        // 0 and 3 rare under mask 3 (even parity), 1 and 2 common.
        let g = [0u16, 1, 2, 3, 1, 2, 1, 2, 1, 2];
        let stats = Stats::of(&code, &g);
        let s = &stats.summary;
        assert_eq!((s.heaps, s.largest_value, s.largest_first_heap, s.distinct_values), (10, 3, 3, 4));
        assert_eq!((s.mask, s.split.as_str(), s.rare_heaps, s.last_rare_heap, s.rare_listed), (3, "range", 2, Some(3), 2));
        assert_eq!(stats.rare, vec![ValueRow { n: 0, grundy: 0 }, ValueRow { n: 3, grundy: 3 }]);
        assert_eq!(stats.values[1], ValueStat { value: 1, count: 4, first_heap: 1, last_heap: 8, rare_heaps: 0 });
        let bytes: Vec<u8> = g.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(s.sha256, crate::output::atomic::sha256_hex(&bytes));
    }

    #[test]
    fn no_values_no_rare_heap() {
        let stats = Stats::of(&Code::parse("0.6").unwrap(), &[]);
        assert_eq!((stats.summary.heaps, stats.summary.distinct_values, stats.summary.last_rare_heap), (0, 0, None));
        assert!(stats.values.is_empty() && stats.rare.is_empty());
    }
}
