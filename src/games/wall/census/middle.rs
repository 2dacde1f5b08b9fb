//! Middle rows outside, first and last row inside: for one pattern m of the middle rows
//! 1..H−2 of an H×W shape, the option value of every cell for every first row r0 and last row rL.
//!
//! A cell (i, j) is worth band_above(i)[j] ^ band_below(i)[j], where a band's value at column
//! j is g(left of j) ^ g(right of j) over its rows (see [`super::bands`]). For fixed m the band
//! above row i varies only with r0 and the band below only with rL, and each of its two
//! quadrants depends on the few bits of r0 (or rL) on its side of j: so per m every band is
//! built from two short runs of quadrant-table entries, `left[lane & low] ^ right[lane >> (j+1)]`,
//! for all 2^W values of r0 (or rL) at once. No band table is stored; the quadrant tables of
//! shapes up to (H−1)×(W−1) are enough, and a quadrant too large for a table (a corner of 7×7
//! or 6×8) is computed by the recursion of [`GrundyTables::plan`].

use crate::games::wall::board::Shape;
use super::tables::{rect_mask, GrundyTables, ShapePlan};
use crate::bits::Extract;

/// One quadrant of a band at one column, as a function of m and of the varying row.
#[derive(Debug, Clone)]
struct Part {
    shape: Shape,
    /// The bits of m that form the quadrant's other rows, and where they go in its pattern.
    middle_mask: u64,
    middle_shift: usize,
    /// The varying row's bits in the quadrant: how many, and where they go in its pattern.
    run_bits: usize,
    run_shift: usize,
}

/// The parts of every band of one shape, and the plans of the quadrants without tables.
pub struct Layout {
    pub shape: Shape,
    pub lanes: usize,
    /// Bits of a middle pattern: W·(H−2).
    pub middle_bits: usize,
    /// For rows 1..H: per column, the (left, right) quadrants of the band above.
    above: Vec<Vec<(Part, Part)>>,
    /// For rows 0..H−1: per column, the (left, right) quadrants of the band below.
    below: Vec<Vec<(Part, Part)>>,
    /// Plans of the quadrant shapes that have no table.
    plans: Vec<(Shape, ShapePlan)>,
    /// True when every option value is below 8 (every quadrant has a table, all values < 8).
    pub narrow: bool,
}

impl Layout {
    /// The layout of `shape` (2 ≤ rows, 1 ≤ cols ≤ 8) over tables covering (rows−1)×(cols−1).
    pub fn new(shape: Shape, tables: &GrundyTables) -> Self {
        let (h, w) = (shape.rows, shape.cols);
        assert!(h >= 2 && (1..=8).contains(&w), "the middle-row layout takes 2+ rows and 1..8 columns, not {shape}");
        let middle = |r0: usize, r1: usize, c0: usize, c1: usize| rect_mask(w, r0 - 1, r1 - 1, c0, c1);
        let above: Vec<Vec<(Part, Part)>> = (1..h)
            .map(|i| {
                let part = |c0: usize, c1: usize| {
                    let width = c1 - c0;
                    Part { shape: Shape::new(i, width), middle_mask: middle(1, i, c0, c1), middle_shift: width, run_bits: width, run_shift: 0 }
                };
                (0..w).map(|j| (part(0, j), part(j + 1, w))).collect()
            })
            .collect();
        let below: Vec<Vec<(Part, Part)>> = (0..h - 1)
            .map(|i| {
                let k = h - 1 - i;
                let part = |c0: usize, c1: usize| {
                    let width = c1 - c0;
                    let middle_mask = middle(i + 1, h - 1, c0, c1);
                    Part { shape: Shape::new(k, width), middle_mask, middle_shift: 0, run_bits: width, run_shift: width * (k - 1) }
                };
                (0..w).map(|j| (part(0, j), part(j + 1, w))).collect()
            })
            .collect();
        let mut plans: Vec<(Shape, ShapePlan)> = Vec::new();
        for part in Self::parts_of(&above).chain(Self::parts_of(&below)) {
            if !tables.has(part.shape) && !plans.iter().any(|(s, _)| *s == part.shape) {
                plans.push((part.shape, tables.plan(part.shape)));
            }
        }
        let narrow = plans.is_empty() && tables.max_value() < 8;
        Layout { shape, lanes: 1 << w, middle_bits: w * (h - 2), above, below, plans, narrow }
    }

    fn parts_of(bands: &[Vec<(Part, Part)>]) -> impl Iterator<Item = &Part> {
        bands.iter().flatten().flat_map(|(l, r)| [l, r])
    }

    /// The run of `part`'s values for m: entry t is the quadrant with varying bits t.
    fn run<'a, E: Extract>(&self, tables: &'a GrundyTables, part: &Part, m: u64, scratch: &'a mut [u8]) -> &'a [u8] {
        let len = 1usize << part.run_bits;
        let base = (E::extract(m, part.middle_mask) << part.middle_shift) as usize;
        if tables.has(part.shape) {
            let table = tables.table(part.shape);
            if part.run_shift == 0 {
                return &table[base..base + len];
            }
            for (t, out) in scratch[..len].iter_mut().enumerate() {
                *out = table[base | t << part.run_shift];
            }
        } else {
            let plan = &self.plans.iter().find(|(s, _)| *s == part.shape).expect("planned").1;
            for (t, out) in scratch[..len].iter_mut().enumerate() {
                let value = tables.grundy::<E>(plan, (base | t << part.run_shift) as u64);
                assert!(value < 16, "{}: quadrant value {value} does not fit a nibble", part.shape);
                *out = value;
            }
        }
        &scratch[..len]
    }

    /// One row's band values for m: column by column, lane by lane.
    fn fill_row<E: Extract>(&self, tables: &GrundyTables, parts: &[(Part, Part)], m: u64, row: &mut [u8], scratch: &mut [u8; 512]) {
        for (j, column) in parts.iter().enumerate() {
            self.band_column::<E>(tables, column, j, m, &mut row[j * self.lanes..(j + 1) * self.lanes], scratch);
        }
    }

    /// Writes band value `left[lane & low] ^ right[lane >> (j+1)]` of column `j` for every
    /// lane into `out[lane]`; `scratch` holds runs that are not contiguous in a table.
    fn band_column<E: Extract>(&self, tables: &GrundyTables, parts: &(Part, Part), j: usize, m: u64, out: &mut [u8], scratch: &mut [u8; 512]) {
        let (left_scratch, right_scratch) = scratch.split_at_mut(256);
        let left = self.run::<E>(tables, &parts.0, m, left_scratch);
        let right = self.run::<E>(tables, &parts.1, m, right_scratch);
        // Lanes in runs of 2^(j+1) share the right part: two copies of the left run each.
        for (chunk, &r) in out[..self.lanes].chunks_mut(2 << j).zip(right) {
            for half in chunk.chunks_mut(1 << j) {
                for (o, &l) in half.iter_mut().zip(left) {
                    *o = l ^ r;
                }
            }
        }
    }
}

/// One thread's option values for its current middle pattern.
pub struct Middle {
    /// Rows 1..H, column j, lane r0: value of the band above the cell.
    pub above: Vec<u8>,
    /// Rows 0..H−1, column j, lane rL: value of the band below the cell.
    pub below: Vec<u8>,
    /// The m bits each row was last built for (rows are rebuilt only when theirs change).
    keys: Vec<Option<u64>>,
    scratch: Box<[u8; 512]>,
}

impl Middle {
    pub fn new(layout: &Layout) -> Self {
        let (h, w, lanes) = (layout.shape.rows, layout.shape.cols, layout.lanes);
        let rows = vec![0; (h - 1) * w * lanes];
        Middle { above: rows.clone(), below: rows, keys: vec![None; 2 * (h - 1)], scratch: Box::new([0; 512]) }
    }

    /// Builds the band values of middle pattern `m`.
    pub fn load<E: Extract>(&mut self, layout: &Layout, tables: &GrundyTables, m: u64) {
        let (w, lanes) = (layout.shape.cols, layout.lanes);
        for (r, parts) in layout.above.iter().enumerate() {
            // Row r + 1 sees middle rows 1..=r.
            let key = m & ((1u64 << (w * r)) - 1);
            if self.keys[r] != Some(key) {
                self.keys[r] = Some(key);
                layout.fill_row::<E>(tables, parts, m, &mut self.above[r * w * lanes..(r + 1) * w * lanes], &mut self.scratch);
            }
        }
        let offset = layout.above.len();
        for (i, parts) in layout.below.iter().enumerate() {
            // Row i sees middle rows i+1..: the bits of m from W·i up.
            let key = m >> (w * i);
            if self.keys[offset + i] != Some(key) {
                self.keys[offset + i] = Some(key);
                layout.fill_row::<E>(tables, parts, m, &mut self.below[i * w * lanes..(i + 1) * w * lanes], &mut self.scratch);
            }
        }
    }
}
