//! The verify files of one run directory read into and written from [`RunResults`]:
//! summary.csv, distribution.csv, mismatches.csv.

use super::tally::{RunResults, SizeTally};
use crate::error::{Error, Result};
use crate::output::csv::{read_csv, write_csv};
use crate::output::records::{DistributionRow, MismatchRow, SummaryRow};
use crate::output::verify_files::{DISTRIBUTION, MISMATCHES, SUMMARY};
use std::path::Path;

/// Writes the three CSV files of `results` into `dir`; returns their names (for the manifest).
pub fn write_verify_files(dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
    write_csv(&dir.join(SUMMARY), &results.summary_rows())?;
    write_csv(&dir.join(DISTRIBUTION), &results.distribution_rows())?;
    write_csv(&dir.join(MISMATCHES), &results.mismatch_rows())?;
    Ok(vec![SUMMARY, DISTRIBUTION, MISMATCHES])
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
    let summary: Vec<SummaryRow> = read_csv(&dir.join(SUMMARY))?;
    let distribution: Vec<DistributionRow> = read_csv(&dir.join(DISTRIBUTION))?;
    let mismatches_path = dir.join(MISMATCHES);
    let mismatches: Vec<MismatchRow> =
        if mismatches_path.exists() { read_csv(&mismatches_path)? } else { Vec::new() };
    let first = summary.first().ok_or_else(|| Error::malformed(dir.join(SUMMARY), "no rows"))?;
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
}
