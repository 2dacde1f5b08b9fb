//! Band rows of one column range of the rectangle DP, packed over the free cells only.
//!
//! For a column range [c0, c1) the free cells are numbered row-major (`p`); row i's cells are
//! `start[i]..start[i + 1]`. A band (a, b) (rows a..b of the range) has one value per column
//! j: g(a..b, c0..j) ^ g(a..b, j+1..c1). The move at free cell p in row i of a rectangle
//! [a, b) is worth band(a, i) ^ band(i + 1, b) at its column, so the region of `tops` for a
//! keeps band(a, row p) and the region of `bottoms` for b keeps band(row p + 1, b). A
//! rectangle's moves are then the contiguous run p in start[a]..start[b] of two arrays: X cells
//! cost nothing. Each region has [`PAD`] spare values on both sides, so that whole vectors
//! may be read past a run and written past a row (see `gather.rs` for why that is safe).

use crate::games::wall::board::{Board, MAX_SIDE};
use super::mex;

/// Spare values on each side of a band region.
pub const PAD: usize = 32;

pub struct Packed {
    pub(super) rows: usize,
    /// Values of one region: PAD, rows × columns of the board, PAD.
    pub(super) stride: usize,
    /// Free columns of each board row, left to right, and the row's free-column bits.
    free: Vec<[u8; MAX_SIDE]>,
    free_bits: Vec<u32>,
    /// First packed cell of each row in the current range; start[rows] = all cells.
    pub(super) start: [usize; MAX_SIDE + 1],
    /// Per row slot s = i + 1 (slots 0 and rows + 1 stand for rows −1 and `rows`, which have
    /// no cells): the cells of row i in the range are `free[i][lo[s]..hi[s]]`.
    pub(super) lo: [usize; MAX_SIDE + 2],
    pub(super) hi: [usize; MAX_SIDE + 2],
    /// The range's first chunk of eight columns (c0 / 8), for the AVX2 gather.
    pub(super) first_chunk: usize,
    pub(super) tops: Vec<u16>,
    pub(super) bottoms: Vec<u16>,
    /// `pshufb` index lists of the AVX2 gather, per row slot and chunk (empty without AVX2).
    pub(super) shuffles: Vec<u16>,
}

/// Writes a band's values at the free cells of rows and reads a rectangle's mex; `lefts` and
/// `rights` are indexed by board column: band value at column j = `lefts[j] ^ rights[j]`.
pub trait Kernel {
    /// # Safety
    /// The CPU has the kernel's features; `lefts` and `rights` have at least 32 values.
    unsafe fn store_band(bands: &mut Packed, a: usize, b: usize, lefts: &[u16], rights: &[u16]);
    /// # Safety
    /// The CPU has the kernel's features.
    unsafe fn mex_of_moves(bands: &Packed, a: usize, b: usize) -> u16;
}

/// Plain loops, on any CPU.
pub struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    unsafe fn store_band(bands: &mut Packed, a: usize, b: usize, lefts: &[u16], rights: &[u16]) {
        bands.store_band(a, b, lefts, rights)
    }

    #[inline(always)]
    unsafe fn mex_of_moves(bands: &Packed, a: usize, b: usize) -> u16 {
        let (tops, bottoms) = bands.runs(a, b);
        mex::portable(tops, bottoms)
    }
}

impl Packed {
    pub fn new(board: &Board, simd: bool) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let mut free = vec![[0u8; MAX_SIDE]; rows];
        let mut free_bits = vec![0u32; rows];
        for (r, (list, bits)) in free.iter_mut().zip(&mut free_bits).enumerate() {
            for (k, c) in (0..cols).filter(|&c| !board.is_x(r, c)).enumerate() {
                list[k] = c as u8;
                *bits |= 1 << c;
            }
        }
        let stride = PAD + rows * cols + PAD;
        #[cfg(target_arch = "x86_64")]
        let shuffles = if simd { super::gather::shuffle_lists(&free, &free_bits) } else { Vec::new() };
        #[cfg(not(target_arch = "x86_64"))]
        let shuffles = if simd { unreachable!("AVX2 is x86-64 only") } else { Vec::new() };
        let zeros = || vec![0u16; (rows + 1) * stride];
        let (start, lo, hi) = ([0; MAX_SIDE + 1], [0; MAX_SIDE + 2], [0; MAX_SIDE + 2]);
        Packed { rows, stride, free, free_bits, start, lo, hi, first_chunk: 0, tops: zeros(), bottoms: zeros(), shuffles }
    }

    /// Bit r set when row r has no X in columns [c0, c1).
    pub fn free_rows(&self, c0: usize, c1: usize) -> u32 {
        let span = ((1u32 << c1) - 1) & !((1u32 << c0) - 1);
        (0..self.rows).filter(|&r| self.free_bits[r] & span == span).fold(0, |m, r| m | 1 << r)
    }

    /// Starts column range [c0, c1); empty bands (a == b) are zero.
    pub fn start_range(&mut self, c0: usize, c1: usize) {
        let (left, upto) = ((1u32 << c0) - 1, (1u32 << c1) - 1);
        self.first_chunk = c0 / 8;
        for r in 0..self.rows {
            let (lo, hi) = ((self.free_bits[r] & left).count_ones(), (self.free_bits[r] & upto).count_ones());
            (self.lo[r + 1], self.hi[r + 1]) = (lo as usize, hi as usize);
            self.start[r + 1] = self.start[r] + (hi - lo) as usize;
        }
        for i in 0..self.rows {
            let (from, to) = (self.start[i], self.start[i + 1]);
            let (top, bottom) = (self.region(i), self.region(i + 1));
            self.tops[top + from..top + to].fill(0);
            self.bottoms[bottom + from..bottom + to].fill(0);
        }
    }

    /// Offset of cell 0 of the region of band row a (in `tops`) or b (in `bottoms`).
    #[inline(always)]
    pub(super) fn region(&self, a: usize) -> usize {
        a * self.stride + PAD
    }

    /// Stores band (a, b) where moves use it: as the part above row b and as the part below
    /// row a − 1.
    #[inline]
    fn store_band(&mut self, a: usize, b: usize, lefts: &[u16], rights: &[u16]) {
        let band = |j: u8| lefts[j as usize] ^ rights[j as usize];
        if b < self.rows {
            let (at, cells) = (self.region(a) + self.start[b], &self.free[b][self.lo[b + 1]..self.hi[b + 1]]);
            for (o, &j) in self.tops[at..at + cells.len()].iter_mut().zip(cells) {
                *o = band(j);
            }
        }
        if a > 0 {
            let (at, cells) = (self.region(b) + self.start[a - 1], &self.free[a - 1][self.lo[a]..self.hi[a]]);
            for (o, &j) in self.bottoms[at..at + cells.len()].iter_mut().zip(cells) {
                *o = band(j);
            }
        }
    }

    /// The option parts of the moves of rectangle rows a..b: `tops` and `bottoms` values.
    #[inline(always)]
    pub(super) fn runs(&self, a: usize, b: usize) -> (&[u16], &[u16]) {
        let (from, to) = (self.start[a], self.start[b]);
        let (top, bottom) = (self.region(a), self.region(b));
        (&self.tops[top + from..top + to], &self.bottoms[bottom + from..bottom + to])
    }

    /// After the last range (the whole width): the free cells (row, column) whose move leaves
    /// value 0 in the whole board.
    pub fn zero_moves(&self) -> Vec<(usize, usize)> {
        let (top, bottom) = (self.region(0), self.region(self.rows));
        (0..self.rows)
            .flat_map(|i| (self.start[i]..self.start[i + 1]).map(move |p| (i, p)))
            .filter(|&(_, p)| self.tops[top + p] ^ self.bottoms[bottom + p] == 0)
            .map(|(i, p)| (i, self.free[i][p - self.start[i]] as usize))
            .collect()
    }
}
