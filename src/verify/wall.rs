//! Verification of the wall game's decomposition claim on every X-pattern of a board shape.

use super::shard::Shard;
use super::tally::RunResults;
use crate::error::{Error, Result};
use super::engine::SizeEngine;
use crate::games::wall::{naive, Rule, Shape};
use rayon::prelude::*;

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
