//! The one parallel loop: a range of a job's positions in chunks on the rayon pool, tallied and merged.

use super::progress::Progress;
use super::tally::RunResults;
use super::verification::Evaluate;
use crate::error::Result;
use rayon::prelude::*;
use std::ops::Range;

/// Evaluates `range` in chunks of `chunk` positions in parallel, each into results of `empty`'s
/// game and rule with no sizes yet (cheap to make, whatever the run's size count), reports
/// every finished chunk to `progress`, and merges the parts into a copy of `empty`; the first
/// chunk that fails fails the range.
pub fn evaluate_range(
    evaluator: &dyn Evaluate,
    empty: &RunResults,
    range: Range<u64>,
    chunk: u64,
    progress: &dyn Progress,
) -> Result<RunResults> {
    let chunk = chunk.max(1);
    let chunks = (range.end.saturating_sub(range.start)).div_ceil(chunk);
    let blank = RunResults { sizes: Default::default(), mismatches: Vec::new(), extra_rows: Vec::new(), ..empty.clone() };
    let merged = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let start = range.start + c * chunk;
            let end = (start + chunk).min(range.end);
            let mut part = blank.clone();
            evaluator.evaluate(start..end, &mut part)?;
            progress.advance(end - start);
            Ok(part)
        })
        .try_reduce(
            || blank.clone(),
            |mut a, b| {
                a.merge(&b);
                Ok(a)
            },
        )?;
    let mut results = empty.clone();
    results.merge(&merged);
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::progress::Silent;

    #[test]
    fn chunks_cover_the_range_once() {
        let mut empty = RunResults::new("g", "r");
        empty.size_mut(9, 9);
        let count = |range: Range<u64>, part: &mut RunResults| {
            for i in range {
                part.count((1, 1), (i % 2) as u32, 0, 1);
            }
        };
        let r = evaluate_range(&count, &empty, 3..1000, 64, &Silent).unwrap();
        assert_eq!(r.sizes[&(1, 1)].patterns, 997);
        assert_eq!(r.sizes[&(9, 9)].patterns, 0);
        assert!(!evaluate_range(&count, &empty, 5..5, 64, &Silent).unwrap().sizes.contains_key(&(1, 1)));
    }
}
