//! The census on a GPU (`census wall --device gpu`): the kernel of `kernel.cu` over the
//! per-board logic of `census.h`, compiled at run time by NVRTC and run through the CUDA
//! driver, both loaded with dlopen (cudarc's dynamic loading): building and testing need no
//! CUDA toolkit and no GPU. Without them the engine is refused with the library that is
//! missing ([`device::probe`]). The same `census.h` compiled for the host by `cc` (`host.c`)
//! is compared with the CPU engine in the tests (docs/census.md, "The GPU engine").
//!
//! Everything here is plain data shared with the C side: the table layout ([`Tables`]) and
//! the range of one call ([`Range`]).

pub mod device;

use crate::games::wall::board::Shape;

/// The per-board logic, shared by the kernel and the host program.
pub const HEADER: &str = include_str!("census.h");
/// The kernels (compiled after [`HEADER`]).
pub const KERNEL: &str = include_str!("kernel.cu");

/// Shapes up to 8×8 are indexed rows · DIM + cols (`SG_DIM`).
const DIM: usize = 9;
/// No table for this shape (`SG_NONE`).
pub const NONE: u64 = u64::MAX;
/// Table limit when memory allows no more: the CPU engine's (2^30 bytes for the largest).
pub const BASE_LIMIT: usize = 30;
/// The largest table the GPU engine builds: a 6×6 corner of 7×7 (2^36 bytes).
pub const MAX_LIMIT: usize = 36;

/// The quadrant tables' layout in one byte array (`SgTables`): board size and where each
/// shape's table starts.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tables {
    pub h: i32,
    pub w: i32,
    pub offsets: [u64; DIM * DIM],
}

/// Middle patterns `m_first..=m_last`, boards of `m_first` from offset `lo`, of `m_last`
/// below `hi` (`SgRange`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub m_first: u64,
    pub m_last: u64,
    pub lo: u64,
    pub hi: u64,
}

/// True when the GPU engine takes `shape`: at most 8 rows, 8 columns and 56 cells (7×8, 8×7).
/// Every quadrant of a quadrant then has at most 30 cells (a table).
pub fn supports(shape: Shape) -> bool {
    (1..=8).contains(&shape.rows) && (1..=8).contains(&shape.cols) && shape.cells() <= 56
}

/// The usage error for a size the GPU engine cannot take.
pub fn unsupported(shape: Shape) -> crate::error::Error {
    crate::error::Error::Usage(format!("the GPU census handles sizes of at most 8 rows, 8 columns and 56 cells, not {shape}"))
}

impl Tables {
    /// Every shape up to (H−1)×(W−1) with at most `limit` cells gets a table; the bytes they take.
    pub fn layout(shape: Shape, limit: usize) -> (Tables, u64) {
        let mut tables = Tables { h: shape.rows as i32, w: shape.cols as i32, offsets: [NONE; DIM * DIM] };
        let mut bytes = 0u64;
        for (rows, cols) in quadrant_shapes(shape).filter(|&(r, c)| r * c <= limit) {
            tables.offsets[rows * DIM + cols] = bytes;
            bytes += 1 << (rows * cols);
        }
        (tables, bytes)
    }

    /// The shapes with a table, in the order they are filled (rows, then columns, ascending:
    /// a shape's quadrants are smaller in both dimensions).
    pub fn filled(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (1..DIM).flat_map(|r| (1..DIM).map(move |c| (r, c))).filter(|&(r, c)| self.offsets[r * DIM + c] != NONE)
    }

    /// Bytes of one middle pattern's bands (`2 · sg_band_bytes`).
    pub fn band_bytes(&self) -> usize {
        (2 * (self.h as usize - 1) * self.w as usize) << self.w
    }

    /// Count slots: (cells + 1) X counts × 32 values (`SG_SLOTS`).
    pub fn slots(&self) -> usize {
        (self.h * self.w + 1) as usize * super::SLOTS
    }

    /// Dynamic shared memory of a census block: the tallies (u32 per slot) and the bands.
    pub fn shared_bytes(&self) -> usize {
        self.slots() * 4 + self.band_bytes()
    }
}

/// The quadrant shapes of a census of `shape`: rows 1..H, columns 1..W (both non-empty).
fn quadrant_shapes(shape: Shape) -> impl Iterator<Item = (usize, usize)> {
    let (h, w) = (shape.rows, shape.cols);
    (1..h).flat_map(move |r| (1..w).map(move |c| (r, c)))
}

/// The table limit for `shape` with `free` bytes of GPU memory: every quadrant tabled when
/// the largest has at most [`MAX_LIMIT`] cells and all fit, else [`BASE_LIMIT`] (corners by
/// the recursion); `None` when even that does not fit. `reserve` is kept free.
pub fn table_limit(shape: Shape, free: u64, reserve: u64) -> Option<usize> {
    let whole = (shape.rows.saturating_sub(1)) * shape.cols.saturating_sub(1);
    let fits = |limit: usize| Tables::layout(shape, limit).1 + reserve <= free;
    if whole <= MAX_LIMIT && fits(whole.max(BASE_LIMIT)) {
        Some(whole.max(BASE_LIMIT))
    } else {
        fits(BASE_LIMIT).then_some(BASE_LIMIT)
    }
}

impl Range {
    /// The middle patterns and offsets of positions `positions` (y = r0 | rL << W | m << 2W).
    pub fn of(positions: &std::ops::Range<u64>, shape: Shape) -> Range {
        let per = 2 * shape.cols;
        let mask = (1u64 << per) - 1;
        let last = positions.end - 1;
        Range { m_first: positions.start >> per, m_last: last >> per, lo: positions.start & mask, hi: (last & mask) + 1 }
    }
}

#[cfg(test)]
mod tests;
