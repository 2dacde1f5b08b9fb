//! Minimum excludants for the rectangle DP: of small value sets ([`Mex`]), and of the option
//! values `tops[k] ^ bottoms[k]` of a rectangle's moves, with an AVX2 path (run-time detected)
//! and a portable one that give the same result.

/// Minimum excludant of a set of small values (a 64-bit fast path, exact beyond it).
#[derive(Default)]
pub struct Mex {
    low: u64,
    high: Vec<u16>,
}

impl Mex {
    #[inline]
    pub fn insert(&mut self, v: u16) {
        if v < 64 {
            self.low |= 1 << v;
        } else {
            self.high.push(v);
        }
    }

    pub fn value(mut self) -> u16 {
        let low = (!self.low).trailing_zeros() as u16;
        if low < 64 {
            return low;
        }
        self.high.sort_unstable();
        self.high.dedup();
        let mut m = 64;
        for v in self.high {
            if v == m {
                m += 1;
            } else if v > m {
                break;
            }
        }
        m
    }
}

/// Mex of the values `tops[k] ^ bottoms[k]`: one 64-bit set of the values below 64, the exact
/// count only when all of 0..63 occur.
#[inline]
pub fn portable(tops: &[u16], bottoms: &[u16]) -> u16 {
    let mut seen = 0u64;
    for (&t, &b) in tops.iter().zip(bottoms) {
        let v = t ^ b;
        seen |= ((v < 64) as u64) << (v & 63);
    }
    match (!seen).trailing_zeros() {
        64 => exact(tops, bottoms),
        m => m as u16,
    }
}

/// Mex of the values `tops[k] ^ bottoms[k]` of any size (the slow path beyond 63).
#[cold]
pub fn exact(tops: &[u16], bottoms: &[u16]) -> u16 {
    let mut mex = Mex::default();
    for (&t, &b) in tops.iter().zip(bottoms) {
        mex.insert(t ^ b);
    }
    mex.value()
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    /// Sixteen lanes of 0 then sixteen of 0xFFFF: `TAIL[16 - r..]` keeps the first r lanes.
    static TAIL: [u16; 32] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0, !0];

    /// Mex of `tops[k] ^ bottoms[k]` for k < n, or 64 when every value below 64 occurs.
    /// Sixteen values per step, the lanes past n set to 0xFFFF; each 32-bit lane holds two
    /// values, and `1 << v` and `1 << (v − 32)` go to two sets of 32 bits (`vpsllvd` gives 0
    /// for counts of 32 and more, so no value poses as another).
    ///
    /// # Safety
    /// AVX2 present; `tops` and `bottoms` readable for n rounded up to a multiple of 16.
    /// Always inlined: called from AVX2 code, the intrinsics inline there.
    #[inline(always)]
    pub unsafe fn mex_below_64(tops: *const u16, bottoms: *const u16, n: usize) -> u16 {
        let one = _mm256_set1_epi32(1);
        let (low16, c32) = (_mm256_set1_epi32(0xFFFF), _mm256_set1_epi32(32));
        let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let mut k = 0;
        while k < n {
            let tail = _mm256_loadu_si256(TAIL.as_ptr().add(16 - (n - k).min(16)) as *const __m256i);
            let load = |p: *const u16| _mm256_loadu_si256(p.add(k) as *const __m256i);
            let v = _mm256_or_si256(_mm256_xor_si256(load(tops), load(bottoms)), tail);
            for w in [_mm256_and_si256(v, low16), _mm256_srli_epi32::<16>(v)] {
                lo = _mm256_or_si256(lo, _mm256_sllv_epi32(one, w));
                hi = _mm256_or_si256(hi, _mm256_sllv_epi32(one, _mm256_sub_epi32(w, c32)));
            }
            k += 16;
        }
        // Interleave into 64-bit lanes (low set | high set << 32), then fold the four lanes.
        let pairs = _mm256_or_si256(_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi));
        let half = _mm_or_si128(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256::<1>(pairs));
        let seen = _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64;
        (!seen).trailing_zeros() as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mex_beyond_64() {
        let mut m = Mex::default();
        for v in (0..64).chain([65, 64, 67]) {
            m.insert(v);
        }
        assert_eq!(m.value(), 66);
    }

    proptest! {
        #[test]
        fn simd_portable_and_exact_agree(
            cells in proptest::collection::vec((0u16..140, 0u16..140), 0..90),
            dense in 0u16..135,
            junk in proptest::collection::vec(0u16..100, 16),
        ) {
            // Values 0..dense all present, so that mexes of 64 and beyond occur.
            let mut tops: Vec<u16> = (0..dense).collect();
            let mut bottoms = vec![0u16; dense as usize];
            for (t, b) in cells {
                tops.push(t);
                bottoms.push(b);
            }
            let want = exact(&tops, &bottoms);
            prop_assert_eq!(portable(&tops, &bottoms), want);
            #[cfg(target_arch = "x86_64")]
            if crate::bits::avx2_available() {
                // Values past the run (read, but masked) must not count.
                let n = tops.len();
                tops.extend(&junk);
                bottoms.extend(std::iter::repeat_n(0, 16));
                // SAFETY: AVX2 is present and both vectors have 16 values past the run.
                let m = unsafe { avx2::mex_below_64(tops.as_ptr(), bottoms.as_ptr(), n) };
                prop_assert_eq!(m, want.min(64));
            }
        }
    }
}
