//! Pimber: a move removes a Fibonacci number (1, 2, 3, 5, 8, …) of stones from one pile.

use crate::impartial::{mex_bits, BruteForce};
use super::claimed::{Checked, Claimed};
use super::piles::{self, read_piles, winner_word, Piles};
pub use super::rules::pimber::{fibonacci_up_to, Pimber};
use crate::error::Result;
use std::sync::{Arc, Mutex, PoisonError};

/// Contest limits.
pub const MAX_PILES: u32 = 100_000;
pub const MAX_PILE: u32 = 3_000_000;

/// Largest period searched for in the claimed table.
pub const PERIOD_SEARCH: usize = 100_000;

/// The claim: g(n) = mex{ g(n − F) : F Fibonacci, F ≤ n }, as a table for 0..=max.
pub fn grundy_table(max: u32) -> Vec<u8> {
    let fib = fibonacci_up_to(max);
    let mut g = vec![0u8; max as usize + 1];
    for n in 1..=max as usize {
        let seen = fib.iter().take_while(|&&f| f as usize <= n).fold(0u64, |s, &f| s | 1 << g[n - f as usize]);
        g[n] = mex_bits(seen) as u8;
    }
    g
}

/// The period `g` is seen to have ([`crate::impartial::observed_period`]), period ≤
/// `max_period`, if its periodic part covers half the table at least; `None` otherwise.
pub fn find_period(g: &[u8], max_period: usize) -> Option<(usize, usize)> {
    let seen = crate::impartial::observed_period(g, max_period).filter(|p| p.preperiod <= g.len() / 2);
    seen.map(|p| (p.preperiod, p.period))
}

/// g(0..=n) for some n ≥ `max` (at most [`MAX_PILE`]): one table for the whole process, built
/// again at least twice as long when a longer one is asked for (a table is a prefix of any
/// longer one), so that checking every heap up to N builds tables of O(N) entries in all.
pub fn table_up_to(max: u32) -> Arc<Vec<u8>> {
    static SHARED: Mutex<Option<Arc<Vec<u8>>>> = Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    let built = shared.as_ref().map_or(0, |table| table.len() as u32);
    if built <= max {
        let longer = built.saturating_mul(2).min(MAX_PILE).max(max);
        *shared = Some(Arc::new(grundy_table(longer)));
    }
    shared.as_ref().expect("a table was built").clone()
}

/// One pile's claimed value, for the adversarial generator of `stress`.
pub fn heap_value(n: u64) -> u64 {
    u64::from(table_up_to(MAX_PILE)[n.min(u64::from(MAX_PILE)) as usize])
}

/// The largest pile of claimed value `value`, if any pile up to [`MAX_PILE`] has it.
pub fn heap_with_value(value: u64) -> Option<u64> {
    let table = table_up_to(MAX_PILE);
    (1..table.len()).rev().find(|&n| u64::from(table[n]) == value).map(|n| n as u64)
}

/// Why k stones cannot be taken from a pile of p (`--answer move`), if they cannot.
pub fn why_not(p: u64, k: u64) -> Option<String> {
    if k > p {
        return Some(format!("the pile has only {p} stones, not {k}"));
    }
    let fibonacci = fibonacci_up_to(k.min(u64::from(u32::MAX)) as u32);
    (fibonacci.last().map(|&f| u64::from(f)) != Some(k)).then(|| format!("{k} is not a Fibonacci number (1, 2, 3, 5, 8, …)"))
}

/// The piles p can become (by a Fibonacci number) whose claimed value is `want`.
pub fn targets(p: u64, want: u64) -> Vec<u64> {
    let fibonacci = fibonacci_up_to(p.min(u64::from(MAX_PILE)) as u32);
    fibonacci.into_iter().map(|f| p - u64::from(f)).filter(|&q| heap_value(q) == want).collect()
}

/// `solve pimber`: koosaga / cubelover.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let piles = read_piles(source_name, text, MAX_PILES, MAX_PILE)?;
    let g = table_up_to(piles.iter().copied().max().unwrap_or(0));
    Ok(winner_word(piles::xor_of(&piles, |p| u32::from(g[p as usize])) != 0).to_string())
}

impl Claimed for Pimber {
    piles::pile_claim_common!("pimber", "standard", has_heaps: true, heap_moves: |n| fibonacci_up_to(n).len() as f64);
    type Shared = Arc<Vec<u8>>;
    fn prepare(&self, _: u32, cols: u32) -> Arc<Vec<u8>> {
        table_up_to(cols)
    }
    fn check(&self, g: &Arc<Vec<u8>>, brute: &mut BruteForce<Self>, piles: &Piles) -> Checked {
        piles::check_grundy(brute, piles, piles::xor_of(piles, |p| u32::from(g[p as usize])))
    }
    fn notes(&self) -> Vec<String> {
        let g = grundy_table(MAX_PILE);
        let max = g.iter().max().copied().unwrap_or(0);
        vec![match find_period(&g, PERIOD_SEARCH) {
            Some((pre, p)) => format!("pimber: g(n) up to {MAX_PILE} has preperiod {pre} and period {p}; max value {max}"),
            None => format!(
                "pimber: g(n) up to {MAX_PILE} has no period ≤ {PERIOD_SEARCH} (periodic part ≥ half the table); max value {max}"
            ),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_values_and_fibonacci() {
        assert_eq!(fibonacci_up_to(20), vec![1, 2, 3, 5, 8, 13]);
        let g = grundy_table(12);
        assert_eq!(g, [0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2]);
        assert_eq!(solve("t", "2\n4 10\n").unwrap(), "cubelover");
        assert!(solve("t", "1\n3000000\n").is_ok());
        let small = grundy_table(1005);
        let shared = table_up_to(1005);
        assert!(shared.len() > 1005 && shared[..small.len()] == small[..], "the shared table's prefix is the table");
        assert_eq!(table_up_to(MAX_PILE).len(), MAX_PILE as usize + 1);
    }

    #[test]
    fn period_search() {
        let periodic: Vec<u8> = (0..100).map(|i| if i < 5 { 9 } else { (i % 3) as u8 }).collect();
        assert_eq!(find_period(&periodic, 10), Some((5, 3)));
        assert_eq!(find_period(&[0, 1, 2, 3, 4, 5], 2), None);
        let ends_equal: Vec<u8> = (0..22).map(|i| [0, 0, 1, 1, 2][i % 5]).collect();
        assert_eq!(find_period(&ends_equal, 10), Some((0, 5)), "not period 1 after 20");
    }
}
