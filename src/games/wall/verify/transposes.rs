//! The transposition check of committed wall runs: under a rule whose rays are the same
//! transposed (all but t-split), a board and its transpose have the same value, X count and
//! outcome, so each size committed in both orientations (H×W and W×H) has the same summary and
//! distribution rows.

use crate::check::{compare_rows, Difference};
use crate::error::{Error, Result};
use crate::games::wall::board::rules::Rule;
use crate::output::records::Columns;
use crate::output::verify_files::{VerifyRows, DISTRIBUTION};
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;

/// Compares, in the run whose summary.csv is `summary`, each size H×W with H > W against its
/// transpose W×H where both are committed under a transpose-symmetric rule: summary.csv and
/// distribution.csv alike. A rule the game does not know is an error.
pub fn compare_transposes(summary: &Path) -> Result<Vec<Difference>> {
    let dir = summary.parent().ok_or_else(|| Error::malformed(summary, "has no directory"))?;
    let VerifyRows { summary: summaries, distribution: rows, .. } = VerifyRows::read_as(dir, Columns::BOARD)?;
    let mut twins = BTreeSet::new();
    for row in &summaries {
        let rule: Rule = row.rule.parse().map_err(|e: String| Error::malformed(summary, e))?;
        let transposed = summaries.iter().any(|t| t.rule == row.rule && (t.rows, t.cols) == (row.cols, row.rows));
        if rule.transpose_symmetric() && row.rows != row.cols && transposed {
            twins.insert((row.rule.clone(), row.rows, row.cols));
        }
    }
    let mut differences = compare_twins(summary, &summaries, &twins, |r| (&r.rule, r.rows, r.cols), |r| (r.rule.clone(), r.rows, r.cols, 0, 0), |r| std::mem::swap(&mut r.rows, &mut r.cols));
    differences.extend(compare_twins(&dir.join(DISTRIBUTION), &rows, &twins, |r| (&r.rule, r.rows, r.cols), |r| (r.rule.clone(), r.rows, r.cols, r.xs, r.grundy), |r| std::mem::swap(&mut r.rows, &mut r.cols)));
    Ok(differences)
}

/// A committed row's rule and size.
type Twin = (String, u32, u32);

/// The rows of `path` of the taller orientation of each size in `twins`, against the wider
/// orientation's rows transposed (the committed lines named are the taller ones').
fn compare_twins<T: Clone + PartialEq + Serialize>(
    path: &Path,
    rows: &[T],
    twins: &BTreeSet<Twin>,
    size: fn(&T) -> (&String, u32, u32),
    key: fn(&T) -> (String, u32, u32, u32, u32),
    transpose: fn(&mut T),
) -> Vec<Difference> {
    let of_twin = |r: &&T| {
        let (rule, h, w) = size(r);
        twins.contains(&(rule.clone(), h, w))
    };
    let taller = |r: &T| size(r).1 > size(r).2;
    let committed: Vec<(usize, &T)> = rows.iter().enumerate().map(|(i, r)| (i + 2, r)).filter(|(_, r)| of_twin(r) && taller(r)).collect();
    let wider_transposed: Vec<T> = rows
        .iter()
        .filter(|r| of_twin(r) && !taller(r))
        .map(|r| {
            let mut twin = r.clone();
            transpose(&mut twin);
            twin
        })
        .collect();
    compare_rows(path, &committed, &wider_transposed, key)
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
        // Under t-split (rays left, right and down) a column is a Nim heap and a row is not:
        // nothing is compared, though its sizes differ from their transposes.
        assert_eq!(compare_transposes(&run("t-split")).unwrap(), []);
        let rows = VerifyRows::read_as(run("t-split").parent().unwrap(), Columns::BOARD).unwrap().summary;
        let max = |h, w| rows.iter().find(|r| (r.rows, r.cols) == (h, w)).unwrap().max_grundy;
        assert_eq!((max(4, 1), max(1, 4)), (4, 1));
    }

    #[test]
    fn an_unknown_rule_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &[(2, 3, 5)], &[]);
        std::fs::write(&path, std::fs::read_to_string(&path).unwrap().replace("standard", "chess")).unwrap();
        let err = compare_transposes(&path).unwrap_err().to_string();
        assert!(err.contains("summary.csv") && err.contains("chess"), "{err}");
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
