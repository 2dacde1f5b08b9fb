//! The wall game's size order for the search for the smallest failing board (the shrinking
//! order of [`crate::games::wall::board::smaller`]: cells, X cells, rows, then the cells
//! row-major, '.' before X) and the parts a board's answer is built from: its proper
//! sub-rectangles, each a board of its own, with the Grundy value the rectangle DP gives it.

use crate::games::wall::board::{smaller, Board, Shape, MAX_SIDE};
use crate::games::wall::claim::dp::RectDp;
use crate::stress::order::masks;
use crate::stress::Parts;
use std::collections::HashSet;

/// The size of a board in the search's order: its [`smaller::size_key`] as numbers (cells, X
/// cells, rows, then one 0 or 1 per cell), so keys compare as [`smaller::shrink_order`].
pub fn size_key(board: &Board) -> Vec<u64> {
    let (cells, xs, rows, marked) = smaller::size_key(board);
    [cells, xs, rows].into_iter().map(|n| n as u64).chain(marked.into_iter().map(u64::from)).collect()
}

/// Every board of fewer than 64 cells in the shrinking order: by cells, then X cells, then
/// rows, then the cells row-major ('.' before X: the X masks in increasing order, the first
/// cell the highest bit).
pub fn by_size() -> impl Iterator<Item = Board> + Send {
    (1..64usize).flat_map(|cells| {
        let shapes: Vec<Shape> = (1..=MAX_SIDE).filter(|h| cells % h == 0 && cells / h <= MAX_SIDE).map(|h| Shape::new(h, cells / h)).collect();
        (0..=cells).flat_map(move |x| {
            let shapes = shapes.clone();
            shapes.into_iter().flat_map(move |s| masks(cells, x).map(move |m| Board::from_mask(s, m.reverse_bits() >> (64 - cells))))
        })
    })
}

/// A rectangle of the board: rows `r0..r1`, columns `c0..c1`.
type Rect = (usize, usize, usize, usize);

/// The proper sub-rectangles of `board` as boards, each board once, named by where they lie
/// (1-based) and their Grundy value: first those the board's moves leave (the four rectangles
/// around each free cell, which its value combines), the largest Grundy value first, then the
/// others smallest first (by cells, then top row, left column, height).
pub fn sub_rectangles(board: &Board) -> Parts<Board> {
    let dp = RectDp::new(board);
    let (h, w) = (board.rows(), board.cols());
    let cells = |&(r0, r1, c0, c1): &Rect| (r1 - r0) * (c1 - c0);
    let mut left: Vec<Rect> = Vec::new();
    for (r0, r1) in (0..h).flat_map(|a| (a + 1..=h).map(move |b| (a, b))) {
        left.extend((0..w).flat_map(|a| (a + 1..=w).map(move |b| (r0, r1, a, b))).filter(|&r| r != (0, h, 0, w)));
    }
    left.sort_by_key(|r @ &(r0, _, c0, _)| (cells(r), r0, c0, r.1 - r0));
    let mut direct: Vec<Rect> = left.iter().copied().filter(|r| left_by_a_move(board, *r)).collect();
    direct.sort_by_key(|r @ &(r0, r1, c0, c1)| (std::cmp::Reverse(dp.rect_grundy(r0, r1, c0, c1)), cells(r), r0, c0));
    let (mut seen, mut parts) = (HashSet::new(), Parts::default());
    for (k, (r0, r1, c0, c1)) in direct.iter().chain(&left).copied().enumerate() {
        let part = board.select(&(r0..r1).collect::<Vec<_>>(), &(c0..c1).collect::<Vec<_>>());
        if seen.insert(part.clone()) {
            let grundy = dp.rect_grundy(r0, r1, c0, c1);
            let name = format!("rows {}-{}, columns {}-{} ({}, {} X, Grundy {grundy})", r0 + 1, r1, c0 + 1, c1, part.shape(), part.x_count());
            parts.list.push((part, name));
            parts.direct += usize::from(k < direct.len());
        }
    }
    parts
}

/// True when a move on a free cell of `board` leaves `rect` as one of its four rectangles: the
/// rectangle touches two sides of the board at a corner, and the cell diagonally past its
/// inner corner is free.
fn left_by_a_move(board: &Board, (r0, r1, c0, c1): Rect) -> bool {
    let (h, w) = (board.rows(), board.cols());
    let row = match (r0 == 0, r1 == h) {
        (true, false) => r1,
        (false, true) => r0.wrapping_sub(1),
        _ => return false,
    };
    let col = match (c0 == 0, c1 == w) {
        (true, false) => c1,
        (false, true) => c0.wrapping_sub(1),
        _ => return false,
    };
    row < h && col < w && !board.is_x(row, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_come_in_the_shrinking_order() {
        let first: Vec<String> = by_size().take(12).map(|b| b.to_slashed()).collect();
        assert_eq!(first[..8], [".", "X", "..", "./.", ".X", "X.", "./X", "X/."].map(String::from));
        // Every board of up to 4 cells, each once, strictly increasing in the shrinking order,
        // which the search's keys follow pair by pair.
        let small: Vec<Board> = by_size().take_while(|b| b.shape().cells() <= 4).collect();
        assert_eq!(small.len(), 2 + 2 * 4 + 2 * 8 + 3 * 16);
        assert!(small.windows(2).all(|p| smaller::shrink_order(&p[0], &p[1]) == std::cmp::Ordering::Less));
        for a in &small {
            for b in &small {
                assert_eq!(size_key(a).cmp(&size_key(b)), smaller::shrink_order(a, b), "{} vs {}", a.to_slashed(), b.to_slashed());
            }
        }
    }

    #[test]
    fn sub_rectangles_are_proper_distinct_and_smallest_first() {
        let board = Board::from_slashed(".X.").unwrap();
        let parts = sub_rectangles(&board);
        let names: Vec<String> = parts.list.into_iter().map(|(b, n)| format!("{} {n}", b.to_slashed())).collect();
        // A move on a one-row board walls the whole row: it leaves no rectangle.
        assert_eq!(names, [". rows 1-1, columns 1-1 (1x1, 0 X, Grundy 1)", "X rows 1-1, columns 2-2 (1x1, 1 X, Grundy 0)", ".X rows 1-1, columns 1-2 (1x2, 1 X, Grundy 1)", "X. rows 1-1, columns 2-3 (1x2, 1 X, Grundy 1)"]);
        assert_eq!(parts.direct, 0);
        // On 2×3 with an X the moves leave corner cells and pieces of rows (largest value first).
        let parts = sub_rectangles(&Board::from_slashed("..X/...").unwrap());
        let direct: Vec<String> = parts.list[..parts.direct].iter().map(|(b, _)| b.to_slashed()).collect();
        assert_eq!(direct, [".", "..", ".X", "X"]);
        let big = Board::empty(Shape::new(3, 4));
        assert_eq!(sub_rectangles(&big).list.len(), 3 * 4 - 1, "one per shape, the whole board left out");
    }
}
