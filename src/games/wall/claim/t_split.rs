//! Claimed engine of the t-split rule: a rectangle DP where a move leaves three rectangles.
//!
//! Under t-split a move at (i, j) walls its row segment and its downward ray, so inside a
//! wall-bounded rectangle [a, b) × [c0, c1) it leaves the band above, [a, i) × [c0, c1), and
//! the two rectangles below, [i+1, b) × [c0, j) and [i+1, b) × [j+1, c1). The claim is
//! g(rect) = mex over non-X cells of the XOR of those three values.

use crate::games::wall::board::Board;
use super::dp::Solution;

/// Grundy values of all sub-rectangles of one board under the t-split claim.
pub struct TSplitDp {
    rows: usize,
    cols: usize,
    /// g[idx(a, b, c0, c1)] for the half-open rectangle [a, b) × [c0, c1); 0 when empty.
    g: Vec<u16>,
    marked: Vec<bool>,
}

impl TSplitDp {
    /// Runs the DP over every sub-rectangle of `board` (any size up to 20×20).
    pub fn new(board: &Board) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let entries = (rows + 1) * (rows + 1) * (cols + 1) * (cols + 1);
        let marked = (0..rows * cols).map(|i| board.is_x(i / cols, i % cols)).collect();
        let mut dp = TSplitDp { rows, cols, g: vec![0; entries], marked };
        for h in 1..=rows {
            for w in 1..=cols {
                for a in 0..=rows - h {
                    for c0 in 0..=cols - w {
                        let value = dp.mex_over_cells(a, a + h, c0, c0 + w);
                        let here = dp.idx(a, a + h, c0, c0 + w);
                        dp.g[here] = value;
                    }
                }
            }
        }
        dp
    }

    fn idx(&self, a: usize, b: usize, c0: usize, c1: usize) -> usize {
        ((a * (self.rows + 1) + b) * (self.cols + 1) + c0) * (self.cols + 1) + c1
    }

    /// Value of the position after choosing (i, j) inside the rectangle [a, b) × [c0, c1).
    fn option_value(&self, (a, b, c0, c1): (usize, usize, usize, usize), i: usize, j: usize) -> u16 {
        self.g[self.idx(a, i, c0, c1)] ^ self.g[self.idx(i + 1, b, c0, j)] ^ self.g[self.idx(i + 1, b, j + 1, c1)]
    }

    fn mex_over_cells(&self, a: usize, b: usize, c0: usize, c1: usize) -> u16 {
        // At most 400 options, so the mex is at most 400: a 448-bit set suffices.
        let mut seen = [0u64; 7];
        for i in a..b {
            for j in (c0..c1).filter(|&j| !self.marked[i * self.cols + j]) {
                let v = self.option_value((a, b, c0, c1), i, j) as usize;
                seen[v / 64] |= 1 << (v % 64);
            }
        }
        let word = seen.iter().position(|&w| w != u64::MAX).expect("mex below 448");
        (word * 64) as u16 + (!seen[word]).trailing_zeros() as u16
    }

    /// Grundy value of the whole board.
    pub fn grundy(&self) -> u32 {
        self.g[self.idx(0, self.rows, 0, self.cols)] as u32
    }

    /// Moves of the whole board that leave a Grundy-0 position, row-major.
    pub fn winning_moves(&self) -> Vec<(usize, usize)> {
        let whole = (0, self.rows, 0, self.cols);
        let cells = (0..self.rows).flat_map(|i| (0..self.cols).map(move |j| (i, j)));
        cells.filter(|&(i, j)| !self.marked[i * self.cols + j] && self.option_value(whole, i, j) == 0).collect()
    }
}

/// Solves a whole board under the t-split claim: Grundy value and winning moves.
pub fn solve(board: &Board) -> Solution {
    let dp = TSplitDp::new(board);
    Solution { grundy: dp.grundy(), winning_moves: dp.winning_moves() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::board::Shape;

    fn grundy(text: &str) -> u32 {
        TSplitDp::new(&Board::from_slashed(text).unwrap()).grundy()
    }

    #[test]
    fn a_column_is_a_nim_heap_of_its_height() {
        // Choosing row i of an h×1 column leaves the i cells above: options 0..h, mex h.
        for h in 1..=20 {
            assert_eq!(TSplitDp::new(&Board::empty(Shape::new(h, 1))).grundy(), h as u32);
        }
    }

    #[test]
    fn a_row_is_one_move() {
        assert_eq!(grundy("....."), 1);
        assert_eq!(grundy("X.X.."), 1);
        assert_eq!(grundy("XXX"), 0);
    }

    #[test]
    fn small_boards_by_hand() {
        // 2x2: a top move leaves one cell below (value 1); a bottom move leaves the top row
        // (value 1). So g = mex{1} = 0.
        assert_eq!(grundy("../.."), 0);
        // 2x1 with the top X: only the bottom can be chosen, leaving the X: value 0, mex 1.
        assert_eq!(grundy("X/."), 1);
        let sol = solve(&Board::from_slashed("../..").unwrap());
        assert!(sol.winning_moves.is_empty());
    }
}
