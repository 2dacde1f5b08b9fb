//! The transposition check of committed wall runs: under a rule whose rays are the same
//! transposed (all but t-split), a board and its transpose have the same value, X count and
//! outcome, so a size committed in both orientations (H×W and W×H, in one run or in two census
//! directories named by size) has the same summary and distribution rows both ways.

use crate::check::{compare_rows, Difference};
use crate::error::{Error, Result};
use crate::games::wall::board::rules::Rule;
use crate::output::records::{Columns, DistributionRow, SummaryRow};
use crate::output::verify_files::{VerifyRows, DISTRIBUTION};
use serde::Serialize;
use std::path::Path;

/// A row of summary.csv or distribution.csv, seen through a transposition.
trait Transposable: Clone + PartialEq + Serialize {
    fn size(&self) -> (&str, u32, u32);
    fn key(&self) -> (String, u32, u32, u32, u32);
    fn transposed(&self) -> Self;
}

impl Transposable for SummaryRow {
    fn size(&self) -> (&str, u32, u32) {
        (&self.rule, self.rows, self.cols)
    }
    fn key(&self) -> (String, u32, u32, u32, u32) {
        (self.rule.clone(), self.rows, self.cols, 0, 0)
    }
    fn transposed(&self) -> Self {
        SummaryRow { rows: self.cols, cols: self.rows, ..self.clone() }
    }
}

impl Transposable for DistributionRow {
    fn size(&self) -> (&str, u32, u32) {
        (&self.rule, self.rows, self.cols)
    }
    fn key(&self) -> (String, u32, u32, u32, u32) {
        (self.rule.clone(), self.rows, self.cols, self.xs, self.grundy)
    }
    fn transposed(&self) -> Self {
        DistributionRow { rows: self.cols, cols: self.rows, ..self.clone() }
    }
}

/// Compares, in the run whose summary.csv is `summary`, each size H×W with H > W against its
/// transpose W×H where both are committed under a transpose-symmetric rule. The differences
/// name the taller size's lines; *got* is the wider size's row transposed.
pub fn compare_transposes(summary: &Path) -> Result<Vec<Difference>> {
    let (dir, own) = read(summary)?;
    let sizes: Vec<(&str, u32, u32)> = own.summary.iter().map(Transposable::size).collect();
    let twinned = |&(rule, h, w): &(&str, u32, u32)| h != w && sizes.contains(&(rule, w, h)) && symmetric(rule);
    let taller = |size: &(&str, u32, u32)| twinned(size) && size.1 > size.2;
    let wider = |size: &(&str, u32, u32)| twinned(size) && size.1 < size.2;
    let mut differences = compare_file(summary, &own.summary, &own.summary, taller, wider);
    differences.extend(compare_file(&dir.join(DISTRIBUTION), &own.distribution, &own.distribution, taller, wider));
    Ok(differences)
}

/// Compares the census run whose summary.csv is `summary` (one size H×W, H ≠ W, in a directory
/// named `HxW`) with the census of its transpose in the sibling directory `WxH`, which must
/// be committed too.
pub fn compare_with_transposed_sibling(summary: &Path) -> Result<Vec<Difference>> {
    let (dir, own) = read(summary)?;
    let [row] = own.summary.as_slice() else {
        return Err(Error::malformed(summary, "a census directory compared with its transpose holds exactly one size"));
    };
    let sibling = dir.with_file_name(format!("{}x{}", row.cols, row.rows));
    if row.rows == row.cols || !symmetric(&row.rule) || dir.file_name() != Some(format!("{}x{}", row.rows, row.cols).as_ref()) {
        return Err(Error::malformed(summary, format!("{}x{} under {} has no transpose in another directory to compare with", row.rows, row.cols, row.rule)));
    }
    let (_, twin) = read(&sibling.join(crate::output::verify_files::SUMMARY))?;
    let mine = |size: &(&str, u32, u32)| size.1 == row.rows && size.2 == row.cols;
    let theirs = |size: &(&str, u32, u32)| size.1 == row.cols && size.2 == row.rows;
    let mut differences = compare_file(summary, &own.summary, &twin.summary, mine, theirs);
    differences.extend(compare_file(&dir.join(DISTRIBUTION), &own.distribution, &twin.distribution, mine, theirs));
    Ok(differences)
}

/// The directory of `summary` and its run's rows.
fn read(summary: &Path) -> Result<(&Path, VerifyRows)> {
    let dir = summary.parent().ok_or_else(|| Error::malformed(summary, "has no directory"))?;
    Ok((dir, VerifyRows::read_as(dir, Columns::BOARD)?))
}

/// Whether `rule` (a known wall rule, else false) is transpose-symmetric.
fn symmetric(rule: &str) -> bool {
    rule.parse::<Rule>().is_ok_and(Rule::transpose_symmetric)
}

/// The rows of `path` (`own`, those of the sizes `compared` picks) against the rows of `twin`
/// of the sizes `transposes` picks, transposed.
fn compare_file<T: Transposable>(
    path: &Path,
    own: &[T],
    twin: &[T],
    compared: impl Fn(&(&str, u32, u32)) -> bool,
    transposes: impl Fn(&(&str, u32, u32)) -> bool,
) -> Vec<Difference> {
    let committed: Vec<(usize, &T)> = own.iter().enumerate().map(|(i, r)| (i + 2, r)).filter(|(_, r)| compared(&r.size())).collect();
    let fresh: Vec<T> = twin.iter().filter(|r| transposes(&r.size())).map(Transposable::transposed).collect();
    compare_rows(path, &committed, &fresh, Transposable::key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::verify_files::SUMMARY;

    /// summary.csv rows "rows,cols,p_positions" and distribution.csv rows "rows,cols,xs,patterns".
    fn write(dir: &Path, summaries: &[(u32, u32, u64)], distributions: &[(u32, u32, u32, u64)]) -> std::path::PathBuf {
        let mut summary = String::from("game,rule,rows,cols,patterns,mismatches,p_positions,max_grundy\n");
        for (rows, cols, p) in summaries {
            summary += &format!("wall,standard,{rows},{cols},{},0,{p},3\n", 1u64 << (rows * cols));
        }
        let mut distribution = String::from("game,rule,rows,cols,xs,grundy,patterns\n");
        for (rows, cols, xs, n) in distributions {
            distribution += &format!("wall,standard,{rows},{cols},{xs},1,{n}\n");
        }
        std::fs::write(dir.join(DISTRIBUTION), distribution).unwrap();
        std::fs::write(dir.join(SUMMARY), summary).unwrap();
        dir.join(SUMMARY)
    }

    #[test]
    fn the_committed_runs_agree_with_their_transposes() {
        let run = |name: &str| Path::new(env!("CARGO_MANIFEST_DIR")).join("results/wall").join(name).join("summary.csv");
        for name in ["standard", "x-blocks", "misere"] {
            assert_eq!(compare_transposes(&run(name)).unwrap(), [], "{name}");
        }
        assert_eq!(compare_with_transposed_sibling(&run("census/7x5")).unwrap(), []);
        // Under t-split (rays left, right and down) a column is a Nim heap and a row is not:
        // nothing is compared, though its sizes differ from their transposes.
        assert_eq!(compare_transposes(&run("t-split")).unwrap(), []);
        let rows = VerifyRows::read_as(run("t-split").parent().unwrap(), Columns::BOARD).unwrap().summary;
        let max = |h, w| rows.iter().find(|r| (r.rows, r.cols) == (h, w)).unwrap().max_grundy;
        assert_eq!((max(4, 1), max(1, 4)), (4, 1));
    }

    #[test]
    fn a_census_is_compared_with_its_transposed_sibling() {
        let root = tempfile::tempdir().unwrap();
        let dir = |name: &str| {
            let path = root.path().join(name);
            std::fs::create_dir_all(&path).unwrap();
            path
        };
        let tall = write(&dir("3x2"), &[(3, 2, 5)], &[(3, 2, 1, 6), (3, 2, 2, 15)]);
        write(&dir("2x3"), &[(2, 3, 5)], &[(2, 3, 1, 6), (2, 3, 2, 15)]);
        assert_eq!(compare_with_transposed_sibling(&tall).unwrap(), []);
        // One board moved from 2 X cells to 1 in 2×3: both distribution rows differ.
        write(&dir("2x3"), &[(2, 3, 5)], &[(2, 3, 1, 7), (2, 3, 2, 14)]);
        let said: Vec<String> = compare_with_transposed_sibling(&tall).unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("3x2/distribution.csv, line 2, committed wall,standard,3,2,1,1,6, recomputed wall,standard,3,2,1,1,7"), "{said:?}");
        // No sibling: the missing file is named; a directory not named by its size is refused.
        std::fs::remove_dir_all(root.path().join("2x3")).unwrap();
        let err = compare_with_transposed_sibling(&tall).unwrap_err().to_string();
        assert!(err.contains("2x3") && err.contains("summary.csv"), "{err}");
        let odd = write(&dir("odd"), &[(3, 2, 5)], &[]);
        let err = compare_with_transposed_sibling(&odd).unwrap_err().to_string();
        assert!(err.contains("3x2 under standard has no transpose in another directory"), "{err}");
    }

    #[test]
    fn a_size_unlike_its_transpose_is_a_difference_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        // 2×3 and 3×2 agree; 1×2 has no 2×1 to compare with.
        let agreeing = [(1, 2, 1), (2, 3, 5), (3, 2, 5)];
        let rows = [(2, 3, 1, 6), (3, 2, 1, 6)];
        assert_eq!(compare_transposes(&write(dir.path(), &agreeing, &rows)).unwrap(), []);
        // 3×2 counts one P-position more; its distribution has none of 2×3's two rows.
        let summaries = [(2, 3, 5), (3, 2, 6)];
        let rows = [(2, 3, 1, 6), (2, 3, 2, 15)];
        let differences = compare_transposes(&write(dir.path(), &summaries, &rows)).unwrap();
        let said: Vec<String> = differences.iter().map(ToString::to_string).collect();
        assert_eq!(differences.len(), 3, "{said:?}");
        assert!(said[0].contains("summary.csv") && said[0].contains("line 3"), "{said:?}");
        assert!(said[1..].iter().all(|d| d.contains("distribution.csv") && d.contains("missing row")), "{said:?}");
    }
}
