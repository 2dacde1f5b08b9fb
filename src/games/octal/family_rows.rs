//! The rows a `prove octal-family` run saves code by code ([`super::family_run`]):
//! `DIR/rows/CODE.json`, sealed ([`crate::output::sealed`]) with the parameters that shaped
//! the row. A run that goes on reads each back only after checking it: its digest; its
//! parameters, which must be this run's (a run with other `--digits`, `--max` or
//! `--dense-from` is refused, exit 2, naming the file and the parameter); its code; and, for a
//! proved code, its values file (SHA-256, count, largest value, the period proved again).

use super::family::{from_values, values_file, FamilyRow, Limits, DENSE_SHARE};
use crate::error::{Error, Result};
use crate::output::atomic::write_bytes_atomic;
use crate::output::sealed::{differences, read_text, seal, unseal};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folder of the saved rows, inside the family's directory.
pub const ROWS: &str = "rows";

/// Format of a saved row (1: sealed JSON with its parameters; earlier versions wrote
/// `rows/CODE.csv`, which is not read: those codes are computed again).
const FORMAT: u32 = 1;

/// The parameters that shape a row: a run with others refuses the rows saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub digits: u32,
    pub max: usize,
    pub dense_from: usize,
    pub dense_share: usize,
}

impl Shape {
    /// The shape of the rows of a run of the `digits`-digit family within `limits`.
    pub fn new(digits: u32, limits: Limits) -> Shape {
        Shape { digits, max: limits.max, dense_from: limits.dense_from, dense_share: DENSE_SHARE }
    }
}

/// A saved row as its file holds it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    shape: Shape,
    row: FamilyRow,
}

/// The file of code `code`'s saved row.
pub fn row_file(dir: &Path, code: &str) -> PathBuf {
    dir.join(ROWS).join(format!("{code}.json"))
}

/// Saves `row`, shaped by `shape`, atomically (after its values file).
pub fn save(dir: &Path, shape: Shape, row: &FamilyRow) -> Result<()> {
    let text = seal(&Saved { shape, row: row.clone() }, FORMAT);
    write_bytes_atomic(&row_file(dir, &row.code), text.as_bytes())
}

/// Refuses the rows saved in `dir` of codes outside the family being run (`names`, the
/// family's codes; `family`, its name): left by a stopped run of another family, which this
/// one would delete with rows/ at its end.
pub fn refuse_others(dir: &Path, names: &BTreeSet<String>, family: &str) -> Result<()> {
    let rows = dir.join(ROWS);
    let Ok(entries) = std::fs::read_dir(&rows) else { return Ok(()) };
    let code = |path: &Path| path.extension().filter(|e| *e == "json").and(path.file_stem()).and_then(|s| s.to_str()).map(str::to_string);
    let others = entries.flatten().filter_map(|entry| code(&entry.path())).filter(|code| !names.contains(code));
    // The first in order, whatever order the directory lists them in.
    match others.min() {
        Some(code) => Err(Error::Usage(format!(
            "{} is the row of {code}, not a code of the family {family}: saved by a stopped run of another family; rerun with that run's options to go on, or delete {} to start over",
            row_file(dir, &code).display(),
            rows.display()
        ))),
        None => Ok(()),
    }
}

/// The row saved for `code` (None when there is none), refused unless it is intact, of
/// `code`, of a run shaped by `shape` and, if proved, proved by its values file.
pub fn load(dir: &Path, code: &str, shape: Shape) -> Result<Option<FamilyRow>> {
    let file = row_file(dir, code);
    let again = |why: String| format!("{why}; delete it (and {}) to compute {code} again", values_file(code));
    // The error names the file already.
    let Some(text) = read_text(&file).map_err(|e| Error::Usage(again(e.to_string())))? else { return Ok(None) };
    let saved: Saved = unseal(&file, &text, FORMAT).map_err(|e| Error::Usage(again(e.to_string())))?;
    let changed = differences(&saved.shape, &shape, ["saved", "this run"]);
    if !changed.is_empty() {
        return Err(Error::Usage(format!(
            "{} was saved by a run with other parameters ({}): rerun with that run's options to go on, or delete {} to start over",
            file.display(),
            changed.join("; "),
            dir.join(ROWS).display()
        )));
    }
    if saved.row.code != code {
        return Err(Error::malformed(&file, again(format!("the row of code {}, not of {code}", saved.row.code))));
    }
    let proved = from_values(dir, &saved.row, usize::MAX)?;
    let changed = differences(&saved.row, &proved, ["the row", "the values"]);
    if !changed.is_empty() {
        let why = format!("{} does not prove this row ({})", values_file(code), changed.join("; "));
        return Err(Error::malformed(&file, again(why)));
    }
    Ok(Some(saved.row))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::code::Code;
    use crate::games::octal::compute::write_values;
    use crate::games::octal::family::settle;

    /// A directory holding the saved row of `code` (and its values when proved).
    fn saved(code: &str, shape: Shape) -> (tempfile::TempDir, FamilyRow) {
        let dir = tempfile::tempdir().unwrap();
        let settled = settle(&Code::parse(code).unwrap(), Limits::to(shape.max)).unwrap();
        let row = settled.row().unwrap();
        std::fs::create_dir_all(dir.path().join(ROWS)).unwrap();
        std::fs::create_dir_all(dir.path().join("values")).unwrap();
        write_values(&dir.path().join(values_file(code)), settled.kept()).unwrap();
        save(dir.path(), shape, &row).unwrap();
        (dir, row)
    }

    const SHAPE: Shape = Shape { digits: 2, max: 4096, dense_from: usize::MAX, dense_share: DENSE_SHARE };

    #[test]
    fn a_saved_row_is_read_back_only_as_saved() {
        let (dir, row) = saved("0.77", SHAPE);
        assert_eq!(load(dir.path(), "0.77", SHAPE).unwrap(), Some(row));
        assert_eq!(load(dir.path(), "0.07", SHAPE).unwrap(), None);
        let other = Shape { max: 2048, ..SHAPE };
        let err = load(dir.path(), "0.77", other).unwrap_err().to_string();
        assert!(err.contains("0.77.json was saved by a run with other parameters (max: saved 4096, this run 2048)"), "{err}");
        // The row edited: its digest refuses it.
        let file = row_file(dir.path(), "0.77");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("\"period\":12", "\"period\":13")).unwrap();
        let err = load(dir.path(), "0.77", SHAPE).unwrap_err().to_string();
        assert!(err.contains("does not match its sha256") && err.contains("to compute 0.77 again"), "{err}");
    }

    #[test]
    fn a_changed_values_file_is_refused() {
        let (dir, _) = saved("0.77", SHAPE);
        let values = dir.path().join(values_file("0.77"));
        let text = std::fs::read_to_string(&values).unwrap();
        std::fs::write(&values, text.replacen("\n30,7\n", "\n30,6\n", 1)).unwrap();
        let err = load(dir.path(), "0.77", SHAPE).unwrap_err().to_string();
        assert!(err.contains("values/0.77.csv does not prove this row") && err.contains("sha256: the row"), "{err}");
        std::fs::remove_file(&values).unwrap();
        let err = load(dir.path(), "0.77", SHAPE).unwrap_err().to_string();
        assert!(err.contains("missing: the values of the proof of 0.77"), "{err}");
    }
}
