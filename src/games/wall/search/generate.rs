//! Input generators for stress runs: exhaustive (every pattern, smallest first), random (the
//! whole legal range, boundaries included) and adversarial (largest boards; second-player
//! wins that contain sub-rectangles of large Grundy value).

use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::claim::dp::RectDp;
use crate::games::wall::search;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every X-pattern of every shape up to `max` (cells < 64), by cells, then rows, then X mask.
pub fn exhaustive(max: Shape) -> impl Iterator<Item = Board> + Send {
    let mut shapes: Vec<Shape> =
        (1..=max.rows).flat_map(|h| (1..=max.cols).map(move |w| Shape::new(h, w))).filter(|s| s.cells() < 64).collect();
    shapes.sort_by_key(|s| (s.cells(), s.rows));
    shapes.into_iter().flat_map(|s| (0..1u64 << s.cells()).map(move |x| Board::from_mask(s, x)))
}

/// Random boards: sides grow with the case number up to `max_side` (first cases small), one
/// side in eight is a boundary (1 or the largest), densities span 0..1 with all-free and
/// all-X boards included.
pub fn random(seed: u64, max_side: usize) -> impl Iterator<Item = Board> + Send {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0u64..).map(move |i| {
        let cap = (2 + i as usize / 64).min(max_side);
        let mut side = || match rng.random_range(0..8) {
            0 => *[1, cap].get(rng.random_range(0..2)).expect("two choices"),
            _ => rng.random_range(1..=cap),
        };
        let shape = Shape::new(side(), side());
        let density = match rng.random_range(0..10) {
            0 => 0.0,
            1 => 1.0,
            _ => rng.random::<f64>(),
        };
        random_board(&mut rng, shape, density)
    })
}

/// A board of `shape` whose cells are X with probability `density`.
pub fn random_board(rng: &mut impl Rng, shape: Shape, density: f64) -> Board {
    let mut board = Board::empty(shape);
    for r in 0..shape.rows {
        for c in 0..shape.cols {
            board.set_x(r, c, rng.random_bool(density.clamp(0.0, 1.0)));
        }
    }
    board
}

/// Adversarial boards: first the extreme boards of the largest size, then the committed best
/// boards of the Grundy search and their second-player-win windows, then, forever, for a
/// seeded random 20×20 board the largest second-player-win sub-board with the largest
/// Grundy value inside.
pub fn adversarial(seed: u64) -> impl Iterator<Item = Board> + Send {
    let big = Shape::new(MAX_SIDE, MAX_SIDE);
    let mut full = Board::empty(big);
    (0..MAX_SIDE).for_each(|r| (0..MAX_SIDE).for_each(|c| full.set_x(r, c, true)));
    let mut one_free = full.clone();
    one_free.set_x(MAX_SIDE - 1, MAX_SIDE - 1, false);
    let extremes = vec![
        Board::empty(big),
        full,
        one_free,
        Board::empty(Shape::new(1, MAX_SIDE)),
        Board::empty(Shape::new(MAX_SIDE, 1)),
    ];
    let known: Vec<Board> = search::best_known().into_iter().flat_map(|b| [p_window(&b).map(|w| w.board), Some(b)]).flatten().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let windows = std::iter::repeat_with(move || {
        let density = rng.random_range(0.0..0.6);
        let board = random_board(&mut rng, big, density);
        p_window(&board).map_or(board, |w| w.board)
    });
    extremes.into_iter().chain(known).chain(windows)
}

/// A second-player-win sub-board and the largest Grundy value of a rectangle inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub board: Board,
    pub inner_max: u32,
}

/// Of the sub-boards of `board` whose Grundy value is 0, the one with the largest Grundy
/// value of a rectangle inside (then the largest area, then the first); `None` when no
/// sub-board with a free cell has value 0.
pub fn p_window(board: &Board) -> Option<Window> {
    let dp = RectDp::new(board);
    let (rows, cols) = (board.rows(), board.cols());
    let inner = InnerMax::new(&dp, rows, cols);
    let mut best: Option<(u32, usize, [usize; 4])> = None;
    for (a, b) in (0..rows).flat_map(|a| (a + 1..=rows).map(move |b| (a, b))) {
        for (c0, c1) in (0..cols).flat_map(|c0| (c0 + 1..=cols).map(move |c1| (c0, c1))) {
            if dp.rect_grundy(a, b, c0, c1) != 0 {
                continue;
            }
            let key = (inner.get(a, b, c0, c1), (b - a) * (c1 - c0));
            if best.is_none_or(|(m, area, _)| key > (m, area)) {
                best = Some((key.0, key.1, [a, b, c0, c1]));
            }
        }
    }
    let (inner_max, _, [a, b, c0, c1]) = best.filter(|&(m, _, _)| m > 0)?;
    let window = board.select(&(a..b).collect::<Vec<_>>(), &(c0..c1).collect::<Vec<_>>());
    Some(Window { board: window, inner_max })
}

/// The largest Grundy value of a rectangle inside each rectangle of a board.
pub struct InnerMax {
    n: usize,
    m: usize,
    max: Vec<u16>,
}

impl InnerMax {
    pub fn new(dp: &RectDp, rows: usize, cols: usize) -> Self {
        let (n, m) = (rows + 1, cols + 1);
        let mut max = vec![0u16; n * n * m * m];
        let at = |a: usize, b: usize, c0: usize, c1: usize| ((a * n + b) * m + c0) * m + c1;
        for (h, w) in (1..=rows).flat_map(|h| (1..=cols).map(move |w| (h, w))) {
            for (a, c0) in (0..=rows - h).flat_map(|a| (0..=cols - w).map(move |c0| (a, c0))) {
                let (b, c1) = (a + h, c0 + w);
                let own = dp.rect_grundy(a, b, c0, c1) as u16;
                let parts = [at(a + 1, b, c0, c1), at(a, b - 1, c0, c1), at(a, b, c0 + 1, c1), at(a, b, c0, c1 - 1)];
                max[at(a, b, c0, c1)] = parts.iter().map(|&i| max[i]).fold(own, u16::max);
            }
        }
        InnerMax { n, m, max }
    }

    pub fn get(&self, a: usize, b: usize, c0: usize, c1: usize) -> u32 {
        self.max[((a * self.n + b) * self.m + c0) * self.m + c1] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhaustive_is_smallest_first_and_complete() {
        let boards: Vec<Board> = exhaustive(Shape::new(2, 2)).collect();
        assert_eq!(boards.len(), 2 + 4 + 4 + 16);
        assert_eq!(boards[0].to_slashed(), ".");
        assert_eq!(boards[2].to_slashed(), "..");
        assert_eq!(boards[6].to_slashed(), "./.");
        assert!(boards.windows(2).all(|w| w[0].shape().cells() <= w[1].shape().cells()));
    }

    #[test]
    fn random_is_seeded_and_reaches_the_boundaries() {
        let a: Vec<Board> = random(7, 20).take(3000).collect();
        assert_eq!(a[..50], random(7, 20).take(50).collect::<Vec<_>>()[..]);
        assert!(a[..64].iter().all(|b| b.rows() <= 2 && b.cols() <= 2));
        assert!(a.iter().any(|b| b.rows() == 20) && a.iter().any(|b| b.cols() == 1));
        assert!(a.iter().any(|b| b.rows() > 5 && b.x_count() == 0));
        assert!(a.iter().any(|b| b.rows() > 5 && b.x_count() == b.shape().cells()));
    }

    #[test]
    fn windows_are_second_player_wins_with_a_large_value_inside() {
        let board = Board::from_slashed("..../..../....").unwrap();
        let w = p_window(&board).unwrap();
        assert_eq!(RectDp::new(&w.board).grundy(), 0);
        let inner = RectDp::new(&w.board);
        let (rows, cols) = (w.board.rows(), w.board.cols());
        let mut top = 0;
        for (a, b) in (0..rows).flat_map(|a| (a + 1..=rows).map(move |b| (a, b))) {
            for (c0, c1) in (0..cols).flat_map(|c0| (c0 + 1..=cols).map(move |c1| (c0, c1))) {
                top = top.max(inner.rect_grundy(a, b, c0, c1));
            }
        }
        assert_eq!(top, w.inner_max);
        assert!(w.inner_max >= 1);
    }
}
