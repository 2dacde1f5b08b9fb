//! The blocks of one middle pattern in turn: for each last row rL, the values of the 2^W
//! boards (one lane per first row) with that middle pattern and last row; used to count them
//! (the census) or to store them (filling a quadrant table).

use crate::games::wall::board::Shape;
use super::lanes::{mex_block, Block};
use super::middle::{Layout, Middle};
use super::tables::GrundyTables;
use crate::bits::Extract;
use rayon::prelude::*;

/// One thread's workspace: the current middle pattern's option values and one block's values.
pub struct Work {
    middle: Middle,
    /// Free middle cells of the current pattern: (offset of its lanes in `above`, offset of
    /// its values in `below`, at last row 0).
    cells: Vec<(usize, usize)>,
    /// For each last row, the offsets in `above` of its free cells' lanes.
    last: Vec<Vec<usize>>,
    /// The values of the last block, one per lane (first row).
    pub values: Vec<u8>,
}

impl Work {
    pub fn new(layout: &Layout) -> Self {
        let (h, w, lanes) = (layout.shape.rows, layout.shape.cols, layout.lanes);
        let last_row = (h - 2) * w * lanes;
        let last = (0..lanes).map(|rl| (0..w).filter(|&j| rl >> j & 1 == 0).map(|j| last_row + j * lanes).collect()).collect();
        Work { middle: Middle::new(layout), cells: Vec::with_capacity(layout.middle_bits), last, values: vec![0; lanes] }
    }

    /// Makes middle pattern `m` current.
    pub fn load<E: Extract>(&mut self, layout: &Layout, tables: &GrundyTables, m: u64) {
        self.middle.load::<E>(layout, tables, m);
        let (w, lanes) = (layout.shape.cols, layout.lanes);
        self.cells.clear();
        for bit in (0..layout.middle_bits).filter(|&bit| m >> bit & 1 == 0) {
            // Middle bit r·W + j is cell (r + 1, j): row r + 1 is entry r of `above`, r + 1 of `below`.
            let (r, j) = (bit / w, bit % w);
            self.cells.push(((r * w + j) * lanes, ((r + 1) * w + j) * lanes));
        }
    }

    /// The values of the block with last row `rl` into [`Work::values`].
    pub fn block(&mut self, layout: &Layout, rl: usize, avx2: bool) {
        let mut first = [0u8; 8];
        for (j, value) in first.iter_mut().take(layout.shape.cols).enumerate() {
            *value = self.middle.below[j * layout.lanes + rl];
        }
        let block = Block {
            lanes: layout.lanes,
            above: &self.middle.above,
            below: &self.middle.below,
            last_row: rl,
            first: &first[..layout.shape.cols],
            cells: &self.cells,
            last: &self.last[rl],
        };
        mex_block(&block, layout.narrow, avx2, &mut self.values);
    }
}

/// Boards per parallel task when filling a table.
const FILL_TASK_BOARDS: usize = 1 << 18;

/// The table of `shape` (at least 2 rows, at most 8 columns): the value of every X-pattern,
/// block by block, from `tables`, which must cover (rows−1)×(cols−1).
pub fn fill_table<E: Extract>(tables: &GrundyTables, shape: Shape) -> Vec<u8> {
    let layout = Layout::new(shape, tables);
    let (w, lanes) = (shape.cols, layout.lanes);
    let avx2 = crate::bits::avx2_available();
    let mut table = vec![0u8; 1 << shape.cells()];
    let middles = 1usize << layout.middle_bits;
    let task_middles = (FILL_TASK_BOARDS >> (2 * w)).clamp(1, middles);
    // Entry r0 | m << W | rL << W(H−1): one slice per last row, cut into the tasks' middle ranges.
    let mut tasks: Vec<Vec<&mut [u8]>> = (0..middles / task_middles).map(|_| Vec::with_capacity(lanes)).collect();
    for by_last in table.chunks_mut(middles * lanes) {
        for (task, part) in tasks.iter_mut().zip(by_last.chunks_mut(task_middles * lanes)) {
            task.push(part);
        }
    }
    tasks.into_par_iter().enumerate().for_each(|(index, mut outs)| {
        let mut work = Work::new(&layout);
        for local in 0..task_middles {
            work.load::<E>(&layout, tables, (index * task_middles + local) as u64);
            for (rl, out) in outs.iter_mut().enumerate() {
                work.block(&layout, rl, avx2);
                out[local * lanes..(local + 1) * lanes].copy_from_slice(&work.values);
            }
        }
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;
    use crate::games::wall::{claim::dp, board::Board};

    #[test]
    fn blocks_match_the_rectangle_dp() {
        for (h, w) in [(2, 1), (2, 3), (3, 2), (3, 5), (4, 3), (5, 1), (3, 6)] {
            let shape = Shape::new(h, w);
            let tables = GrundyTables::build::<Portable>(Shape::new(h - 1, w - 1));
            let layout = Layout::new(shape, &tables);
            let mut work = Work::new(&layout);
            let step = if shape.cells() > 14 { 97 } else { 1 };
            for x in (0..1u64 << shape.cells()).step_by(step) {
                let (r0, rl) = (x & (layout.lanes as u64 - 1), x >> (w * (h - 1)));
                let m = (x >> w) & ((1 << layout.middle_bits) - 1);
                work.load::<Portable>(&layout, &tables, m);
                work.block(&layout, rl as usize, crate::bits::avx2_available());
                let expected = dp::solve(&Board::from_mask(shape, x)).grundy;
                assert_eq!(work.values[r0 as usize] as u32, expected, "{shape} {}", Board::from_mask(shape, x).to_slashed());
            }
        }
    }
}
