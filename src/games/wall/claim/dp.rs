//! Rectangle DP (the decomposition claim): Grundy value of every sub-rectangle, bottom-up.
//!
//! A move at (i, j) in a wall-bounded rectangle leaves four independent rectangles, so
//! g(rect) = mex over non-X cells of g(UL) ^ g(UR) ^ g(LL) ^ g(LR). For speed the DP works one
//! column range [c0, c1) at a time and keeps, for every row band [a, b), the values
//! `g(a..b, c0..j) ^ g(a..b, j+1..c1)` at the free cells where moves use them ([`Packed`]);
//! a move's option value is one XOR, and a rectangle's moves lie contiguously, so each mex
//! is one flat loop over its free cells.

use crate::games::wall::board::{Board, MAX_SIDE};
use super::packed::{Kernel, Packed, Portable};
use std::cell::Cell;

/// Grundy values of all sub-rectangles of one board.
pub struct RectDp {
    rows: usize,
    cols: usize,
    /// g([a, b) × [c0, c1)) by c0, then row pair, then c1 = c0..=cols (from `right_base`).
    by_right: Vec<u16>,
    /// The same values by c1, then row pair, then c0 = 0..=c1 (from `left_base`). Rectangles
    /// of width 0 (c0 = c1) keep the value 0.
    by_left: Vec<u16>,
    /// Index of the first row pair of each height; row pairs are numbered by height, then
    /// top row, the order in which a column range visits them, so that both tables are
    /// read and written sequentially within a range.
    height_start: [u16; MAX_SIDE + 1],
    row_pairs: usize,
    /// Bands of the current column range at the free cells that use them.
    bands: Packed,
}

/// The answer for a whole board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub grundy: u32,
    /// Cells (row, column), 0-based in row-major order, whose move leaves Grundy value 0.
    pub winning_moves: Vec<(usize, usize)>,
}

/// Values read past the ends of the tables by the band kernels (whole chunks of columns).
const TABLE_PAD: usize = 32;
const TABLE_FRONT: usize = 8;

impl RectDp {
    /// Runs the DP over every sub-rectangle of `board` (any size up to 20×20).
    pub fn new(board: &Board) -> Self {
        Self::with_simd(board, crate::bits::avx2_available())
    }

    /// The DP with the AVX2 kernel (`simd`, only where [`crate::bits::avx2_available`]) or the
    /// portable one; both give the same values.
    pub fn with_simd(board: &Board, simd: bool) -> Self {
        assert!(!simd || crate::bits::avx2_available(), "AVX2 kernel without AVX2");
        let (rows, cols) = (board.rows(), board.cols());
        let row_pairs = rows * (rows + 1) / 2;
        let mut height_start = [0u16; MAX_SIDE + 1];
        for h in 2..=rows {
            height_start[h] = height_start[h - 1] + (rows + 2 - h) as u16;
        }
        let bands = Packed::new(board, simd);
        let mut dp = RectDp { rows, cols, by_right: Vec::new(), by_left: Vec::new(), height_start, row_pairs, bands };
        (dp.by_right, dp.by_left) = zeroed_tables(dp.right_base(cols) + TABLE_PAD, dp.left_base(cols + 1) + TABLE_PAD);
        let every_row = (1u32 << rows) - 1;
        // Ranges by falling c0, then rising c1: [c0, j) and [j+1, c1) come before [c0, c1),
        // and [0, cols) comes last.
        for c0 in (0..cols).rev() {
            for c1 in c0 + 1..=cols {
                let free_rows = dp.bands.free_rows(c0, c1);
                // A strip without X needs no bands (all its rectangles are X-free), except
                // the last, whose bands give the winning moves.
                if free_rows == every_row && (c0, c1) != (0, cols) {
                    // SAFETY: `NoBands` touches no band and needs no CPU feature.
                    unsafe { dp.fill_range::<NoBands>(c0, c1, free_rows) };
                } else {
                    dp.bands.start_range(c0, c1);
                    dp.fill_banded_range(c0, c1, free_rows, simd);
                }
            }
        }
        dp
    }

    fn fill_banded_range(&mut self, c0: usize, c1: usize, free_rows: u32, simd: bool) {
        #[cfg(target_arch = "x86_64")]
        if simd {
            // SAFETY: `simd` is only true when the CPU has AVX2 (checked in `with_simd`).
            return unsafe { self.fill_range_avx2(c0, c1, free_rows) };
        }
        let _ = simd;
        // SAFETY: the portable kernel needs no CPU feature; the tables have TABLE_PAD spare
        // values.
        unsafe { self.fill_range::<Portable>(c0, c1, free_rows) }
    }

    /// The range with the AVX2 kernel for its number of eight-column chunks (ranges wider
    /// than 16 columns span three and may have more than 16 free cells in a row).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn fill_range_avx2(&mut self, c0: usize, c1: usize, free_rows: u32) {
        use super::gather::Avx2;
        match ((c1 - 1) / 8 - c0 / 8 + 1, c1 - c0 > 16) {
            (1, _) => self.fill_range::<Avx2<1, 1>>(c0, c1, free_rows),
            (2, _) => self.fill_range::<Avx2<2, 1>>(c0, c1, free_rows),
            (_, false) => self.fill_range::<Avx2<3, 1>>(c0, c1, free_rows),
            (_, true) => self.fill_range::<Avx2<3, 2>>(c0, c1, free_rows),
        }
    }

    /// Stores the bands of every rectangle of column range [c0, c1) and computes its Grundy
    /// value, row pairs by height then top row; `free_rows` has bit r set when row r has no
    /// X in the range.
    ///
    /// # Safety
    /// The CPU has the features of kernel `K`.
    #[inline(always)]
    unsafe fn fill_range<K: Kernel>(&mut self, c0: usize, c1: usize, free_rows: u32) {
        let (rows, w) = (self.rows, c1 - c0);
        // g(a..b, c0..j) at lefts_at + j and g(a..b, j+1..c1) at rights_at + j, for the
        // current row pair (a, b); both move on by one table row per row pair.
        let (mut lefts_at, right_row) = (self.right_base(c0) - c0, self.cols + 1 - c0);
        let (mut rights_at, left_row) = (self.left_base(c1) + 1, c1 + 1);
        for h in 1..=rows {
            let (run, empty) = ((1u32 << h) - 1, empty_grundy(h, w));
            for a in 0..=rows - h {
                let b = a + h;
                // The mex first: it reads the vector past its run that the band store writes.
                let value = if free_rows >> a & run == run { empty } else { K::mex_of_moves(&self.bands, a, b) };
                K::store_band(&mut self.bands, a, b, &self.by_right[lefts_at..], &self.by_left[rights_at..]);
                self.by_right[lefts_at + c1] = value;
                self.by_left[rights_at + c0 - 1] = value;
                lefts_at += right_row;
                rights_at += left_row;
            }
        }
    }

    /// Start of the values of column start c0 in `by_right`: a row of cols + 1 − c0 values
    /// (c1 = c0..=cols) per row pair. Past TABLE_FRONT values, so that chunks of eight
    /// columns read from column 8 · (c0 / 8) stay in the table.
    fn right_base(&self, c0: usize) -> usize {
        TABLE_FRONT + self.row_pairs * (c0 * (self.cols + 1) - c0 * c0.saturating_sub(1) / 2)
    }

    /// Start of the values of column end c1 in `by_left`: a row of c1 + 1 values (c0 =
    /// 0..=c1) per row pair.
    fn left_base(&self, c1: usize) -> usize {
        self.row_pairs * c1 * (c1 + 1) / 2
    }

    #[inline]
    fn row_pair(&self, a: usize, b: usize) -> usize {
        self.height_start[b - a] as usize + a
    }

    /// Grundy value of the half-open sub-rectangle [r0, r1) × [c0, c1) (0 when empty).
    pub fn rect_grundy(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        assert!(r0 <= r1 && r1 <= self.rows && c0 <= c1 && c1 <= self.cols, "rectangle out of the board");
        if r0 == r1 || c0 == c1 {
            return 0;
        }
        self.by_right[self.right_base(c0) + self.row_pair(r0, r1) * (self.cols + 1 - c0) + c1 - c0] as u32
    }

    /// Grundy value of the whole board.
    pub fn grundy(&self) -> u32 {
        self.rect_grundy(0, self.rows, 0, self.cols)
    }

    /// Moves of the whole board that leave a Grundy-0 position, row-major. The bands left
    /// in place by the DP are those of the last column range, the whole width.
    pub fn winning_moves(&self) -> Vec<(usize, usize)> {
        self.bands.zero_moves()
    }
}

thread_local! {
    /// The tables of the last [`RectDp`] dropped on this thread: a batch of boards reuses
    /// them instead of faulting in fresh pages for every board.
    static SPARE_TABLES: Cell<(Vec<u16>, Vec<u16>)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// Tables of `right_len` and `left_len` zeros, from the spare ones when there are.
fn zeroed_tables(right_len: usize, left_len: usize) -> (Vec<u16>, Vec<u16>) {
    let (mut by_right, mut by_left) = SPARE_TABLES.take();
    for (table, len) in [(&mut by_right, right_len), (&mut by_left, left_len)] {
        if table.capacity() < len {
            // Fresh zeroed memory (untouched pages cost no writing here).
            *table = vec![0; len];
        } else {
            table.clear();
            table.resize(len, 0);
        }
    }
    (by_right, by_left)
}

impl Drop for RectDp {
    fn drop(&mut self) {
        let tables = (std::mem::take(&mut self.by_right), std::mem::take(&mut self.by_left));
        // During thread exit the spare slot may be gone already; the tables are then freed.
        let _ = SPARE_TABLES.try_with(|spare| spare.set(tables));
    }
}

/// The kernel of strips without X: no bands, every rectangle X-free.
struct NoBands;

impl Kernel for NoBands {
    #[inline(always)]
    unsafe fn store_band(_: &mut Packed, _: usize, _: usize, _: &[u16], _: &[u16]) {}

    unsafe fn mex_of_moves(_: &Packed, _: usize, _: usize) -> u16 {
        unreachable!("a strip without X has only X-free rectangles")
    }
}

/// Solves a whole board: Grundy value and winning moves.
pub fn solve(board: &Board) -> Solution {
    let dp = RectDp::new(board);
    Solution { grundy: dp.grundy(), winning_moves: dp.winning_moves() }
}

/// Grundy value of an X-free h×w rectangle (depends only on its size), 1 ≤ h, w ≤ 20.
pub fn empty_grundy(h: usize, w: usize) -> u16 {
    EMPTY_GRUNDY[h][w]
}

/// [`empty_grundy`] for every size, computed at compile time: a move splits an X-free
/// rectangle into four X-free ones, so each value is the mex over the cells of four earlier
/// ones. Every value is below 64 (checked here), so one 64-bit set holds the options.
const EMPTY_GRUNDY: [[u16; MAX_SIDE + 1]; MAX_SIDE + 1] = {
    let mut t = [[0u16; MAX_SIDE + 1]; MAX_SIDE + 1];
    let mut h = 1;
    while h <= MAX_SIDE {
        let mut w = 1;
        while w <= MAX_SIDE {
            let mut seen = 0u64;
            let mut i = 0;
            while i < h {
                let mut j = 0;
                while j < w {
                    let v = t[i][j] ^ t[i][w - 1 - j] ^ t[h - 1 - i][j] ^ t[h - 1 - i][w - 1 - j];
                    assert!(v < 64, "X-free values fit one 64-bit set");
                    seen |= 1 << v;
                    j += 1;
                }
                i += 1;
            }
            t[h][w] = (!seen).trailing_zeros() as u16;
            w += 1;
        }
        h += 1;
    }
    t
};

#[cfg(test)]
#[path = "dp_tests.rs"]
mod tests;
