//! The sparse method's split of heaps and values into rare and common ones: a [`Rule`] (a
//! mask, and whether the heap's parity counts), chosen from the values so far so that as few
//! heaps as possible are rare, and the list of rare heaps under it.
//!
//! Under a mask alone (the *range* type, Winning Ways' "sparse space"), heap n is rare when
//! parity(g(n) & mask) is even (0 always is). For codes whose two-heap splits all remove a
//! number of tokens of one parity (that of t), the *domain* type also counts the heap's
//! parity: heap n is rare when parity(g(n) & mask) = parity(n − t) (Flammenkamp, "Sparse- and
//! common-positions of Sprague-Grundy values of octal games"). Either way a split of heap n
//! has a value of the class common for n exactly when one part is rare ([`Rule::common_for`]).
//! The rule is chosen when [`FIRST_REVIEW`] values are known and reviewed whenever the count
//! doubles: the rule that makes the fewest of the newer half rare (by Walsh–Hadamard
//! transforms of their histograms, one per heap parity) replaces it, and the rare list is
//! rebuilt. The values never depend on it.

/// Values computed by plain mex before the first rule is chosen.
pub const FIRST_REVIEW: usize = 256;

/// How heaps and values are split: the mask, and for the domain type the parity of t.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rule {
    pub mask: u16,
    /// `Some(parity of t)`: the domain type; `None`: the range type.
    pub domain: Option<u8>,
}

impl Rule {
    /// 0 or 1: the parity a rare heap n's value has under the mask (always 0 for the range type).
    pub fn rare_parity(&self, n: usize) -> u32 {
        self.domain.map_or(0, |t| (n as u32 ^ u32::from(t)) & 1)
    }

    /// True when heap n of value v is rare.
    pub fn is_rare(&self, n: usize, v: u16) -> bool {
        (v & self.mask).count_ones() % 2 == self.rare_parity(n)
    }

    /// True when an option of value v of heap n is of the class a split with exactly one rare
    /// part gives (what the sparse method finds exactly from the rare heaps).
    pub fn common_for(&self, n: usize, v: u16) -> bool {
        !self.is_rare(n, v)
    }

    /// The rule a checkpoint or a statistics file records (the mask, and whether the heap's
    /// parity counts) for a code whose splits remove tokens of parity `domain_parity` (`None`:
    /// of both); `None` when the domain type is recorded but the code does not allow it.
    pub fn recorded(mask: u16, domain: bool, domain_parity: Option<u8>) -> Option<Rule> {
        match (domain, domain_parity) {
            (false, _) => Some(Rule { mask, domain: None }),
            (true, Some(parity)) => Some(Rule { mask, domain: Some(parity) }),
            (true, None) => None,
        }
    }

    /// `range` or `domain`, for reports and files.
    pub fn kind(&self) -> &'static str {
        if self.domain.is_some() { "domain" } else { "range" }
    }
}

/// The current rule and the heaps that are rare under it.
#[derive(Debug, Clone, Default)]
pub struct Split {
    rule: Rule,
    /// The parity of t when the code allows the domain type (its splits all remove tokens of
    /// one parity), else `None`.
    domain_parity: Option<u8>,
    rare: Vec<usize>,
    /// The rare heaps and their values side by side, for the tight loops of [`super::fast`].
    heaps: Vec<u32>,
    values: Vec<u16>,
    /// `common[p][v]`: v is of the common class for heaps whose rare values have parity p.
    common: [Vec<bool>; 2],
    /// The rule is reviewed when this many values are known (0: no rule yet).
    review_at: usize,
}

impl Split {
    /// A split for a code whose splits all remove tokens of parity `domain_parity` (`None`:
    /// of both parities, so the range type only).
    pub fn new(domain_parity: Option<u8>) -> Split {
        Split { domain_parity, ..Split::default() }
    }

    /// True once a rule is chosen (before, the sparse method computes by plain mex).
    pub fn ready(&self, n: usize) -> bool {
        n >= FIRST_REVIEW && self.review_at > 0
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn mask(&self) -> u16 {
        self.rule.mask
    }

    /// The heaps that are rare, ascending.
    pub fn rare(&self) -> &[usize] {
        &self.rare
    }

    /// The rare heaps (as u32) and their values, side by side.
    pub fn rare_pairs(&self) -> (&[u32], &[u16]) {
        (&self.heaps, &self.values)
    }

    /// `table[v]`: v is of the class heap n's splits with one rare part give (v ≤ 65535;
    /// empty before the first rule).
    pub fn common_table(&self, n: usize) -> &[bool] {
        &self.common[self.rule.rare_parity(n) as usize]
    }

    /// The split as it is after `g` under `rule`, reviewed next at `review_at` (a resumed run).
    pub fn restore(g: &[u16], domain_parity: Option<u8>, rule: Rule, review_at: usize) -> Split {
        let mut split = Split { review_at, ..Split::new(domain_parity) };
        if review_at > 0 {
            split.set_rule(rule, g);
        }
        split
    }

    /// When the rule is next reviewed (0: no rule yet).
    pub fn review_at(&self) -> usize {
        self.review_at
    }

    fn push_rare(&mut self, n: usize, v: u16) {
        self.rare.push(n);
        self.heaps.push(u32::try_from(n).expect("heaps below 2^32"));
        self.values.push(v);
    }

    fn set_rule(&mut self, rule: Rule, g: &[u16]) {
        self.rule = rule;
        self.common = [0, 1].map(|p| (0..=u16::MAX).map(|v| (v & rule.mask).count_ones() % 2 != p).collect());
        (self.rare, self.heaps, self.values) = Default::default();
        for (n, &v) in g.iter().enumerate() {
            if rule.is_rare(n, v) {
                self.push_rare(n, v);
            }
        }
    }

    /// Takes note of the value just computed, the last of `g`; reviews the rule when due.
    pub fn record(&mut self, g: &[u16]) {
        let n = g.len() - 1;
        if self.review_at > 0 && self.rule.is_rare(n, g[n]) {
            self.push_rare(n, g[n]);
        }
        if g.len() == self.review_at.max(FIRST_REVIEW) {
            self.review(g);
        }
    }

    /// Chooses the best rule for the newer half of `g` and rebuilds the rare list.
    fn review(&mut self, g: &[u16]) {
        let from = g.len() / 2;
        let current = (from..g.len()).filter(|&n| self.rule.is_rare(n, g[n])).count();
        let (rule, rare) = best_rule(&g[from..], from, self.domain_parity);
        if self.review_at == 0 || rare < current {
            self.set_rule(rule, g);
        }
        self.review_at = 2 * g.len();
    }
}

/// The Walsh–Hadamard transform of the histogram of `values`, `size` long: entry m is
/// Σ_v count(v) · (−1)^parity(v & m).
fn transform(values: impl Iterator<Item = u16>, size: usize) -> Vec<i64> {
    let mut sums = vec![0i64; size];
    for v in values {
        sums[usize::from(v)] += 1;
    }
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
    sums
}

/// The rule under which the fewest of `values` (the values of heaps `first`, `first` + 1, …)
/// are rare, and how many are: range type with any mask, and domain type with parity
/// `domain_parity` when given; on ties the range type, then the smallest mask.
pub fn best_rule(values: &[u16], first: usize, domain_parity: Option<u8>) -> (Rule, usize) {
    let top = values.iter().copied().max().unwrap_or(0);
    let size = (usize::from(top) + 1).next_power_of_two();
    // By heap parity: sums[p][m] = Σ over heaps of parity p of (−1)^parity(g & m).
    let of_parity = |p: usize| transform(values.iter().enumerate().filter(|&(i, _)| (first + i) % 2 == p).map(|(_, &v)| v), size);
    let sums = [of_parity(0), of_parity(1)];
    let total = values.len() as i64;
    // Rare heaps − common heaps: range Σ_p sums[p][m]; domain (rare parity 0 where n ≡ t)
    // sums[t][m] − sums[1 − t][m].
    let sums = &sums;
    let range = (0..size).map(|m| (sums[0][m] + sums[1][m], Rule { mask: m as u16, domain: None }));
    let domain = domain_parity.into_iter().flat_map(|t| {
        let t = usize::from(t);
        (0..size).map(move |m| (sums[t][m] - sums[1 - t][m], Rule { mask: m as u16, domain: Some(t as u8) }))
    });
    let candidates: Vec<(i64, Rule)> = range.chain(domain).collect();
    let (sum, rule) = candidates.into_iter().min_by_key(|&(s, r)| (s, r.domain.is_some(), r.mask)).expect("at least one mask");
    (rule, ((total + sum) / 2) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_mask_counts_what_it_says() {
        let best_mask = |values: &[u16]| {
            let (rule, rare) = best_rule(values, 0, None);
            (rule.mask, rare)
        };
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
    fn the_best_rule_counts_what_it_says_and_sees_heap_parity() {
        // Even heaps 1 or 2 (odious under 0b11), odd heaps 0 or 3 (evil), a few exceptions the
        // other way: no mask alone does well (0 is always rare), the domain type with t even
        // makes only the exceptions rare.
        let first = 100;
        let value = |n: usize| match (n.is_multiple_of(97), n.is_multiple_of(2)) {
            (true, even) => u16::from(!even),
            (false, true) => 1 + (n / 2 % 2) as u16,
            (false, false) => 3 * (n / 2 % 2) as u16,
        };
        let values: Vec<u16> = (first..first + 400).map(value).collect();
        let count = |rule: Rule| (0..values.len()).filter(|&i| rule.is_rare(first + i, values[i])).count();
        let (range, range_rare) = best_rule(&values, first, None);
        assert_eq!((range.domain, range_rare), (None, count(range)));
        let (rule, rare) = best_rule(&values, first, Some(0));
        assert_eq!((rule.domain, rare), (Some(0), count(rule)));
        assert!(rare < 10 && range_rare > 150, "{rule:?} {rare} / {range:?} {range_rare}");
        for mask in 0..4u16 {
            for domain in [None, Some(0)] {
                assert!(count(Rule { mask, domain }) >= rare, "{mask} {domain:?}");
            }
        }
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
