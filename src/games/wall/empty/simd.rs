//! The AVX2 path of the mex kernel: values below 256 are tested for membership in the set of
//! values not yet seen, 32 at a time with byte shuffles (no store per value); the rare hits
//! are struck out one by one. A portable path gives the same sets.

/// The AVX2 path handles move values below this bound.
pub const SIMD_BOUND: usize = 256;

/// True when the AVX2 path may run (x86-64 with AVX2, `SPRAGUE_PORTABLE` unset); asked once.
pub fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(crate::bits::avx2_available)
}

/// The values below 256 not seen yet: bit `hi` of `low[lo]` stands for 16·hi + lo (hi < 8),
/// bit `hi − 8` of `high[lo]` for the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Missing {
    low: [u8; 16],
    high: [u8; 16],
}

impl Missing {
    /// Every value 0..256 missing.
    pub fn all() -> Missing {
        Missing { low: [0xff; 16], high: [0xff; 16] }
    }

    /// Marks `v` (< 256) as seen.
    #[inline]
    pub fn remove(&mut self, v: u16) {
        let (lo, hi) = (usize::from(v & 15), v >> 4);
        if hi < 8 {
            self.low[lo] &= !(1 << hi);
        } else {
            self.high[lo] &= !(1 << (hi - 8));
        }
    }

    /// True when `v` (< 256) has not been seen.
    pub fn contains(&self, v: u16) -> bool {
        let (lo, hi) = (usize::from(v & 15), v >> 4);
        let byte = if hi < 8 { self.low[lo] >> hi } else { self.high[lo] >> (hi - 8) };
        byte & 1 == 1
    }

    /// The least missing value (256 when every value below 256 was seen).
    pub fn least(&self) -> u16 {
        (0..256).find(|&v| self.contains(v)).unwrap_or(256)
    }
}

/// Strikes every value `xs[j] ^ ys[j]` (each below 256), and 0 when `zero`, from `missing`;
/// `fast` asks for the AVX2 path, taken when [`available`].
pub fn strike(xs: &[u16], ys: &[u16], zero: bool, missing: &mut Missing, fast: bool) {
    assert_eq!(xs.len(), ys.len(), "pair slices of one length");
    if zero {
        missing.remove(0);
    }
    #[cfg(target_arch = "x86_64")]
    if fast && available() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { avx2::strike(xs, ys, missing) };
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

    /// 32 values per step: XOR in u16 lanes, packed to bytes (exact below 256), split into
    /// nibbles; the low nibble picks a byte of `low`/`high` (by bit 3 of the high nibble) and
    /// the high nibble a bit of it. The bytes that hit are struck one by one. A last partial
    /// step tests the final 32 values again (striking is idempotent).
    #[target_feature(enable = "avx2")]
    pub unsafe fn strike(xs: &[u16], ys: &[u16], missing: &mut Missing) {
        let n = xs.len().min(ys.len());
        if n < 32 {
            return strike_each(&xs[..n], &ys[..n], missing);
        }
        let nibble = _mm256_set1_epi8(0x0f);
        let bits = broadcast(&[1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128]);
        let (mut low, mut high) = (broadcast(&missing.low), broadcast(&missing.high));
        let mut k = 0;
        loop {
            let load = |s: &[u16], at: usize| _mm256_loadu_si256(s.as_ptr().add(at) as *const __m256i);
            let v0 = _mm256_xor_si256(load(xs, k), load(ys, k));
            let v1 = _mm256_xor_si256(load(xs, k + 16), load(ys, k + 16));
            let v = _mm256_packus_epi16(v0, v1);
            let lo = _mm256_and_si256(v, nibble);
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
            let row = _mm256_blendv_epi8(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, lo), _mm256_slli_epi16::<4>(hi));
            let hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bits, hi));
            if _mm256_testz_si256(hit, hit) == 0 {
                let mut bytes = [0u8; 32];
                _mm256_storeu_si256(bytes.as_mut_ptr() as *mut __m256i, v);
                let mut lanes = !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256())) as u32);
                while lanes != 0 {
                    missing.remove(u16::from(bytes[lanes.trailing_zeros() as usize]));
                    lanes &= lanes - 1;
                }
                (low, high) = (broadcast(&missing.low), broadcast(&missing.high));
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
        fn avx2_and_portable_strike_the_same_values(pairs in proptest::collection::vec((0u16..256, 0u16..256), 0..200), zero: bool) {
            let (xs, ys): (Vec<u16>, Vec<u16>) = pairs.into_iter().unzip();
            let mut fast = Missing::all();
            strike(&xs, &ys, zero, &mut fast, available());
            let mut slow = Missing::all();
            if zero {
                slow.remove(0);
            }
            strike_each(&xs, &ys, &mut slow);
            prop_assert_eq!(fast, slow);
            for v in 0..256u16 {
                let seen = (zero && v == 0) || xs.iter().zip(&ys).any(|(&x, &y)| x ^ y == v);
                prop_assert_eq!(slow.contains(v), !seen, "value {}", v);
            }
        }
    }

    #[test]
    fn least_missing_value() {
        let mut m = Missing::all();
        assert_eq!(m.least(), 0);
        for v in 0..200 {
            m.remove(v);
        }
        assert_eq!(m.least(), 200);
        for v in 200..256 {
            m.remove(v);
        }
        assert_eq!(m.least(), 256);
    }
}
