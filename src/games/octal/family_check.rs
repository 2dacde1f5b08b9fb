//! `check` of the committed family (results/octal/family, [`super::family_run`]).
//!
//! At no cost (every run): the manifest's digests of family.csv, equivalences.csv and every
//! values file; then each proved code's values file against its row (SHA-256, count, largest
//! value) and its period proved again from those values by the theorem ([`super::period::prove`])
//! — except the few proofs too long to commit ([`COMMITTED_VALUES`]), proved again only by
//! recomputation;
//! the codes are exactly the family's; the classes of equal codes derived again.
//! Under the budget, one unit per code: its values recomputed from scratch in the same doubling
//! steps (to the proof's step, or to the bound of an open code) and its row compared.

use super::equivalence::{classes, ClassRow};
use super::family::{codes, estimate, from_values, name, settle, FamilyRow, Limits, COMMITTED_VALUES};
use super::family_run::{proved_values, EQUIVALENCES, FAMILY};
use crate::check::{compare_rows, Difference, Recompute, ResultsDir, Row};
use crate::error::{Error, Result};
use crate::output::csv::read_csv;
use crate::output::manifest::Manifest;
use std::collections::BTreeMap;
use std::path::Path;

/// The committed family, relative to results/.
pub const DIR: &str = "octal/family";

/// The octal game's committed results: the family, re-proved at no cost and recomputed by code,
/// and the long runs ([`super::runs`]).
pub fn results() -> Vec<ResultsDir> {
    vec![
        ResultsDir { dir: DIR, recompute: Recompute::Table { file: FAMILY, seconds: 0.0, compare: reprove } },
        ResultsDir { dir: DIR, recompute: Recompute::Rows { file: FAMILY, rows: estimates, compare: recompute } },
    ]
    .into_iter()
    .chain(super::runs::results())
    .collect()
}

/// The committed rows with their line numbers.
fn committed(file: &Path) -> Result<Vec<(usize, FamilyRow)>> {
    Ok(read_csv::<FamilyRow>(file)?.into_iter().enumerate().map(|(i, row)| (i + 2, row)).collect())
}

/// Each code with its estimated seconds of recomputation.
fn estimates(file: &Path) -> Result<Vec<(String, f64)>> {
    Ok(committed(file)?.into_iter().map(|(_, row)| (row.code.clone(), estimate(&row))).collect())
}

/// Recomputes code `key` in the steps its row records and compares the row.
fn recompute(file: &Path, key: &str) -> Result<Vec<Difference>> {
    let rows = committed(file)?;
    let Some((line, row)) = rows.iter().find(|(_, r)| r.code == key) else {
        return Err(Error::malformed(file, format!("no row for code {key}")));
    };
    let fresh = settle(&row.parsed()?, Limits::to(row.values_computed))?.row()?;
    Ok(compare_rows(file, &[(*line, row)], &[fresh], |r: &FamilyRow| r.code.clone()))
}

/// The no-cost check: the proofs again from the committed values, the codes, the classes.
fn reprove(file: &Path) -> Result<Vec<Difference>> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let rows = committed(file)?;
    let mut differences = missing_codes(file, dir, &rows)?;
    let fresh = rows.iter().map(|(_, row)| from_values(dir, row, COMMITTED_VALUES)).collect::<Result<Vec<_>>>()?;
    let with_lines: Vec<(usize, &FamilyRow)> = rows.iter().map(|(line, row)| (*line, row)).collect();
    differences.extend(compare_rows(file, &with_lines, &fresh, |r: &FamilyRow| r.code.clone()));
    let plain: Vec<FamilyRow> = rows.into_iter().map(|(_, row)| row).collect();
    let found = classes(&plain, &proved_values(dir, &plain)?)?;
    let equivalences = dir.join(EQUIVALENCES);
    let listed: Vec<(usize, ClassRow)> = read_csv::<ClassRow>(&equivalences)?.into_iter().enumerate().map(|(i, c)| (i + 2, c)).collect();
    let listed: Vec<(usize, &ClassRow)> = listed.iter().map(|(line, c)| (*line, c)).collect();
    differences.extend(compare_rows(&equivalences, &listed, &found, |c: &ClassRow| c.first.clone()));
    Ok(differences)
}

/// A difference for every code of the family (its digits from the manifest) with no row.
fn missing_codes(file: &Path, dir: &Path, rows: &[(usize, FamilyRow)]) -> Result<Vec<Difference>> {
    let (manifest, _) = Manifest::read_unsealed(&dir.join("manifest.json"))?;
    let digits = manifest.parameters.get("digits").and_then(serde_json::Value::as_u64);
    let digits = digits.filter(|d| (1..=5).contains(d)).ok_or_else(|| Error::malformed(dir.join("manifest.json"), "no family digits (1 to 5) recorded"))?;
    let listed: BTreeMap<&str, usize> = rows.iter().map(|(line, r)| (r.code.as_str(), *line)).collect();
    Ok(codes(digits as u32)
        .iter()
        .map(name)
        .filter(|code| !listed.contains_key(code.as_str()))
        .map(|code| Difference { file: file.to_path_buf(), row: Row::Missing, committed: None, recomputed: Some(format!("a row for code {code}")) })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results").join(DIR)
    }

    /// A copy of the committed family.csv with `from` replaced by `to`.
    fn edited(from: &str, to: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(committed_dir().join(FAMILY)).unwrap();
        assert!(text.contains(from));
        let path = dir.path().join(FAMILY);
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        (dir, path)
    }

    #[test]
    fn the_committed_family_is_proved_again_from_its_values() {
        assert_eq!(reprove(&committed_dir().join(FAMILY)).unwrap(), []);
        assert_eq!(recompute(&committed_dir().join(FAMILY), "0.77").unwrap(), []);
    }

    #[test]
    fn a_changed_period_is_found_by_recomputation() {
        let (_dir, path) = edited("\n0.77,proved,2,71,12,", "\n0.77,proved,2,71,13,");
        let found = recompute(&path, "0.77").unwrap();
        assert_eq!(found.len(), 1);
        assert!(found[0].to_string().contains("committed 0.77,proved,2,71,13,"), "{}", found[0]);
        assert!(recompute(&path, "0.99").unwrap_err().to_string().contains("no row for code 0.99"));
    }
}
