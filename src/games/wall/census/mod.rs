//! Census engine: the rectangle DP's value of every X-pattern of a size, without the oracle.
//!
//! For sizes whose naive side is out of reach (6×6: 2^36 patterns, 6×7: 2^42). Middle rows
//! outside, first and last row inside (docs/census.md): position y = r0 | rL << W | m << 2W
//! stands for the board with first row r0, middle rows m and last row rL; per middle pattern
//! the option values come from the quadrant tables ([`middle`]) and the 2^(2W) boards
//! are swept in blocks of 2^W lanes ([`sweep`]). The up–down and left–right mirrors
//! map the boards of one middle pattern onto those of its mirror images with the same values
//! and X counts, so only the least middle pattern of each orbit is swept, weighted by the
//! orbit's size; the counts stay per pattern.

pub mod bands;
pub mod few_x;
pub mod gpu;
pub mod lanes;
pub mod middle;
pub mod sweep;
pub mod tables;

use middle::Layout;
use crate::games::wall::board::symmetry::Symmetries;
use sweep::Work;
use tables::GrundyTables;
use crate::games::wall::board::Shape;
use crate::bits::{Extract, Portable};
use crate::error::Error;
use crate::runner::{Evaluate, RunResults};
use std::ops::Range;

/// Values stay at most 16 (options are nibbles); slots per X count.
const SLOTS: usize = 32;

/// Claimed values of a size's patterns from its quadrant tables.
pub struct CensusEngine {
    shape: Shape,
    tables: GrundyTables,
    /// `None` for one-row shapes (every move ends the game there).
    layout: Option<Layout>,
    mirrors: Symmetries,
    avx2: bool,
    bmi2: bool,
    /// When set, only middle patterns with at most this many X cells or free cells are swept.
    extremes: Option<u32>,
}

/// True when the census can take `shape`: at most 8 columns and 49 cells, and at most 7 rows
/// unless the shape has at most 36 cells.
pub fn supports(shape: Shape) -> bool {
    shape.cols <= 8 && shape.cells() <= 49 && (shape.rows <= 7 || shape.cells() <= 36)
}

/// The usage error for a size the census cannot take.
pub fn unsupported(shape: Shape) -> Error {
    let gpu = if gpu::supports(shape) { " (the GPU engine, --device gpu, takes it)" } else { "" };
    Error::Usage(format!("census handles sizes of at most 7 rows (any rows up to 36 cells), 8 columns and 49 cells, not {shape}{gpu}"))
}

/// The quadrant shapes a census of `shape` reads: everything up to (rows−1)×(cols−1).
fn quadrants(shape: Shape) -> Shape {
    Shape::new(shape.rows - 1, shape.cols.saturating_sub(1))
}

/// Peak memory of a census of `shape`: the quadrant tables and an allowance for the process,
/// the threads' workspaces and the results.
pub fn estimate_peak_bytes(shape: Shape) -> u64 {
    crate::runner::verification::BASE_PEAK_BYTES + GrundyTables::bytes(quadrants(shape))
}

impl CensusEngine {
    /// Builds the tables of `shape` (which [`supports`] must accept).
    pub fn build(shape: Shape) -> Self {
        let bmi2 = crate::bits::bmi2_available();
        #[cfg(target_arch = "x86_64")]
        if bmi2 {
            // SAFETY: the CPU has BMI2.
            return unsafe { crate::bits::with_bmi2(|| Self::build_with::<crate::bits::Bmi2>(shape, true)) };
        }
        Self::build_with::<Portable>(shape, bmi2)
    }

    fn build_with<E: Extract>(shape: Shape, bmi2: bool) -> Self {
        let tables = GrundyTables::build::<E>(quadrants(shape));
        let layout = (shape.rows >= 2).then(|| Layout::new(shape, &tables));
        let mirrors = Symmetries::mirrors(Shape::new(shape.rows.saturating_sub(2), shape.cols));
        CensusEngine { shape, tables, layout, mirrors, avx2: crate::bits::avx2_available(), bmi2, extremes: None }
    }

    /// The same engine sweeping only the middle patterns with at most `k` X cells or at most
    /// `k` free cells: its counts are complete for boards with at most `k` X cells or at most
    /// `k` free cells (the few-X check), and partial elsewhere.
    pub fn only_extremes(self, k: u32) -> Self {
        CensusEngine { extremes: Some(k), ..self }
    }

    /// How many patterns the boards of middle pattern `m` stand for: the size of m's orbit
    /// under the mirrors when m is the least of it, else 0.
    fn weight(&self, m: u64, middle_bits: usize) -> u64 {
        if let Some(k) = self.extremes {
            let xs = m.count_ones();
            if xs > k && (middle_bits as u32) - xs > k {
                return 0;
            }
        }
        self.mirrors.canonical_weight(m).unwrap_or(0)
    }

    fn evaluate_with<E: Extract>(&self, positions: Range<u64>, results: &mut RunResults) {
        let mut counts = vec![0u64; (self.shape.cells() + 1) * SLOTS];
        match &self.layout {
            None => self.count_one_row(positions, &mut counts),
            Some(layout) => {
                let mut work = Work::new(layout);
                let mut tallies = Tallies::new(self.shape, layout);
                let per_middle = 2 * self.shape.cols;
                let mut y = positions.start;
                while y < positions.end {
                    let m = y >> per_middle;
                    let end = positions.end.min((m + 1) << per_middle);
                    let weight = self.weight(m, layout.middle_bits);
                    if weight > 0 {
                        work.load::<E>(layout, &self.tables, m);
                        let part = (y - (m << per_middle))..(end - (m << per_middle));
                        let base = m.count_ones() as usize;
                        if part.end - part.start == 1 << per_middle {
                            self.count_middle(layout, &mut work, &mut tallies, (base, weight), &mut counts);
                        } else {
                            self.count_part(layout, &mut work, part, base, weight, &mut counts);
                        }
                    }
                    y = end;
                }
                tallies.fold_all(&mut counts);
            }
        }
        let tally = results.size_mut(self.shape.rows as u32, self.shape.cols as u32);
        tally.record_flat(&counts, SLOTS);
    }

    /// A one-row board is worth 1 when it has a free cell (any move walls the whole row).
    fn count_one_row(&self, positions: Range<u64>, counts: &mut [u64]) {
        let full = self.shape.full_mask();
        for x in positions {
            counts[x.count_ones() as usize * SLOTS + usize::from(x != full)] += 1;
        }
    }

    /// Counts every board of the loaded middle pattern (with `base` X cells, standing for
    /// `weight` patterns each) into `tallies`.
    fn count_middle(&self, layout: &Layout, work: &mut Work, tallies: &mut Tallies, (base, weight): (usize, u64), counts: &mut [u64]) {
        for rl in 0..layout.lanes {
            work.block(layout, rl, self.avx2);
            tallies.add(weight, base + rl.count_ones() as usize, &work.values, self.avx2, counts);
        }
    }

    /// Counts the boards of the loaded middle pattern whose offsets r0 | rL << W lie in `part`.
    fn count_part(&self, layout: &Layout, work: &mut Work, part: Range<u64>, base: usize, weight: u64, counts: &mut [u64]) {
        let w = self.shape.cols;
        for rl in (part.start >> w)..=((part.end - 1) >> w) {
            work.block(layout, rl as usize, self.avx2);
            let lanes = part.start.max(rl << w) - (rl << w)..part.end.min((rl + 1) << w) - (rl << w);
            for lane in lanes {
                let xs = base + rl.count_ones() as usize + lane.count_ones() as usize;
                counts[xs * SLOTS + work.values[lane as usize] as usize] += weight;
            }
        }
    }
}

/// Byte counters of lane values per (weight, X count without the first row, value, lane),
/// folded into the 64-bit counts (adding each lane's own X count) before a byte can overflow.
/// The largest value (8, or 16 when options reach 15) is not counted but derived.
struct Tallies {
    slots: usize,
    classes: usize,
    /// Lanes (first rows) by their number of X cells.
    lanes_by_count: Vec<Vec<usize>>,
    bytes: Vec<u8>,
    /// Blocks added since the last fold, per (weight, class).
    blocks: Vec<u8>,
}

/// The weights a middle pattern can have (the size of its orbit under the mirrors).
const WEIGHTS: [u64; 3] = [1, 2, 4];

impl Tallies {
    fn new(shape: Shape, layout: &Layout) -> Self {
        let (lanes, slots, classes) = (layout.lanes, if layout.narrow { 8 } else { 16 }, shape.cells() + 1);
        let mut lanes_by_count = vec![Vec::new(); shape.cols + 1];
        for lane in 0..lanes {
            lanes_by_count[lane.count_ones() as usize].push(lane);
        }
        let bytes = vec![0; WEIGHTS.len() * classes * slots * lanes];
        Tallies { slots, classes, lanes_by_count, bytes, blocks: vec![0; WEIGHTS.len() * classes] }
    }

    /// Counts one block's values: boards with `class` X cells outside the first row, `weight` patterns each.
    #[inline]
    fn add(&mut self, weight: u64, class: usize, values: &[u8], avx2: bool, counts: &mut [u64]) {
        let k = WEIGHTS.iter().position(|&w| w == weight).expect("a mirror orbit has 1, 2 or 4 patterns") * self.classes + class;
        let size = self.slots * values.len();
        lanes::tally(values, &mut self.bytes[k * size..(k + 1) * size], self.slots, avx2);
        self.blocks[k] += 1;
        if self.blocks[k] == u8::MAX {
            self.fold(k, counts);
        }
    }

    /// Moves the counters of (weight, class) `k` into `counts`.
    fn fold(&mut self, k: usize, counts: &mut [u64]) {
        let (weight, class) = (WEIGHTS[k / self.classes], k % self.classes);
        let lanes = 1 << (self.lanes_by_count.len() - 1);
        let tallies = &mut self.bytes[k * self.slots * lanes..(k + 1) * self.slots * lanes];
        let blocks = u64::from(self.blocks[k]);
        for (first_xs, group) in self.lanes_by_count.iter().enumerate() {
            let at = (class + first_xs) * SLOTS;
            let mut counted = 0;
            for (g, row) in tallies.chunks(lanes).enumerate() {
                let n: u64 = group.iter().map(|&lane| u64::from(row[lane])).sum();
                counts[at + g] += weight * n;
                counted += n;
            }
            counts[at + self.slots] += weight * (blocks * group.len() as u64 - counted);
        }
        tallies.fill(0);
        self.blocks[k] = 0;
    }

    fn fold_all(&mut self, counts: &mut [u64]) {
        for k in 0..self.blocks.len() {
            if self.blocks[k] > 0 {
                self.fold(k, counts);
            }
        }
    }
}

impl Evaluate for CensusEngine {
    fn evaluate(&self, positions: Range<u64>, results: &mut RunResults) -> crate::error::Result<()> {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` was set by `bmi2_available()`.
            unsafe { crate::bits::with_bmi2(|| self.evaluate_with::<crate::bits::Bmi2>(positions, results)) };
            return Ok(());
        }
        self.evaluate_with::<Portable>(positions, results);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
