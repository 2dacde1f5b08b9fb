//! The boards' shrinking order and each board's smaller neighbours in it: the one way a failing
//! board is reduced, by `verify wall --shrink` (against the naive oracle) and by `stress wall`
//! (against the program under test), so both reach the same board from the same one.
//!
//! Boards are ordered by cells, then X count, then rows, then their cells row-major with '.'
//! before X (the order of the slashed text), so the order is total. The smaller neighbours of
//! a board: it with one whole row or column dropped, with one X cleared, and a dropped board
//! with one cell flipped (so '.' → X can pay off when it comes with a drop). Shrinking moves to
//! the first still-failing neighbour in the order [`smaller_neighbours`] lists them until none
//! is left: every step goes down a well-founded order, so it ends; the board it ends on has no
//! failing smaller neighbour, and depends on the board it starts from alone.

use super::Board;
use rustc_hash::FxHashSet;
use std::cmp::Ordering;

/// A board's place in the shrinking order: cells, X count, rows, then the cells row-major
/// (`false` for '.', `true` for X).
pub type SizeKey = (usize, usize, usize, Vec<bool>);

/// A board's place in the shrinking order.
pub fn size_key(board: &Board) -> SizeKey {
    let (cells, xs, rows) = head(board);
    (cells, xs, rows, board.marked.clone())
}

/// Compares two boards in the shrinking order (as their [`size_key`]s compare).
pub fn shrink_order(a: &Board, b: &Board) -> Ordering {
    (head(a), &a.marked).cmp(&(head(b), &b.marked))
}

/// The order's leading part: cells, X count, rows.
fn head(board: &Board) -> (usize, usize, usize) {
    (board.shape.cells(), board.x_count(), board.shape.rows)
}

/// The neighbours of `board` smaller in the shrinking order, each once, in the order shrinking
/// tries them: the cuts first, which take a large board down fast (every row dropped, every
/// column dropped, every X cleared), then every drop with one cell flipped, smallest first
/// (built only when the cuts are used up).
pub fn smaller_neighbours(board: &Board) -> impl Iterator<Item = Board> + '_ {
    let dropped = dropped_lines(board);
    let cleared = (0..board.marked.len()).filter(|&i| board.marked[i]).map(|i| flipped(board, i));
    let drop_and_flip = std::iter::once(()).flat_map(move |()| {
        let mut keyed: Vec<((usize, usize, usize), Board)> =
            dropped_lines(board).iter().flat_map(|d| (0..d.marked.len()).map(|i| flipped(d, i))).map(|b| (head(&b), b)).collect();
        keyed.sort_unstable_by(|(h, a), (k, b)| (h, &a.marked).cmp(&(k, &b.marked)));
        keyed.into_iter().map(|(_, b)| b)
    });
    let mut seen = FxHashSet::default();
    dropped.into_iter().chain(cleared).chain(drop_and_flip).filter(move |b| seen.insert(b.clone()))
}

/// The board without one row, for every row, then without one column, for every column.
fn dropped_lines(board: &Board) -> Vec<Board> {
    let (rows, cols) = (board.rows(), board.cols());
    let all = |n: usize| (0..n).collect::<Vec<_>>();
    let without = |n: usize, skip: usize| (0..n).filter(|&i| i != skip).collect::<Vec<_>>();
    let row_drops = (0..rows).filter(|_| rows > 1).map(|skip| board.select(&without(rows, skip), &all(cols)));
    let col_drops = (0..cols).filter(|_| cols > 1).map(|skip| board.select(&all(rows), &without(cols, skip)));
    row_drops.chain(col_drops).collect()
}

/// `board` with cell `i` (row-major) flipped.
fn flipped(board: &Board, i: usize) -> Board {
    let mut out = board.clone();
    out.marked[i] = !out.marked[i];
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::board::Shape;

    fn board(text: &str) -> Board {
        Board::from_slashed(text).unwrap()
    }

    #[test]
    fn key_orders_like_cells_then_xs_then_rows_then_text() {
        let texts = ["XX/..", "X./..", ".X/..", "../X.", "../.X", "../..", ".X.", "./X/.", "XXX"];
        let boards: Vec<Board> = texts.iter().map(|t| board(t)).collect();
        let mut by_key = boards.clone();
        by_key.sort_by_key(size_key);
        let mut by_text = boards.clone();
        by_text.sort_by_key(|b| (b.shape().cells(), b.x_count(), b.rows(), b.to_slashed()));
        assert_eq!(by_key, by_text);
        assert_eq!(by_key[0].to_slashed(), ".X.");
        let mut by_order = boards;
        by_order.sort_by(shrink_order);
        assert_eq!(by_order, by_key);
    }

    #[test]
    fn neighbours_are_smaller_distinct_and_cuts_first() {
        let b = board("X./..");
        let texts: Vec<String> = smaller_neighbours(&b).map(|n| n.to_slashed()).collect();
        // Drops, the X cleared, then the drops with a flip not listed yet, smallest first; a
        // '.' → X flip alone (`XX/..`) is larger.
        assert_eq!(texts, ["..", "X.", "./.", "X/.", "../..", ".X", "./X", "XX", "X/X"]);
        assert!(smaller_neighbours(&board(".")).next().is_none());
        assert!(smaller_neighbours(&board("X")).eq([board(".")]));
    }

    #[test]
    fn drops_rows_and_columns() {
        let dropped = |text: &str| -> Vec<String> { dropped_lines(&board(text)).iter().map(Board::to_slashed).collect() };
        assert_eq!(dropped("X./.X/.."), [".X/..", "X./..", "X./.X", "./X/.", "X/./."]);
        assert_eq!(dropped("X.X/.XX"), [".XX", "X.X", ".X/XX", "XX/.X", "X./.X"]);
        assert!(dropped(".").is_empty());
    }

    #[test]
    fn boards_past_64_cells_have_neighbours_too() {
        let mut b = Board::empty(Shape::new(20, 20));
        b.set_x(19, 19, true);
        let n: Vec<Board> = smaller_neighbours(&b).collect();
        assert!(n.iter().all(|x| shrink_order(x, &b) == Ordering::Less));
        assert_eq!(n.iter().collect::<FxHashSet<_>>().len(), n.len());
        // Dropping any row but the last gives one board, the last row another; so for the
        // columns; then the X cleared.
        let mut row_dropped = Board::empty(Shape::new(19, 20));
        row_dropped.set_x(18, 19, true);
        assert_eq!(n[..5], [row_dropped, Board::empty(Shape::new(19, 20)), n[2].clone(), Board::empty(Shape::new(20, 19)), Board::empty(Shape::new(20, 20))]);
        assert_eq!((n[2].shape(), n[2].x_count()), (Shape::new(20, 19), 1));
        // Then the drops with a flip, smallest first: those without X are listed already.
        assert!(n[5..].windows(2).all(|w| shrink_order(&w[0], &w[1]) == Ordering::Less));
        assert_eq!((n[5].shape(), n[5].x_count()), (Shape::new(19, 20), 1));
    }
}
