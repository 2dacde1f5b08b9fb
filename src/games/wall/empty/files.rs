//! The files of the empty-board commands: the table directory (CSV, compact table, maximum per
//! row, second-player wins) and the proof directory (rows.csv, wins, verdict, proof data).

use super::compact;
use super::prove::Proof;
use super::table::Table;
use crate::error::Result;
use super::dp::EmptyRow;
use crate::output::csv::{write_csv, write_csv_rows, CsvRecord};
use crate::output::manifest::{Manifest, RunClock};
use crate::output::verify_files::MANIFEST;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Table directory: `rows,cols,grundy` up to the CSV size.
pub const TABLE_CSV: &str = "empty.csv";
/// Table directory: the whole table in the compact form.
pub const TABLE_BIN: &str = "empty.bin";
/// Table directory: the largest value of each row.
pub const ROW_MAX: &str = "row-max.csv";
/// Both directories: every board with value 0 (a second-player win) in their range.
pub const ZEROS: &str = "zeros.csv";
/// Proof directory: `rows,constant,start,computed_to`.
pub const ROWS: &str = "rows.csv";
/// Proof directory: the verdict line.
pub const VERDICT: &str = "verdict.txt";
/// Proof directory: the proved rows (prefixes and constants), to resume and recheck from.
pub const PROOF_BIN: &str = "proof.bin";

/// The largest value of row h (widths 1..=W) and the first width where it occurs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowMaxRow {
    pub rows: u32,
    pub max_grundy: u32,
    pub first_cols: u32,
}

impl CsvRecord for RowMaxRow {
    const HEADER: &'static [&'static str] = &["rows", "max_grundy", "first_cols"];
}

/// A board on which the second player wins (Grundy value 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ZeroRow {
    pub rows: u32,
    pub cols: u32,
}

impl CsvRecord for ZeroRow {
    const HEADER: &'static [&'static str] = &["rows", "cols"];
}

/// One proved row: constant from `start` on; `computed_to` the last width evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofRow {
    pub rows: u32,
    pub constant: u32,
    pub start: u32,
    pub computed_to: u32,
}

impl CsvRecord for ProofRow {
    const HEADER: &'static [&'static str] = &["rows", "constant", "start", "computed_to"];
}

/// The `rows,cols,grundy` rows of every board up to `max` (rows, cols), sorted.
pub fn table_rows(table: &Table, max: (usize, usize)) -> impl Iterator<Item = EmptyRow> + '_ {
    (1..=max.0).flat_map(move |r| (1..=max.1).map(move |c| EmptyRow { rows: r as u32, cols: c as u32, grundy: u32::from(table.get(r, c)) }))
}

/// The largest value of each row up to `max`.
pub fn row_max(table: &Table, max: (usize, usize)) -> Vec<RowMaxRow> {
    (1..=max.0)
        .map(|r| {
            let (first, top) = (1..=max.1).map(|c| (c, table.get(r, c))).fold((0, 0), |best, (c, v)| if v > best.1 || best.0 == 0 { (c, v) } else { best });
            RowMaxRow { rows: r as u32, max_grundy: u32::from(top), first_cols: first as u32 }
        })
        .collect()
}

/// Every second-player win up to `max`, sorted.
pub fn table_zeros(table: &Table, max: (usize, usize)) -> Vec<ZeroRow> {
    table_rows(table, max).filter(|r| r.grundy == 0).map(|r| ZeroRow { rows: r.rows, cols: r.cols }).collect()
}

/// Writes the table directory: CSV up to `csv_max`, compact table, maxima, zeros, manifest.
pub fn write_table_dir(dir: &Path, table: &Table, max: (usize, usize), csv_max: (usize, usize), clock: &RunClock) -> Result<Manifest> {
    write_csv_rows::<EmptyRow, EmptyRow>(&dir.join(TABLE_CSV), table_rows(table, csv_max))?;
    compact::write(&dir.join(TABLE_BIN), table)?;
    write_csv(&dir.join(ROW_MAX), &row_max(table, max))?;
    write_csv(&dir.join(ZEROS), &table_zeros(table, max))?;
    let mut manifest = clock.finish(dir, &[TABLE_CSV, TABLE_BIN, ROW_MAX, ZEROS])?;
    let size = |(r, c): (usize, usize)| serde_json::Value::from(format!("{r}x{c}"));
    manifest.parameters = BTreeMap::from([
        ("game".into(), "wall".into()),
        ("table".into(), "wall-empty".into()),
        ("max".into(), size(max)),
        ("csv_max".into(), size(csv_max)),
    ]);
    manifest.notes.push(format!("{TABLE_BIN} is the whole table in the compact form (docs/empty-board.md); committed results omit it, check recomputes its digest"));
    manifest.write(&dir.join(MANIFEST))?;
    Ok(manifest)
}

/// The rows of rows.csv.
pub fn proof_rows(proof: &Proof) -> Vec<ProofRow> {
    proof.rows()[1..]
        .iter()
        .map(|r| ProofRow { rows: r.height as u32, constant: u32::from(r.constant), start: r.start as u32, computed_to: r.computed_to as u32 })
        .collect()
}

/// The second-player wins of a proof as rows.
pub fn proof_zeros(proof: &Proof) -> Vec<ZeroRow> {
    proof.zeros().into_iter().map(|(r, c)| ZeroRow { rows: r as u32, cols: c as u32 }).collect()
}

/// Writes the proof directory as far as the proof goes: rows, zeros, verdict, proof data and
/// a manifest (also for a run stopped early, so that nothing proved is lost).
pub fn write_proof_dir(dir: &Path, proof: &Proof, target: usize, clock: &RunClock) -> Result<Manifest> {
    write_csv(&dir.join(ROWS), &proof_rows(proof))?;
    write_csv(&dir.join(ZEROS), &proof_zeros(proof))?;
    crate::output::atomic::write_bytes_atomic(&dir.join(VERDICT), format!("{}\n", super::verdict::Verdict::of(proof).line()).as_bytes())?;
    crate::output::atomic::write_bytes_atomic(&dir.join(PROOF_BIN), &compact::encode_proof(proof))?;
    let mut manifest = clock.finish(dir, &[ROWS, ZEROS, VERDICT, PROOF_BIN])?;
    manifest.parameters = BTreeMap::from([
        ("game".into(), "wall".into()),
        ("proof".into(), "wall-empty".into()),
        ("max_height".into(), target.into()),
        ("proved_height".into(), proof.height().into()),
    ]);
    if proof.height() < target {
        manifest.notes.push(format!("stopped after row {} of {target}; every row written is proved", proof.height()));
    }
    manifest.notes.push(format!("{PROOF_BIN} holds every proved row (docs/empty-board.md); committed results omit it, check recomputes its digest"));
    manifest.write(&dir.join(MANIFEST))?;
    Ok(manifest)
}
