//! Rectangle DP (the decomposition claim): Grundy value of every sub-rectangle, bottom-up.
//!
//! A move at (i, j) in a wall-bounded rectangle leaves four independent rectangles, so
//! g(rect) = mex over non-X cells of g(UL) ^ g(UR) ^ g(LL) ^ g(LR). For speed the DP works one
//! column range [c0, c1) at a time and keeps, for every row band [a, b), the row of values
//! `g(a..b, c0..j) ^ g(a..b, j+1..c1)`; a cell's option value is then one XOR of two band
//! rows, and the bands of a rectangle's moves lie contiguously, so each mex is one flat loop.

use super::board::{Board, MAX_SIDE};
use std::sync::OnceLock;

/// Grundy values of all sub-rectangles of one board.
pub struct RectDp {
    rows: usize,
    cols: usize,
    /// by_right[gidx(a, b, c0, c1)] = g([a, b) × [c0, c1)), c1 varying fastest.
    by_right: Vec<u16>,
    /// by_left[gidx(a, b, c1, c0)] = the same values with c0 varying fastest.
    by_left: Vec<u16>,
    /// Bands of the current column range, indexed by (top row, bottom row) and by
    /// (bottom row, top row); see [`Bands`].
    bands: Bands,
    /// 1 for a cell that may be chosen, 0 for an X cell (row-major).
    free: Vec<u16>,
}

/// Band rows of one column range of width `w`: `by_top[(a*(R+1)+b)*w + k]` and
/// `by_bottom[(b*(R+1)+a)*w + k]` both hold g(a..b, c0..c0+k) ^ g(a..b, c0+k+1..c1).
/// Empty bands (a == b) are zero. `free` holds the free flags of the range, row by row.
struct Bands {
    width: usize,
    by_top: Vec<u16>,
    by_bottom: Vec<u16>,
    free: Vec<u16>,
}

/// The answer for a whole board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub grundy: u32,
    /// Cells (row, column), 0-based in row-major order, whose move leaves Grundy value 0.
    pub winning_moves: Vec<(usize, usize)>,
}

impl RectDp {
    /// Runs the DP over every sub-rectangle of `board` (any size up to 20×20).
    pub fn new(board: &Board) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let entries = (rows + 1) * (rows + 1) * (cols + 1) * (cols + 1);
        let band_len = (rows + 1) * (rows + 1) * cols;
        let mut dp = RectDp {
            rows,
            cols,
            by_right: vec![0; entries],
            by_left: vec![0; entries],
            bands: Bands {
                width: 0,
                by_top: vec![0; band_len],
                by_bottom: vec![0; band_len],
                free: vec![0; rows * cols],
            },
            free: (0..rows * cols).map(|i| !board.is_x(i / cols, i % cols) as u16).collect(),
        };
        let prefix = XPrefix::new(board);
        for w in 1..=cols {
            for c0 in 0..=cols - w {
                dp.start_column_range(c0, c0 + w);
                for h in 1..=rows {
                    for a in 0..=rows - h {
                        dp.fill(a, a + h, c0, c0 + w, &prefix);
                    }
                }
            }
        }
        dp
    }

    #[inline]
    fn gidx(&self, a: usize, b: usize, c0: usize, c1: usize) -> usize {
        ((a * (self.rows + 1) + b) * (self.cols + 1) + c0) * (self.cols + 1) + c1
    }

    /// Grundy value of the half-open sub-rectangle [r0, r1) × [c0, c1) (0 when empty).
    pub fn rect_grundy(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        assert!(r0 <= r1 && r1 <= self.rows && c0 <= c1 && c1 <= self.cols, "rectangle out of the board");
        self.by_right[self.gidx(r0, r1, c0, c1)] as u32
    }

    /// Grundy value of the whole board.
    pub fn grundy(&self) -> u32 {
        self.rect_grundy(0, self.rows, 0, self.cols)
    }

    /// Moves of the whole board that leave a Grundy-0 position, row-major. The bands left
    /// in place by the DP are those of the last column range, the whole width.
    pub fn winning_moves(&self) -> Vec<(usize, usize)> {
        let (n, w) = (self.rows + 1, self.cols);
        let b = &self.bands;
        let value = |i: usize, j: usize| b.by_top[i * w + j] ^ b.by_bottom[(self.rows * n + i + 1) * w + j];
        let cells = (0..self.rows).flat_map(|i| (0..self.cols).map(move |j| (i, j)));
        cells.filter(|&(i, j)| self.free[i * self.cols + j] == 1 && value(i, j) == 0).collect()
    }

    /// Prepares the band block for column range [c0, c1): zero empty bands, copy free flags.
    fn start_column_range(&mut self, c0: usize, c1: usize) {
        let (n, w) = (self.rows + 1, c1 - c0);
        let bands = &mut self.bands;
        bands.width = w;
        for a in 0..n {
            bands.by_top[(a * n + a) * w..][..w].fill(0);
            bands.by_bottom[(a * n + a) * w..][..w].fill(0);
        }
        for i in 0..self.rows {
            bands.free[i * w..][..w].copy_from_slice(&self.free[i * self.cols + c0..i * self.cols + c1]);
        }
    }

    /// Computes the band row and the Grundy value of [a, b) × [c0, c1).
    fn fill(&mut self, a: usize, b: usize, c0: usize, c1: usize, prefix: &XPrefix) {
        let (n, w) = (self.rows + 1, c1 - c0);
        // g(a..b, c0..j) for j = c0..c1 and g(a..b, j+1..c1) for j = c0..c1, both contiguous.
        let lefts = &self.by_right[self.gidx(a, b, c0, c0)..][..w];
        let rights = &self.by_left[self.gidx(a, b, c1, c0 + 1)..][..w];
        let top_row = (a * n + b) * w;
        let bottom_row = (b * n + a) * w;
        for k in 0..w {
            let v = lefts[k] ^ rights[k];
            self.bands.by_top[top_row + k] = v;
            self.bands.by_bottom[bottom_row + k] = v;
        }
        let value = if prefix.is_free(a, b, c0, c1) {
            empty_grundy(b - a, w)
        } else {
            self.bands.mex_of_moves(n, a, b)
        };
        let (right_at, left_at) = (self.gidx(a, b, c0, c1), self.gidx(a, b, c1, c0));
        self.by_right[right_at] = value;
        self.by_left[left_at] = value;
    }
}

impl Bands {
    /// Mex of the option values of every free cell of the rows [a, b) of this column range:
    /// the move at (i, k) is worth band(a, i)[k] ^ band(i + 1, b)[k].
    fn mex_of_moves(&self, n: usize, a: usize, b: usize) -> u16 {
        let len = (b - a) * self.width;
        let tops = &self.by_top[(a * n + a) * self.width..][..len];
        let bottoms = &self.by_bottom[(b * n + a + 1) * self.width..][..len];
        let free = &self.free[a * self.width..][..len];
        let (mut seen, mut largest) = (0u64, 0u16);
        for k in 0..len {
            let v = tops[k] ^ bottoms[k];
            largest = largest.max(v * free[k]);
            seen |= (free[k] as u64) << (v & 63);
        }
        if largest < 64 {
            return (!seen).trailing_zeros() as u16;
        }
        // Rare: option values of 64 or more; recount exactly.
        let mut mex = Mex::default();
        for k in (0..len).filter(|&k| free[k] == 1) {
            mex.insert(tops[k] ^ bottoms[k]);
        }
        mex.value()
    }
}

/// Solves a whole board: Grundy value and winning moves.
pub fn solve(board: &Board) -> Solution {
    let dp = RectDp::new(board);
    Solution { grundy: dp.grundy(), winning_moves: dp.winning_moves() }
}

/// Minimum excludant of a set of small values (a 64-bit fast path, exact beyond it).
#[derive(Default)]
struct Mex {
    low: u64,
    high: Vec<u16>,
}

impl Mex {
    #[inline]
    fn insert(&mut self, v: u16) {
        if v < 64 {
            self.low |= 1 << v;
        } else {
            self.high.push(v);
        }
    }

    fn value(mut self) -> u16 {
        let low = (!self.low).trailing_zeros() as u16;
        if low < 64 {
            return low;
        }
        self.high.sort_unstable();
        self.high.dedup();
        let mut m = 64;
        for v in self.high {
            if v == m {
                m += 1;
            } else if v > m {
                break;
            }
        }
        m
    }
}

/// 2-D prefix counts of X cells, to spot X-free rectangles in O(1).
struct XPrefix {
    cols: usize,
    sums: Vec<u16>,
}

impl XPrefix {
    fn new(board: &Board) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let mut sums = vec![0u16; (rows + 1) * (cols + 1)];
        for r in 0..rows {
            for c in 0..cols {
                sums[(r + 1) * (cols + 1) + c + 1] = board.is_x(r, c) as u16
                    + sums[r * (cols + 1) + c + 1]
                    + sums[(r + 1) * (cols + 1) + c]
                    - sums[r * (cols + 1) + c];
            }
        }
        XPrefix { cols: cols + 1, sums }
    }

    fn is_free(&self, a: usize, b: usize, c0: usize, c1: usize) -> bool {
        let s = |r: usize, c: usize| self.sums[r * self.cols + c];
        s(b, c1) + s(a, c0) == s(a, c1) + s(b, c0)
    }
}

/// Grundy value of an X-free h×w rectangle (depends only on its size), 1 ≤ h, w ≤ 20.
pub fn empty_grundy(h: usize, w: usize) -> u16 {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let n = MAX_SIDE + 1;
        let mut t = vec![0u16; n * n];
        for h in 1..n {
            for w in 1..n {
                let mut mex = Mex::default();
                for i in 0..h {
                    for j in 0..w {
                        let q = |a: usize, b: usize| t[a * n + b];
                        mex.insert(q(i, j) ^ q(i, w - 1 - j) ^ q(h - 1 - i, j) ^ q(h - 1 - i, w - 1 - j));
                    }
                }
                t[h * n + w] = mex.value();
            }
        }
        t
    });
    table[h * (MAX_SIDE + 1) + w]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grundy(text: &str) -> u32 {
        solve(&Board::from_slashed(text).unwrap()).grundy
    }

    #[test]
    fn problem_samples() {
        assert_eq!(grundy("../.."), 0);
        assert_ne!(grundy("X./.."), 0);
        assert_ne!(grundy("X..../...X./...../....."), 0);
    }

    #[test]
    fn winning_moves_lead_to_zero() {
        let board = Board::from_slashed("X./..").unwrap();
        let sol = solve(&board);
        assert_eq!(sol.winning_moves, vec![(1, 1)]);
    }

    #[test]
    fn empty_table_matches_full_dp() {
        for h in 1..=6 {
            for w in 1..=6 {
                let board = Board::empty(crate::games::wall::board::Shape::new(h, w));
                assert_eq!(RectDp::new(&board).grundy(), empty_grundy(h, w) as u32, "{h}x{w}");
            }
        }
    }

    #[test]
    fn mex_beyond_64() {
        let mut m = Mex::default();
        for v in (0..64).chain([65, 64, 67]) {
            m.insert(v);
        }
        assert_eq!(m.value(), 66);
    }
}
