//! Symmetries of a board shape acting on X-patterns (8 for a square, 4 for a rectangle) and
//! one canonical pattern per orbit, weighted by the orbit's size.
//!
//! The game is invariant under these maps (the move rule treats all four directions alike),
//! so every pattern of an orbit has the same Grundy value and X count: enumerating the
//! canonical patterns (the least of each orbit) with their orbit sizes as weights gives the
//! same per-pattern counts as enumerating every pattern.

use crate::games::wall::board::Shape;

/// The non-identity symmetries of one shape, each as per-row lookup tables:
/// `tables[s][r][row bits]` is the image (a whole-board mask) of row r's X cells.
pub struct Symmetries {
    shape: Shape,
    tables: Vec<Vec<Vec<u64>>>,
}

/// A symmetry as a map of (row, col) in an H×W shape to (row, col) in the same shape.
type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// Index in [`FLIPS`] (and in the symmetry tables) of the left–right mirror.
const MIRROR_COLUMNS: usize = 1;

const FLIPS: [CellMap; 3] = [
    |r, c, h, _| (h - 1 - r, c),
    |r, c, _, w| (r, w - 1 - c),
    |r, c, h, w| (h - 1 - r, w - 1 - c),
];

/// Maps that exchange rows and columns; symmetries of square shapes only.
const TRANSPOSES: [CellMap; 4] = [
    |r, c, _, _| (c, r),
    |r, c, h, w| (w - 1 - c, h - 1 - r),
    |r, c, h, _| (c, h - 1 - r),
    |r, c, _, w| (w - 1 - c, r),
];

impl Symmetries {
    /// The symmetries of `shape` (at most 63 cells).
    pub fn of(shape: Shape) -> Self {
        let maps = FLIPS.iter().chain(if shape.rows == shape.cols { &TRANSPOSES[..] } else { &[] });
        let tables = maps.map(|&map| row_tables(shape, map)).collect();
        Symmetries { shape, tables }
    }

    /// The mirrors of `shape` alone (up–down, left–right and both), even when it is square.
    pub fn mirrors(shape: Shape) -> Self {
        Symmetries { shape, tables: FLIPS.iter().map(|&map| row_tables(shape, map)).collect() }
    }

    /// Number of symmetries, the identity included.
    pub fn order(&self) -> u64 {
        self.tables.len() as u64 + 1
    }

    /// Image of pattern `x` under the symmetry whose row tables are `rows`.
    #[inline]
    fn image(&self, rows: &[Vec<u64>], x: u64) -> u64 {
        let cols = self.shape.cols;
        let row_mask = (1u64 << cols) - 1;
        rows.iter().enumerate().fold(0, |image, (r, table)| image | table[(x >> (r * cols) & row_mask) as usize])
    }

    /// Image of pattern `x` under every non-identity symmetry.
    fn images(&self, x: u64) -> impl Iterator<Item = u64> + '_ {
        self.tables.iter().map(move |rows| self.image(rows, x))
    }

    /// The size of `x`'s orbit when `x` is the least pattern of it, else `None`.
    #[inline]
    pub fn canonical_weight(&self, x: u64) -> Option<u64> {
        let mut equal = 1; // symmetries fixing x, the identity included
        for image in self.images(x) {
            if image < x {
                return None;
            }
            equal += u64::from(image == x);
        }
        Some(self.order() / equal)
    }

    /// Image of `x` under the left–right mirror (column j ↔ column cols−1−j); rows stay put.
    #[inline]
    pub fn mirror_columns(&self, x: u64) -> u64 {
        self.image(&self.tables[MIRROR_COLUMNS], x)
    }

    /// Every pattern of `x`'s orbit, ascending and without repeats.
    pub fn orbit(&self, x: u64) -> Vec<u64> {
        let mut orbit: Vec<u64> = std::iter::once(x).chain(self.images(x)).collect();
        orbit.sort_unstable();
        orbit.dedup();
        orbit
    }
}

fn row_tables(shape: Shape, map: CellMap) -> Vec<Vec<u64>> {
    let (h, w) = (shape.rows, shape.cols);
    (0..h)
        .map(|r| {
            (0..1u64 << w)
                .map(|bits| {
                    (0..w).filter(|c| bits >> c & 1 == 1).fold(0, |image, c| {
                        let (r2, c2) = map(r, c, h, w);
                        image | 1 << (r2 * w + c2)
                    })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::{claim::dp, board::Board};

    #[test]
    fn orbit_weights_sum_to_every_pattern() {
        for (h, w) in [(1, 1), (1, 4), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
            let shape = Shape::new(h, w);
            let symmetries = Symmetries::of(shape);
            assert_eq!(symmetries.order(), if h == w { 8 } else { 4 });
            let all = 1u64 << shape.cells();
            let weighted: u64 = (0..all).filter_map(|x| symmetries.canonical_weight(x)).sum();
            assert_eq!(weighted, all, "{shape}");
            for x in (0..all).step_by(7) {
                let orbit = symmetries.orbit(x);
                assert_eq!(symmetries.canonical_weight(x), (orbit[0] == x).then_some(orbit.len() as u64));
            }
        }
    }

    #[test]
    fn symmetric_boards_have_equal_values() {
        let shape = Shape::new(3, 4);
        let symmetries = Symmetries::of(shape);
        for x in (0..1u64 << 12).step_by(13) {
            let g = dp::solve(&Board::from_mask(shape, x)).grundy;
            for y in symmetries.orbit(x) {
                assert_eq!(dp::solve(&Board::from_mask(shape, y)).grundy, g);
                assert_eq!(y.count_ones(), x.count_ones());
            }
        }
    }

    #[test]
    fn mirrors_leave_out_the_transposes() {
        let square = Symmetries::mirrors(Shape::new(2, 2));
        assert_eq!(square.order(), 4);
        // X at (0, 1): its orbit under the mirrors is the four corners; the diagonal pair stays two.
        assert_eq!(square.orbit(0b0010), vec![0b0001, 0b0010, 0b0100, 0b1000]);
        assert_eq!(square.orbit(0b1001), vec![0b0110, 0b1001]);
        assert_eq!(Symmetries::mirrors(Shape::new(0, 3)).canonical_weight(0), Some(1));
    }

    #[test]
    fn mirror_columns_reverses_each_row() {
        let symmetries = Symmetries::of(Shape::new(2, 3));
        // Row 0 = cells 0..3, row 1 = cells 3..6: "X.." / ".XX" → "..X" / "XX.".
        assert_eq!(symmetries.mirror_columns(0b110_001), 0b011_100);
    }

    #[test]
    fn transposes_map_a_square_onto_itself() {
        let symmetries = Symmetries::of(Shape::new(2, 2));
        // X at (0, 1): its orbit is the four single corners.
        assert_eq!(symmetries.orbit(0b0010), vec![0b0001, 0b0010, 0b0100, 0b1000]);
        assert_eq!(symmetries.canonical_weight(0b0001), Some(4));
        // The two diagonals form an orbit of two; the anti-diagonal (0b0110) is the least.
        assert_eq!(symmetries.canonical_weight(0b0110), Some(2));
        assert_eq!(symmetries.canonical_weight(0b1001), None);
    }
}
