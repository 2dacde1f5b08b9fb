//! The mex kernel of X-free boards: g(h×w) for a block of widths, from the pair arrays of height h.
//!
//! A move at (i, j) of the X-free h×w board leaves four rectangles i×j, i×(w−1−j), k×j and
//! k×(w−1−j) with k = h−1−i; with a_i(j) = g(i×j) ^ g(k×j) its value is a_i(j) ^ a_i(w−1−j),
//! and the four mirror images of a cell give the same value, so i ≤ (h−1)/2 and j ≤ (w−1)/2
//! suffice. If a_i is constant from q_i on (read off the arrays, no lemma), every j with
//! q_i ≤ j ≤ w−1−j gives 0, so only j < q_i is visited (and 0 marked once).

use super::simd;
use crate::error::{Error, Result};
use rayon::prelude::*;

/// Widths evaluated together: each pair array is read once per block while it is in cache.
pub const BLOCK: usize = 8;

/// Largest power of two the move values may stay below (the mex is at most this bound).
pub const MAX_BOUND: usize = 1 << 15;

/// Where the rows below height h come from: fills `out[j]` = g(i×j) for j < out.len().
pub trait RowSource: Sync {
    fn fill(&self, i: usize, out: &mut [u16]);
}

/// For one height h: a_i(j) for i ≤ (h−1)/2 and j < len, forward and reversed, and where each
/// becomes constant.
pub struct Pairs {
    len: usize,
    forward: Vec<u16>,
    reversed: Vec<u16>,
    /// tails[i]: least q with a_i(x) = a_i(len − 1) for every q ≤ x < len.
    tails: Vec<usize>,
    /// A power of two above every value of every row below h.
    bound: usize,
}

impl Pairs {
    /// The pair arrays of height `height` ≥ 1, serving the widths 1 ≤ w ≤ `len`; `rows`
    /// gives the rows below `height`.
    pub fn new(height: usize, len: usize, rows: &dyn RowSource) -> Result<Pairs> {
        let half = height.div_ceil(2);
        let (mut forward, mut reversed) = (vec![0u16; half * len], vec![0u16; half * len]);
        let tops: Vec<(usize, u16)> = forward
            .par_chunks_mut(len)
            .zip(reversed.par_chunks_mut(len))
            .enumerate()
            .map_init(
                || vec![0u16; len],
                |other, (i, (a, r))| {
                    rows.fill(i, a);
                    rows.fill(height - 1 - i, other);
                    let top = a.iter().chain(other.iter()).copied().max().unwrap_or(0);
                    a.iter_mut().zip(other.iter()).for_each(|(x, &y)| *x ^= y);
                    r.iter_mut().zip(a.iter().rev()).for_each(|(x, &y)| *x = y);
                    let last = a[len - 1];
                    (a.iter().rposition(|&x| x != last).map_or(0, |p| p + 1), top)
                },
            )
            .collect();
        let top = tops.iter().map(|t| t.1).max().unwrap_or(0);
        let bound = (usize::from(top) + 1).next_power_of_two();
        if bound > MAX_BOUND {
            return Err(Error::Usage(format!("height {height}: values reach {top}, beyond what 16-bit entries can hold")));
        }
        Ok(Pairs { len, forward, reversed, tails: tops.into_iter().map(|t| t.0).collect(), bound })
    }

    /// The widths these arrays serve: 1 ≤ w ≤ len.
    pub fn max_width(&self) -> usize {
        self.len
    }

    /// g(h×w) for w = first, first + 1, … into `out` (at most [`BLOCK`] widths, each ≤ len).
    pub fn block(&self, first: usize, out: &mut [u16], scratch: &mut Scratch) {
        assert!(first >= 1 && out.len() <= BLOCK && first + out.len() <= self.len + 1, "widths out of range");
        let simd = scratch.simd && self.bound <= simd::SIMD_BOUND;
        if !simd && scratch.seen.is_empty() {
            scratch.seen = (0..BLOCK).map(|_| vec![0u8; 1 << 16].into_boxed_slice().try_into().expect("64 KiB")).collect();
        }
        for (b, _) in out.iter().enumerate() {
            if simd {
                scratch.missing[b] = simd::Missing::all();
            } else {
                scratch.seen[b][..=self.bound].fill(0);
            }
        }
        for (i, &tail) in self.tails.iter().enumerate() {
            let a = &self.forward[i * self.len..][..self.len];
            let r = &self.reversed[i * self.len..][..self.len];
            for b in 0..out.len() {
                let w = first + b;
                let count = w.div_ceil(2);
                let m = tail.min(count);
                // a_i(w−1−j) = r[len − w + j].
                let (xs, ys) = (&a[..m], &r[self.len - w..][..m]);
                if simd {
                    simd::strike(xs, ys, m < count, self.bound, &mut scratch.missing[b], true);
                } else {
                    mark(xs, ys, m < count, &mut scratch.seen[b]);
                }
            }
        }
        for (b, value) in out.iter_mut().enumerate() {
            *value = if simd { scratch.missing[b].least() } else { least_unseen(&scratch.seen[b][..=self.bound]) };
        }
    }
}

/// Marks every value `xs[j] ^ ys[j]` (and 0 when `zero`) as seen.
fn mark(xs: &[u16], ys: &[u16], zero: bool, seen: &mut [u8; 1 << 16]) {
    if zero {
        seen[0] = 1;
    }
    for (&x, &y) in xs.iter().zip(ys) {
        seen[usize::from(x ^ y)] = 1;
    }
}

/// The least value not marked in `seen` (its last entry, the bound, is never marked).
fn least_unseen(seen: &[u8]) -> u16 {
    seen.iter().position(|&s| s == 0).expect("the bound is never a move value") as u16
}

/// Per-thread working memory of [`Pairs::block`].
pub struct Scratch {
    simd: bool,
    seen: Vec<Box<[u8; 1 << 16]>>,
    missing: [simd::Missing; BLOCK],
}

impl Scratch {
    /// Working memory for one thread; `simd` selects the AVX2 path where values allow it.
    /// The byte arrays of the portable path are allocated when first needed.
    pub fn new(simd: bool) -> Scratch {
        Scratch { simd: simd && simd::available(), seen: Vec::new(), missing: [simd::Missing::all(); BLOCK] }
    }
}
