//! Rectangle DP (the decomposition claim): Grundy value of every sub-rectangle, bottom-up.
//!
//! A move at (i, j) in a wall-bounded rectangle leaves four independent rectangles, so
//! g(rect) = mex over non-X cells of g(UL) ^ g(UR) ^ g(LL) ^ g(LR). For speed the DP keeps,
//! for every row band [a, b) and column range [c0, c1), the row of values
//! `g(a..b, c0..j) ^ g(a..b, j+1..c1)`; a cell's option value is then one XOR of two bands.

use super::board::{Board, MAX_SIDE};
use std::sync::OnceLock;

/// Grundy values of all sub-rectangles of one board.
pub struct RectDp {
    rows: usize,
    cols: usize,
    /// g[idx(a, b, c0, c1)] for the half-open rectangle [a, b) × [c0, c1).
    g: Vec<u16>,
    /// band[idx(a, b, c0, c1) * cols + (j - c0)] = g(a..b, c0..j) ^ g(a..b, j+1..c1).
    band: Vec<u16>,
    marked: Vec<bool>,
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
        let marked = (0..rows * cols).map(|i| board.is_x(i / cols, i % cols)).collect();
        let mut dp = RectDp { rows, cols, g: vec![0; entries], band: vec![0; entries * cols], marked };
        let prefix = XPrefix::new(board);
        for h in 1..=rows {
            for w in 1..=cols {
                for a in 0..=rows - h {
                    for c0 in 0..=cols - w {
                        dp.fill(a, a + h, c0, c0 + w, &prefix);
                    }
                }
            }
        }
        dp
    }

    fn idx(&self, a: usize, b: usize, c0: usize, c1: usize) -> usize {
        ((a * (self.rows + 1) + b) * (self.cols + 1) + c0) * (self.cols + 1) + c1
    }

    /// Grundy value of the half-open sub-rectangle [r0, r1) × [c0, c1) (0 when empty).
    pub fn rect_grundy(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        assert!(r0 <= r1 && r1 <= self.rows && c0 <= c1 && c1 <= self.cols, "rectangle out of the board");
        self.g[self.idx(r0, r1, c0, c1)] as u32
    }

    /// Grundy value of the whole board.
    pub fn grundy(&self) -> u32 {
        self.rect_grundy(0, self.rows, 0, self.cols)
    }

    /// Value of the position after choosing (i, j) in the whole board.
    fn option_value(&self, i: usize, j: usize) -> u16 {
        let top = self.idx(0, i, 0, self.cols) * self.cols;
        let bottom = self.idx(i + 1, self.rows, 0, self.cols) * self.cols;
        self.band[top + j] ^ self.band[bottom + j]
    }

    /// Moves of the whole board that leave a Grundy-0 position, row-major.
    pub fn winning_moves(&self) -> Vec<(usize, usize)> {
        let cells = (0..self.rows).flat_map(|i| (0..self.cols).map(move |j| (i, j)));
        cells.filter(|&(i, j)| !self.marked[i * self.cols + j] && self.option_value(i, j) == 0).collect()
    }

    /// Computes the band row and the Grundy value of [a, b) × [c0, c1).
    fn fill(&mut self, a: usize, b: usize, c0: usize, c1: usize, prefix: &XPrefix) {
        let here = self.idx(a, b, c0, c1);
        for j in c0..c1 {
            let v = self.g[self.idx(a, b, c0, j)] ^ self.g[self.idx(a, b, j + 1, c1)];
            self.band[here * self.cols + (j - c0)] = v;
        }
        self.g[here] = if prefix.is_free(a, b, c0, c1) {
            empty_grundy(b - a, c1 - c0)
        } else {
            self.mex_over_cells(a, b, c0, c1)
        };
    }

    fn mex_over_cells(&self, a: usize, b: usize, c0: usize, c1: usize) -> u16 {
        let mut mex = Mex::default();
        let w = c1 - c0;
        for i in a..b {
            let top = self.idx(a, i, c0, c1) * self.cols;
            let bottom = self.idx(i + 1, b, c0, c1) * self.cols;
            let tops = &self.band[top..top + w];
            let bottoms = &self.band[bottom..bottom + w];
            let marks = &self.marked[i * self.cols + c0..i * self.cols + c1];
            for ((&t, &u), &x) in tops.iter().zip(bottoms).zip(marks) {
                if !x {
                    mex.insert(t ^ u);
                }
            }
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
