//! Cost model of the wall game's engines: how many whole-board positions the naive search can
//! visit, and measured per-pattern rates, so that hopeless runs are refused before they start.
//!
//! The naive oracle memoizes every wall mask it reaches. From a wall-bounded rectangle, the first
//! move made inside it walls a cross and leaves four rectangles that fill independently, so the
//! positions reachable inside a rectangle R number at most
//! S(R) = 1 + Σ over free cells c of R of Π S(quadrant of R at c) — an upper bound (some wall
//! masks arise from several first moves). Under t-split the first move leaves three rectangles
//! (the band above it and two below), and the product runs over those. Under the x-blocks rule
//! rays stop at X cells and the bound is 2^(free cells) instead. This model is only an estimate for refusing runs: the oracle
//! never uses it.

use crate::games::wall::board::{Board, Shape};
use crate::games::wall::board::rules::Rule;
use crate::error::Result;
use crate::runner;

/// Bytes the naive search keeps per position it visits: two hash maps (Grundy value and
/// outcome) of 64-bit keys, 17 bytes a slot each at hashbrown's load of 44–88 %.
pub const NAIVE_BYTES_PER_POSITION: f64 = 56.0;

/// Core-seconds `solve --engine naive` spends per position visited (both searches), measured
/// on X-free 5×6, 6×6 and 6×7 boards: 0.61, 0.64 and 0.71 µs (a busy machine; rounded up).
pub const NAIVE_SECONDS_PER_POSITION: f64 = 0.75e-6;

/// How far the bound overcounts on X-free boards, measured by counting the positions the search
/// really visits: 4.6× at 16 cells, 6.1× at 20, 8.5× at 25, 11.9× at 30, 16.9× at 36 and 25.8×
/// at 42, i.e. about 4.6·e^(0.066·(cells − 16)); under t-split 15.6× at 16, 22.4× at 20, 52× at
/// 25, 81× at 30 and 224× at 36, about 15.6·e^(0.133·(cells − 16)). Boards with X cells
/// overcount less.
fn overcount(cells: usize, rule: Rule) -> f64 {
    let (at_16, growth) = match rule {
        Rule::TSplit => (15.6, 0.133),
        Rule::Standard | Rule::Misere | Rule::XBlocks => (4.6, 0.066),
    };
    (at_16 * (growth * (cells as f64 - 16.0)).exp()).max(1.0)
}

/// Expected whole-board positions the naive search visits on `board`: the bound divided by
/// the overcount measured on X-free boards of as many cells (an estimate, not a bound).
pub fn naive_positions_estimate(board: &Board, rule: Rule) -> f64 {
    (naive_positions_bound(board, rule) / overcount(board.shape().cells(), rule)).max(1.0)
}

/// Upper bound on the whole-board positions the naive search visits on `board` under `rule`.
pub fn naive_positions_bound(board: &Board, rule: Rule) -> f64 {
    let free = board.shape().cells() - board.x_count();
    match rule {
        Rule::Standard | Rule::Misere | Rule::TSplit => RectangleCount::new(board, rule).whole(),
        // X cells never become wall: a position is a set of walled free cells.
        Rule::XBlocks => 2f64.powi(free as i32),
    }
}

/// Estimated core-seconds and peak bytes of the naive search on `board`.
pub fn naive_cost(board: &Board, rule: Rule) -> (f64, f64) {
    let positions = naive_positions_estimate(board, rule);
    (positions * NAIVE_SECONDS_PER_POSITION, positions * NAIVE_BYTES_PER_POSITION)
}

/// Core-nanoseconds per pattern of `verify wall` on `shape` with the table engine (both sides
/// from tables, symmetry-reduced), from committed runs: 6×6 34 ns, 5×6 45 ns; 60 ns is the
/// ceiling used for estimates of every size the table engine handles.
pub const TABLE_ENGINE_NS_PER_PATTERN: f64 = 60.0;

/// Core-seconds per pattern of the census engine on `shape`, tables included (docs/census.md):
/// 6×6 14.3 core-s / 2^36 = 0.21 ns, 6×7 1,107 core-s / 2^42 = 0.25 ns, 5×8 0.11 ns; one 7×7
/// shard measured 0.66 ns (the 6×6 corner values are computed per middle pattern there).
/// Rounded up: 0.4 ns up to 42 cells, 1 ns beyond.
pub fn census_seconds_per_pattern(shape: Shape) -> f64 {
    if shape.cells() <= 42 {
        0.4e-9
    } else {
        1e-9
    }
}

/// Estimated core-seconds per pattern of `shape` on the per-board reference engine: the naive
/// search of the X-free board (the most positions a pattern of the shape can have; every rule
/// plays the standard moves there, but for t-split's shorter rays) plus the DP.
pub fn reference_seconds_per_pattern(shape: Shape) -> f64 {
    naive_cost(&Board::empty(shape), Rule::Standard).0 + 1e-6
}

/// Memoized S(R) over the sub-rectangles of one board.
struct RectangleCount<'b> {
    board: &'b Board,
    /// Whether a move's rays run up too (four pieces) or not (t-split: three).
    rays_up: bool,
    /// S by (top, bottom, left, right), half-open; NaN when not yet computed.
    memo: Vec<f64>,
}

impl<'b> RectangleCount<'b> {
    fn new(board: &'b Board, rule: Rule) -> Self {
        let (h, w) = (board.rows() + 1, board.cols() + 1);
        RectangleCount { board, rays_up: rule != Rule::TSplit, memo: vec![f64::NAN; h * h * w * w] }
    }

    fn whole(&mut self) -> f64 {
        self.count(0, self.board.rows(), 0, self.board.cols())
    }

    fn index(&self, top: usize, bottom: usize, left: usize, right: usize) -> usize {
        let (h, w) = (self.board.rows() + 1, self.board.cols() + 1);
        ((top * h + bottom) * w + left) * w + right
    }

    fn count(&mut self, top: usize, bottom: usize, left: usize, right: usize) -> f64 {
        if top >= bottom || left >= right {
            return 1.0;
        }
        let at = self.index(top, bottom, left, right);
        if !self.memo[at].is_nan() {
            return self.memo[at];
        }
        let mut total = 1.0;
        for r in top..bottom {
            for c in (left..right).filter(|&c| !self.board.is_x(r, c)) {
                let above = match self.rays_up {
                    true => self.count(top, r, left, c) * self.count(top, r, c + 1, right),
                    false => self.count(top, r, left, right),
                };
                total += above * self.count(r + 1, bottom, left, c) * self.count(r + 1, bottom, c + 1, right);
            }
        }
        self.memo[at] = total;
        total
    }
}

/// What the naive engine may spend on one board: the memory available, and a day unless forced.
#[derive(Debug, Clone, Copy)]
pub struct NaiveLimits {
    pub memory: Option<u64>,
    pub force: bool,
}

impl NaiveLimits {
    /// Refuses a board whose estimated search will not fit (or, unless forced, takes more than a
    /// day); otherwise the most positions the search may hold. `claim_false`: the claim is
    /// known false under `rule` (the refusal's advice says so).
    pub fn check(self, board: &Board, rule: Rule, claim_false: bool) -> Result<usize> {
        if !board.shape().fits_mask() {
            return Ok(usize::MAX); // the oracle refuses it, naming its 64-cell limit
        }
        let (seconds, bytes) = naive_cost(board, rule);
        let what = format!("the whole-board search of this {} board ({} X)", board.shape(), board.x_count());
        let advice = match claim_false {
            true => "--engine claim gives the claim's answer, known false under these rules",
            false => "use the claim (--engine claim, the default)",
        };
        runner::cost::search_memo_cap(&what, seconds, bytes, NAIVE_BYTES_PER_POSITION, self.memory, self.force, advice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::naive;

    #[test]
    fn the_bound_holds_on_every_small_board() {
        for (h, w) in [(1, 4), (2, 3), (3, 3), (2, 5), (3, 4)] {
            let shape = Shape::new(h, w);
            for x in 0..1u64 << shape.cells() {
                let board = Board::from_mask(shape, x);
                for rule in Rule::ALL {
                    let visited = naive::positions_visited(&board, rule).unwrap() as f64;
                    let bound = naive_positions_bound(&board, rule);
                    assert!(visited <= bound, "{} {rule}: {visited} > {bound}", board.to_slashed());
                }
            }
        }
    }

    #[test]
    fn the_bound_is_close_on_empty_boards() {
        for (rule, slack) in [(Rule::Standard, 20.0), (Rule::TSplit, 100.0)] {
            for (h, w) in [(3, 3), (4, 4), (4, 5), (5, 5), (5, 6)] {
                let board = Board::empty(Shape::new(h, w));
                let visited = naive::positions_visited(&board, rule).unwrap() as f64;
                let bound = naive_positions_bound(&board, rule);
                assert!(bound < slack * visited, "{h}x{w} {rule}: bound {bound}, visited {visited}");
                let estimate = naive_positions_estimate(&board, rule);
                assert!((0.5..2.0).contains(&(estimate / visited)), "{h}x{w} {rule}: estimate {estimate}, visited {visited}");
            }
        }
    }

    #[test]
    fn a_t_split_board_with_few_free_cells_is_cheap() {
        // 26 X, 10 free cells: the search visits a few hundred positions (an audit found it
        // refused at 208 GiB when the t-split bound was 2^cells).
        let board = Board::from_slashed("XXXXXX/XX..../XX..XX/.XXXXX/.X.XXX/XX.XXX").unwrap();
        let visited = naive::positions_visited(&board, Rule::TSplit).unwrap() as f64;
        assert!(visited <= naive_positions_bound(&board, Rule::TSplit));
        let (seconds, bytes) = naive_cost(&board, Rule::TSplit);
        assert!(seconds < 1.0 && bytes < 1e9, "{seconds} s, {bytes} bytes");
    }

    #[test]
    fn large_empty_boards_are_hopeless_for_the_naive_search() {
        let (_, bytes) = naive_cost(&Board::empty(Shape::new(8, 8)), Rule::Standard);
        assert!(bytes > 32e9, "{bytes} bytes");
        let (seconds, _) = naive_cost(&Board::empty(Shape::new(3, 3)), Rule::Standard);
        assert!(seconds < 0.01);
    }
}
