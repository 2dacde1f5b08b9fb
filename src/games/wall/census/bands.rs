//! Row-band form of the rectangle DP for enumerating every X-pattern of one H×W shape.
//!
//! For cell (i, j) the claimed option value g(UL)^g(UR)^g(LL)^g(LR) splits into the band of
//! rows above i and the band of rows below i, each contributing g(left of j)^g(right of j).
//! A band of k full-width rows depends only on its own pattern, so one table per k holds the
//! W values of every pattern as 4-bit nibbles; a board then costs two lookups per row (the
//! band patterns are plain shifts of the board's bits) and a branch-free mex.

use crate::games::wall::board::Shape;
use super::tables::{rect_mask, GrundyTables};
use crate::bits::Extract;
use rayon::prelude::*;

/// Band tables of one shape: `bands[k][pattern]` packs, for column j, g(left) ^ g(right) of a
/// k-row band into bits 4j..4j+4.
pub struct BandTables {
    shape: Shape,
    bands: Vec<Vec<u32>>,
}

/// Why band tables cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BandError {
    /// More than 8 columns do not fit eight nibbles.
    TooWide(Shape),
    /// A quadrant value of 16 or more does not fit a nibble.
    ValueTooLarge(Shape),
}

impl BandTables {
    /// Bytes the band tables of `shape` take.
    pub fn bytes(shape: Shape) -> u64 {
        (0..shape.rows).map(|k| 4u64 << (k * shape.cols)).sum()
    }

    /// Builds the bands of `shape` (≤ 8 columns) from tables covering (rows−1)×(cols−1).
    pub fn build<E: Extract>(shape: Shape, tables: &GrundyTables) -> Result<Self, BandError> {
        if shape.cols > 8 {
            return Err(BandError::TooWide(shape));
        }
        // Two values below 16 XOR to a value below 16.
        if tables.max_value() >= 16 {
            return Err(BandError::ValueTooLarge(shape));
        }
        let bands = (0..shape.rows).map(|k| band::<E>(shape.cols, k, tables)).collect();
        Ok(BandTables { shape, bands })
    }

    /// The claimed Grundy value of X-pattern `x` of the shape.
    #[inline(always)]
    pub fn grundy(&self, x: u64) -> u8 {
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let row_mask = (1u64 << cols) - 1;
        // Values stay below 16, so the mex is below 64.
        let mut seen = 0u64;
        for i in 0..rows {
            let above = x & ((1u64 << (i * cols)) - 1);
            let below = x >> ((i + 1) * cols);
            let options = self.bands[i][above as usize] ^ self.bands[rows - 1 - i][below as usize];
            let row = (x >> (i * cols)) & row_mask;
            for j in 0..cols {
                let free = (row >> j & 1) ^ 1;
                seen |= free << (options >> (4 * j) & 15);
            }
        }
        (!seen).trailing_zeros() as u8
    }
}

/// The table of k-row bands `cols` wide: a pattern's nibble j is g(left of j) ^ g(right of j).
fn band<E: Extract>(cols: usize, k: usize, tables: &GrundyTables) -> Vec<u32> {
    let mut out = vec![0u32; 1 << (k * cols)];
    if k == 0 {
        return out;
    }
    let column_block = |c0: usize, c1: usize| rect_mask(cols, 0, k, c0, c1);
    let parts: Vec<(Shape, u64, Shape, u64)> = (0..cols)
        .map(|j| (Shape::new(k, j), column_block(0, j), Shape::new(k, cols - 1 - j), column_block(j + 1, cols)))
        .collect();
    out.par_chunks_mut(1 << 12).enumerate().for_each(|(chunk, entries)| {
        for (i, entry) in entries.iter_mut().enumerate() {
            let p = ((chunk << 12) + i) as u64;
            let mut packed = 0u32;
            for (j, &(left, lmask, right, rmask)) in parts.iter().enumerate() {
                let v = tables.get(left, E::extract(p, lmask)) ^ tables.get(right, E::extract(p, rmask));
                packed |= (v as u32) << (4 * j);
            }
            *entry = packed;
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;
    use crate::games::wall::{claim::dp, board::Board};

    #[test]
    fn bands_match_rectangle_dp() {
        for (h, w) in [(1, 1), (1, 5), (3, 1), (2, 3), (3, 4), (4, 3)] {
            let shape = Shape::new(h, w);
            let tables = GrundyTables::build::<Portable>(Shape::new(h - 1, w - 1));
            let bands = BandTables::build::<Portable>(shape, &tables).unwrap();
            for x in 0..1u64 << shape.cells() {
                assert_eq!(bands.grundy(x) as u32, dp::solve(&Board::from_mask(shape, x)).grundy, "{h}x{w} {x:b}");
            }
        }
        let shape = Shape::new(5, 5);
        let tables = GrundyTables::build::<Portable>(Shape::new(4, 4));
        let bands = BandTables::build::<Portable>(shape, &tables).unwrap();
        for x in (0..1u64 << 25).step_by(99_991) {
            assert_eq!(bands.grundy(x) as u32, dp::solve(&Board::from_mask(shape, x)).grundy);
        }
    }

    #[test]
    fn refuses_wide_shapes() {
        let tables = GrundyTables::build::<Portable>(Shape::new(0, 8));
        assert_eq!(BandTables::build::<Portable>(Shape::new(1, 9), &tables).err(), Some(BandError::TooWide(Shape::new(1, 9))));
    }
}
