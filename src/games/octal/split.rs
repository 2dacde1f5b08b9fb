//! The sparse method's split of values into rare and common ones: a mask, chosen from the
//! values so far so that as few as possible are rare, and the list of rare heaps under it.
//!
//! A value v is rare when parity(v & mask) is even (0 always is). The mask is chosen when
//! [`FIRST_REVIEW`] values are known and reviewed whenever the count doubles: the mask that
//! makes the fewest of the newer half rare (by a Walsh–Hadamard transform of their
//! histogram) replaces it, and the rare list is rebuilt. The values never depend on it.

/// Values computed by plain mex before the first mask is chosen.
pub const FIRST_REVIEW: usize = 256;

/// The current mask and the heaps whose values are rare under it.
#[derive(Debug, Clone, Default)]
pub struct Split {
    mask: u16,
    rare: Vec<usize>,
    /// The rare heaps and their values side by side, for the tight loops of [`super::fast`].
    heaps: Vec<u32>,
    values: Vec<u16>,
    /// `common[v]`: v is common under the mask (every v ≤ 65535).
    common: Vec<bool>,
    /// The mask is reviewed when this many values are known (0: no mask yet).
    review_at: usize,
}

impl Split {
    /// True once a mask is chosen (before, the sparse method computes by plain mex).
    pub fn ready(&self, n: usize) -> bool {
        n >= FIRST_REVIEW && self.review_at > 0
    }

    pub fn mask(&self) -> u16 {
        self.mask
    }

    /// The heaps with rare values, ascending.
    pub fn rare(&self) -> &[usize] {
        &self.rare
    }

    /// The rare heaps (as u32) and their values, side by side.
    pub fn rare_pairs(&self) -> (&[u32], &[u16]) {
        (&self.heaps, &self.values)
    }

    /// True when `v` is common under the mask.
    pub fn is_common(&self, v: usize) -> bool {
        (v & usize::from(self.mask)).count_ones() % 2 == 1
    }

    /// `table[v]`: v is common (v ≤ 65535; empty before the first mask).
    pub fn common_table(&self) -> &[bool] {
        &self.common
    }

    /// The split as it is after `g` with mask `mask` reviewed next at `review_at` (a resumed run).
    pub fn restore(g: &[u16], mask: u16, review_at: usize) -> Split {
        let mut split = Split { review_at, ..Split::default() };
        if review_at > 0 {
            split.set_mask(mask, g);
        }
        split
    }

    /// When the mask is next reviewed (0: no mask yet).
    pub fn review_at(&self) -> usize {
        self.review_at
    }

    fn push_rare(&mut self, n: usize, v: u16) {
        self.rare.push(n);
        self.heaps.push(u32::try_from(n).expect("heaps below 2^32"));
        self.values.push(v);
    }

    fn set_mask(&mut self, mask: u16, g: &[u16]) {
        self.mask = mask;
        self.common = (0..=u16::MAX as usize).map(|v| self.is_common(v)).collect();
        (self.rare, self.heaps, self.values) = Default::default();
        for (n, &v) in g.iter().enumerate() {
            if !self.common[usize::from(v)] {
                self.push_rare(n, v);
            }
        }
    }

    /// Takes note of the value just computed, the last of `g`; reviews the mask when due.
    pub fn record(&mut self, g: &[u16]) {
        let n = g.len() - 1;
        if self.review_at > 0 && !self.common[usize::from(g[n])] {
            self.push_rare(n, g[n]);
        }
        if g.len() == self.review_at.max(FIRST_REVIEW) {
            self.review(g);
        }
    }

    /// Chooses the best mask for the newer half of `g` and rebuilds the rare list.
    fn review(&mut self, g: &[u16]) {
        let recent = &g[g.len() / 2..];
        let current = recent.iter().filter(|&&v| !self.is_common(usize::from(v))).count();
        let (mask, rare) = best_mask(recent);
        if self.review_at == 0 || rare < current {
            self.set_mask(mask, g);
        }
        self.review_at = 2 * g.len();
    }
}

/// The mask under which the fewest of `values` are rare, and how many are (smallest mask on ties).
pub fn best_mask(values: &[u16]) -> (u16, usize) {
    let top = values.iter().copied().max().unwrap_or(0);
    let size = (usize::from(top) + 1).next_power_of_two();
    let mut sums = vec![0i64; size];
    for &v in values {
        sums[usize::from(v)] += 1;
    }
    // sums[m] becomes Σ_v count(v) · (−1)^parity(v & m) = rare − common under mask m.
    let mut half = 1;
    while half < size {
        for block in (0..size).step_by(2 * half) {
            for i in block..block + half {
                let (a, b) = (sums[i], sums[i + half]);
                (sums[i], sums[i + half]) = (a + b, a - b);
            }
        }
        half *= 2;
    }
    let total = values.len() as i64;
    let (mask, sum) = sums.iter().enumerate().min_by_key(|&(m, &s)| (s, m)).expect("at least one mask");
    (mask as u16, ((total + sum) / 2) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_mask_counts_what_it_says() {
        let values = [1u16, 2, 4, 7, 8, 1, 2, 4, 0, 3, 8, 11, 13, 14];
        let (mask, rare) = best_mask(&values);
        let counted = values.iter().filter(|&&v| (v & mask).count_ones() % 2 == 0).count();
        assert_eq!(rare, counted);
        for other in 0..16u16 {
            assert!(values.iter().filter(|&&v| (v & other).count_ones() % 2 == 0).count() >= rare, "mask {other}");
        }
        // Odious values (odd bit count) are all common under the full mask.
        assert_eq!(best_mask(&[1, 2, 4, 7, 8, 11, 13, 14]), (15, 0));
    }

    #[test]
    fn the_rare_list_follows_the_mask() {
        let g: Vec<u16> = (0..FIRST_REVIEW as u16).map(|n| if n % 50 == 0 { 0 } else { 1 << (n % 3) }).collect();
        let mut split = Split::default();
        for n in 1..=g.len() {
            split.record(&g[..n]);
        }
        assert!(split.ready(FIRST_REVIEW));
        assert_eq!(split.mask(), 7);
        assert_eq!(split.rare(), (0..FIRST_REVIEW).filter(|n| n % 50 == 0).collect::<Vec<_>>());
    }
}
