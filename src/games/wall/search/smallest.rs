//! The wall game's size order for the search for the smallest failing board (every board by
//! cells, then X cells, then rows, then X pattern) and the parts a board's answer is built
//! from: its proper sub-rectangles, each a board of its own, with the Grundy value the
//! rectangle DP gives it.

use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::claim::dp::RectDp;
use crate::stress::order::masks;
use std::collections::HashSet;

/// The size of a board in the search's order: cells, then X cells.
pub fn size_key(board: &Board) -> Vec<u64> {
    vec![board.shape().cells() as u64, board.x_count() as u64]
}

/// Every board of fewer than 64 cells in size order: by cells, then X cells, then rows, then
/// X pattern (the X masks of that many bits in increasing order).
pub fn by_size() -> impl Iterator<Item = Board> + Send {
    (1..64usize).flat_map(|cells| {
        let shapes: Vec<Shape> = (1..=MAX_SIDE).filter(|h| cells % h == 0 && cells / h <= MAX_SIDE).map(|h| Shape::new(h, cells / h)).collect();
        (0..=cells).flat_map(move |x| {
            let shapes = shapes.clone();
            shapes.into_iter().flat_map(move |s| masks(cells, x).map(move |m| Board::from_mask(s, m)))
        })
    })
}

/// The proper sub-rectangles of `board` as boards, each board once, smallest first (by cells,
/// then top row, left column, height), named by where they lie (1-based) and their Grundy value.
pub fn sub_rectangles(board: &Board) -> Vec<(Board, String)> {
    let dp = RectDp::new(board);
    let (h, w) = (board.rows(), board.cols());
    let mut rects: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (r0, r1) in (0..h).flat_map(|a| (a + 1..=h).map(move |b| (a, b))) {
        rects.extend((0..w).flat_map(|a| (a + 1..=w).map(move |b| (r0, r1, a, b))).filter(|&r| r != (0, h, 0, w)));
    }
    rects.sort_by_key(|&(r0, r1, c0, c1)| ((r1 - r0) * (c1 - c0), r0, c0, r1 - r0));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (r0, r1, c0, c1) in rects {
        let part = board.select(&(r0..r1).collect::<Vec<_>>(), &(c0..c1).collect::<Vec<_>>());
        if seen.insert(part.clone()) {
            let grundy = dp.rect_grundy(r0, r1, c0, c1);
            let name = format!("rows {}-{}, columns {}-{} ({}, {} X, Grundy {grundy})", r0 + 1, r1, c0 + 1, c1, part.shape(), part.x_count());
            out.push((part, name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_come_by_cells_then_x_cells() {
        let first: Vec<String> = by_size().take(12).map(|b| b.to_slashed()).collect();
        assert_eq!(first[..6], [".", "X", "..", "./.", "X.", ".X"].map(String::from));
        // Every board of up to 4 cells, each once, in non-decreasing size.
        let small: Vec<Board> = by_size().take_while(|b| b.shape().cells() <= 4).collect();
        assert_eq!(small.len(), 2 + 2 * 4 + 2 * 8 + 3 * 16);
        assert!(small.windows(2).all(|p| size_key(&p[0]) <= size_key(&p[1])));
        assert_eq!(small.iter().collect::<HashSet<_>>().len(), small.len());
    }

    #[test]
    fn sub_rectangles_are_proper_distinct_and_smallest_first() {
        let board = Board::from_slashed(".X.").unwrap();
        let names: Vec<String> = sub_rectangles(&board).into_iter().map(|(b, n)| format!("{} {n}", b.to_slashed())).collect();
        assert_eq!(names, [". rows 1-1, columns 1-1 (1x1, 0 X, Grundy 1)", "X rows 1-1, columns 2-2 (1x1, 1 X, Grundy 0)", ".X rows 1-1, columns 1-2 (1x2, 1 X, Grundy 1)", "X. rows 1-1, columns 2-3 (1x2, 1 X, Grundy 1)"]);
        let big = Board::empty(Shape::new(3, 4));
        assert_eq!(sub_rectangles(&big).len(), 3 * 4 - 1, "one per shape, the whole board left out");
    }
}
