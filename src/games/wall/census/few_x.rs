//! The few-X check of a census: every pattern with at most k X cells or at most k free cells,
//! each evaluated by the per-board rectangle DP ([`RectDp`]), counted by (X count, value) and
//! compared with the census's rows for those X counts (which hold exactly those patterns).

use crate::games::wall::claim::dp::RectDp;
use crate::games::wall::board::{Board, Shape};
use crate::check::{compare_rows, Difference};
use crate::error::Result;
use crate::output::verify_files::VerifyRows;
use crate::output::records::{Columns, DistributionRow};
use crate::output::verify_files::DISTRIBUTION;
use crate::runner::SizeTally;
use std::path::Path;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The X counts the check covers: 0..=k and cells−k..=cells.
pub fn x_counts(shape: Shape, k: u32) -> Vec<u32> {
    let cells = shape.cells() as u32;
    (0..=cells).filter(|&xs| xs <= k || cells - xs <= k).collect()
}

/// Every pattern of `shape` with exactly `xs` X cells (Gosper's next-combination order).
fn patterns_with(shape: Shape, xs: u32) -> Vec<u64> {
    let cells = shape.cells() as u32;
    let (free, complement) = if 2 * xs > cells { (cells - xs, true) } else { (xs, false) };
    let full = shape.full_mask();
    let mut out = Vec::new();
    let mut set = (1u64 << free) - 1;
    while set <= full {
        out.push(if complement { full ^ set } else { set });
        if set == 0 {
            break;
        }
        // Gosper's hack: the next larger number with the same number of ones.
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        set = ripple | (((set ^ ripple) >> 2) / low);
    }
    out
}

/// (X count, value) → patterns, by the per-board DP, for the X counts of [`x_counts`].
pub fn dp_counts(shape: Shape, k: u32) -> BTreeMap<(u32, u32), u64> {
    let patterns: Vec<u64> = x_counts(shape, k).into_iter().flat_map(|xs| patterns_with(shape, xs)).collect();
    patterns
        .par_iter()
        .fold(BTreeMap::new, |mut counts, &x| {
            let grundy = RectDp::new(&Board::from_mask(shape, x)).grundy();
            *counts.entry((x.count_ones(), grundy)).or_insert(0u64) += 1;
            counts
        })
        .reduce(BTreeMap::new, |mut a, b| {
            for (key, n) in b {
                *a.entry(key).or_default() += n;
            }
            a
        })
}

/// The rows (X count, value, census count, DP count) where `census` differs from the DP on
/// the X counts of [`x_counts`].
pub fn differences(shape: Shape, k: u32, census: &SizeTally) -> Vec<(u32, u32, u64, u64)> {
    let covered = x_counts(shape, k);
    let dp = dp_counts(shape, k);
    let mut keys: Vec<(u32, u32)> = census.distribution.keys().filter(|(xs, _)| covered.contains(xs)).copied().collect();
    keys.extend(dp.keys().copied());
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|key| (key.0, key.1, census.distribution.get(&key).copied().unwrap_or(0), dp.get(&key).copied().unwrap_or(0)))
        .filter(|&(_, _, census, dp)| census != dp)
        .collect()
}

/// X cells (and free cells) up to which `check` compares a committed census with the DP.
pub const CHECKED_X: u32 = 4;

/// The few-X check of a committed census directory (`check`): every size in its
/// distribution.csv, the rows of the X counts of [`x_counts`] (k = [`CHECKED_X`]) against the DP.
pub fn compare_committed(dir: &Path) -> Result<Vec<Difference>> {
    let path = dir.join(DISTRIBUTION);
    let rows = VerifyRows::read_as(dir, Columns::BOARD)?.distribution;
    let mut sizes: Vec<(u32, u32)> = rows.iter().map(|r| (r.rows, r.cols)).collect();
    sizes.dedup();
    let mut differences = Vec::new();
    for (h, w) in sizes {
        let shape = Shape::new(h as usize, w as usize);
        let covered = x_counts(shape, CHECKED_X);
        let committed: Vec<(usize, &DistributionRow)> = (rows.iter().enumerate())
            .filter(|(_, r)| (r.rows, r.cols) == (h, w) && covered.contains(&r.xs))
            .map(|(i, r)| (i + 2, r))
            .collect();
        let first = rows.iter().find(|r| (r.rows, r.cols) == (h, w)).expect("the size has rows");
        let row = |((xs, grundy), patterns)| {
            DistributionRow { game: first.game.clone(), rule: first.rule.clone(), rows: h, cols: w, xs, grundy, patterns }
        };
        let fresh: Vec<DistributionRow> = dp_counts(shape, CHECKED_X).into_iter().map(row).collect();
        differences.extend(compare_rows(&path, &committed, &fresh, |r| (r.xs, r.grundy)));
    }
    Ok(differences)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_by_x_count_are_complete_and_distinct() {
        let shape = Shape::new(3, 4);
        let mut all: Vec<u64> = (0..=12).flat_map(|xs| patterns_with(shape, xs)).collect();
        assert!(all.iter().all(|x| x.count_ones() <= 12));
        all.sort_unstable();
        assert_eq!(all, (0..1 << 12).collect::<Vec<u64>>());
        assert_eq!(patterns_with(Shape::new(6, 7), 4).len(), 111_930);
        assert_eq!(x_counts(Shape::new(2, 3), 2), vec![0, 1, 2, 4, 5, 6]);
        assert_eq!(x_counts(Shape::new(6, 7), 4), vec![0, 1, 2, 3, 4, 38, 39, 40, 41, 42]);
    }

    /// `check --budget` runs the same; this runs it alone (a few seconds each).
    #[test]
    #[ignore = "248,628 boards of 6x7 and 204,184 of 5x8 by the per-board DP; run with --ignored"]
    fn committed_sharded_censuses_match_the_dp_on_few_x() {
        for size in ["6x7", "5x8"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/wall/census").join(size);
            assert_eq!(compare_committed(&dir).unwrap(), Vec::new(), "{size}");
        }
    }

    #[test]
    fn committed_rows_are_compared_with_the_dp() {
        let dir = tempfile::tempdir().unwrap();
        crate::games::wall::census(dir.path(), Shape::new(3, 4)).unwrap();
        assert!(compare_committed(dir.path()).unwrap().is_empty());
        let path = dir.path().join(DISTRIBUTION);
        let text = std::fs::read_to_string(&path).unwrap();
        // The X-free 3×4 board (value 1, say) counted twice.
        let line = text.lines().find(|l| l.starts_with("wall,standard,3,4,0,")).unwrap().to_string();
        let (head, count) = line.rsplit_once(',').unwrap();
        std::fs::write(&path, text.replace(&line, &format!("{head},{}", count.parse::<u64>().unwrap() + 1))).unwrap();
        let found = compare_committed(dir.path()).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
