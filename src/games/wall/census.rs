//! Census engine: the rectangle DP's value of every X-pattern of a size, without the oracle.
//!
//! For sizes whose naive side is out of reach (6×6: 2^36 patterns). Patterns are taken in
//! blocks of 2^cols that share all rows but the first ([`BandTables::grundy_first_row_block`]),
//! and of each pair of left–right mirror blocks only one is evaluated, counted twice.

use super::bands::BandTables;
use super::symmetry::Symmetries;
use super::tables::GrundyTables;
use super::{Rule, Shape};
use crate::error::{Error, Result};
use crate::runner::{Evaluate, RunResults};
use std::ops::Range;

/// Mex values stay at most 16 (options are nibbles); slots per X count.
const SLOTS: usize = 32;

/// Claimed values of a size's patterns from its band tables.
pub struct CensusEngine {
    shape: Shape,
    bands: BandTables,
    symmetries: Symmetries,
    avx2: bool,
}

/// True when the census can take `shape` (band tables need ≤ 8 columns; ≤ 36 cells).
pub fn supports(shape: Shape) -> bool {
    shape.cols <= 8 && shape.cells() <= 36
}

/// The usage error for a size the census cannot take.
pub fn unsupported(shape: Shape) -> Error {
    Error::Usage(format!("census handles sizes of at most 36 cells and 8 columns, not {shape}"))
}

/// Recomputes one size of a committed census (for `check`): the claimed value of every pattern.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    if rule != Rule::Standard.name() {
        return Err(Error::Usage(format!("census handles the standard rule only, not {rule}")));
    }
    super::verify::census_in_memory(Shape::new(rows as usize, cols as usize))
}

/// Peak memory of a census of `shape`: the band tables, the quadrant tables and an allowance.
pub fn estimate_peak_bytes(shape: Shape) -> u64 {
    (64 << 20) + BandTables::bytes(shape) + GrundyTables::bytes(Shape::new(shape.rows - 1, shape.cols - 1))
}

impl CensusEngine {
    /// Builds the tables of `shape` (which [`supports`] must accept).
    pub fn build(shape: Shape) -> Self {
        let tables = super::engine::build_quadrant_tables(shape);
        let bands = super::engine::build_bands(shape, &tables).expect("quadrant values of census sizes fit nibbles");
        CensusEngine { shape, bands, symmetries: Symmetries::of(shape), avx2: crate::bits::avx2_available() }
    }

    /// How many patterns each pattern with rows 1.. equal to `base`'s stands for. The
    /// left–right mirror maps a first-row block onto a block (lane k onto the mirror of k) with
    /// the same values and X counts, so of two mirror blocks only the one whose `base` is the
    /// smaller is evaluated, counted twice; a block that is its own mirror counts once.
    #[inline(always)]
    fn mirror_weight(&self, base: u64) -> u64 {
        let mirror = self.symmetries.mirror_columns(base);
        match mirror.cmp(&base) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 2,
        }
    }

    #[inline(always)]
    fn evaluate_inline(&self, patterns: Range<u64>, results: &mut RunResults) {
        let cells = self.shape.cells();
        let lanes = 1u64 << self.shape.cols;
        let mut counts = vec![0u64; (cells + 1) * SLOTS];
        // Lane k of a block has popcount(k) more X cells than the block's base.
        let lane_slots: Vec<usize> = (0..lanes).map(|k| k.count_ones() as usize * SLOTS).collect();
        let mut block = vec![0u8; lanes as usize];
        let mut x = patterns.start;
        while x < patterns.end {
            let weight = self.mirror_weight(x & !(lanes - 1));
            if x % lanes == 0 && x + lanes <= patterns.end {
                if weight > 0 {
                    self.bands.grundy_first_row_block(x, &mut block);
                    let counts = &mut counts[x.count_ones() as usize * SLOTS..];
                    for (&slot, &g) in lane_slots.iter().zip(&block) {
                        counts[slot + g as usize] += weight;
                    }
                }
                x += lanes;
            } else {
                if weight > 0 {
                    counts[x.count_ones() as usize * SLOTS + self.bands.grundy(x) as usize] += weight;
                }
                x += 1;
            }
        }
        let tally = results.size_mut(self.shape.rows as u32, self.shape.cols as u32);
        tally.record_flat(&counts, SLOTS);
    }
}

impl Evaluate for CensusEngine {
    fn evaluate(&self, patterns: Range<u64>, results: &mut RunResults) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` was set by `avx2_available()`.
            return unsafe { crate::bits::with_avx2(|| self.evaluate_inline(patterns, results)) };
        }
        self.evaluate_inline(patterns, results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::engine::tests::run;
    use crate::games::wall::engine::{prepare, ReferenceEngine};

    #[test]
    fn census_counts_equal_the_verified_distribution() {
        for (h, w) in [(1, 1), (2, 5), (3, 4), (4, 3)] {
            let shape = Shape::new(h, w);
            let census = CensusEngine::build(shape);
            let total = 1u64 << shape.cells();
            // Unaligned split points exercise the single-pattern path too.
            let mut split = run(&census, Rule::Standard, 0..total / 3);
            split.merge(&run(&census, Rule::Standard, total / 3..total));
            let verified = run(&*prepare(shape, Rule::Standard), Rule::Standard, 0..total);
            assert_eq!(split.distribution_rows(), verified.distribution_rows(), "{shape}");
            if shape.cells() <= 9 {
                let reference = run(&ReferenceEngine { shape, rule: Rule::Standard }, Rule::Standard, 0..total);
                assert_eq!(split.summary_rows(), reference.summary_rows());
            }
        }
    }

    #[test]
    fn recompute_counts_every_pattern_and_refuses_other_rules() {
        let recomputed = recompute_size("standard", 3, 3).unwrap();
        let verified = run(&*prepare(Shape::new(3, 3), Rule::Standard), Rule::Standard, 0..1 << 9);
        assert_eq!(recomputed.summary_rows(), verified.summary_rows());
        assert_eq!(recomputed.distribution_rows(), verified.distribution_rows());
        assert!(recompute_size("misere", 3, 3).unwrap_err().to_string().contains("standard rule only, not misere"));
    }
}
