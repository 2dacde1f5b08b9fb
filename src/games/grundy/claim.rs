//! The claim: one-heap values by the recurrence g(n) = mex { g(a) ^ g(n − a) }, XORed over the heaps.

use super::splits;

/// Which one-heap recurrence the claim uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Splits into different sizes, as the rule says (the claim under test).
    Xor,
    /// Equal halves allowed too — a misreading of the rule, to show the check can fail.
    EqualSplits,
}

impl Claim {
    /// The claimed value of a position: the XOR of its heaps' values.
    pub fn grundy(self, heaps: &[u16]) -> u16 {
        let max = heaps.iter().copied().max().unwrap_or(0);
        let table = match self {
            Claim::Xor => heap_values(max),
            Claim::EqualSplits => values_of(max, |n| (1..=n / 2).map(move |a| (a, n - a))),
        };
        heaps.iter().fold(0, |x, &h| x ^ table[usize::from(h)])
    }
}

/// g(0..=max) of a single heap.
pub fn heap_values(max: u16) -> Vec<u16> {
    values_of(max, splits)
}

/// g(0..=max) where a heap of n moves to the pairs `moves(n)`.
fn values_of<I: Iterator<Item = (u16, u16)>>(max: u16, moves: impl Fn(u16) -> I) -> Vec<u16> {
    let mut g = vec![0u16; usize::from(max) + 1];
    let mut seen = Vec::new();
    for n in 1..=max {
        seen.clear();
        for (a, b) in moves(n) {
            let v = usize::from(g[usize::from(a)] ^ g[usize::from(b)]);
            if v >= seen.len() {
                seen.resize(v + 1, false);
            }
            seen[v] = true;
        }
        g[usize::from(n)] = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u16;
    }
    g
}

/// The claimed value of a position: the XOR of its heaps' values.
pub fn grundy(heaps: &[u16]) -> u16 {
    Claim::Xor.grundy(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_of_heaps() {
        // g(3) = 1, g(5) = 2, g(6) = 1 (A002188).
        assert_eq!(grundy(&[3, 5]), 3);
        assert_eq!(grundy(&[3, 6]), 0);
        assert_eq!(grundy(&[1, 2]), 0);
        // With equal halves a heap of 2 could move: the misreading gives g(2) = 1.
        assert_eq!(Claim::EqualSplits.grundy(&[2]), 1);
    }
}
