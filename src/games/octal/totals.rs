//! Verifying a heap game on every multiset of heaps by its total, as `verify octal` and `verify
//! grundy` do: one size per total (`rows` = 1, `cols` = the total), keyed by the number of heaps,
//! each position (the heaps, in mismatches.csv) the claim against whole-position search.

use crate::output::records::outcome_name;
use crate::runner::{Disagreement, RunResults};

/// Counts one multiset of heaps (size: rows 1, the total; key: the number of heaps) whose
/// claimed value is `claimed` and whose whole-position value and outcome are `exact`.
pub fn check_heaps(results: &mut RunResults, heaps: &[u16], claimed: u32, (truth, first_wins): (u32, bool)) {
    let failed = (claimed != truth || (claimed != 0) != first_wins).then(|| Disagreement {
        position: heaps.iter().map(u16::to_string).collect::<Vec<_>>().join(" "),
        claimed,
        naive_value: Some(truth),
        naive_outcome: outcome_name(first_wins),
    });
    let total: u32 = heaps.iter().map(|&h| u32::from(h)).sum();
    results.check((1, total), (heaps.len() as u32, claimed), failed);
}
