//! The family of octal codes 0.d1…dk (issue 26, item 4): each code's values computed in
//! doubling steps until the periodicity theorem proves a period ([`super::period`]) or a bound
//! is reached; one row per code. Trailing zero digits are dropped (`0.070` is `0.07`), so the
//! 8^k digit strings are 8^k different games; the one with no move at all is named `0.0`.
//! Equivalences between codes: [`super::equivalence`]; the command: [`super::family_run`].

use super::code::Code;
use super::compute::ValueRow;
use super::period::{prove, Bound, Periodicity};
use super::values::{Engine, Method};
use crate::error::{Error, Result};
use crate::output::atomic::{sha256_file, sha256_hex};
use crate::output::csv::{read_csv, write_csv_to, CsvRecord};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Values computed before the first attempt at a proof (then doubled), as `prove octal` does.
pub const FIRST_STEP: usize = 1024;

/// Every octal code 0.d1…dk with k = `digits`, in the order of their digit strings.
pub fn codes(digits: u32) -> Vec<Code> {
    (0..8usize.pow(digits))
        .map(|i| {
            let tail: String = (0..digits).rev().map(|j| char::from(b'0' + (i >> (3 * j) & 7) as u8)).collect();
            Code::parse(&format!("0.{tail}")).expect("octal digits make a code")
        })
        .collect()
}

/// The family of the `digits`-digit codes as its manifest records it (`0.d1…d3`): with the
/// game, the family run's game ([`crate::output::takeover::game_of`]).
pub fn family_name(digits: u32) -> String {
    format!("0.d1…d{digits}")
}

/// The code's name in the family's files: its canonical spelling, `0.0` for no move at all.
pub fn name(code: &Code) -> String {
    let text = code.to_string();
    if text.ends_with('.') {
        text + "0"
    } else {
        text
    }
}

/// One code of the family: its values and, if proved, its period.
pub struct Settled {
    pub code: Code,
    /// Every value computed, g(0..computed).
    pub values: Vec<u16>,
    pub proof: Option<Periodicity>,
    /// Rare values of the sparse method at the end (None: plain mex, the code never splits).
    pub rare: Option<usize>,
    /// The sparse method's split at the end: `range` or `domain` (None: plain mex).
    pub split: Option<&'static str>,
}

/// How far a code is computed: at most `max` values; from `dense_from` values on, a code whose
/// values are not sparse (more than 1 in [`DENSE_SHARE`] of the newer half of its values rare, so
/// that each value costs about as much as plain mex) stops at the first doubling step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max: usize,
    pub dense_from: usize,
}

/// A code is dense when more than 1 in this many of the newer half of its values are rare.
pub const DENSE_SHARE: usize = 64;

impl Limits {
    /// Exactly the steps up to `max` (how `check` repeats a row: the run stopped there).
    pub fn to(max: usize) -> Limits {
        Limits { max, dense_from: usize::MAX }
    }
}

/// Computes `code` in doubling steps from [`FIRST_STEP`] values until a period is proved or
/// `limits` stop it (the same steps give the same row when recomputed).
pub fn settle(code: &Code, limits: Limits) -> Result<Settled> {
    let max = limits.max;
    let bound = Bound::of(code).map_err(|why| Error::Usage(format!("{code}: {why}")))?;
    let mut engine = Engine::new(code, Method::Sparse);
    let mut len = FIRST_STEP.min(max).max(1);
    loop {
        engine.extend_to(len - 1, &mut |_| {})?;
        let proof = prove(engine.values(), bound, code.max_take());
        let rare = (engine.method() == Method::Sparse).then(|| engine.split().rare());
        let newer = rare.map_or(0, |r| r.len() - r.partition_point(|&n| n < len / 2));
        let dense = len >= limits.dense_from && newer * DENSE_SHARE > len / 2;
        let rare = rare.map(<[usize]>::len);
        if proof.is_some() || len >= max || dense {
            let split = rare.map(|_| engine.split().rule().kind());
            return Ok(Settled { code: code.clone(), values: engine.values().to_vec(), proof, rare, split });
        }
        len = len.saturating_mul(2).min(max);
    }
}

impl Settled {
    /// The values a proof reads (every value computed when open): what values/CODE.csv holds.
    pub fn kept(&self) -> &[u16] {
        &self.values[..self.proof.map_or(self.values.len(), |p| p.values)]
    }

    /// The code's row of family.csv.
    pub fn row(&self) -> Result<FamilyRow> {
        let kept = self.kept();
        Ok(FamilyRow {
            code: name(&self.code),
            status: if self.proof.is_some() { PROVED } else { OPEN }.to_string(),
            t: self.code.max_take(),
            preperiod: self.proof.map(|p| p.preperiod),
            period: self.proof.map(|p| p.period),
            largest_value: kept.iter().max().copied().unwrap_or(0),
            rare_values: self.rare,
            split: self.split.map(str::to_string),
            values_computed: self.values.len(),
            values_kept: kept.len(),
            sha256: values_digest(kept)?,
        })
    }
}

/// `status` of a code whose period is proved.
pub const PROVED: &str = "proved";
/// `status` of a code with no period proved within its bound.
pub const OPEN: &str = "open";

/// One row of family.csv.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyRow {
    pub code: String,
    pub status: String,
    /// The most tokens a move removes.
    pub t: usize,
    /// n0 ≥ 1 (proved codes): g(n + period) = g(n) for every n ≥ n0.
    pub preperiod: Option<usize>,
    pub period: Option<usize>,
    /// Largest value of the values kept (for a proved code, of the whole sequence).
    pub largest_value: u16,
    /// Rare values of the sparse method when it stopped (empty: plain mex).
    pub rare_values: Option<usize>,
    /// Their split: `range` (a mask) or `domain` (a mask and the heap's parity); empty: plain mex.
    pub split: Option<String>,
    /// Values computed, g(0..values_computed).
    pub values_computed: usize,
    /// Values in the values file (the proof's for a proved code, every value for an open one).
    pub values_kept: usize,
    /// SHA-256 of that values file (`n,grundy`, as `prove octal CODE` writes it).
    pub sha256: String,
}

impl CsvRecord for FamilyRow {
    const HEADER: &'static [&'static str] =
        &["code", "status", "t", "preperiod", "period", "largest_value", "rare_values", "split", "values_computed", "values_kept", "sha256"];
}

impl FamilyRow {
    pub fn proved(&self) -> bool {
        self.status == PROVED
    }

    /// The code the row names.
    pub fn parsed(&self) -> Result<Code> {
        Code::parse(&self.code)
    }
}

/// The SHA-256 of the values file holding `g` (the bytes `write_values` writes).
pub fn values_digest(g: &[u16]) -> Result<String> {
    let mut bytes = Vec::with_capacity(g.len() * 10);
    let rows = g.iter().enumerate().map(|(n, &grundy)| ValueRow { n: n as u64, grundy });
    write_csv_to::<ValueRow, ValueRow>(&mut bytes, Path::new("<values>"), ValueRow::HEADER, rows)?;
    Ok(sha256_hex(&bytes))
}

/// The row a proved code's values file (in the family's directory `dir`) proves: the period
/// proved again from those values by the theorem, their count, largest value and SHA-256; the
/// row as it is when open, or when its values are more than `longest` (not committed).
pub fn from_values(dir: &Path, row: &FamilyRow, longest: usize) -> Result<FamilyRow> {
    if !row.proved() || row.values_kept > longest {
        return Ok(row.clone());
    }
    let path = dir.join(values_file(&row.code));
    if !path.is_file() {
        return Err(Error::malformed(&path, format!("missing: the values of the proof of {}", row.code)));
    }
    let g: Vec<u16> = read_csv::<ValueRow>(&path)?.into_iter().map(|v| v.grundy).collect();
    let code = row.parsed()?;
    let bound = Bound::of(&code).map_err(|why| Error::malformed(&path, why))?;
    let proof = prove(&g, bound, code.max_take()).filter(|p| p.values == g.len());
    Ok(FamilyRow {
        status: if proof.is_some() { PROVED } else { OPEN }.to_string(),
        t: code.max_take(),
        preperiod: proof.map(|p| p.preperiod),
        period: proof.map(|p| p.period),
        largest_value: g.iter().max().copied().unwrap_or(0),
        values_kept: g.len(),
        sha256: sha256_file(&path)?,
        ..row.clone()
    })
}

/// Values files longer than this are not committed (their digest is; `check` recomputes them):
/// the proofs of 0.16 and 0.56–0.563 (docs/octal-family.md).
pub const COMMITTED_VALUES: usize = 1 << 16;

/// The directory of the proved codes' values, relative to the family's directory.
pub const VALUES_DIR: &str = "values/";

/// The file of a proved code's values, relative to the family's directory.
pub fn values_file(code: &str) -> String {
    format!("{VALUES_DIR}{code}.csv")
}

/// Core-seconds per value of a sparse code (besides its rare heaps), per value and rare heap
/// so far, per value squared of a dense code (more than 1 in [`DENSE_SHARE`] rare: as much as
/// plain mex), and per value of a code that never splits: timings on a 2-core machine.
const SPARSE_SECONDS: f64 = 6e-7;
const RARE_SECONDS: f64 = 1e-9;
const DENSE_SECONDS: f64 = 2e-9;
const UNSPLIT_SECONDS: f64 = 1e-7;

/// Estimated seconds to recompute a row ([`SPARSE_SECONDS`] and the others).
pub fn estimate(row: &FamilyRow) -> f64 {
    let n = row.values_computed as f64;
    match row.rare_values {
        Some(rare) if rare * DENSE_SHARE > row.values_computed / 2 => n * n * DENSE_SECONDS,
        Some(rare) => n * (SPARSE_SECONDS + rare as f64 * RARE_SECONDS),
        None => n * UNSPLIT_SECONDS,
    }
}

/// Core-seconds of settling one code within `limits` when no period is proved early, at most
/// (the estimate a `prove octal-family` run is refused on): the dearer of a dense code's run,
/// which stops at the first doubling step at or past `--dense-from`, and a sparse code's run
/// to `--max` (its rare heaps left out: they thin out in the codes measured).
pub fn code_seconds_at_most(limits: Limits) -> f64 {
    let mut dense_len = FIRST_STEP.min(limits.max).max(1);
    while dense_len < limits.dense_from && dense_len < limits.max {
        dense_len = dense_len.saturating_mul(2).min(limits.max);
    }
    let dense = (dense_len as f64).powi(2) * DENSE_SECONDS;
    dense.max(limits.max as f64 * SPARSE_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Measured: the committed family (`--digits 3 --max 1048576 --dense-from 32768`) took 9 min
    /// 34 s of CPU on one thread (docs/octal-family.md): the bound of 512 codes is above it, and
    /// not by much.
    #[test]
    fn a_codes_time_is_bounded_by_its_limits() {
        let committed = 512.0 * code_seconds_at_most(Limits { max: 1 << 20, dense_from: 1 << 15 });
        assert!((574.0..4.0 * 574.0).contains(&committed), "{committed} s");
        // A dense code stops at the first doubling step from 1024 at or past --dense-from.
        let dense = code_seconds_at_most(Limits { max: 1 << 30, dense_from: 3000 });
        assert_eq!(dense, ((1u64 << 30) as f64 * SPARSE_SECONDS).max(4096.0 * 4096.0 * DENSE_SECONDS));
        assert!(code_seconds_at_most(Limits { max: 1 << 30, dense_from: 1 << 30 }) > 1e9);
    }

    #[test]
    fn the_three_digit_family_has_512_different_codes() {
        let names: Vec<String> = codes(3).iter().map(name).collect();
        assert_eq!(names.len(), 512);
        assert_eq!(names[..3], ["0.0", "0.001", "0.002"]);
        assert_eq!((names[8].as_str(), names[64].as_str(), names[511].as_str()), ("0.01", "0.1", "0.777"));
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), 512);
    }

    #[test]
    fn rows_of_proved_and_open_codes() {
        let kayles = settle(&Code::parse("0.77").unwrap(), Limits::to(1 << 20)).unwrap().row().unwrap();
        assert_eq!((kayles.preperiod, kayles.period, kayles.values_computed, kayles.values_kept), (Some(71), Some(12), 1024, 168));
        // The digest `prove octal 0.77` prints (docs/octal.md).
        assert_eq!(kayles.sha256, "2387bee3d44ade0e7ba5ff5a6c2b705b9f5d8b00b496a9f60fb91130cf90f485");
        let officers = settle(&Code::parse("0.6").unwrap(), Limits::to(5001)).unwrap().row().unwrap();
        assert_eq!((officers.status.as_str(), officers.values_kept), (OPEN, 5001));
        // The digest `prove octal 0.6 --max 5000` prints for its 5001 values (docs/octal.md).
        assert_eq!(officers.sha256, "d894140a53ef0f3fc18c9ffbf5213ccf8fcb0e72bc47290be055d32455896ef3");
        let none = settle(&Code::parse("0.0").unwrap(), Limits::to(100)).unwrap().row().unwrap();
        assert_eq!((none.code.as_str(), none.period, none.rare_values), ("0.0", Some(1), None));
    }
}
