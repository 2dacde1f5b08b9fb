//! The divisor game's move rule (replace N by a divisor other than 1 and N) and its brute force over the divisor DAG.

use crate::impartial::{mex_bits, Impartial};

/// The divisor game; a position is the number on the paper.
pub struct Divisor;

impl Impartial for Divisor {
    type Position = u64;
    /// The divisors d of n with 1 < d < n, by trial division.
    fn moves(&self, &n: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut d = 2;
        while d * d <= n {
            if n % d == 0 {
                out.push(d);
                if d * d != n {
                    out.push(n / d);
                }
            }
            d += 1;
        }
        out.retain(|&d| d != n);
        out
    }
}

/// Brute-force Grundy values over the divisor DAG for 0..=max (index 0 unused): a number's value
/// is the mex of its proper divisors' values, pushed to every multiple as it is found.
pub fn brute_table(max: u32) -> Vec<u8> {
    let mut seen = vec![0u32; max as usize + 1];
    let mut g = vec![0u8; max as usize + 1];
    for d in 2..=max as usize {
        g[d] = mex_bits(u64::from(seen[d])) as u8;
        for m in (2 * d..=max as usize).step_by(d) {
            seen[m] |= 1 << g[d];
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::BruteForce;

    #[test]
    fn sieve_equals_generic_brute_force() {
        let table = brute_table(3000);
        let mut brute = BruteForce::new(&Divisor);
        for n in 1..=3000u64 {
            assert_eq!(u32::from(table[n as usize]), brute.grundy(&n), "n = {n}");
        }
    }
}
