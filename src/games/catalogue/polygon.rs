//! Polygon chords: players draw segments between vertices of a convex n-gon that touch no earlier
//! segment; claim g(n) = mex_j g(j) ^ g(n−2−j) (octal game 0.07, Dawson's Kayles; OEIS A002187).

use crate::games::octal::code::Code;
use crate::games::octal::values::{values, Method};
use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
pub use super::rules::polygon::{crosses, pair_bit, segments, Drawing, Polygon, MAX_BRUTE_VERTICES};
use crate::error::Result;
use crate::input::Scanner;

/// Contest limits.
pub const MIN_N: u32 = 3;
pub const MAX_N: u32 = 1000;
/// Largest absolute coordinate accepted for the optional vertex list.
pub const MAX_COORD: i64 = 1_000_000_000;

/// The claim: g(0) = g(1) = 0, g(n) = mex over 0 ≤ j ≤ n−2 of g(j) ^ g(n−2−j); table for
/// 0..=max. A chord uses two free vertices and leaves those on its two sides, which no later
/// chord may join: the octal game 0.07 (take two, leaving no heap, one or two), whose values
/// come from the octal engine ([`crate::games::octal`]).
pub fn claimed_table(max: u32) -> Vec<u32> {
    let code = Code::parse("0.07").expect("0.07 is a code");
    values(&code, max as usize, Method::Sparse).expect("the values of 0.07 are at most 8").into_iter().map(u32::from).collect()
}

/// Reads N (3 ≤ N ≤ 1000), optionally followed by the N vertices as integer pairs.
pub fn read_input(source_name: &str, text: &str) -> Result<u32> {
    let mut s = Scanner::new(source_name, text);
    let n = s.number::<u32>("N (number of vertices)", MIN_N, MAX_N)?;
    if !s.at_end() {
        for _ in 0..n {
            s.number::<i64>("x coordinate", -MAX_COORD, MAX_COORD)?;
            s.number::<i64>("y coordinate", -MAX_COORD, MAX_COORD)?;
        }
    }
    s.expect_end()?;
    Ok(n)
}

/// `solve polygon`: `1` if the first player wins, else `2`.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let n = read_input(source_name, text)?;
    Ok(if claimed_table(n)[n as usize] != 0 { "1" } else { "2" }.to_string())
}

impl Claimed for Polygon {
    type Shared = Vec<u32>;
    fn game(&self) -> &'static str {
        "polygon"
    }
    fn rule(&self) -> &'static str {
        "standard"
    }
    /// Size (1, n): the empty n-gon.
    fn positions(&self, _: u32, cols: u32) -> Vec<Drawing> {
        vec![(cols, 0)]
    }
    fn prepare(&self, _: u32, cols: u32) -> Vec<u32> {
        claimed_table(cols)
    }
    fn check(&self, g: &Vec<u32>, brute: &mut BruteForce<Self>, drawing: &Drawing) -> Checked {
        let n = drawing.0;
        let claimed = g[n as usize];
        let grundy = brute.grundy(drawing);
        let wins = brute.first_player_wins(drawing);
        Checked {
            rows: 1,
            cols: n,
            xs: n,
            claimed,
            naive_value: Some(grundy),
            naive_first_wins: wins,
            agrees: claimed == grundy && (claimed != 0) == wins,
        }
    }
    fn show(&self, drawing: &Drawing) -> String {
        format!("{}-gon", drawing.0)
    }
    fn heap(&self, n: u32) -> Option<Drawing> {
        Some((n, 0))
    }
    fn size_allowed(&self, rows: u32, cols: u32) -> bool {
        rows == 1 && cols <= MAX_BRUTE_VERTICES
    }
    /// The drawings an n-gon reaches are its non-crossing partial matchings (the Motzkin
    /// number M(n)), about 200 bytes each in the two memos (measured: `verify polygon --max 14`
    /// 39 MB, `--max 16` 209 MB, on one thread); the n-gons of one chunk share none.
    fn memo_bytes(&self, sizes: &[(u32, u32)]) -> Option<f64> {
        Some(sizes.iter().map(|&(_, n)| motzkin(n) * 200.0).sum())
    }
}

/// The Motzkin number M(n): M(n) = M(n − 1) + Σ M(k)·M(n − 2 − k) over k ≤ n − 2.
fn motzkin(n: u32) -> f64 {
    let mut m: Vec<f64> = vec![1.0; 2];
    for i in 2..=n as usize {
        let next = m[i - 1] + (0..=i - 2).map(|k| m[k] * m[i - 2 - k]).sum::<f64>();
        m.push(next);
    }
    m[n as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_n_gon_reaches_motzkin_many_drawings() {
        assert_eq!((0..8).map(motzkin).collect::<Vec<_>>(), [1.0, 1.0, 2.0, 4.0, 9.0, 21.0, 51.0, 127.0]);
        // Measured peak of `verify polygon --max 16 --threads 1`: 209 MB (base included).
        let run = crate::runner::verification::BASE_PEAK_BYTES as f64 + Polygon.memo_bytes(&[(1, 15), (1, 16)]).unwrap();
        assert!((105e6..420e6).contains(&run), "{run}");
    }

    #[test]
    fn recurrence_is_dawsons_kayles() {
        // OEIS A002187 (Dawson's Kayles), from n = 0.
        assert_eq!(claimed_table(12), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]);
        // The recurrence itself (what the claim said before it came from 0.07), to the contest's N.
        let mut g = vec![0u32; MAX_N as usize + 1];
        for n in 2..g.len() {
            g[n] = crate::impartial::mex((0..=n - 2).map(|j| g[j] ^ g[n - 2 - j]));
        }
        assert_eq!(claimed_table(MAX_N), g);
    }

    #[test]
    fn input() {
        assert_eq!(solve("t", "3\n").unwrap(), "1");
        assert_eq!(solve("t", "5\n0 0\n2 0\n3 1\n1 3\n-1 1\n").unwrap(), "2");
        let err = solve("t", "4\n0 0\n1 0\n1 x\n").unwrap_err().to_string();
        assert_eq!(err, "t:4:3: expected y coordinate (a number), found \"x\"");
        let err = solve("t", "2\n").unwrap_err().to_string();
        assert_eq!(err, "t:1:1: N (number of vertices) must be between 3 and 1000, found 2");
    }
}
