//! The claim: one-heap values by the recurrence g(n) = mex { g(a) ^ g(n − a) }, XORed over the
//! heaps; the values are those of the take-and-break engine for the game's code.

use crate::games::octal::code::Code;
use crate::games::octal::values::{values, Method};

/// Which one-heap recurrence the claim uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Splits into different sizes, as the rule says (the claim under test).
    Xor,
    /// Equal halves allowed too — a misreading of the rule, to show the check can fail.
    EqualSplits,
}

impl Claim {
    /// The take-and-break code whose one-heap values the claim XORs: Grundy's game, or `4.0`
    /// (a heap splits into any two non-empty heaps) for the misreading.
    pub fn code(self) -> Code {
        match self {
            Claim::Xor => super::code(),
            Claim::EqualSplits => Code::parse("4.0").expect("4.0 is a code"),
        }
    }

    /// g(0..=max) of a single heap under this claim's recurrence.
    pub fn heap_values(self, max: u16) -> Vec<u16> {
        self.values(max).expect("one-heap values of heaps up to 65535 stones fit in 16 bits (stoppable work asks values)")
    }

    /// [`Claim::heap_values`], or the engine's error when stopped
    /// ([`crate::impartial::stoppable`]: an analysis whose client left).
    pub fn values(self, max: u16) -> crate::Result<Vec<u16>> {
        values(&self.code(), usize::from(max), Method::Sparse)
    }

    /// The claimed value of a position: the XOR of its heaps' values.
    pub fn grundy(self, heaps: &[u16]) -> u16 {
        let table = self.heap_values(heaps.iter().copied().max().unwrap_or(0));
        heaps.iter().fold(0, |x, &h| x ^ table[usize::from(h)])
    }
}

/// g(0..=max) of a single heap.
pub fn heap_values(max: u16) -> Vec<u16> {
    Claim::Xor.heap_values(max)
}

/// The claimed value of a position: the XOR of its heaps' values.
pub fn grundy(heaps: &[u16]) -> u16 {
    Claim::Xor.grundy(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::mex;

    #[test]
    fn xor_of_heaps() {
        // g(3) = 1, g(5) = 2, g(6) = 1 (A002188).
        assert_eq!(grundy(&[3, 5]), 3);
        assert_eq!(grundy(&[3, 6]), 0);
        assert_eq!(grundy(&[1, 2]), 0);
        // With equal halves a heap of 2 could move: the misreading gives g(2) = 1.
        assert_eq!(Claim::EqualSplits.grundy(&[2]), 1);
    }

    /// The values are the recurrences themselves (what the claim computed before it came from
    /// the take-and-break engine), far past the verify run's 60 stones.
    #[test]
    fn the_values_follow_the_recurrences() {
        for (claim, smaller) in [(Claim::Xor, 1), (Claim::EqualSplits, 0)] {
            let g = claim.heap_values(3000);
            for n in 0..g.len() {
                // The smaller part a: 1 ≤ a < n − a, or a ≤ n − a with equal halves.
                let options = (1..).take_while(|&a| a + a + smaller <= n).map(|a| u32::from(g[a] ^ g[n - a]));
                assert_eq!(u32::from(g[n]), mex(options), "{claim:?} {n}");
            }
        }
    }
}
