//! The Grundy table of X-free boards up to S×L (S ≤ L): rows in order (row h needs only the
//! rows below it), the entries of a row in parallel blocks of widths; g is symmetric, so row h
//! is computed from width h on and copied below it.

use super::kernel::{Pairs, RowSource, Scratch, BLOCK};
use crate::error::{Error, Result};
use crate::runner::Progress;
use rayon::prelude::*;

/// g(h×w) for every h ≤ short and w ≤ long (row 0 and column 0 are 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    short: usize,
    long: usize,
    /// Row h at `h * (long + 1)`: g(h×w) for w = 0..=long.
    values: Vec<u16>,
}

/// The rows below the one being computed, read from the table's storage.
struct Stored<'a> {
    values: &'a [u16],
    stride: usize,
}

impl RowSource for Stored<'_> {
    fn fill(&self, i: usize, out: &mut [u16]) {
        out.copy_from_slice(&self.values[i * self.stride..][..out.len()]);
    }
}

/// Steps of the kernel for row h up to width `long` (one XOR and mark per cell visited, at
/// most; the constant tails make it less): ⌈h/2⌉ · Σ_{w=h..long} ⌈w/2⌉.
pub fn row_work(h: usize, long: usize) -> u64 {
    let cells = |n: u64| (n + 1) * (n + 1) / 4;
    (h as u64).div_ceil(2) * (cells(long as u64) - cells(h as u64 - 1))
}

/// Kernel steps for a whole table (see [`row_work`]).
pub fn table_work(short: usize, long: usize) -> u64 {
    (1..=short).map(|h| row_work(h, long)).sum()
}

/// Bytes a table computation holds: the table, the pair arrays of one row, per-thread scratch.
pub fn table_memory(short: usize, long: usize) -> u64 {
    let cells = (short as u64 + 1) * (long as u64 + 1);
    2 * cells + 4 * (short as u64).div_ceil(2) * (long as u64 + 1) + ((rayon::current_num_threads() * BLOCK) as u64) * (1 << 16)
}

impl Table {
    /// Computes the table of every board with sides up to `short` × `long` (short ≤ long),
    /// reporting progress in kernel steps; `simd` allows the AVX2 path.
    pub fn compute(short: usize, long: usize, simd: bool, progress: &dyn Progress) -> Result<Table> {
        if short == 0 || short > long {
            return Err(Error::Usage(format!("a table needs 1 ≤ short side ≤ long side, not {short}x{long}")));
        }
        let stride = long + 1;
        let mut values = vec![0u16; (short + 1) * stride];
        progress.start("table", Some(table_work(short, long)), 0);
        for h in 1..=short {
            let (below, rest) = values.split_at_mut(h * stride);
            let row = &mut rest[..stride];
            for (w, cell) in row.iter_mut().enumerate().take(h).skip(1) {
                *cell = below[w * stride + h];
            }
            let pairs = Pairs::new(h, stride, &Stored { values: below, stride })?;
            row[h..].par_chunks_mut(BLOCK).enumerate().for_each_init(
                || Scratch::new(simd),
                |scratch, (b, out)| pairs.block(h + b * BLOCK, out, scratch),
            );
            progress.advance(row_work(h, long));
        }
        progress.finish();
        Ok(Table { short, long, values })
    }

    /// A table from its parts (as the compact file stores them); `upper[h−1]` holds g(h×w)
    /// for w = h..=long.
    pub fn from_upper(short: usize, long: usize, upper: &[u16]) -> Table {
        let stride = long + 1;
        let mut values = vec![0u16; (short + 1) * stride];
        let mut at = 0;
        for h in 1..=short {
            for w in 1..h {
                values[h * stride + w] = values[w * stride + h];
            }
            values[h * stride + h..][..=long - h].copy_from_slice(&upper[at..at + long - h + 1]);
            at += long - h + 1;
        }
        Table { short, long, values }
    }

    /// The values g(h×w) with h ≤ w, row by row (what the compact file stores).
    pub fn upper(&self) -> impl Iterator<Item = u16> + '_ {
        (1..=self.short).flat_map(move |h| self.row(h)[h..].iter().copied())
    }

    pub fn short(&self) -> usize {
        self.short
    }

    pub fn long(&self) -> usize {
        self.long
    }

    /// g(h×w) for w = 0..=long (h ≤ short).
    pub fn row(&self, h: usize) -> &[u16] {
        &self.values[h * (self.long + 1)..][..=self.long]
    }

    /// g(rows×cols), in either orientation (the smaller side at most `short`, the larger at
    /// most `long`).
    pub fn get(&self, rows: usize, cols: usize) -> u16 {
        let (h, w) = (rows.min(cols), rows.max(cols));
        assert!(h <= self.short && w <= self.long, "{rows}x{cols} is outside the {}x{} table", self.short, self.long);
        self.values[h * (self.long + 1) + w]
    }
}
