//! Comparing committed rows with recomputed ones: every changed, missing, extra or repeated row is a difference.

use super::SizeKey;
use crate::output::csv::to_csv_line;
use crate::output::records::{DistributionRow, MismatchRow, SummaryRow};
use crate::output::verify_files::{DISTRIBUTION, MISMATCHES, SUMMARY};
use crate::runner::RunResults;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// A place in a committed file: a 1-based line, or a row the file lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Line(usize),
    Missing,
}

/// One disagreement between a committed file and its recomputation: `committed` is the
/// committed line (None: the file lacks the row), `recomputed` the recomputed one (None: the
/// recomputation has no such row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub file: PathBuf,
    pub row: Row,
    pub committed: Option<String>,
    pub recomputed: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = match self.row {
            Row::Line(n) => format!("line {n}"),
            Row::Missing => "missing row".to_string(),
        };
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_string());
        write!(f, "{}, {row}, committed {}, recomputed {}", self.file.display(), show(&self.committed), show(&self.recomputed))
    }
}

/// Compares committed rows (with their line numbers) with recomputed rows, matching rows by
/// `key`: a differing row, a row only on one side and a repeated committed row are differences.
pub fn compare_rows<T, K>(file: &Path, committed: &[(usize, &T)], fresh: &[T], key: impl Fn(&T) -> K) -> Vec<Difference>
where
    T: Serialize + PartialEq,
    K: Ord,
{
    let mut old: BTreeMap<K, Vec<(usize, &T)>> = BTreeMap::new();
    for &(line, row) in committed {
        old.entry(key(row)).or_default().push((line, row));
    }
    let new: BTreeMap<K, &T> = fresh.iter().map(|row| (key(row), row)).collect();
    let keys: BTreeSet<&K> = old.keys().chain(new.keys()).collect();
    let difference = |row, committed: Option<&T>, recomputed: Option<&T>| Difference {
        file: file.to_path_buf(),
        row,
        committed: committed.map(to_csv_line),
        recomputed: recomputed.map(to_csv_line),
    };
    let mut out = Vec::new();
    for k in keys {
        let lines = old.get(k).map_or(&[][..], Vec::as_slice);
        let got = new.get(k).copied();
        match (lines.split_first(), got) {
            (None, got) => out.push(difference(Row::Missing, None, got)),
            (Some((&(line, row), repeats)), got) => {
                if got != Some(row) {
                    out.push(difference(Row::Line(line), Some(row), got));
                }
                out.extend(repeats.iter().map(|&(line, row)| difference(Row::Line(line), Some(row), None)));
            }
        }
    }
    out
}

/// Rows that belong to one size of one run.
trait OfSize {
    fn size_key(&self) -> (&str, &str, u32, u32);

    fn is(&self, key: &SizeKey) -> bool {
        self.size_key() == (key.0.as_str(), key.1.as_str(), key.2, key.3)
    }
}

macro_rules! of_size {
    ($($t:ty),*) => {$(
        impl OfSize for $t {
            fn size_key(&self) -> (&str, &str, u32, u32) {
                (&self.game, &self.rule, self.rows, self.cols)
            }
        }
    )*};
}
of_size!(SummaryRow, DistributionRow, MismatchRow);

/// The committed rows of one size with their 1-based line numbers.
fn lines_of<'a, T: OfSize>(rows: &'a [T], key: &SizeKey) -> Vec<(usize, &'a T)> {
    rows.iter().enumerate().filter(|(_, r)| r.is(key)).map(|(i, r)| (i + 2, r)).collect()
}

/// The differences of one size: its summary row, distribution rows and mismatch rows.
pub(super) fn compare_size(dir: &Path, committed: &super::Committed, key: &SizeKey, fresh: &RunResults) -> Vec<Difference> {
    let mut out = compare_rows(
        &dir.join(SUMMARY),
        &lines_of(&committed.summary, key),
        &fresh.summary_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |_| (),
    );
    out.extend(compare_rows(
        &dir.join(DISTRIBUTION),
        &lines_of(&committed.distribution, key),
        &fresh.distribution_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |r| (r.xs, r.grundy),
    ));
    out.extend(compare_rows(
        &dir.join(MISMATCHES),
        &lines_of(&committed.mismatches, key),
        &fresh.mismatch_rows().into_iter().filter(|r| r.is(key)).collect::<Vec<_>>(),
        |r| (r.board.clone(), r.answer),
    ));
    out
}

