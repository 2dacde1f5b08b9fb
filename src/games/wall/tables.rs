//! Rectangle-DP Grundy values of every X-pattern of every small shape, one byte-table per shape.
//!
//! The table of shape h×w is indexed by the X-pattern (bit r·w+c); an entry is the mex over
//! the pattern's non-X cells of the XOR of the four quadrants' entries, each quadrant's pattern
//! gathered from the board's bits with `pext`. Shapes are filled smallest first. This is the
//! decomposition claim of [`super::dp`] in table form, for enumerating all patterns at once.

use super::board::Shape;
use crate::bits::Extract;
use rayon::prelude::*;

/// Where one quadrant of a cell is looked up: its table's offset and its cells as a mask.
#[derive(Debug, Clone, Copy)]
struct Quadrant {
    offset: usize,
    mask: u64,
}

/// Lookup plan for every cell of one shape against a [`GrundyTables`]: each cell's four quadrants.
#[derive(Debug, Clone)]
pub struct ShapePlan {
    all: u64,
    cells: Vec<[Quadrant; 4]>,
}

/// Tables for every shape h×w with h ≤ `max.rows`, w ≤ `max.cols` (h or w may be 0: value 0).
#[derive(Debug, Clone)]
pub struct GrundyTables {
    max: Shape,
    offsets: Vec<usize>,
    values: Vec<u8>,
}

/// Mask of the cells of rows `r0..r1` × columns `c0..c1` of a board `cols` wide.
pub fn rect_mask(cols: usize, r0: usize, r1: usize, c0: usize, c1: usize) -> u64 {
    let row = if c1 > c0 { ((1u64 << (c1 - c0)) - 1) << c0 } else { 0 };
    (r0..r1).fold(0, |m, r| m | row << (r * cols))
}

impl GrundyTables {
    /// Bytes the tables for shapes up to `max` take.
    pub fn bytes(max: Shape) -> u64 {
        (0..=max.rows).flat_map(|h| (0..=max.cols).map(move |w| 1u64 << (h * w))).sum()
    }

    /// Fills the tables of every shape up to `max` (at most 36 cells), in parallel.
    pub fn build<E: Extract>(max: Shape) -> Self {
        assert!(max.cells() <= 36, "tables for {max} would not fit in memory");
        let mut offsets = Vec::new();
        let mut total = 0usize;
        for h in 0..=max.rows {
            for w in 0..=max.cols {
                offsets.push(total);
                total += 1 << (h * w);
            }
        }
        let mut tables = GrundyTables { max, offsets, values: vec![0; total] };
        for h in 1..=max.rows {
            for w in 1..=max.cols {
                tables.fill::<E>(Shape::new(h, w));
            }
        }
        tables
    }

    fn offset(&self, rows: usize, cols: usize) -> usize {
        self.offsets[rows * (self.max.cols + 1) + cols]
    }

    /// Fills one shape's table from the (already filled) tables of its quadrants.
    fn fill<E: Extract>(&mut self, shape: Shape) {
        let plan = self.plan(shape);
        let start = self.offset(shape.rows, shape.cols);
        let (done, rest) = self.values.split_at_mut(start);
        let table = &mut rest[..1 << shape.cells()];
        table.par_chunks_mut(1 << 12).enumerate().for_each(|(chunk, entries)| {
            let base = (chunk << 12) as u64;
            for (i, entry) in entries.iter_mut().enumerate() {
                *entry = plan.grundy_in::<E>(done, base + i as u64);
            }
        });
    }

    /// The lookup plan of `shape`, whose quadrants must fit these tables
    /// (rows ≤ max.rows + 1, cols ≤ max.cols + 1).
    pub fn plan(&self, shape: Shape) -> ShapePlan {
        assert!(shape.rows <= self.max.rows + 1 && shape.cols <= self.max.cols + 1, "{shape} exceeds the tables");
        let (h, w) = (shape.rows, shape.cols);
        let cells = (0..h)
            .flat_map(|i| (0..w).map(move |j| (i, j)))
            .map(|(i, j)| {
                let quadrant = |r0: usize, r1: usize, c0: usize, c1: usize| Quadrant {
                    offset: self.offset(r1 - r0, c1 - c0),
                    mask: rect_mask(w, r0, r1, c0, c1),
                };
                [quadrant(0, i, 0, j), quadrant(0, i, j + 1, w), quadrant(i + 1, h, 0, j), quadrant(i + 1, h, j + 1, w)]
            })
            .collect();
        ShapePlan { all: shape.full_mask(), cells }
    }

    /// The table entry of `shape` (filled) for X-pattern `x`.
    pub fn get(&self, shape: Shape, x: u64) -> u8 {
        self.values[self.offset(shape.rows, shape.cols) + x as usize]
    }

    /// The largest value in any table.
    pub fn max_value(&self) -> u8 {
        self.values.par_iter().copied().max().unwrap_or(0)
    }

    /// The claimed Grundy value of pattern `x` of a shape planned with [`GrundyTables::plan`].
    #[inline(always)]
    pub fn grundy<E: Extract>(&self, plan: &ShapePlan, x: u64) -> u8 {
        plan.grundy_in::<E>(&self.values, x)
    }
}

impl ShapePlan {
    /// Mex over non-X cells of the XOR of the four quadrant entries found in `values`.
    #[inline(always)]
    fn grundy_in<E: Extract>(&self, values: &[u8], x: u64) -> u8 {
        // Values stay below 64: a Grundy value needs as many moves, and shapes have ≤ 36 cells.
        let mut seen = 0u64;
        let mut free = !x & self.all;
        while free != 0 {
            let cell = &self.cells[free.trailing_zeros() as usize];
            free &= free - 1;
            let v = cell.iter().fold(0u8, |acc, q| acc ^ values[q.offset + E::extract(x, q.mask) as usize]);
            seen |= 1 << v;
        }
        (!seen).trailing_zeros() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;
    use crate::games::wall::{dp, Board};

    #[test]
    fn tables_match_rectangle_dp() {
        let max = Shape::new(3, 4);
        let tables = GrundyTables::build::<Portable>(max);
        for h in 1..=3 {
            for w in 1..=4 {
                let shape = Shape::new(h, w);
                for x in 0..1u64 << shape.cells() {
                    let expected = dp::solve(&Board::from_mask(shape, x)).grundy;
                    assert_eq!(tables.get(shape, x) as u32, expected, "{}", Board::from_mask(shape, x).to_slashed());
                }
            }
        }
        let plan = tables.plan(Shape::new(4, 5));
        for x in [0u64, 1, 0b1010_0110_1001, (1 << 20) - 1, 0x5_5555] {
            let board = Board::from_mask(Shape::new(4, 5), x);
            assert_eq!(tables.grundy::<Portable>(&plan, x) as u32, dp::solve(&board).grundy);
        }
    }

    #[test]
    fn rect_masks() {
        assert_eq!(rect_mask(3, 0, 2, 1, 3), 0b110_110);
        assert_eq!(rect_mask(3, 1, 1, 0, 3), 0);
        assert_eq!(GrundyTables::bytes(Shape::new(1, 1)), 1 + 1 + 1 + 2);
    }
}
