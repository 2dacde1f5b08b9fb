//! Plumbing shared by the minimax verifiers (footholds, cards, kings): chunked parallel runs, rule names, seeded streams.

use super::tally::RunResults;
use crate::error::{Error, Result};
use crate::output::records::MismatchRow;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ops::Range;

/// Runs `work` over `0..total` in parallel chunks of `chunk` items, each into its own
/// [`RunResults`] of `game`/`rule`, reports finished chunks to `progress`, and merges.
/// `sizes` are created up front so a size with nothing to count still gets its summary row.
pub fn par_run(
    game: &str,
    rule: &str,
    sizes: &[(u32, u32)],
    total: u64,
    chunk: u64,
    progress: &(dyn Fn(u64) + Sync),
    work: impl Fn(Range<u64>, &mut RunResults) + Sync,
) -> RunResults {
    let parts: Vec<RunResults> = (0..total.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut part = RunResults::new(game, rule);
            let range = c * chunk..((c + 1) * chunk).min(total);
            work(range.clone(), &mut part);
            progress(range.end - range.start);
            part
        })
        .collect();
    let mut results = RunResults::new(game, rule);
    for &(rows, cols) in sizes {
        results.size_mut(rows, cols);
    }
    for part in &parts {
        results.merge(part);
    }
    results
}

/// Counts one position of size (rows, cols) under distribution key (xs, grundy); `mismatch`
/// (board, claimed, naive value, naive outcome) when the claim is wrong on it.
pub fn record(
    results: &mut RunResults,
    (rows, cols): (u32, u32),
    (xs, grundy): (u32, u32),
    mismatch: Option<(String, u32, Option<u32>, &str)>,
) {
    let tally = results.size_mut(rows, cols);
    tally.record(xs, grundy, 1);
    if let Some((board, claimed, naive_grundy, outcome)) = mismatch {
        tally.mismatches += 1;
        results.mismatches.push(MismatchRow {
            game: results.game.clone(),
            rule: results.rule.clone(),
            rows,
            cols,
            board,
            dp_grundy: claimed,
            naive_grundy,
            naive_outcome: outcome.into(),
        });
    }
}

/// A rule name: `base`, or `base:claim=NAME` when a non-default claim is under test.
pub fn rule_name(base: &str, claim: &str, default_claim: &str) -> String {
    if claim == default_claim {
        base.to_string()
    } else {
        format!("{base}:claim={claim}")
    }
}

/// Splits a rule written as `kind:key=value:key=value…` into its kind and fields.
pub fn rule_fields(rule: &str) -> Result<(&str, BTreeMap<&str, &str>)> {
    let mut parts = rule.split(':');
    let kind = parts.next().unwrap_or_default();
    let fields = parts
        .map(|p| p.split_once('=').ok_or_else(|| Error::Usage(format!("rule {rule:?}: field {p:?} is not key=value"))))
        .collect::<Result<BTreeMap<_, _>>>()?;
    Ok((kind, fields))
}

/// A numeric field of a rule read by [`rule_fields`].
pub fn rule_number(rule: &str, fields: &BTreeMap<&str, &str>, key: &str) -> Result<u64> {
    fields
        .get(key)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Error::Usage(format!("rule {rule:?} needs a numeric field {key}=")))
}

/// Stream `index` of `seed`: every random instance can be rebuilt on its own.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// A uniform draw from 0..n (multiply-shift; portable, no dependence on `rand` versions).
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    ((rng.next_u64() as u128 * n as u128) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip() {
        assert_eq!(rule_name("exhaustive", "dp", "dp"), "exhaustive");
        let rule = rule_name("random:seed=3:count=9", "greedy", "dp");
        let (kind, fields) = rule_fields(&rule).unwrap();
        assert_eq!((kind, fields["claim"]), ("random", "greedy"));
        assert_eq!(rule_number(&rule, &fields, "count").unwrap(), 9);
        assert!(rule_number(&rule, &fields, "max").is_err());
    }

    #[test]
    fn chunks_cover_the_range_once() {
        let r = par_run("g", "r", &[(9, 9)], 1000, 64, &|_| {}, |range, part| {
            for i in range {
                record(part, (1, 1), ((i % 2) as u32, 0), None);
            }
        });
        assert_eq!(r.sizes[&(1, 1)].patterns, 1000);
        assert_eq!(r.sizes[&(9, 9)].patterns, 0);
    }
}
