//! The names of a run directory's files: summary.csv, distribution.csv, mismatches.csv, manifest.json.

pub const SUMMARY: &str = "summary.csv";
pub const DISTRIBUTION: &str = "distribution.csv";
pub const MISMATCHES: &str = "mismatches.csv";
pub const MANIFEST: &str = "manifest.json";
