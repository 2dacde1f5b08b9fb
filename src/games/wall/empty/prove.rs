//! The proof for every board with a side ≤ A: rows proved one at a time by the lemma.
//!
//! Lemma: if every height i < h is constant from p_i on (g(i×n) = c_i for n ≥ p_i) and
//! P = max p_i, then row h is constant from 2P + 1 on — a cell with j ≥ P and w−1−j ≥ P has
//! value c_i ^ c_i ^ c_k ^ c_k = 0, every other cell's value depends on min(j, w−1−j) and not
//! on w. So row h is computed up to W = 2P + 1 (rows below extended by their constants, which
//! the induction has proved), c_h = g(h×W) and p_h is read off the computed prefix.

use super::kernel::{Pairs, RowSource, Scratch, BLOCK};
use crate::error::{Error, Result};
use rayon::prelude::*;

/// Where each row is taken to be constant: the lemma, or a deliberately wrong variant that
/// tests use to show that the comparison with the full table can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lemma {
    /// Row h is computed up to 2P + 1 (proved above).
    Proven,
    /// Row h is computed only up to P + 1 (not a theorem: wrong on some rows).
    WrongHalf,
}

/// One proved row: g(h×n) = prefix[n] for n < start, and `constant` for every n ≥ start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvedRow {
    pub height: usize,
    pub constant: u16,
    /// p_h: the least p ≥ 1 from which the row is constant (0 for height 0).
    pub start: usize,
    /// The last width evaluated (W = 2P + 1, or P + 1 under [`Lemma::WrongHalf`]).
    pub computed_to: usize,
    /// g(h×n) for n < start (prefix[0] = g(h×0) = 0).
    pub prefix: Vec<u16>,
}

impl ProvedRow {
    /// g(height × n) for any n.
    pub fn at(&self, n: usize) -> u16 {
        self.prefix.get(n).copied().unwrap_or(self.constant)
    }
}

/// Rows 0..=height proved so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    rows: Vec<ProvedRow>,
}

/// The proved rows, as rows of the kernel (extended by their constants).
struct Proved<'a>(&'a [ProvedRow]);

impl RowSource for Proved<'_> {
    fn fill(&self, i: usize, out: &mut [u16]) {
        let row = &self.0[i];
        let n = row.prefix.len().min(out.len());
        out[..n].copy_from_slice(&row.prefix[..n]);
        out[n..].fill(row.constant);
    }
}

impl Default for Proof {
    fn default() -> Self {
        Proof::new()
    }
}

impl Proof {
    /// Height 0 alone (g(0×n) = 0).
    pub fn new() -> Proof {
        Proof { rows: vec![ProvedRow { height: 0, constant: 0, start: 0, computed_to: 0, prefix: Vec::new() }] }
    }

    /// Rows from a file (height 0 first, heights in order); checked for shape only.
    pub fn from_rows(rows: Vec<ProvedRow>) -> Result<Proof> {
        let ordered = rows.iter().enumerate().all(|(h, r)| r.height == h && r.prefix.len() == r.start && (h == 0 || r.start >= 1));
        if rows.first() != Proof::new().rows.first() || !ordered {
            return Err(Error::Usage("proof rows are not heights 0, 1, 2, … with prefixes of their start".into()));
        }
        Ok(Proof { rows })
    }

    /// The largest height proved.
    pub fn height(&self) -> usize {
        self.rows.len() - 1
    }

    /// Rows 0..=height.
    pub fn rows(&self) -> &[ProvedRow] {
        &self.rows
    }

    /// The width up to which the next row must be computed under `lemma`.
    pub fn next_width(&self, lemma: Lemma) -> usize {
        let most = self.rows.iter().map(|r| r.start).max().unwrap_or(0);
        match lemma {
            Lemma::Proven => 2 * most + 1,
            Lemma::WrongHalf => most + 1,
        }
    }

    /// Bytes the next row needs (pair arrays, the row, per-thread scratch).
    pub fn next_memory(&self, lemma: Lemma) -> u64 {
        let (h, len) = (self.rows.len() as u64, self.next_width(lemma) as u64 + 1);
        4 * h.div_ceil(2) * len + 2 * len + ((rayon::current_num_threads() * BLOCK) as u64) * (1 << 16)
    }

    /// Proves the next row; `simd` allows the AVX2 path.
    pub fn extend(&mut self, lemma: Lemma, simd: bool) -> Result<&ProvedRow> {
        let h = self.rows.len();
        let width = self.next_width(lemma);
        let mut values = vec![0u16; width + 1];
        for (w, value) in values.iter_mut().enumerate().take(h.min(width + 1)).skip(1) {
            *value = self.rows[w].at(h);
        }
        if h <= width {
            let pairs = Pairs::new(h, width, &Proved(&self.rows))?;
            values[h..].par_chunks_mut(BLOCK).enumerate().for_each_init(
                || Scratch::new(simd),
                |scratch, (b, out)| pairs.block(h + b * BLOCK, out, scratch),
            );
        }
        let constant = values[width];
        let start = values.iter().rposition(|&v| v != constant).map_or(1, |p| p + 1).max(1);
        values.truncate(start);
        self.rows.push(ProvedRow { height: h, constant, start, computed_to: width, prefix: values });
        Ok(self.rows.last().expect("just pushed"))
    }

    /// Every board h×w with g = 0 and a side ≤ the proved height, in both orientations,
    /// sorted (zeros of the prefixes; rows whose constant is 0 are reported apart).
    pub fn zeros(&self) -> Vec<(usize, usize)> {
        let mut zeros: Vec<(usize, usize)> = self.rows[1..]
            .iter()
            .flat_map(|r| r.prefix.iter().enumerate().skip(1).filter(|&(_, &v)| v == 0).map(move |(w, _)| (r.height, w)))
            .flat_map(|(h, w)| [(h, w), (w, h)])
            .collect();
        zeros.sort_unstable();
        zeros.dedup();
        zeros
    }

    /// Heights whose constant is 0: infinitely many second-player wins.
    pub fn zero_constants(&self) -> Vec<usize> {
        self.rows[1..].iter().filter(|r| r.constant == 0).map(|r| r.height).collect()
    }
}
