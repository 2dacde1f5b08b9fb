//! Rectangle-DP Grundy values of every X-pattern of every small shape, one byte-table per shape.
//!
//! The table of shape h×w is indexed by the X-pattern (bit r·w+c); an entry is the mex over
//! the pattern's non-X cells of the XOR of the four quadrants' entries, each quadrant's pattern
//! gathered from the board's bits with `pext`. Shapes are filled smallest first; the larger
//! ones block by block ([`super::sweep`]), which reads only smaller tables.
//! Shapes of more than [`MAX_TABLE_CELLS`] cells get no table (their values are computed
//! where needed with [`GrundyTables::plan`]). This is the decomposition claim of [`crate::games::wall::claim::dp`]
//! in table form, for enumerating all patterns at once.

use crate::games::wall::board::Shape;
use crate::bits::Extract;
use rayon::prelude::*;

/// Largest shape, in cells, that gets a table (2^30 bytes).
pub const MAX_TABLE_CELLS: usize = 30;

/// Shapes of at least this many cells (and at least 2 rows) are filled by the block engine.
const BLOCK_FILL_CELLS: usize = 16;

/// Where one quadrant of a cell is looked up: its table and its cells as a mask.
#[derive(Debug, Clone, Copy)]
struct Quadrant {
    table: usize,
    mask: u64,
}

/// Lookup plan for every cell of one shape against a [`GrundyTables`]: each cell's four quadrants.
#[derive(Debug, Clone)]
pub struct ShapePlan {
    all: u64,
    cells: Vec<[Quadrant; 4]>,
}

/// Tables for every shape h×w with h ≤ `max.rows`, w ≤ `max.cols` (h or w may be 0: value 0)
/// and at most [`MAX_TABLE_CELLS`] cells.
#[derive(Debug, Clone)]
pub struct GrundyTables {
    max: Shape,
    /// By h·(max.cols + 1) + w; `None` for shapes over the cell limit.
    tables: Vec<Option<Vec<u8>>>,
}

/// Mask of the cells of rows `r0..r1` × columns `c0..c1` of a board `cols` wide.
pub fn rect_mask(cols: usize, r0: usize, r1: usize, c0: usize, c1: usize) -> u64 {
    let row = if c1 > c0 { ((1u64 << (c1 - c0)) - 1) << c0 } else { 0 };
    (r0..r1).fold(0, |m, r| m | row << (r * cols))
}

/// The shapes up to `max` that get a table, smallest rows first.
fn tabled_shapes(max: Shape) -> impl Iterator<Item = Shape> {
    (0..=max.rows).flat_map(move |h| (0..=max.cols).map(move |w| Shape::new(h, w))).filter(|s| s.cells() <= MAX_TABLE_CELLS)
}

impl GrundyTables {
    /// Bytes the tables for shapes up to `max` take.
    pub fn bytes(max: Shape) -> u64 {
        tabled_shapes(max).map(|s| 1u64 << s.cells()).sum()
    }

    /// Fills the tables of every shape up to `max` with at most [`MAX_TABLE_CELLS`] cells.
    pub fn build<E: Extract>(max: Shape) -> Self {
        let mut tables = GrundyTables { max, tables: vec![None; (max.rows + 1) * (max.cols + 1)] };
        for shape in tabled_shapes(max) {
            let values = if shape.cells() == 0 {
                vec![0]
            } else if shape.cells() >= BLOCK_FILL_CELLS && shape.rows >= 2 {
                super::sweep::fill_table::<E>(&tables, shape)
            } else {
                tables.fill::<E>(shape)
            };
            let index = tables.index(shape);
            tables.tables[index] = Some(values);
        }
        tables
    }

    /// The largest shape these tables cover (some shapes within it may have no table).
    pub fn max(&self) -> Shape {
        self.max
    }

    fn index(&self, shape: Shape) -> usize {
        assert!(shape.rows <= self.max.rows && shape.cols <= self.max.cols, "{shape} exceeds the tables up to {}", self.max);
        shape.rows * (self.max.cols + 1) + shape.cols
    }

    /// True when `shape` (within the maximum) has a filled table.
    pub fn has(&self, shape: Shape) -> bool {
        shape.rows <= self.max.rows && shape.cols <= self.max.cols && self.tables[self.index(shape)].is_some()
    }

    /// The table of `shape`, which must have one ([`GrundyTables::has`]).
    pub fn table(&self, shape: Shape) -> &[u8] {
        self.tables[self.index(shape)].as_deref().unwrap_or_else(|| panic!("no table for {shape}"))
    }

    /// Every pattern of `shape` by the per-cell recursion, in parallel.
    fn fill<E: Extract>(&self, shape: Shape) -> Vec<u8> {
        let plan = self.plan(shape);
        let mut table = vec![0u8; 1 << shape.cells()];
        table.par_chunks_mut(1 << 12).enumerate().for_each(|(chunk, entries)| {
            let base = (chunk << 12) as u64;
            for (i, entry) in entries.iter_mut().enumerate() {
                *entry = self.grundy::<E>(&plan, base + i as u64);
            }
        });
        table
    }

    /// The lookup plan of `shape`, whose quadrants must all have tables (any shape up to
    /// (max.rows + 1) × (max.cols + 1) whose quadrants have at most [`MAX_TABLE_CELLS`] cells).
    pub fn plan(&self, shape: Shape) -> ShapePlan {
        assert!(shape.rows <= self.max.rows + 1 && shape.cols <= self.max.cols + 1, "{shape} exceeds the tables");
        let (h, w) = (shape.rows, shape.cols);
        let cells = (0..h)
            .flat_map(|i| (0..w).map(move |j| (i, j)))
            .map(|(i, j)| {
                let quadrant = |r0: usize, r1: usize, c0: usize, c1: usize| {
                    let part = Shape::new(r1 - r0, c1 - c0);
                    assert!(self.has(part), "{shape}: quadrant {part} has no table");
                    Quadrant { table: self.index(part), mask: rect_mask(w, r0, r1, c0, c1) }
                };
                [quadrant(0, i, 0, j), quadrant(0, i, j + 1, w), quadrant(i + 1, h, 0, j), quadrant(i + 1, h, j + 1, w)]
            })
            .collect();
        ShapePlan { all: shape.full_mask(), cells }
    }

    /// The table entry of `shape` (filled) for X-pattern `x`.
    #[inline]
    pub fn get(&self, shape: Shape, x: u64) -> u8 {
        self.table(shape)[x as usize]
    }

    /// The largest value in any table.
    pub fn max_value(&self) -> u8 {
        self.tables.iter().flatten().map(|t| t.par_iter().copied().max().unwrap_or(0)).max().unwrap_or(0)
    }

    /// The claimed Grundy value of pattern `x` of a shape planned with [`GrundyTables::plan`]:
    /// the mex over non-X cells of the XOR of the four quadrant entries.
    #[inline(always)]
    pub fn grundy<E: Extract>(&self, plan: &ShapePlan, x: u64) -> u8 {
        // Values stay below 64: a Grundy value needs as many moves, and shapes have ≤ 49 cells.
        let mut seen = 0u64;
        let mut free = !x & plan.all;
        while free != 0 {
            let cell = &plan.cells[free.trailing_zeros() as usize];
            free &= free - 1;
            let value = |q: &Quadrant| self.tables[q.table].as_deref().expect("planned")[E::extract(x, q.mask) as usize];
            seen |= 1 << cell.iter().fold(0u8, |acc, q| acc ^ value(q));
        }
        (!seen).trailing_zeros() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;
    use crate::games::wall::{claim::dp, board::Board};

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
    fn block_filled_tables_equal_the_recursion() {
        // 4×4 and 3×6 reach the block fill; the recursion through the plan checks every entry.
        let tables = GrundyTables::build::<Portable>(Shape::new(4, 6));
        for shape in [Shape::new(4, 4), Shape::new(3, 6), Shape::new(4, 5)] {
            let plan = tables.plan(shape);
            let step = if shape.cells() > 18 { 7 } else { 1 };
            for x in (0..1u64 << shape.cells()).step_by(step) {
                assert_eq!(tables.get(shape, x), tables.grundy::<Portable>(&plan, x), "{shape} {x:b}");
            }
        }
    }

    #[test]
    fn shapes_over_the_limit_get_no_table() {
        let limit = GrundyTables::bytes(Shape::new(6, 6));
        // 6×6 (36 cells) is left out, 5×6 and 6×5 (30 cells) are in.
        assert!(limit < 1 << 32 && limit > 2 << 30, "{limit}");
        let tables = GrundyTables::build::<Portable>(Shape::new(2, 1));
        assert!(tables.has(Shape::new(2, 1)) && !tables.has(Shape::new(3, 1)));
    }

    #[test]
    fn rect_masks() {
        assert_eq!(rect_mask(3, 0, 2, 1, 3), 0b110_110);
        assert_eq!(rect_mask(3, 1, 1, 0, 3), 0);
        assert_eq!(GrundyTables::bytes(Shape::new(1, 1)), 1 + 1 + 1 + 2);
    }
}
