//! Bit extraction (`pext`) and CPU-feature entry points: BMI2/AVX2 where present, portable otherwise.

/// Gathers the bits of `x` selected by `mask` into the low bits, in order (x86 `pext`).
pub trait Extract: Copy + Send + Sync + 'static {
    fn extract(x: u64, mask: u64) -> u64;
}

/// Portable bit-by-bit extraction (any CPU).
#[derive(Debug, Clone, Copy, Default)]
pub struct Portable;

impl Extract for Portable {
    #[inline(always)]
    fn extract(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut bit = 1u64;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if x & low != 0 {
                out |= bit;
            }
            bit <<= 1;
            mask ^= low;
        }
        out
    }
}

/// The BMI2 `pext` instruction; only use it from code entered through [`with_bmi2`]
/// after [`bmi2_available`] returned true.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, Default)]
pub struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Extract for Bmi2 {
    #[inline(always)]
    fn extract(x: u64, mask: u64) -> u64 {
        // SAFETY: `Bmi2` is only used on CPUs where `bmi2_available()` holds.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
}

/// True when this CPU has BMI2 and `SPRAGUE_PORTABLE` is not set in the environment.
pub fn bmi2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::env::var_os("SPRAGUE_PORTABLE").is_none() && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `f` compiled with BMI2 enabled, so that [`Bmi2::extract`] inlines to one instruction.
///
/// # Safety
/// The CPU must support BMI2 ([`bmi2_available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub unsafe fn with_bmi2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// True when this CPU has AVX2 and `SPRAGUE_PORTABLE` is not set in the environment.
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::env::var_os("SPRAGUE_PORTABLE").is_none() && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `f` compiled with AVX2 enabled, so that lane loops vectorize with variable shifts.
///
/// # Safety
/// The CPU must support AVX2 ([`avx2_available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn portable_examples() {
        assert_eq!(Portable::extract(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(Portable::extract(0b1010, 0b1010), 0b11);
        assert_eq!(Portable::extract(u64::MAX, 0), 0);
    }

    proptest! {
        #[test]
        fn bmi2_matches_portable(x: u64, mask: u64) {
            #[cfg(target_arch = "x86_64")]
            if bmi2_available() {
                prop_assert_eq!(Bmi2::extract(x, mask), Portable::extract(x, mask));
            }
            prop_assert_eq!(Portable::extract(x, mask).count_ones(), (x & mask).count_ones());
        }
    }
}
