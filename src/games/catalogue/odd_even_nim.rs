//! Odd-even Nim: take an even number leaving ≥ 1, or a whole odd pile; closed-form Grundy values.

use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
use super::nim::{MAX_PILE, MAX_PILES};
use super::piles::{self, read_piles, winner_word, Piles};
pub use super::rules::odd_even_nim::{heap_moves, OddEvenNim};
use crate::error::Result;

/// The claimed closed form: g(0)=g(2)=0; g(n)=(n+1)/2 for odd n; g(n)=(n−2)/2 for even n > 2.
pub fn claimed_grundy(n: u32) -> u32 {
    match n {
        0 | 2 => 0,
        n if n % 2 == 1 => n.div_ceil(2),
        n => (n - 2) / 2,
    }
}

/// One pile's claimed value, for the adversarial generator of `stress`.
pub fn heap_value(n: u64) -> u64 {
    u64::from(claimed_grundy(n.min(u64::from(MAX_PILE)) as u32))
}

/// A pile of claimed value `value` (an odd pile: g(2v − 1) = v), if it fits the contest.
pub fn heap_with_value(value: u64) -> Option<u64> {
    let n = value.checked_mul(2)?.checked_sub(1)?;
    (n <= u64::from(MAX_PILE)).then_some(n)
}

/// Why k stones cannot be taken from a pile of p (`--answer move`), if they cannot.
pub fn why_not(p: u64, k: u64) -> Option<String> {
    match () {
        _ if k > p => Some(format!("the pile has only {p} stones, not {k}")),
        _ if k == p && p % 2 == 1 => None,
        _ if k % 2 == 1 => Some(format!("an odd number ({k}) may be taken only as a whole odd pile")),
        _ if k == p => Some(format!("taking an even number ({k}) must leave at least 1 stone")),
        _ => None,
    }
}

/// The pile sizes of claimed value `want` (0: 0 and 2; else 2·want − 1 and 2·want + 2), the
/// candidates [`why_not`] then filters for a pile of p.
pub fn targets(_p: u64, want: u64) -> Vec<u64> {
    match want {
        0 => vec![0, 2],
        v => vec![2 * v - 1, 2 * v + 2],
    }
}

/// `solve odd-even-nim`: koosaga / cubelover.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let piles = read_piles(source_name, text, MAX_PILES, MAX_PILE)?;
    Ok(winner_word(piles::xor_of(&piles, claimed_grundy) != 0).to_string())
}

impl Claimed for OddEvenNim {
    piles::pile_claim_common!("odd-even-nim", "standard", has_heaps: true, heap_moves: |n| f64::from(n.div_ceil(2)));
    type Shared = ();
    fn prepare(&self, _: u32, _: u32) {}
    fn check(&self, _: &(), brute: &mut BruteForce<Self>, piles: &Piles) -> Checked {
        piles::check_grundy(brute, piles, piles::xor_of(piles, claimed_grundy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_first_values() {
        let values: Vec<u32> = (0..10).map(claimed_grundy).collect();
        assert_eq!(values, [0, 1, 0, 2, 1, 3, 2, 4, 3, 5]);
        assert_eq!(heap_moves(5), vec![0, 1, 3]);
        assert_eq!(heap_moves(4), vec![2]);
        assert_eq!(solve("t", "1\n2\n").unwrap(), "cubelover");
        assert_eq!(solve("t", "2\n1 4\n").unwrap(), "cubelover");
    }
}
