//! Band rows of one column range of the rectangle DP, packed over the free cells only.
//!
//! For a column range [c0, c1) the free cells are numbered row-major (`p`); row i's cells are
//! `start[i]..start[i + 1]`. A band (a, b) (rows a..b of the range) has one value per column
//! k: g(a..b, c0..c0+k) ^ g(a..b, c0+k+1..c1). The move at free cell p in row i of a
//! rectangle [a, b) is worth band(a, i) ^ band(i + 1, b) at its column, so `tops[a][p]` keeps
//! band(a, row p) and `bottoms[b][p]` keeps band(row p + 1, b). A rectangle's moves are then
//! the contiguous run p in start[a]..start[b] of two arrays: X cells cost nothing.

use super::mex::mex_of_xors;

pub struct Packed {
    rows: usize,
    /// Longest run of packed cells (rows × columns of the board).
    cap: usize,
    start: Vec<usize>,
    /// Column offset (from c0) of each packed cell.
    cols: Vec<u8>,
    tops: Vec<u16>,
    bottoms: Vec<u16>,
    simd: bool,
}

impl Packed {
    pub fn new(rows: usize, cols: usize, simd: bool) -> Self {
        let cap = rows * cols;
        let n = rows + 1;
        Packed { rows, cap, start: vec![0; n], cols: Vec::with_capacity(cap), tops: vec![0; n * cap], bottoms: vec![0; n * cap], simd }
    }

    /// Starts column range [c0, c1) of a board whose X cells are `is_x(r, c)`; empty bands
    /// (a == b) are zero.
    pub fn start_range(&mut self, c0: usize, c1: usize, is_x: impl Fn(usize, usize) -> bool) {
        self.cols.clear();
        for i in 0..self.rows {
            self.start[i] = self.cols.len();
            self.cols.extend((c0..c1).filter(|&c| !is_x(i, c)).map(|c| (c - c0) as u8));
        }
        self.start[self.rows] = self.cols.len();
        for i in 0..self.rows {
            let (from, to) = (self.start[i], self.start[i + 1]);
            self.tops[i * self.cap + from..i * self.cap + to].fill(0);
            self.bottoms[(i + 1) * self.cap + from..(i + 1) * self.cap + to].fill(0);
        }
    }

    /// Stores band (a, b), given per column as `lefts[k] ^ rights[k]`, where moves use it:
    /// as the part above row b and as the part below row a − 1.
    #[inline]
    pub fn store_band(&mut self, a: usize, b: usize, lefts: &[u16], rights: &[u16]) {
        if b < self.rows {
            let (from, to) = (self.start[b], self.start[b + 1]);
            let out = &mut self.tops[a * self.cap + from..a * self.cap + to];
            for (o, &k) in out.iter_mut().zip(&self.cols[from..to]) {
                *o = lefts[k as usize] ^ rights[k as usize];
            }
        }
        if a > 0 {
            let (from, to) = (self.start[a - 1], self.start[a]);
            let out = &mut self.bottoms[b * self.cap + from..b * self.cap + to];
            for (o, &k) in out.iter_mut().zip(&self.cols[from..to]) {
                *o = lefts[k as usize] ^ rights[k as usize];
            }
        }
    }

    /// Mex of the option values of the free cells of rows a..b of the range.
    #[inline]
    pub fn mex_of_moves(&self, a: usize, b: usize) -> u16 {
        let (from, to) = (self.start[a], self.start[b]);
        mex_of_xors(&self.tops[a * self.cap + from..a * self.cap + to], &self.bottoms[b * self.cap + from..b * self.cap + to], self.simd)
    }

    /// After the last range (the whole width): the free cells (row, column) whose move leaves
    /// value 0 in the whole board.
    pub fn zero_moves(&self) -> Vec<(usize, usize)> {
        let last = self.rows * self.cap;
        (0..self.rows)
            .flat_map(|i| (self.start[i]..self.start[i + 1]).map(move |p| (i, p)))
            .filter(|&(_, p)| self.tops[p] ^ self.bottoms[last + p] == 0)
            .map(|(i, p)| (i, self.cols[p] as usize))
            .collect()
    }
}
