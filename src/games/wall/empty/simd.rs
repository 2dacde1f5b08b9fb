//! The AVX2 path of the mex kernel: values below 512 are tested for membership in the set of
//! values not yet seen, 32 at a time with byte shuffles (no store per value); the rare hits
//! are struck out one by one. A portable path gives the same sets.

/// The AVX2 path handles move values below this bound.
pub const SIMD_BOUND: usize = 512;

/// True when the AVX2 path may run (x86-64 with AVX2, `SPRAGUE_PORTABLE` unset); asked once.
pub fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(crate::bits::avx2_available)
}

/// The values below 512 not seen yet: bit (v >> 4) & 7 of `tables[v >> 7][v & 15]` stands for v.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Missing {
    tables: [[u8; 16]; 4],
}

impl Missing {
    /// Every value 0..512 missing.
    pub fn all() -> Missing {
        Missing { tables: [[0xff; 16]; 4] }
    }

    /// Marks `v` (< 512) as seen.
    #[inline]
    pub fn remove(&mut self, v: u16) {
        self.tables[usize::from(v >> 7)][usize::from(v & 15)] &= !(1 << ((v >> 4) & 7));
    }

    /// True when `v` (< 512) has not been seen.
    pub fn contains(&self, v: u16) -> bool {
        (self.tables[usize::from(v >> 7)][usize::from(v & 15)] >> ((v >> 4) & 7)) & 1 == 1
    }

    /// The least missing value (512 when every value below 512 was seen).
    pub fn least(&self) -> u16 {
        (0..512).find(|&v| self.contains(v)).unwrap_or(512)
    }
}

/// Strikes every value `xs[j] ^ ys[j]`, and 0 when `zero`, from `missing`; every value is below
/// `bound` (at most [`SIMD_BOUND`]). `fast` asks for the AVX2 path, taken when [`available`].
pub fn strike(xs: &[u16], ys: &[u16], zero: bool, bound: usize, missing: &mut Missing, fast: bool) {
    assert!(xs.len() == ys.len() && bound <= SIMD_BOUND, "pair slices of one length, values below 512");
    if zero {
        missing.remove(0);
    }
    #[cfg(target_arch = "x86_64")]
    if fast && available() {
        // SAFETY: the CPU has AVX2 (checked just above); every value is below `bound`.
        unsafe { avx2::strike(xs, ys, bound > 256, missing) };
        return;
    }
    let _ = fast;
    strike_each(xs, ys, missing);
}

/// The portable path: one value at a time.
fn strike_each(xs: &[u16], ys: &[u16], missing: &mut Missing) {
    for (&x, &y) in xs.iter().zip(ys) {
        missing.remove(x ^ y);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{strike_each, Missing};
    use std::arch::x86_64::*;

    /// Both halves of the register hold the 16 bytes of `table`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn broadcast(table: &[u8; 16]) -> __m256i {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr() as *const __m128i))
    }

    /// 32 values per step: XOR in u16 lanes, the low bytes packed (and, for 9-bit values, bit 8
    /// apart); the low nibble picks a byte of the table that bits 7 and 8 select, the next three
    /// bits a bit of it. The values that hit are struck one by one. A last partial step tests
    /// the final 32 values again (striking is idempotent).
    #[target_feature(enable = "avx2")]
    pub unsafe fn strike(xs: &[u16], ys: &[u16], nine_bits: bool, missing: &mut Missing) {
        let n = xs.len().min(ys.len());
        if n < 32 {
            return strike_each(&xs[..n], &ys[..n], missing);
        }
        let (nibble, byte) = (_mm256_set1_epi8(0x0f), _mm256_set1_epi16(0xff));
        let bits = broadcast(&[1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128]);
        let load_tables = |m: &Missing| m.tables.map(|t| broadcast(&t));
        let mut tables = load_tables(missing);
        let mut k = 0;
        loop {
            let load = |s: &[u16], at: usize| _mm256_loadu_si256(s.as_ptr().add(at) as *const __m256i);
            let v0 = _mm256_xor_si256(load(xs, k), load(ys, k));
            let v1 = _mm256_xor_si256(load(xs, k + 16), load(ys, k + 16));
            let low = _mm256_packus_epi16(_mm256_and_si256(v0, byte), _mm256_and_si256(v1, byte));
            let lo = _mm256_and_si256(low, nibble);
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(low), nibble);
            let pick = |a: __m256i, b: __m256i| _mm256_blendv_epi8(_mm256_shuffle_epi8(a, lo), _mm256_shuffle_epi8(b, lo), low);
            let mut row = pick(tables[0], tables[1]);
            let mut top = _mm256_setzero_si256();
            if nine_bits {
                top = _mm256_packus_epi16(_mm256_srli_epi16::<8>(v0), _mm256_srli_epi16::<8>(v1));
                row = _mm256_blendv_epi8(row, pick(tables[2], tables[3]), _mm256_slli_epi16::<7>(top));
            }
            let hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bits, hi));
            if _mm256_testz_si256(hit, hit) == 0 {
                let (mut lows, mut tops) = ([0u8; 32], [0u8; 32]);
                _mm256_storeu_si256(lows.as_mut_ptr() as *mut __m256i, low);
                _mm256_storeu_si256(tops.as_mut_ptr() as *mut __m256i, top);
                let mut lanes = !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256())) as u32);
                while lanes != 0 {
                    let at = lanes.trailing_zeros() as usize;
                    missing.remove(u16::from(lows[at]) | u16::from(tops[at]) << 8);
                    lanes &= lanes - 1;
                }
                tables = load_tables(missing);
            }
            if k + 32 == n {
                return;
            }
            k = (k + 32).min(n - 32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn avx2_and_portable_strike_the_same_values(
            pairs in proptest::collection::vec((0u16..512, 0u16..512), 0..200),
            zero: bool,
            narrow: bool,
        ) {
            let bound = if narrow { 256 } else { 512 };
            let (xs, ys): (Vec<u16>, Vec<u16>) = pairs.into_iter().map(|(x, y)| (x % bound as u16, y % bound as u16)).unzip();
            let mut fast = Missing::all();
            strike(&xs, &ys, zero, bound, &mut fast, available());
            let mut slow = Missing::all();
            strike(&xs, &ys, zero, bound, &mut slow, false);
            prop_assert_eq!(fast, slow);
            for v in 0..512u16 {
                let seen = (zero && v == 0) || xs.iter().zip(&ys).any(|(&x, &y)| x ^ y == v);
                prop_assert_eq!(slow.contains(v), !seen, "value {}", v);
            }
        }
    }

    #[test]
    fn least_missing_value() {
        let mut m = Missing::all();
        assert_eq!(m.least(), 0);
        (0..300).for_each(|v| m.remove(v));
        assert_eq!(m.least(), 300);
        (300..512).for_each(|v| m.remove(v));
        assert_eq!(m.least(), 512);
    }
}
