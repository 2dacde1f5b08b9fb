//! AVX2 kernel of the packed bands: a band's values gathered at a row's free cells with
//! `pshufb`, and the rectangle mex over whole vectors.
//!
//! A band is read by board column in chunks of eight values (16 bytes, copied to both halves
//! of a 256-bit register). For every row and chunk, a list over the row's free cells gives the
//! byte pair of the cell's column in that chunk (0x80 bytes, which give 0, when the column
//! lies in another chunk); the gathered vector is the OR over the range's chunks. A range
//! uses the row's free cells `lo..hi`: the vector loaded at entry `lo` holds them first.
//!
//! Vectors are written whole, so a store also writes up to 31 values past the row: in `tops`
//! rows go forward from the row's first cell and spill into the following rows of the region,
//! in `bottoms` they end at the row's last cell and spill into the rows before. Bands are
//! stored by height, so the region of a in `tops` gets rows b = a + 1, a + 2, … in that
//! order and the region of b in `bottoms` rows a − 1 = b − 2, b − 3, …: whatever a store
//! spills over is rewritten before any mex reads it, and a rectangle's mex (which needs only
//! lower bands) reads rows whose stores are done. The row of the empty band (zeroed by
//! `start_range`) lies behind every spill. [`PAD`] spare values take the spills at both ends.

use crate::games::wall::board::MAX_SIDE;
use super::mex;
use super::packed::{Kernel, Packed, PAD};
use std::arch::x86_64::*;

/// Values of one list: 32 fillers, up to 20 cells, fillers to read 16 past the last.
const LIST: usize = 88;
const FILLER: u16 = 0x8080;

/// The lists of every row slot (slot r + 1 for row r; slots 0 and rows + 1 have no cells)
/// and every chunk (three per slot).
pub fn shuffle_lists(free: &[[u8; MAX_SIDE]], free_bits: &[u32]) -> Vec<u16> {
    let mut lists = vec![FILLER; (free.len() + 2) * 3 * LIST];
    for (r, (cells, bits)) in free.iter().zip(free_bits).enumerate() {
        for (k, &j) in cells[..bits.count_ones() as usize].iter().enumerate() {
            let (chunk, d) = (j as usize / 8, j as u16 % 8);
            lists[((r + 1) * 3 + chunk) * LIST + 32 + k] = 0x0100 + d * 0x0202;
        }
    }
    lists
}

/// The AVX2 kernel for ranges spanning `CHUNKS` chunks with up to 16 · `OUTS` cells a row.
pub struct Avx2<const CHUNKS: usize, const OUTS: usize>;

impl<const CHUNKS: usize, const OUTS: usize> Kernel for Avx2<CHUNKS, OUTS> {
    #[inline(always)]
    unsafe fn store_band(bands: &mut Packed, a: usize, b: usize, lefts: &[u16], rights: &[u16]) {
        store_band::<CHUNKS, OUTS>(bands, a, b, lefts, rights)
    }

    #[inline(always)]
    unsafe fn mex_of_moves(bands: &Packed, a: usize, b: usize) -> u16 {
        mex_of_moves(bands, a, b)
    }
}

/// Stores band (a, b) as row b of the `tops` region of a and row a − 1 of the `bottoms`
/// region of b (the dummy row slots give zeros in the padding when b = rows or a = 0).
///
/// # Safety
/// AVX2 present; `lefts` and `rights` hold at least 8 · (first chunk + CHUNKS) values.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_band<const CHUNKS: usize, const OUTS: usize>(bands: &mut Packed, a: usize, b: usize, lefts: &[u16], rights: &[u16]) {
    let first = bands.first_chunk;
    let end = 8 * (first + CHUNKS);
    assert!(lefts.len() >= end && rights.len() >= end);
    let half = |s: &[u16], c: usize| _mm256_broadcastsi128_si256(_mm_loadu_si128(s.as_ptr().add(8 * (first + c)) as *const __m128i));
    let chunks: [__m256i; CHUNKS] = std::array::from_fn(|c| _mm256_xor_si256(half(lefts, c), half(rights, c)));
    let lists = bands.shuffles.as_ptr();
    let gather = |slot: usize, at: usize| {
        let mut out = _mm256_setzero_si256();
        for (c, &chunk) in chunks.iter().enumerate() {
            let list = lists.add((slot * 3 + first + c) * LIST + at) as *const __m256i;
            out = _mm256_or_si256(out, _mm256_shuffle_epi8(chunk, _mm256_loadu_si256(list)));
        }
        out
    };
    let (top_at, bottom_end) = (bands.region(a) + bands.start[b], bands.region(b) + bands.start[a]);
    let (lo, hi) = (bands.lo[b + 1], bands.hi[a]);
    let (tops, bottoms) = (bands.tops.as_mut_ptr(), bands.bottoms.as_mut_ptr());
    for v in 0..OUTS {
        _mm256_storeu_si256(tops.add(top_at + 16 * v) as *mut __m256i, gather(b + 1, 32 + lo + 16 * v));
        let back = 16 * (OUTS - v);
        _mm256_storeu_si256(bottoms.add(bottom_end - back) as *mut __m256i, gather(a, 32 + hi - back));
    }
}

/// Mex of the moves of rectangle rows a..b: whole vectors, the values past the run masked.
///
/// # Safety
/// AVX2 present; called only from AVX2 code (always inlined there, so that the intrinsics
/// inline too).
#[inline(always)]
unsafe fn mex_of_moves(bands: &Packed, a: usize, b: usize) -> u16 {
    let (from, n) = (bands.start[a], bands.start[b] - bands.start[a]);
    // SAFETY: a run ends at most rows × columns into its region, which has PAD ≥ 16 values
    // after that.
    let m = mex::avx2::mex_below_64(bands.tops.as_ptr().add(bands.region(a) + from), bands.bottoms.as_ptr().add(bands.region(b) + from), n);
    if m < 64 {
        return m;
    }
    let (tops, bottoms) = bands.runs(a, b);
    mex::exact(tops, bottoms)
}

const _: () = assert!(PAD >= 32, "stores spill up to 32 values past a row");
