//! Rectangle DP (the decomposition claim): Grundy value of every sub-rectangle, bottom-up.
//!
//! A move at (i, j) in a wall-bounded rectangle leaves four independent rectangles, so
//! g(rect) = mex over non-X cells of g(UL) ^ g(UR) ^ g(LL) ^ g(LR). For speed the DP works one
//! column range [c0, c1) at a time and keeps, for every row band [a, b), the values
//! `g(a..b, c0..j) ^ g(a..b, j+1..c1)` at the free cells where moves use them ([`Packed`]);
//! a move's option value is one XOR, and a rectangle's moves lie contiguously, so each mex
//! is one flat loop over its free cells.

use super::board::{Board, MAX_SIDE};
use super::mex::Mex;
use super::packed::Packed;
use std::sync::OnceLock;

/// Grundy values of all sub-rectangles of one board.
pub struct RectDp {
    rows: usize,
    cols: usize,
    /// by_right[right_at(a, b, c0, c1)] = g([a, b) × [c0, c1)): by c0, then row pair, then c1.
    by_right: Vec<u16>,
    /// by_left[left_at(a, b, c0, c1)] = the same values: by c1, then row pair, then c0.
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

impl RectDp {
    /// Runs the DP over every sub-rectangle of `board` (any size up to 20×20).
    pub fn new(board: &Board) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let row_pairs = rows * (rows + 1) / 2;
        let entries = (cols + 1) * row_pairs * (cols + 1);
        let mut height_start = [0u16; MAX_SIDE + 1];
        for h in 2..=rows {
            height_start[h] = height_start[h - 1] + (rows + 2 - h) as u16;
        }
        let mut dp = RectDp {
            rows,
            cols,
            by_right: vec![0; entries],
            by_left: vec![0; entries],
            height_start,
            row_pairs,
            bands: Packed::new(rows, cols, crate::bits::avx2_available()),
        };
        let prefix = XPrefix::new(board);
        // Ranges by falling c0, then rising c1: [c0, j) and [j+1, c1) come before [c0, c1),
        // and [0, cols) comes last.
        for c0 in (0..cols).rev() {
            for c1 in c0 + 1..=cols {
                // A strip without X needs no bands (all its rectangles are X-free), except
                // the last, whose bands give the winning moves.
                let banded = !prefix.is_free(0, rows, c0, c1) || (c0, c1) == (0, cols);
                if banded {
                    dp.bands.start_range(c0, c1, |r, c| board.is_x(r, c));
                }
                for h in 1..=rows {
                    for a in 0..=rows - h {
                        dp.fill(a, a + h, c0, c1, &prefix, banded);
                    }
                }
            }
        }
        dp
    }

    #[inline]
    fn row_pair(&self, a: usize, b: usize) -> usize {
        self.height_start[b - a] as usize + a
    }

    #[inline]
    fn right_at(&self, a: usize, b: usize, c0: usize, c1: usize) -> usize {
        (c0 * self.row_pairs + self.row_pair(a, b)) * (self.cols + 1) + c1
    }

    #[inline]
    fn left_at(&self, a: usize, b: usize, c0: usize, c1: usize) -> usize {
        (c1 * self.row_pairs + self.row_pair(a, b)) * (self.cols + 1) + c0
    }

    /// Grundy value of the half-open sub-rectangle [r0, r1) × [c0, c1) (0 when empty).
    pub fn rect_grundy(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        assert!(r0 <= r1 && r1 <= self.rows && c0 <= c1 && c1 <= self.cols, "rectangle out of the board");
        if r0 == r1 || c0 == c1 {
            return 0;
        }
        self.by_right[self.right_at(r0, r1, c0, c1)] as u32
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

    /// Stores the band of [a, b) × [c0, c1) and computes the rectangle's Grundy value.
    fn fill(&mut self, a: usize, b: usize, c0: usize, c1: usize, prefix: &XPrefix, banded: bool) {
        let w = c1 - c0;
        // g(a..b, c0..j) for j = c0..c1 and g(a..b, j+1..c1) for j = c0..c1, both contiguous.
        let lefts = &self.by_right[self.right_at(a, b, c0, c0)..][..w];
        let rights = &self.by_left[self.left_at(a, b, c0 + 1, c1)..][..w];
        if banded {
            self.bands.store_band(a, b, lefts, rights);
        }
        let value = if prefix.is_free(a, b, c0, c1) { empty_grundy(b - a, w) } else { self.bands.mex_of_moves(a, b) };
        let (right_at, left_at) = (self.right_at(a, b, c0, c1), self.left_at(a, b, c0, c1));
        self.by_right[right_at] = value;
        self.by_left[left_at] = value;
    }
}

/// Solves a whole board: Grundy value and winning moves.
pub fn solve(board: &Board) -> Solution {
    let dp = RectDp::new(board);
    Solution { grundy: dp.grundy(), winning_moves: dp.winning_moves() }
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

    /// The seed's top-down recursion, for cross-checking the packed band DP.
    fn seed_grundy(board: &Board, memo: &mut std::collections::HashMap<[usize; 4], u32>, r: [usize; 4]) -> u32 {
        let [r0, r1, c0, c1] = r;
        if r0 >= r1 || c0 >= c1 {
            return 0;
        }
        if let Some(&v) = memo.get(&r) {
            return v;
        }
        let mut mex = Mex::default();
        for (i, j) in (r0..r1).flat_map(|i| (c0..c1).map(move |j| (i, j))).filter(|&(i, j)| !board.is_x(i, j)) {
            let mut g = |q| seed_grundy(board, memo, q);
            mex.insert((g([r0, i, c0, j]) ^ g([r0, i, j + 1, c1]) ^ g([i + 1, r1, c0, j]) ^ g([i + 1, r1, j + 1, c1])) as u16);
        }
        let v = mex.value() as u32;
        memo.insert(r, v);
        v
    }

    #[test]
    fn every_rectangle_matches_the_seed_recursion() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
        for _ in 0..40 {
            let shape = crate::games::wall::board::Shape::new(rng.random_range(1..=9), rng.random_range(1..=9));
            let density = rng.random::<f64>();
            let board = crate::games::wall::generate::random_board(&mut rng, shape, density);
            let dp = RectDp::new(&board);
            let mut memo = std::collections::HashMap::new();
            for (a, b) in (0..shape.rows).flat_map(|a| (a + 1..=shape.rows).map(move |b| (a, b))) {
                for (c0, c1) in (0..shape.cols).flat_map(|c0| (c0 + 1..=shape.cols).map(move |c1| (c0, c1))) {
                    assert_eq!(dp.rect_grundy(a, b, c0, c1), seed_grundy(&board, &mut memo, [a, b, c0, c1]), "{}", board.to_slashed());
                }
            }
        }
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
}
