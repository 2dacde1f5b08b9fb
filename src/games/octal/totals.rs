//! Verifying a heap game on every multiset of heaps by its total, as `verify octal` and `verify
//! grundy` do: one size per total (`rows` = 1, `cols` = the total), keyed by the number of heaps,
//! each position (the heaps, in mismatches.csv) the claim against whole-position search.

use super::brute::{self, WholePositions};
use super::code::Code;
use crate::impartial::BruteForce;
use crate::output::records::outcome_name;
use crate::runner::{Disagreement, Evaluate, Job, RunResults};
use std::ops::Range;

/// How many multisets of positive heaps sum to `total` (the partition number p(total), the
/// length of [`partitions`]), without listing them.
pub fn partition_count(total: u16) -> u64 {
    let mut count = vec![0u64; usize::from(total) + 1];
    count[0] = 1;
    for part in 1..=usize::from(total) {
        for sum in part..count.len() {
            count[sum] += count[sum - part];
        }
    }
    count[usize::from(total)]
}

/// Every multiset of heaps (ascending) with exactly `total` stones.
pub fn partitions(total: u16) -> Vec<Vec<u16>> {
    fn extend(left: u16, min: u16, current: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        for part in min..=left {
            current.push(part);
            extend(left - part, part, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(total, 1, &mut Vec::new(), &mut out);
    out
}

/// The job of the positions of `total` stones: one size, one position per pattern.
pub fn job(total: u16) -> Job {
    let count = partitions(total).len() as u64;
    Job::new(format!("total={total}"), vec![(1, u32::from(total))], count, count.div_ceil(2)).one_pattern_each()
}

/// The evaluation of the positions of `total` stones: each one's `claimed` value against the
/// whole-position search of `code`.
pub fn evaluate<'a>(code: Code, total: u16, claimed: impl Fn(&[u16]) -> u32 + Sync + 'a) -> Box<dyn Evaluate + 'a> {
    let positions = partitions(total);
    Box::new(move |range: Range<u64>, part: &mut RunResults| {
        let game = WholePositions(&code);
        let mut brute = BruteForce::new(&game);
        for heaps in &positions[range.start as usize..range.end as usize] {
            let whole: Vec<usize> = heaps.iter().map(|&h| usize::from(h)).collect();
            check_heaps(part, heaps, claimed(heaps), brute::solve(&mut brute, &whole));
        }
    })
}

/// Counts one multiset of heaps (size: rows 1, the total; key: the number of heaps) whose
/// claimed value is `claimed` and whose whole-position value and outcome are `exact`.
fn check_heaps(results: &mut RunResults, heaps: &[u16], claimed: u32, (truth, first_wins): (u32, bool)) {
    let failed = (claimed != truth || (claimed != 0) != first_wins).then(|| Disagreement {
        position: heaps.iter().map(u16::to_string).collect::<Vec<_>>().join(" "),
        claimed,
        naive_value: Some(truth),
        naive_outcome: outcome_name(first_wins),
        answer: None,
    });
    let total: u32 = heaps.iter().map(|&h| u32::from(h)).sum();
    results.check((1, total), (heaps.len() as u32, claimed), failed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_counts() {
        // p(n), OEIS A000041.
        let counts: Vec<usize> = (1..=10).map(|t| partitions(t).len()).collect();
        assert_eq!(counts, [1, 2, 3, 5, 7, 11, 15, 22, 30, 42]);
        assert!(partitions(6).iter().all(|p| p.windows(2).all(|w| w[0] <= w[1]) && p.iter().sum::<u16>() == 6));
    }
}
