//! Verification of the wall game's decomposition claim on every X-pattern of a board shape.

use crate::runner::shard::Shard;
use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use super::engine::SizeEngine;
use crate::games::wall::board::MAX_SIDE;
use crate::games::wall::{dp, naive, Board, Rule, Shape};
use crate::output::csv::CsvRecord;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// empty.csv: the Grundy value of every board with no X up to 20×20.
pub const EMPTY: &str = "empty.csv";

/// Evaluates every X-pattern of `shape` in this shard with the claimed engine and the naive
/// oracle, in parallel on the current rayon pool. `progress` is called with counts of patterns
/// done. Returns results for this one shape.
pub fn verify_shape(shape: Shape, rule: Rule, shard: Shard, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    if !shape.fits_mask() {
        return Err(Error::Usage(format!("{shape} has {} cells; verification handles at most 64", shape.cells())));
    }
    let range = shard.slice(1u64 << shape.cells());
    let engine = super::engine::prepare(shape, rule);
    Ok(evaluate_range(shape, rule, &*engine, range, progress))
}

/// Evaluates `range` of `shape`'s patterns with `engine` in parallel chunks on the current pool.
pub fn evaluate_range(
    shape: Shape,
    rule: Rule,
    engine: &dyn SizeEngine,
    range: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> RunResults {
    let chunk = 1u64 << 16;
    let empty = || {
        let mut results = RunResults::new("wall", rule.name());
        results.size_mut(shape.rows as u32, shape.cols as u32);
        results
    };
    (range.start..range.end)
        .step_by(chunk as usize)
        .collect::<Vec<u64>>()
        .into_par_iter()
        .map(|start| {
            let end = (start + chunk).min(range.end);
            let mut part = engine.evaluate(start..end);
            part.size_mut(shape.rows as u32, shape.cols as u32).covered += end - start;
            progress(end - start);
            part
        })
        .reduce(empty, |mut a, b| {
            a.merge(&b);
            a
        })
}

/// Recomputes one size of a committed wall result (for `check`): every pattern, same rule.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let rule: Rule = rule.parse().map_err(Error::Usage)?;
    verify_shape(Shape::new(rows as usize, cols as usize), rule, Shard::ALL, &|_| {})
}

/// One row of empty.csv: the rectangle DP's Grundy value of the rows×cols board with no X.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EmptyRow {
    pub rows: u32,
    pub cols: u32,
    pub grundy: u32,
}

impl CsvRecord for EmptyRow {
    const HEADER: &'static [&'static str] = &["rows", "cols", "grundy"];
}

/// The empty-board table for every size up to `max` (each side at most 20), sorted by rows,
/// then cols; each value from a full run of the rectangle DP on the X-free board.
pub fn empty_table(max: Shape) -> Result<Vec<EmptyRow>> {
    if max.rows == 0 || max.cols == 0 || max.rows > MAX_SIDE || max.cols > MAX_SIDE {
        return Err(Error::Usage(format!("the empty-board table takes sides 1 to {MAX_SIDE}, not {max}")));
    }
    let shapes: Vec<Shape> = (1..=max.rows).flat_map(|r| (1..=max.cols).map(move |c| Shape::new(r, c))).collect();
    Ok(shapes
        .into_par_iter()
        .map(|shape| EmptyRow {
            rows: shape.rows as u32,
            cols: shape.cols as u32,
            grundy: dp::solve(&Board::empty(shape)).grundy,
        })
        .collect())
}

/// Whether the claim under test holds for one board: under misère play the claim is only
/// "first player wins iff the DP value is non-zero"; otherwise the Grundy values must match too
/// (the rectangle DP for standard and x-blocks, the three-piece DP for t-split).
pub fn claim_holds(rule: Rule, claimed_grundy: u32, truth: naive::NaiveVerdict) -> bool {
    let outcome_agrees = (claimed_grundy != 0) == truth.first_player_wins;
    match rule {
        Rule::Misere => outcome_agrees,
        Rule::Standard | Rule::XBlocks | Rule::TSplit => outcome_agrees && claimed_grundy == truth.grundy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_table_is_sorted_and_matches_the_size_recurrence() {
        let table = empty_table(Shape::new(6, 7)).unwrap();
        assert_eq!(table.len(), 42);
        assert!(table.windows(2).all(|w| (w[0].rows, w[0].cols) < (w[1].rows, w[1].cols)));
        for row in &table {
            assert_eq!(row.grundy, u32::from(dp::empty_grundy(row.rows as usize, row.cols as usize)), "{row:?}");
        }
        assert!(empty_table(Shape::new(21, 1)).is_err());
        assert!(empty_table(Shape::new(0, 3)).is_err());
    }

    #[test]
    fn recompute_size_takes_rule_names() {
        let fresh = recompute_size("standard", 2, 3).unwrap();
        assert_eq!(fresh.sizes[&(2, 3)].patterns, 64);
        assert!(recompute_size("chess", 2, 3).is_err());
    }
}
