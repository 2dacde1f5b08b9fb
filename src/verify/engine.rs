//! Size engines: how all X-patterns of one board shape are evaluated (claim and naive side).

use super::tally::RunResults;
use crate::games::wall::{claim, naive, Board, Rule, Shape};
use crate::output::records::{outcome_name, MismatchRow};
use std::ops::Range;

/// Evaluates X-patterns of one shape (pattern = X mask, row-major bit r·cols+c) under one rule.
/// Built once per size (possibly with large tables), then asked for ranges of patterns from
/// many threads; the results of disjoint ranges merge into the results of their union.
pub trait SizeEngine: Sync {
    /// Tallies and mismatches of the patterns in `patterns`.
    fn evaluate(&self, patterns: Range<u64>) -> RunResults;
}

/// The per-board reference path: the claimed engine and the naive oracle on each board.
pub struct ReferenceEngine {
    pub shape: Shape,
    pub rule: Rule,
}

impl SizeEngine for ReferenceEngine {
    fn evaluate(&self, patterns: Range<u64>) -> RunResults {
        let (shape, rule) = (self.shape, self.rule);
        let mut results = RunResults::new("wall", rule.name());
        let (rows, cols) = (shape.rows as u32, shape.cols as u32);
        results.size_mut(rows, cols);
        for x in patterns {
            let board = Board::from_mask(shape, x);
            let claimed = claim::claimed_grundy(&board, rule);
            let truth = naive::solve(&board, rule).expect("shape fits the naive oracle");
            let mismatch = !super::wall::claim_holds(rule, claimed, truth);
            record(&mut results, shape, x, claimed, mismatch.then_some(truth));
        }
        results
    }
}

/// Counts one pattern; a mismatch also gets its row in mismatches.csv.
pub fn record(results: &mut RunResults, shape: Shape, x: u64, claimed: u32, mismatch: Option<naive::NaiveVerdict>) {
    let (rows, cols) = (shape.rows as u32, shape.cols as u32);
    let tally = results.size_mut(rows, cols);
    tally.record(x.count_ones(), claimed, 1);
    if let Some(truth) = mismatch {
        tally.mismatches += 1;
        results.mismatches.push(MismatchRow {
            game: "wall".into(),
            rule: results.rule.clone(),
            rows,
            cols,
            board: Board::from_mask(shape, x).to_slashed(),
            dp_grundy: claimed,
            naive_grundy: Some(truth.grundy),
            naive_outcome: outcome_name(truth.first_player_wins).into(),
        });
    }
}

/// The engine for one size: shared tables where the rule allows it, else the reference path.
pub fn prepare(shape: Shape, rule: Rule) -> Box<dyn SizeEngine> {
    Box::new(ReferenceEngine { shape, rule })
}

/// Estimated peak memory in bytes of evaluating `shape` under `rule` with [`prepare`]'s engine.
pub fn estimate_peak_bytes(_shape: Shape, _rule: Rule) -> u64 {
    64 << 20
}
