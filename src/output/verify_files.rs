//! The verify files of one run directory: summary.csv, distribution.csv, mismatches.csv.

use super::csv::{first_field, read_csv_headed, write_csv_headed};
use super::records::{Columns, DistributionRow, MismatchRow, SummaryRow};
use crate::error::{Error, Result};
use crate::runner::tally::{RunResults, SizeTally};
use std::path::{Path, PathBuf};

pub const SUMMARY: &str = "summary.csv";
pub const DISTRIBUTION: &str = "distribution.csv";
pub const MISMATCHES: &str = "mismatches.csv";
pub const MANIFEST: &str = "manifest.json";

/// Writes the three CSV files of `results` into `dir` under its game's column names; returns
/// their names (for the manifest).
pub fn write_verify_files(dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
    let columns = results.columns;
    write_csv_headed::<SummaryRow, _>(&dir.join(SUMMARY), &columns.summary(), results.summary_rows())?;
    write_csv_headed::<DistributionRow, _>(&dir.join(DISTRIBUTION), &columns.distribution(), results.distribution_rows())?;
    write_csv_headed::<MismatchRow, _>(&dir.join(MISMATCHES), &columns.mismatches(), results.mismatch_rows())?;
    Ok(vec![SUMMARY, DISTRIBUTION, MISMATCHES])
}

/// The rows of the verify files of one directory, as written, and the column names they were
/// read with (those of the game the summary's first row names).
#[derive(Debug, Clone)]
pub struct VerifyRows {
    pub columns: Columns,
    pub summary: Vec<SummaryRow>,
    pub distribution: Vec<DistributionRow>,
    pub mismatches: Vec<MismatchRow>,
}

impl VerifyRows {
    /// Reads summary.csv, distribution.csv and (when present) mismatches.csv of `dir`, each
    /// header checked against the columns its game declares; a summary without rows is an error.
    pub fn read(dir: &Path) -> Result<VerifyRows> {
        let summary_path = dir.join(SUMMARY);
        let game = first_field(&summary_path)?.ok_or_else(|| Error::malformed(&summary_path, "no rows"))?;
        let columns = crate::games::columns(&game);
        let mismatches_path = dir.join(MISMATCHES);
        Ok(VerifyRows {
            columns,
            summary: read_csv_headed(&summary_path, &columns.summary())?,
            distribution: read_csv_headed(&dir.join(DISTRIBUTION), &columns.distribution())?,
            mismatches: if mismatches_path.exists() { read_csv_headed(&mismatches_path, &columns.mismatches())? } else { Vec::new() },
        })
    }
}

/// Reads the files written by [`write_verify_files`] back into results, checking that the
/// summary agrees with the distribution. `mismatches.csv` is optional (results/ omits it).
pub fn read_verify_files(dir: &Path) -> Result<RunResults> {
    let (results, consistency) = read_verify_files_unchecked(dir)?;
    consistency.map_err(|message| Error::malformed(dir.join(SUMMARY), message))?;
    Ok(results)
}

/// Reads the files like [`read_verify_files`] but returns the consistency of the summary with
/// the distribution apart (`Err` names the first disagreeing line); unreadable files are errors.
pub fn read_verify_files_unchecked(dir: &Path) -> Result<(RunResults, std::result::Result<(), String>)> {
    let VerifyRows { summary, distribution, mismatches, .. } = VerifyRows::read(dir)?;
    let first = &summary[0];
    let mut results = RunResults::new(first.game.clone(), first.rule.clone());
    let same_run = |path: &str, line: usize, game: &str, rule: &str| {
        if game != results.game || rule != results.rule {
            return Err(Error::malformed(
                dir.join(path),
                format!("line {line}: game/rule {game}/{rule} differs from {}/{}", results.game, results.rule),
            ));
        }
        Ok(())
    };
    for (i, row) in distribution.iter().enumerate() {
        same_run(DISTRIBUTION, i + 2, &row.game, &row.rule)?;
    }
    for (i, row) in summary.iter().enumerate() {
        same_run(SUMMARY, i + 2, &row.game, &row.rule)?;
    }
    let mut sizes = std::collections::BTreeMap::new();
    for row in &distribution {
        let tally: &mut SizeTally = sizes.entry((row.rows, row.cols)).or_insert_with(|| SizeTally::new(row.rows, row.cols));
        tally.record(row.xs, row.grundy, row.patterns);
    }
    let mut consistency = Ok(());
    for (i, row) in summary.iter().enumerate() {
        let tally = sizes.entry((row.rows, row.cols)).or_insert_with(|| SizeTally::new(row.rows, row.cols));
        tally.mismatches = row.mismatches;
        let derived = (tally.patterns, tally.p_positions(), tally.max_grundy());
        if derived != (row.patterns, row.p_positions, row.max_grundy) && consistency.is_ok() {
            consistency = Err(format!(
                "line {}: {}x{} says patterns/p_positions/max_grundy {}/{}/{} but distribution.csv sums to {}/{}/{}",
                i + 2, row.rows, row.cols, row.patterns, row.p_positions, row.max_grundy, derived.0, derived.1, derived.2
            ));
        }
    }
    results.sizes = sizes;
    results.mismatches = mismatches;
    Ok((results, consistency))
}

/// Directories under `root` (itself included, as `.`) holding a manifest.json, relative and
/// '/'-separated, each with whether it holds a run's summary.csv.
pub fn manifest_dirs(root: &Path) -> Vec<(String, bool)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, bool)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut subdirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        subdirs.sort();
        if dir.join(MANIFEST).is_file() {
            let rel = dir.strip_prefix(root).expect("walk stays under root");
            let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let name = if parts.is_empty() { ".".to_string() } else { parts.join("/") };
            out.push((name, dir.join(SUMMARY).is_file()));
        }
        for sub in subdirs {
            walk(root, &sub, out);
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RunResults {
        let mut r = RunResults::new("toy", "standard");
        r.size_mut(1, 2).record(0, 2, 1);
        r.size_mut(1, 2).record(1, 1, 2);
        r.size_mut(1, 2).record(2, 0, 1);
        r.size_mut(1, 1).record(0, 1, 1);
        r.size_mut(1, 1).record(1, 0, 1);
        r
    }

    #[test]
    fn round_trip_and_header_only_mismatches() {
        let dir = tempfile::tempdir().unwrap();
        write_verify_files(dir.path(), &sample()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join(MISMATCHES)).unwrap(),
            "game,rule,rows,cols,board,dp_grundy,naive_grundy,naive_outcome\n"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join(SUMMARY)).unwrap(),
            "game,rule,rows,cols,patterns,mismatches,p_positions,max_grundy\n\
             toy,standard,1,1,2,0,1,1\ntoy,standard,1,2,4,0,1,2\n"
        );
        assert_eq!(read_verify_files(dir.path()).unwrap(), sample());
    }

    #[test]
    fn detects_inconsistent_summary() {
        let dir = tempfile::tempdir().unwrap();
        write_verify_files(dir.path(), &sample()).unwrap();
        let path = dir.path().join(SUMMARY);
        let text = std::fs::read_to_string(&path).unwrap().replace("1,2,4,0,1,2", "1,2,5,0,1,2");
        std::fs::write(&path, text).unwrap();
        let err = read_verify_files(dir.path()).unwrap_err().to_string();
        assert!(err.contains("line 3: 1x2 says patterns/p_positions/max_grundy 5/1/2"), "{err}");
    }

    #[test]
    fn malformed_row_names_line() {
        let dir = tempfile::tempdir().unwrap();
        write_verify_files(dir.path(), &sample()).unwrap();
        let path = dir.path().join(DISTRIBUTION);
        let text = std::fs::read_to_string(&path).unwrap() + "toy,standard,1,1,zz,0,1\n";
        std::fs::write(&path, text).unwrap();
        let err = read_verify_files(dir.path()).unwrap_err().to_string();
        assert!(err.contains("distribution.csv: line 7: field 4:"), "{err}");
    }

    #[test]
    fn a_game_writes_and_reads_its_own_columns() {
        let dir = tempfile::tempdir().unwrap();
        let mut nim = RunResults::new("nim", "standard");
        nim.size_mut(2, 3).record(4, 0, 2);
        write_verify_files(dir.path(), &nim).unwrap();
        let summary = std::fs::read_to_string(dir.path().join(SUMMARY)).unwrap();
        assert!(summary.starts_with("game,rule,piles,largest_pile,patterns,"), "{summary}");
        let distribution = std::fs::read_to_string(dir.path().join(DISTRIBUTION)).unwrap();
        assert_eq!(distribution, "game,rule,piles,largest_pile,stones,grundy,patterns\nnim,standard,2,3,4,0,2\n");
        assert_eq!(read_verify_files(dir.path()).unwrap(), nim);
        let path = dir.path().join(DISTRIBUTION);
        std::fs::write(&path, distribution.replace("piles,largest_pile,stones", "rows,cols,xs")).unwrap();
        let err = read_verify_files(dir.path()).unwrap_err().to_string();
        assert!(err.contains("distribution.csv: line 1: header is") && err.contains("\"stones\""), "{err}");
    }

    #[test]
    fn every_game_names_distinct_columns() {
        for game in crate::games::REGISTRY {
            for header in [game.columns().summary(), game.columns().distribution(), game.columns().mismatches()] {
                let distinct: std::collections::BTreeSet<&str> = header.iter().copied().collect();
                assert_eq!(distinct.len(), header.len(), "{}: {header:?}", game.name());
            }
        }
    }
}
