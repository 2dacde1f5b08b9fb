//! The verify files of one run directory read into and written from [`RunResults`]:
//! summary.csv, distribution.csv, mismatches.csv.

use super::tally::{RunResults, SizeTally};
use crate::error::{Error, Result};
use crate::output::csv::write_csv_headed;
use crate::output::records::{Columns, DistributionRow, MismatchRow, SummaryRow};
use crate::output::verify_files::{VerifyRows, DISTRIBUTION, MISMATCHES, SUMMARY};
use std::path::Path;

/// Writes the three CSV files of `results` into `dir` under its game's column names; returns
/// their names (for the manifest).
pub fn write_verify_files(dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
    let columns = results.columns;
    write_csv_headed::<SummaryRow, _>(&dir.join(SUMMARY), &columns.summary(), results.summary_rows())?;
    write_csv_headed::<DistributionRow, _>(&dir.join(DISTRIBUTION), &columns.distribution(), results.distribution_rows())?;
    write_csv_headed::<MismatchRow, _>(&dir.join(MISMATCHES), &columns.mismatches(), results.mismatch_rows())?;
    Ok(vec![SUMMARY, DISTRIBUTION, MISMATCHES])
}

/// Reads the files written by [`write_verify_files`] back into results (under the column names
/// their headers give), checking that the summary agrees with the distribution.
/// `mismatches.csv` is optional.
pub fn read_verify_files(dir: &Path) -> Result<RunResults> {
    let (results, consistency) = read_verify_files_unchecked(dir, None)?;
    consistency.map_err(|message| Error::malformed(dir.join(SUMMARY), message))?;
    Ok(results)
}

/// Reads the files like [`read_verify_files`] (each header checked against `columns` when the
/// caller knows the game's) but returns the consistency of the summary with the distribution
/// apart (`Err` names the first disagreeing line); unreadable files are errors.
pub fn read_verify_files_unchecked(dir: &Path, columns: Option<Columns>) -> Result<(RunResults, std::result::Result<(), String>)> {
    let rows = match columns {
        Some(columns) => VerifyRows::read_as(dir, columns)?,
        None => VerifyRows::read(dir)?,
    };
    let consistency = rows.consistency();
    let VerifyRows { columns, summary, distribution, mismatches } = rows;
    same_run(dir, &summary, &distribution)?;
    let first = &summary[0];
    let mut results = RunResults::new(first.game.clone(), first.rule.clone()).with_columns(columns);
    let mut sizes = std::collections::BTreeMap::new();
    for row in &distribution {
        let tally: &mut SizeTally = sizes.entry((row.rows, row.cols)).or_insert_with(|| SizeTally::new(row.rows, row.cols));
        tally.record(row.xs, row.grundy, row.patterns);
    }
    for row in &summary {
        sizes.entry((row.rows, row.cols)).or_insert_with(|| SizeTally::new(row.rows, row.cols)).mismatches = row.mismatches;
    }
    results.sizes = sizes;
    results.mismatches = mismatches;
    Ok((results, consistency))
}

/// Every row of the files names one game and rule: the one most of their rows name; the error
/// names the first row (of summary.csv, then of distribution.csv) that names another.
fn same_run(dir: &Path, summary: &[SummaryRow], distribution: &[DistributionRow]) -> Result<()> {
    let summary_runs = summary.iter().enumerate().map(|(at, r)| (SUMMARY, at + 2, (r.game.as_str(), r.rule.as_str())));
    let distribution_runs = distribution.iter().enumerate().map(|(at, r)| (DISTRIBUTION, at + 2, (r.game.as_str(), r.rule.as_str())));
    let all: Vec<(&str, usize, (&str, &str))> = summary_runs.chain(distribution_runs).collect();
    let mut counts: std::collections::BTreeMap<(&str, &str), usize> = std::collections::BTreeMap::new();
    for (_, _, run) in &all {
        *counts.entry(*run).or_default() += 1;
    }
    let Some((&(game, rule), _)) = counts.iter().max_by_key(|(_, n)| **n) else { return Ok(()) };
    match all.iter().find(|(_, _, run)| *run != (game, rule)) {
        Some((file, line, (g, r))) => Err(Error::malformed(dir.join(file), format!("line {line}: game/rule {g}/{r} differs from {game}/{rule} of the other rows"))),
        None => Ok(()),
    }
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
        assert!(err.contains("distribution.csv: line 7, column 5 (xs):"), "{err}");
    }

    #[test]
    fn a_game_writes_and_reads_its_own_columns() {
        let dir = tempfile::tempdir().unwrap();
        let columns = Columns { size: ["piles", "largest_pile"], key: "stones", position: "position", answer: false };
        let mut nim = RunResults::new("nim", "standard").with_columns(columns);
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
        assert!(err.contains("distribution.csv: line 1: header is") && err.contains("\"piles\""), "{err}");
        std::fs::write(&path, distribution.replace("stones", "xs")).unwrap();
        assert_eq!(read_verify_files(dir.path()).unwrap().columns.key, "xs");
        let err = read_verify_files_unchecked(dir.path(), Some(columns)).unwrap_err().to_string();
        assert!(err.contains("distribution.csv: line 1: header is") && err.contains("\"stones\""), "{err}");
    }
}
