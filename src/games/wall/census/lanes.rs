//! The mex of one block: the 2^W boards that share a middle pattern and a last row, one lane
//! per first row, from the option values of [`super::middle::Middle`]; and per-lane tallies.
//!
//! Portable code, and an AVX2 path (run-time detected) that keeps each lane's set of option
//! values as one byte (values below 8, "narrow") or two bytes (values below 16) and turns a
//! value into its bit with `pshufb`: 32 lanes per instruction. Both give the same bytes.

/// One block's inputs. `above` and `below` are those of [`super::middle::Middle`]: by row,
/// column and lane (first row, last row).
pub struct Block<'a> {
    pub lanes: usize,
    pub above: &'a [u8],
    pub below: &'a [u8],
    /// This block's last row, rL: the offset of its values in `below`.
    pub last_row: usize,
    /// Option values of row 0's cells (the band below row 0 at this last row), by column.
    pub first: &'a [u8],
    /// Free middle cells: offsets of the cell's lanes in `above` and of its band-below value
    /// in `below` for last row 0.
    pub cells: &'a [(usize, usize)],
    /// Free last-row cells: offset of the cell's lanes in `above` (nothing below them).
    pub last: &'a [usize],
}

impl Block<'_> {
    /// The band-below value of middle cell `cell` at this block's last row.
    #[inline(always)]
    fn below(&self, cell: &(usize, usize)) -> u8 {
        self.below[cell.1 + self.last_row]
    }
}

/// Writes the mex of every lane into `out[..lanes]`. `narrow`: every value is below 8.
#[inline]
pub fn mex_block(block: &Block, narrow: bool, avx2: bool, out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if avx2 && block.lanes >= 32 {
        // SAFETY: `avx2` is only true when the CPU has AVX2 (bits::avx2_available).
        unsafe {
            if narrow {
                avx2::mex_block::<false>(block, out)
            } else {
                avx2::mex_block::<true>(block, out)
            }
        }
        return;
    }
    let _ = (narrow, avx2);
    mex_block_portable(block, out)
}

fn mex_block_portable(block: &Block, out: &mut [u8]) {
    let lanes = block.lanes;
    let mut seen = [0u32; 256];
    let seen = &mut seen[..lanes];
    // Row 0 by doubling: after column j, lanes below 2^(j+1) hold the options of their free
    // columns ≤ j (a lane's bit j set means an X there).
    for (j, &value) in block.first.iter().enumerate() {
        let (free, taken) = seen[..2 << j].split_at_mut(1 << j);
        for (f, t) in free.iter_mut().zip(taken) {
            *t = *f;
            *f |= 1 << value;
        }
    }
    for cell in block.cells {
        let (offset, below) = (cell.0, block.below(cell));
        for (s, &a) in seen.iter_mut().zip(&block.above[offset..offset + lanes]) {
            *s |= 1 << (a ^ below);
        }
    }
    for &offset in block.last {
        for (s, &a) in seen.iter_mut().zip(&block.above[offset..offset + lanes]) {
            *s |= 1 << a;
        }
    }
    for (o, s) in out.iter_mut().zip(seen.iter()) {
        *o = (!s).trailing_zeros() as u8;
    }
}

/// Adds one to `counts[g * lanes + lane]` for each lane's value g below `slots` (larger
/// values are not counted).
#[inline]
pub fn tally(values: &[u8], counts: &mut [u8], slots: usize, avx2: bool) {
    let lanes = values.len();
    #[cfg(target_arch = "x86_64")]
    if avx2 && lanes >= 32 {
        // SAFETY: as in `mex_block`.
        return unsafe { avx2::tally(values, counts, slots) };
    }
    let _ = avx2;
    for (lane, &g) in values.iter().enumerate().filter(|(_, &g)| (g as usize) < slots) {
        counts[g as usize * lanes + lane] += 1;
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Block;
    use std::arch::x86_64::*;

    #[inline(always)]
    unsafe fn table(bytes: [i8; 16]) -> __m256i {
        let half = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
        _mm256_broadcastsi128_si256(half)
    }

    /// Bytes 1 << v for v < 8 (0 for v ≥ 8), and 1 << (v − 8) for v ≥ 8 (0 below).
    const LOW_BITS: [i8; 16] = [1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0];
    const HIGH_BITS: [i8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128];
    /// Trailing ones of a nibble.
    const TRAILING_ONES: [i8; 16] = [0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0, 4];

    /// Trailing ones of each byte (0..=8).
    #[inline(always)]
    unsafe fn trailing_ones(s: __m256i, ones: __m256i) -> __m256i {
        let nibble = _mm256_set1_epi8(15);
        let low = _mm256_and_si256(s, nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(s), nibble);
        let full = _mm256_cmpeq_epi8(low, nibble);
        _mm256_add_epi8(_mm256_shuffle_epi8(ones, low), _mm256_and_si256(full, _mm256_shuffle_epi8(ones, high)))
    }

    /// The block's mex per lane; `WIDE`: values up to 15 (two bytes of option bits per lane).
    #[target_feature(enable = "avx2")]
    pub unsafe fn mex_block<const WIDE: bool>(block: &Block, out: &mut [u8]) {
        let lanes = block.lanes;
        assert!(out.len() >= lanes && lanes.is_multiple_of(32));
        let (low_bits, high_bits, ones) = (table(LOW_BITS), table(HIGH_BITS), table(TRAILING_ONES));
        let bit = |v: u8| (_mm256_set1_epi8(LOW_BITS[v as usize & 15]), _mm256_set1_epi8(HIGH_BITS[v as usize & 15]));
        // Row 0: columns 0..5 vary within a vector of 32 lanes, columns 5.. between vectors.
        let (mut first_low, mut first_high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let lane_index = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        for (j, &value) in block.first.iter().enumerate().take(5) {
            let column = _mm256_set1_epi8(1 << j);
            let free = _mm256_cmpeq_epi8(_mm256_and_si256(lane_index, column), _mm256_setzero_si256());
            let (l, h) = bit(value);
            first_low = _mm256_or_si256(first_low, _mm256_and_si256(free, l));
            first_high = _mm256_or_si256(first_high, _mm256_and_si256(free, h));
        }
        // Each middle cell's band-below value in every byte (not zeroed first: 1.5 KiB per block).
        let mut below = [std::mem::MaybeUninit::<__m256i>::uninit(); 48];
        assert!(block.cells.len() <= below.len());
        for (b, cell) in below.iter_mut().zip(block.cells) {
            b.write(_mm256_set1_epi8(block.below(cell) as i8));
        }
        for v in 0..lanes / 32 {
            let (mut low, mut high) = (first_low, first_high);
            for (j, &value) in block.first.iter().enumerate().skip(5) {
                if v >> (j - 5) & 1 == 0 {
                    let (l, h) = bit(value);
                    low = _mm256_or_si256(low, l);
                    high = _mm256_or_si256(high, h);
                }
            }
            let load = |offset: usize| _mm256_loadu_si256(block.above.as_ptr().add(offset + 32 * v) as *const __m256i);
            let mut add = |x: __m256i| {
                low = _mm256_or_si256(low, _mm256_shuffle_epi8(low_bits, x));
                if WIDE {
                    high = _mm256_or_si256(high, _mm256_shuffle_epi8(high_bits, x));
                }
            };
            for (&(offset, _), b) in block.cells.iter().zip(below.iter()) {
                add(_mm256_xor_si256(load(offset), b.assume_init()));
            }
            for &offset in block.last {
                add(load(offset));
            }
            let mut g = trailing_ones(low, ones);
            if WIDE {
                let full = _mm256_cmpeq_epi8(low, _mm256_set1_epi8(-1));
                g = _mm256_add_epi8(g, _mm256_and_si256(full, trailing_ones(high, ones)));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(32 * v) as *mut __m256i, g);
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn tally(values: &[u8], counts: &mut [u8], slots: usize) {
        let lanes = values.len();
        assert!(counts.len() >= slots * lanes && lanes.is_multiple_of(32));
        for v in (0..lanes).step_by(32) {
            let g = _mm256_loadu_si256(values.as_ptr().add(v) as *const __m256i);
            for s in 0..slots {
                let at = counts.as_mut_ptr().add(s * lanes + v) as *mut __m256i;
                let hit = _mm256_cmpeq_epi8(g, _mm256_set1_epi8(s as i8));
                _mm256_storeu_si256(at, _mm256_sub_epi8(_mm256_loadu_si256(at), hit));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random blocks of 32..256 lanes: the AVX2 paths equal the portable one.
    #[test]
    fn avx2_equals_portable() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        for round in 0..400 {
            let cols = 5 + round % 4;
            let lanes = 1usize << cols;
            let narrow = round % 2 == 0;
            let top = if narrow { 8 } else { 16 };
            let rows = 1 + round % 5;
            let above: Vec<u8> = (0..rows * cols * lanes).map(|_| rng.random_range(0..top)).collect();
            let first: Vec<u8> = (0..cols).map(|_| rng.random_range(0..top)).collect();
            let below: Vec<u8> = (0..rows * cols * lanes).map(|_| rng.random_range(0..top)).collect();
            let cells: Vec<(usize, usize)> = (0..rng.random_range(0..(rows - 1) * cols + 1))
                .map(|_| (rng.random_range(0..rows * cols) * lanes, rng.random_range(0..rows * cols) * lanes))
                .collect();
            let last_row = rng.random_range(0..lanes);
            let last: Vec<usize> = (0..rng.random_range(0..cols + 1)).map(|_| rng.random_range(0..rows * cols) * lanes).collect();
            let block = Block { lanes, above: &above, below: &below, last_row, first: &first, cells: &cells, last: &last };
            let mut expected = vec![0u8; lanes];
            mex_block(&block, narrow, false, &mut expected);
            let mut got = vec![0u8; lanes];
            mex_block(&block, narrow, crate::bits::avx2_available(), &mut got);
            assert_eq!(got, expected, "round {round}");
            let (mut a, mut b) = (vec![0u8; 16 * lanes], vec![0u8; 16 * lanes]);
            tally(&got, &mut a, top as usize, false);
            tally(&got, &mut b, top as usize, crate::bits::avx2_available());
            assert_eq!(a, b);
        }
    }

    #[test]
    fn portable_mex_of_a_small_block() {
        // Two lanes (one column): lane 0 has row 0's cell free (option 0), lane 1 has it X.
        let above = [1u8, 1];
        let block = Block { lanes: 2, above: &above, below: &[1], last_row: 0, first: &[0], cells: &[(0, 0)], last: &[] };
        let mut out = [9u8; 2];
        mex_block(&block, true, false, &mut out);
        // Middle cell: 1 ^ 1 = 0 in both lanes; lane 0 also sees 0 from row 0.
        assert_eq!(out, [1, 1]);
    }
}
