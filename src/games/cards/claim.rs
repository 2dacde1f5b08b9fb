//! The claimed solvers.

/// Which claimed rule answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The interval DP (the claim under test).
    Dp,
    /// Always take the larger end card (ties: left) — deliberately wrong.
    Greedy,
}

impl Claim {
    pub fn first_total(self, cards: &[u32]) -> u64 {
        match self {
            Claim::Dp => first_total(cards),
            Claim::Greedy => greedy_total(cards),
        }
    }
}

/// The first player's total under optimal play: best[l] over windows [l, l + len) of the
/// mover's total, grown one length at a time; O(N²) time, O(N) memory.
pub fn first_total(cards: &[u32]) -> u64 {
    let n = cards.len();
    let mut prefix = vec![0u64; n + 1];
    for (i, &c) in cards.iter().enumerate() {
        prefix[i + 1] = prefix[i] + u64::from(c);
    }
    let mut best: Vec<u64> = cards.iter().map(|&c| u64::from(c)).collect();
    for len in 2..=n {
        for l in 0..=n - len {
            let sum = prefix[l + len] - prefix[l];
            // Taking one end leaves the opponent best[l + 1] (left taken) or best[l] (right taken).
            best[l] = sum - best[l].min(best[l + 1]);
        }
    }
    best.first().copied().unwrap_or(0)
}

/// Both players take the larger end card.
pub fn greedy_total(cards: &[u32]) -> u64 {
    let (mut l, mut r, mut totals, mut turn) = (0usize, cards.len(), [0u64; 2], 0);
    while l < r {
        let card = if cards[l] >= cards[r - 1] { l += 1; cards[l - 1] } else { r -= 1; cards[r] };
        totals[turn] += u64::from(card);
        turn ^= 1;
    }
    totals[0]
}
