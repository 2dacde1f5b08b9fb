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

/// Mex of the values `tops[k] ^ bottoms[k]`.
#[inline]
pub fn mex_of_xors(tops: &[u16], bottoms: &[u16], simd: bool) -> u16 {
    #[cfg(target_arch = "x86_64")]
    if simd && tops.len() >= 16 {
        // SAFETY: `simd` is only true when the CPU has AVX2 (bits::avx2_available).
        if let Some(m) = unsafe { avx2::mex_below_64(tops, bottoms) } {
            return m;
        }
        return exact(tops, bottoms);
    }
    let _ = simd;
    portable(tops, bottoms)
}

/// One 64-bit set of the values below 64; the exact count only when all of 0..63 occur.
fn portable(tops: &[u16], bottoms: &[u16]) -> u16 {
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

fn exact(tops: &[u16], bottoms: &[u16]) -> u16 {
    let mut mex = Mex::default();
    for (&t, &b) in tops.iter().zip(bottoms) {
        mex.insert(t ^ b);
    }
    mex.value()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// The mex when it is below 64, else `None`. Sixteen values per step, widened to four
    /// 64-bit lanes at a time; `1 << v` is zero for v ≥ 64 (as `vpsllvq` gives), so larger
    /// values never pose as small ones.
    #[target_feature(enable = "avx2")]
    pub unsafe fn mex_below_64(tops: &[u16], bottoms: &[u16]) -> Option<u16> {
        let n = tops.len();
        assert!(bottoms.len() == n);
        let one = _mm256_set1_epi64x(1);
        let (mut s0, mut s1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let mut k = 0;
        while k + 16 <= n {
            let load = |s: &[u16]| _mm256_loadu_si256(s.as_ptr().add(k) as *const __m256i);
            let v = _mm256_xor_si256(load(tops), load(bottoms));
            let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            s0 = _mm256_or_si256(s0, _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(lo)));
            s1 = _mm256_or_si256(s1, _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(_mm_srli_si128::<8>(lo))));
            s0 = _mm256_or_si256(s0, _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(hi)));
            s1 = _mm256_or_si256(s1, _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(_mm_srli_si128::<8>(hi))));
            k += 16;
        }
        let mut lanes = [0u64; 4];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, _mm256_or_si256(s0, s1));
        let mut seen = lanes.iter().fold(0, |a, &l| a | l);
        for j in k..n {
            let v = tops[j] ^ bottoms[j];
            seen |= ((v < 64) as u64) << (v & 63);
        }
        let m = (!seen).trailing_zeros();
        (m < 64).then_some(m as u16)
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
            prop_assert_eq!(mex_of_xors(&tops, &bottoms, crate::bits::avx2_available()), want);
        }
    }
}
