//! How `check` recomputes results/wall/empty/: the CSV part of the table and the first rows of
//! the proof within the default budget, the whole table and the whole proof with `--budget`.

use super::compact;
use super::files::{proof_rows, proof_zeros, row_max, table_zeros, ProofRow, RowMaxRow, ZeroRow, PROOF_BIN, ROWS, ROW_MAX, TABLE_BIN, TABLE_CSV, VERDICT, ZEROS};
use super::prove::{Lemma, Proof};
use super::table::Table;
use super::verdict::Verdict;
use crate::check::{compare_rows, Difference, Row};
use crate::error::{Error, Result};
use super::dp::EmptyRow;
use crate::output::atomic::{sha256_file, sha256_hex};
use crate::output::csv::{read_csv, CsvRecord};
use crate::output::manifest::Manifest;
use crate::output::verify_files::MANIFEST;
use crate::runner::Silent;
use std::path::Path;

/// Rows of the proof recomputed within the default budget.
pub const CHEAP_ROWS: usize = 60;

/// The manifest of `dir` (with its digest), and a difference for each of `files` whose
/// SHA-256 is not the one the manifest lists (the rows are compared as well, to show where).
fn manifest_of(dir: &Path, files: &[&str]) -> Result<(Manifest, Vec<Difference>)> {
    let path = dir.join(MANIFEST);
    let manifest = Manifest::read_digested(&path)?;
    let mut changed = Vec::new();
    for name in files {
        let listed = manifest.files.get(*name).ok_or_else(|| Error::malformed(&path, format!("lists no digest of {name}")))?;
        changed.extend(whole_file(&dir.join(name), &format!("sha256 {listed}"), &format!("sha256 {}", sha256_file(&dir.join(name))?)));
    }
    Ok((manifest, changed))
}

/// A size parameter `HxW` of the manifest.
fn size_parameter(manifest: &Manifest, dir: &Path, key: &str) -> Result<(usize, usize)> {
    let text = manifest.parameters.get(key).and_then(|v| v.as_str()).unwrap_or("");
    let shape = crate::games::wall::board::dims::parse_dims(text).map_err(|e| Error::malformed(dir.join(MANIFEST), format!("parameter {key}: {e}")))?;
    Ok((shape.rows, shape.cols))
}

/// A count parameter of the manifest.
fn count_parameter(manifest: &Manifest, dir: &Path, key: &str) -> Result<usize> {
    let value = manifest.parameters.get(key).and_then(serde_json::Value::as_u64);
    value.map(|v| v as usize).ok_or_else(|| Error::malformed(dir.join(MANIFEST), format!("no parameter {key}")))
}

/// Committed rows of `path` (line numbers from 2) against `fresh`, matched by `key`.
fn compare_file<T: CsvRecord + PartialEq, K: Ord>(path: &Path, fresh: &[T], keep: impl Fn(&T) -> bool, key: impl Fn(&T) -> K) -> Result<Vec<Difference>> {
    let committed: Vec<T> = read_csv(path)?;
    let lines: Vec<(usize, &T)> = committed.iter().enumerate().map(|(i, r)| (i + 2, r)).filter(|(_, r)| keep(r)).collect();
    Ok(compare_rows(path, &lines, fresh, key))
}

/// A whole-file difference (a digest or a one-line text).
fn whole_file(path: &Path, expected: &str, got: &str) -> Vec<Difference> {
    (expected != got)
        .then(|| Difference { file: path.to_path_buf(), row: Row::Line(1), committed: Some(expected.into()), recomputed: Some(got.into()) })
        .into_iter()
        .collect()
}

/// empty.csv of the table directory: recomputed at its size and compared row by row.
pub fn table_csv(path: &Path) -> Result<Vec<Difference>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let (manifest, mut out) = manifest_of(dir, &[TABLE_CSV])?;
    let (rows, cols) = size_parameter(&manifest, dir, "csv_max")?;
    let table = Table::compute(rows.min(cols), rows.max(cols), true, &Silent)?;
    let fresh: Vec<EmptyRow> = super::files::table_rows(&table, (rows, cols)).collect();
    out.extend(compare_file(path, &fresh, |_| true, |r| (r.rows, r.cols))?);
    Ok(out)
}

/// row-max.csv, zeros.csv and the digest of empty.bin: the whole table recomputed.
pub fn whole_table(path: &Path) -> Result<Vec<Difference>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let (manifest, mut out) = manifest_of(dir, &[ROW_MAX, ZEROS])?;
    let max = size_parameter(&manifest, dir, "max")?;
    let table = Table::compute(max.0.min(max.1), max.0.max(max.1), true, &Silent)?;
    out.extend(compare_file::<RowMaxRow, _>(path, &row_max(&table, max), |_| true, |r| r.rows)?);
    out.extend(compare_file::<ZeroRow, _>(&dir.join(ZEROS), &table_zeros(&table, max), |_| true, |r| *r)?);
    let listed = manifest.files.get(TABLE_BIN).map_or("(none)", String::as_str);
    out.extend(whole_file(&dir.join(TABLE_BIN), listed, &sha256_hex(&compact::encode(&table))));
    Ok(out)
}

/// The proof to `height`.
fn prove_to(height: usize) -> Result<Proof> {
    let mut proof = Proof::new();
    while proof.height() < height {
        proof.extend(Lemma::Proven, true)?;
    }
    Ok(proof)
}

/// The first [`CHEAP_ROWS`] rows of rows.csv and the wins with a side ≤ that, recomputed; and
/// the wins against the table directory beside it (every win the table shows with a side ≤ A
/// must be in the proof's list and the other way round, within the table's size).
pub fn proof_start(path: &Path) -> Result<Vec<Difference>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let (manifest, mut out) = manifest_of(dir, &[ROWS, ZEROS])?;
    let height = count_parameter(&manifest, dir, "proved_height")?.min(CHEAP_ROWS);
    let proof = prove_to(height)?;
    out.extend(compare_file::<ProofRow, _>(path, &proof_rows(&proof), |r| r.rows as usize <= height, |r| r.rows)?);
    let small = |r: &ZeroRow| (r.rows.min(r.cols) as usize) <= height;
    let fresh: Vec<ZeroRow> = proof_zeros(&proof).into_iter().filter(small).collect();
    out.extend(compare_file(&dir.join(ZEROS), &fresh, small, |r| *r)?);
    let table_dir = dir.with_file_name("table");
    if table_dir.join(ZEROS).is_file() {
        let a = count_parameter(&manifest, dir, "proved_height")?;
        let (table_manifest, changed) = manifest_of(&table_dir, &[ZEROS])?;
        out.extend(changed);
        let max = size_parameter(&table_manifest, &table_dir, "max")?;
        let inside = |r: &ZeroRow| r.rows as usize <= max.0 && r.cols as usize <= max.1 && (r.rows.min(r.cols) as usize) <= a;
        let table: Vec<ZeroRow> = read_csv::<ZeroRow>(&table_dir.join(ZEROS))?.into_iter().filter(inside).collect();
        out.extend(compare_file(&dir.join(ZEROS), &table, inside, |r| *r)?);
    }
    Ok(out)
}

/// verdict.txt, rows.csv, zeros.csv and the digest of proof.bin: the whole proof recomputed.
pub fn whole_proof(path: &Path) -> Result<Vec<Difference>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let (manifest, mut out) = manifest_of(dir, &[VERDICT, ROWS, ZEROS])?;
    let proof = prove_to(count_parameter(&manifest, dir, "proved_height")?)?;
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    out.extend(whole_file(path, text.trim_end(), &Verdict::of(&proof).line()));
    out.extend(compare_file(&dir.join(ROWS), &proof_rows(&proof), |_| true, |r: &ProofRow| r.rows)?);
    out.extend(compare_file(&dir.join(ZEROS), &proof_zeros(&proof), |_| true, |r| *r)?);
    let listed = manifest.files.get(PROOF_BIN).map_or("(none)", String::as_str);
    out.extend(whole_file(&dir.join(PROOF_BIN), listed, &sha256_hex(&compact::encode_proof(&proof))));
    Ok(out)
}
