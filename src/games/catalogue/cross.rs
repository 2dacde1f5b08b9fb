//! Cross on a 1×N strip (Treblecross): write x's; three in a row wins, no move loses. Checks the
//! published "each x kills its neighbourhood" recurrence against play on the real strip.

use crate::games::octal::code::Code;
use crate::games::octal::values::{values, Method};
use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
pub use super::rules::cross::{has_three, Cross, Strip, MAX_BRUTE_CELLS};
use crate::error::Result;
use crate::input::Scanner;

/// Contest limit on N.
pub const MAX_N: u32 = 2000;
/// Which claim a verification checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossClaim {
    /// The published recurrence: first wins iff dp[N] ≠ 0.
    Published,
    /// What `solve` answers: the recurrence corrected where real play differs.
    Solver,
}

/// The published recurrence: dp[1] = dp[2] = dp[3] = 1, dp[i] = mex over 1 ≤ j ≤ (i+1)/2 of
/// dp[i−j−2] ^ (j > 3 ? dp[j−3] : 0), dp[0] = 0; table for 0..=max.
///
/// It is the octal game 0.007 two tokens later: dp[i] = g(i + 2). Give a strip of i cells two
/// tokens more: an x at cell j (1-based) with its two neighbours on each side dead takes three
/// tokens from the heap i + 2 and leaves heaps j − 1 and i − j (g = 0 for heaps 0, 1, 2, as the
/// recurrence's empty parts), which is 0.007's move (take three, leave zero, one or two heaps);
/// dp[1..=3] = g(3..=5) = 1, dp[0] = g(2) = 0 (docs/octal-family.md). The values come from the
/// octal engine ([`crate::games::octal`]).
pub fn published_table(max: u32) -> Vec<u32> {
    let code = Code::parse("0.007").expect("0.007 is a code");
    let g = values(&code, max as usize + 2, Method::Sparse).expect("the values of 0.007 to 2002 fit in 16 bits");
    g[2..].iter().map(|&v| u32::from(v)).collect()
}

/// Real-play outcome for every N in 0..=max: the recurrence, except N = 2, where the second x
/// fills the strip without making three and the first player is left without a move.
///
/// Why only there: with all x's at least 3 apart, writing within distance 2 of an x lets the
/// opponent complete three at once, unless that x pair fills a strip of exactly two cells.
pub fn real_first_player_wins(max: u32) -> Vec<bool> {
    published_table(max).iter().enumerate().map(|(n, &g)| n != 2 && g != 0).collect()
}

fn claim_table(claim: CrossClaim, max: u32) -> Vec<u32> {
    match claim {
        CrossClaim::Published => published_table(max),
        CrossClaim::Solver => real_first_player_wins(max).into_iter().map(u32::from).collect(),
    }
}

/// Bytes the brute force keeps per strip position it memoizes: two hash maps (Grundy value and
/// outcome) of (u32, u64) keys, 24-byte slots at hashbrown's load of 44–88 %, the old table
/// alive while one doubles. Measured with /usr/bin/time -v on `verify cross --max N --threads 1`
/// (its last chunk holds the strips of N − 1 and N cells): N = 16, 18, 20, 22 kept 101, 155,
/// 172 and 103 bytes a position beyond the base; 140 is the middle of that range.
pub const BRUTE_BYTES_PER_POSITION: f64 = 140.0;

/// Core-seconds the brute force spends per strip position it memoizes. Measured (user +
/// system time, /usr/bin/time) on `verify cross --max M --threads 1`, M = 18, 20, 22, 24: 0.30,
/// 1.45, 6.89 and 26.5 s, that is 0.79, 1.06, 1.41 and 1.51 µs times Σ [`brute_positions`]
/// over n ≤ M: the rate grows as the memo leaves the caches, levelling off; the largest is taken.
pub const BRUTE_SECONDS_PER_POSITION: f64 = 1.5e-6;

/// Positions the brute force memoizes solving the empty strip of `n` cells: every x pattern
/// with no three in a row, and those that the last x made three. Counted exactly for n ≤ 28
/// (105,835,398 at 28, 2,283,083 at 22, 47,333 at 16), growing by 1.89–1.90 a cell; this fit
/// is within 2 % from 14 cells up (over by 15 % at 10).
pub fn brute_positions(n: u32) -> f64 {
    1.06e8 * 1.8925f64.powf(f64::from(n) - 28.0)
}

/// Reads N (1 ≤ N ≤ 2000).
pub fn read_input(source_name: &str, text: &str) -> Result<u32> {
    let mut s = Scanner::new(source_name, text);
    let n = s.number::<u32>("N (strip length)", 1, MAX_N)?;
    s.expect_end()?;
    Ok(n)
}

/// `solve cross`: `1` if the first player wins by real play, else `2`.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let n = read_input(source_name, text)?;
    Ok(if real_first_player_wins(n)[n as usize] { "1" } else { "2" }.to_string())
}

impl Claimed for Cross<CrossClaim> {
    type Shared = Vec<u32>;
    fn game(&self) -> &'static str {
        "cross"
    }
    fn rule(&self) -> &'static str {
        match self.0 {
            CrossClaim::Published => "published",
            CrossClaim::Solver => "solver",
        }
    }
    /// Size (1, n): the empty strip of n cells.
    fn positions(&self, _: u32, cols: u32) -> Vec<Strip> {
        vec![(cols, 0)]
    }
    fn prepare(&self, _: u32, cols: u32) -> Vec<u32> {
        claim_table(self.0, cols)
    }
    /// An outcome claim: agrees when (claimed ≠ 0) is the real outcome; the naive value recorded
    /// is the mex value of the real strip (three in a row = a lost position with no moves).
    fn check(&self, table: &Vec<u32>, brute: &mut BruteForce<Self>, strip: &Strip) -> Checked {
        let n = strip.0;
        let claimed = table[n as usize];
        let wins = brute.first_player_wins(strip);
        Checked {
            rows: 1,
            cols: n,
            xs: n,
            claimed,
            naive_value: Some(brute.grundy(strip)),
            naive_first_wins: wins,
            agrees: (claimed != 0) == wins,
        }
    }
    fn show(&self, &(n, x): &Strip) -> String {
        (0..n).map(|c| if x >> c & 1 == 1 { 'x' } else { '.' }).collect()
    }
    fn heap(&self, n: u32) -> Option<Strip> {
        Some((n, 0))
    }
    fn size_allowed(&self, rows: u32, cols: u32) -> bool {
        rows == 1 && cols <= 28
    }
    /// Strips of different lengths share no position: their memos add up.
    fn memo_bytes(&self, sizes: &[(u32, u32)]) -> Option<f64> {
        Some(sizes.iter().map(|&(_, n)| brute_positions(n) * BRUTE_BYTES_PER_POSITION).sum())
    }
    fn memo_seconds(&self, sizes: &[(u32, u32)]) -> Option<f64> {
        Some(sizes.iter().map(|&(_, n)| brute_positions(n) * BRUTE_SECONDS_PER_POSITION).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_recurrence_first_values() {
        assert_eq!(published_table(8), [0, 1, 1, 1, 2, 2, 0, 3, 3]);
        // The recurrence as published (before the table came from 0.007), to the contest's N.
        let mut dp = vec![0u32; MAX_N as usize + 1];
        for i in 1..dp.len() {
            dp[i] = if i <= 3 { 1 } else { crate::impartial::mex((1..=i.div_ceil(2)).map(|j| dp[i - j - 2] ^ if j > 3 { dp[j - 3] } else { 0 })) };
        }
        assert_eq!(published_table(MAX_N), dp);
    }

    #[test]
    fn real_play_small_strips() {
        let mut brute = BruteForce::new(&Cross(CrossClaim::Published));
        let wins: Vec<bool> = (1..=12).map(|n| brute.first_player_wins(&(n, 0))).collect();
        let solver = real_first_player_wins(12);
        assert_eq!(wins, solver[1..]);
        // N = 2: x then x fills the strip without three; the first player cannot move.
        assert!(!wins[1]);
        assert_eq!(published_table(2)[2], 1, "the published recurrence says the first player wins N = 2");
    }

    #[test]
    fn input() {
        assert_eq!(solve("t", "2\n").unwrap(), "2");
        assert_eq!(solve("t", "1\n").unwrap(), "1");
        let err = solve("t", "2001\n").unwrap_err().to_string();
        assert_eq!(err, "t:1:1: N (strip length) must be between 1 and 2000, found 2001");
    }
}
