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
    claimed_values(max).expect("the values of 0.07 are at most 8 (stoppable work asks claimed_values)")
}

/// [`claimed_table`], or the engine's error when stopped ([`crate::impartial::stoppable`]: an
/// analysis whose client left).
pub fn claimed_values(max: u32) -> Result<Vec<u32>> {
    let code = Code::parse("0.07").expect("0.07 is a code");
    Ok(values(&code, max as usize, Method::Sparse)?.into_iter().map(u32::from).collect())
}

/// Reads N (3 ≤ N ≤ 1000), optionally followed by the N vertices as integer pairs. The
/// vertices do not change the game (only N does: any convex N-gon plays alike), but when given
/// they must be N distinct corners of a convex polygon in order ([`check_convex`]).
pub fn read_input(source_name: &str, text: &str) -> Result<u32> {
    let mut s = Scanner::new(source_name, text);
    let n = s.number::<u32>("N (number of vertices)", MIN_N, MAX_N)?;
    if !s.at_end() {
        let mut corners = Vec::with_capacity(n as usize);
        for i in 1..=n {
            s.skip_blank();
            let (line, col) = s.position();
            let x = s.number::<i64>(&format!("x coordinate of vertex {i} of {n}"), -MAX_COORD, MAX_COORD)?;
            let y = s.number::<i64>(&format!("y coordinate of vertex {i} of {n}"), -MAX_COORD, MAX_COORD)?;
            corners.push(Corner { x, y, line, col });
        }
        s.expect_end()?;
        check_convex(&corners).map_err(|(at, message)| s.error_at(corners[at].line, corners[at].col, message))?;
    }
    s.expect_end()?;
    Ok(n)
}

/// A vertex as read: its coordinates and the 1-based line and column of its x.
#[derive(Debug, Clone, Copy)]
pub struct Corner {
    pub x: i64,
    pub y: i64,
    pub line: usize,
    pub col: usize,
}

/// Whether `corners`, in order, are the corners of a convex polygon: distinct, no three
/// consecutive on one line, every turn the same way and once around. Else the index of the
/// vertex at fault and what is wrong with it.
pub fn check_convex(corners: &[Corner]) -> std::result::Result<(), (usize, String)> {
    let n = corners.len();
    let rule = "the vertices must be the corners of a convex polygon, in order around it";
    let mut seen = std::collections::HashMap::new();
    for (i, c) in corners.iter().enumerate() {
        if let Some(first) = seen.insert((c.x, c.y), i) {
            return Err((i, format!("vertex {} ({}, {}) repeats vertex {} (line {}): {rule}", i + 1, c.x, c.y, first + 1, corners[first].line)));
        }
    }
    let (mut way, mut turned) = (None, 0.0f64);
    for i in 0..n {
        let (a, b, c) = (corners[(i + n - 1) % n], corners[i], corners[(i + 1) % n]);
        let (ux, uy, vx, vy) = (i128::from(b.x - a.x), i128::from(b.y - a.y), i128::from(c.x - b.x), i128::from(c.y - b.y));
        let cross = ux * vy - uy * vx;
        let left = match cross.signum() {
            0 => {
                let (h, j) = ((i + n - 1) % n + 1, (i + 1) % n + 1);
                let (h, j) = (h.min(j), h.max(j));
                return Err((i, format!("vertex {} lies on the line through vertices {h} and {j}: {rule}, no three in a row", i + 1)));
            }
            sign => sign > 0,
        };
        let name = |left: bool| if left { "left (counterclockwise)" } else { "right (clockwise)" };
        match way {
            None => way = Some((left, i)),
            Some((first, at)) if first != left => {
                return Err((i, format!("the polygon turns {} at vertex {} but {} at vertex {}: {rule}", name(left), i + 1, name(first), at + 1)));
            }
            Some(_) => {}
        }
        turned += (cross as f64).abs().atan2((ux * vx + uy * vy) as f64);
        if turned > 3.0 * std::f64::consts::PI {
            return Err((i, format!("the vertices wind around more than once by vertex {} (a star, not a convex polygon): {rule}", i + 1)));
        }
    }
    Ok(())
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
    /// Those M(n) drawings, each with up to n² chords to try: [`SECONDS_PER_DRAWING_MOVE`] each.
    fn memo_seconds(&self, sizes: &[(u32, u32)]) -> Option<f64> {
        Some(sizes.iter().map(|&(_, n)| motzkin(n) * f64::from(n).powi(2) * SECONDS_PER_DRAWING_MOVE).sum())
    }
}

/// Core-seconds of the brute force per drawing an n-gon reaches, per n² (its chords to try).
/// Measured (user + system time, /usr/bin/time, one thread) on `verify polygon --max M
/// --threads 1`, M = 13, 14, 15, 16: 0.12, 0.36, 1.20 and 3.61 s, that is 1.10–1.17·10⁻⁸ s
/// times Σ M(n)·n² over n ≤ M (per drawing alone, the rate grew from 1.8 to 2.7 µs).
pub const SECONDS_PER_DRAWING_MOVE: f64 = 1.15e-8;

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
    fn the_brute_force_time_grows_with_drawings_and_chords() {
        // Measured `verify polygon --max 16 --threads 1`: 3.61 core-s for Σ M(n)·n² = 3.2·10⁸.
        let run: f64 = (0..=16).map(|n| Polygon.memo_seconds(&[(1, n)]).unwrap()).sum();
        assert!((1.8..7.2).contains(&run), "{run}");
        assert_eq!(Polygon.memo_seconds(&[(1, 0)]), Some(0.0), "a 0-gon has no chord to try");
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
        assert_eq!(err, "t:4:3: expected y coordinate of vertex 3 of 4 (a number), found \"x\"");
        let err = solve("t", "2\n").unwrap_err().to_string();
        assert_eq!(err, "t:1:1: N (number of vertices) must be between 3 and 1000, found 2");
    }

    #[test]
    fn vertices_must_be_a_convex_polygon() {
        let err = |text: &str| solve("t", text).unwrap_err().to_string();
        // Too few, too many.
        assert_eq!(err("4\n0 0\n1 0\n"), "t:3:4: expected x coordinate of vertex 3 of 4, found end of input");
        assert_eq!(err("3\n0 0\n1 0\n0 1\n5 5\n"), "t:5:1: unexpected extra input \"5\"");
        // A repeated vertex, three in a row, a turn the other way, a pentagram.
        assert_eq!(err("4\n0 0\n1 0\n0 0\n0 1\n"), "t:4:1: vertex 3 (0, 0) repeats vertex 1 (line 2): the vertices must be the corners of a convex polygon, in order around it");
        assert_eq!(
            err("4\n0 0\n1 0\n2 0\n0 1\n"),
            "t:3:1: vertex 2 lies on the line through vertices 1 and 3: the vertices must be the corners of a convex polygon, in order around it, no three in a row"
        );
        assert_eq!(
            err("4\n0 0\n2 0\n1 1\n2 2\n"),
            "t:4:1: the polygon turns right (clockwise) at vertex 3 but left (counterclockwise) at vertex 1: the vertices must be the corners of a convex polygon, in order around it"
        );
        assert_eq!(
            err("5\n0 10\n6 -8\n-10 3\n10 3\n-6 -8\n"),
            "t:5:1: the vertices wind around more than once by vertex 4 (a star, not a convex polygon): the vertices must be the corners of a convex polygon, in order around it"
        );
        // Either way around, and the stress generator's parabola, are convex.
        assert_eq!(solve("t", "4\n0 0\n0 1\n1 1\n1 0\n").unwrap(), "1");
        let parabola: String = (0..1000i64).map(|i| format!("{} {}\n", i - 500, (i - 500) * (i - 500))).collect();
        assert!(solve("t", &format!("1000\n{parabola}")).is_ok());
    }
}
