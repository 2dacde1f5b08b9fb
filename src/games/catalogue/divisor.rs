//! Divisor game: replace N by a divisor other than 1 and N. Claim: g(N) = Ω(N) − 1 for N ≥ 2
//! (Ω = prime factors with multiplicity, OEIS A001222), g(1) = 0; first wins iff N is composite.

use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
pub use super::rules::divisor::{brute_table, Divisor};
use crate::error::Result;
use crate::input::Scanner;

/// Core-seconds per number checked, the sieve included. Measured (user + system time,
/// /usr/bin/time, one thread) on `verify divisor --max M --threads 1`, M = 10^5, 10^6, 10^7:
/// 0.22, 2.34 and 26.97 s, 2.2–2.7 µs a number, growing slowly (the sieve leaves the caches);
/// the largest is taken.
pub const SECONDS_PER_NUMBER: f64 = 2.7e-6;

/// Contest limit on N.
pub const MAX_N: u64 = 1_000_000_000_000_000_000;
/// Largest decade `--max 10^k` the verification accepts.
pub const MAX_DECADE: u32 = 8;
/// Why no decade beyond [`MAX_DECADE`] is verified (the `--max` refusal says it).
pub const DECADE_LIMIT: &str = "the sieve over the divisor DAG holds 5 bytes per number (500 MB at 10^8)";

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(m)) as u64
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    acc
}

/// Deterministic Miller–Rabin for all u64 (bases 2..37 suffice below 3.3·10^24).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(&p) = BASES.iter().find(|&&p| n.is_multiple_of(p)) {
        return n == p;
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    BASES.iter().all(|&a| {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            return true;
        }
        (1..s).any(|_| {
            x = mul_mod(x, x, n);
            x == n - 1
        })
    })
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A non-trivial factor of an odd composite `n` (Pollard's rho, Floyd cycles, batched gcds).
fn rho_factor(n: u64) -> u64 {
    for c in 1.. {
        let f = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut x, mut y, mut d) = (2u64, 2u64, 1u64);
        while d == 1 {
            let mut product = 1u64;
            let (x0, y0) = (x, y);
            for _ in 0..64 {
                x = f(x);
                y = f(f(y));
                product = mul_mod(product, x.abs_diff(y), n);
            }
            d = gcd(product, n);
            if d == n {
                // The batch overshot: redo it one step at a time.
                (x, y, d) = (x0, y0, 1);
                while d == 1 {
                    x = f(x);
                    y = f(f(y));
                    d = gcd(x.abs_diff(y), n);
                }
            }
        }
        if d != n {
            return d;
        }
    }
    unreachable!("some constant c splits every odd composite")
}

/// Ω(n): the number of prime factors of n counted with multiplicity (Ω(1) = 0).
pub fn big_omega(n: u64) -> u32 {
    prime_factors(n).len() as u32
}

/// The prime factors of n with multiplicity, ascending (none for n ≤ 1).
pub fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut factors = Vec::new();
    for p in 2..1000u64 {
        while n.is_multiple_of(p) {
            n /= p;
            factors.push(p);
        }
    }
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if m <= 1 {
            continue;
        }
        if is_prime(m) {
            factors.push(m);
        } else {
            let d = rho_factor(m);
            stack.extend([d, m / d]);
        }
    }
    factors.sort_unstable();
    factors
}

/// The claimed Grundy value: Ω(n) − 1 for n ≥ 2, 0 for n = 1.
pub fn claimed_grundy(n: u64) -> u32 {
    big_omega(n).saturating_sub(1)
}

/// `solve divisor`: koosaga / cubelover.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let mut s = Scanner::new(source_name, text);
    let n = s.number::<u64>("N", 1, MAX_N)?;
    s.expect_end()?;
    Ok(super::piles::winner_word(claimed_grundy(n) != 0).to_string())
}

/// The numbers of size (1, k): {1} for k = 0, else 10^(k−1) < n ≤ 10^k.
pub fn decade(k: u32) -> std::ops::RangeInclusive<u64> {
    if k == 0 {
        1..=1
    } else {
        10u64.pow(k - 1) + 1..=10u64.pow(k)
    }
}

impl Claimed for Divisor {
    type Shared = Vec<u8>;
    fn game(&self) -> &'static str {
        "divisor"
    }
    fn rule(&self) -> &'static str {
        "standard"
    }
    fn positions(&self, _: u32, cols: u32) -> Vec<u64> {
        decade(cols).collect()
    }
    /// Counted, not listed (10^8 numbers would be 800 MB).
    fn position_count(&self, _: u32, cols: u32) -> u64 {
        let numbers = decade(cols);
        numbers.end() - numbers.start() + 1
    }
    /// Each number's Ω (trial division to 1000, then Pollard's rho) and look-up, and its share
    /// of the sieve: [`SECONDS_PER_NUMBER`].
    fn position_seconds(&self, _: u32, _: u32) -> Option<f64> {
        Some(SECONDS_PER_NUMBER)
    }
    /// The sieve's table to the decade's end: 4 + 1 bytes a number while it runs, 1 kept.
    fn shared_bytes(&self, _: u32, cols: u32) -> f64 {
        5.0 * *decade(cols).end() as f64
    }
    fn prepare(&self, _: u32, cols: u32) -> Vec<u8> {
        brute_table(*decade(cols).end() as u32)
    }
    /// xs = Ω(n); the naive value comes from the divisor-DAG table, not from `brute`.
    fn check(&self, table: &Vec<u8>, _: &mut BruteForce<Self>, &n: &u64) -> Checked {
        let omega = big_omega(n);
        let claimed = omega.saturating_sub(1);
        let grundy = u32::from(table[n as usize]);
        let cols = (0..=MAX_DECADE).find(|&k| decade(k).contains(&n)).unwrap_or(MAX_DECADE + 1);
        Checked { rows: 1, cols, xs: omega, claimed, naive_value: Some(grundy), naive_first_wins: grundy != 0, agrees: claimed == grundy }
    }
    fn show(&self, n: &u64) -> String {
        n.to_string()
    }
    fn heap(&self, n: u32) -> Option<u64> {
        (n >= 1).then_some(u64::from(n))
    }
    fn size_allowed(&self, rows: u32, cols: u32) -> bool {
        rows == 1 && cols <= MAX_DECADE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primality_and_omega() {
        assert!(is_prime(2) && is_prime(1_000_000_007) && is_prime(999_999_999_999_999_989));
        assert!(!is_prime(1) && !is_prime(561) && !is_prime(3_215_031_751));
        assert_eq!(big_omega(1), 0);
        assert_eq!(big_omega(720), 7); // 2^4 · 3^2 · 5
        assert_eq!(big_omega(1_000_000_000_000_000_000), 36);
        // (10^9 + 7)(10^9 + 9): two large primes.
        assert_eq!(big_omega(1_000_000_007 * 1_000_000_009), 2);
        assert_eq!(big_omega(999_999_999_999_999_989), 1);
    }

    #[test]
    fn answers_and_input() {
        assert_eq!(solve("t", "1\n").unwrap(), "cubelover");
        assert_eq!(solve("t", "7\n").unwrap(), "cubelover");
        assert_eq!(solve("t", "4\n").unwrap(), "koosaga");
        assert_eq!(solve("t", "1000000000000000000\n").unwrap(), "koosaga");
        let err = solve("t", "0\n").unwrap_err().to_string();
        assert_eq!(err, "t:1:1: N must be between 1 and 1000000000000000000, found 0");
    }
}
