//! The sparse method's inner loop: for a split of m tokens into a rare heap r and m − r, the
//! option g(r) ^ g(m − r) is marked by a store `seen[v] = stamp` (no read-modify-write). The
//! rare heaps and their values lie in two contiguous arrays ([`super::split::Split::rare_pairs`]);
//! AVX2 gathers eight g(m − r) at once where the CPU has it (run-time detection, as in
//! [`crate::bits`]), a portable loop does the same everywhere else (tested equal).

use std::ops::Range;

/// Marks indexed by a value (every u16).
pub type Marks = [u32; 1 << 16];

/// Which loop marks the splits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    Avx2,
}

impl Kernel {
    /// The portable loop, which measured faster than the gathers on the AMD EPYC machines we
    /// have (docs/octal.md); AVX2 when `SPRAGUE_OCTAL_KERNEL=avx2` and this CPU has it.
    pub fn detect() -> Kernel {
        if std::env::var_os("SPRAGUE_OCTAL_KERNEL").is_some_and(|k| k == "avx2") && Kernel::avx2_available() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// True when this CPU can run [`Kernel::Avx2`] (and `SPRAGUE_PORTABLE` is not set).
    pub fn avx2_available() -> bool {
        crate::bits::avx2_available()
    }

    /// Marks `values[i] ^ g(m − heaps[i])` for every i. The heaps must be ascending, in 1..m,
    /// and g must hold g(m − heaps[0]) (a helper thread's g may end well before m).
    pub fn mark(self, g: &[u16], heaps: &[u32], values: &[u16], m: usize, seen: &mut Marks, stamp: u32) {
        let Some(&first) = heaps.first() else { return };
        assert!(heaps.len() == values.len() && first >= 1 && (heaps[heaps.len() - 1] as usize) < m && m - (first as usize) < g.len());
        match self {
            // Gather offsets are signed 32-bit, and a 32-bit gather at g(m − r) also reads g(m − r + 1).
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if m <= i32::MAX as usize && m - (first as usize) + 1 < g.len() => {
                // SAFETY: Avx2 is chosen only where the CPU has AVX2 (`detect`, or a test that
                // checked `avx2_available`); the bounds were just checked.
                unsafe { mark_avx2(g, heaps, values, m, seen, stamp) };
            }
            _ => mark_portable(g, heaps, values, m, seen, stamp),
        }
    }
}

/// The index m − r is clamped into g (a no-op for the ascending heaps [`Kernel::mark`] checks
/// the ends of), so the loop unrolls without a branch: 0.6 to 2.5·10^6 on one thread took
/// 10.2–11.5 s of CPU against 12.3–13.5 s with the bounds-checked index, in one build
/// (docs/octal.md); an unchecked index was slower than the clamp too.
fn mark_portable(g: &[u16], heaps: &[u32], values: &[u16], m: usize, seen: &mut Marks, stamp: u32) {
    debug_assert!(heaps.is_sorted());
    let last = g.len() - 1;
    for (&r, &v) in heaps.iter().zip(values) {
        seen[usize::from(v ^ g[m.wrapping_sub(r as usize).min(last)])] = stamp;
    }
}

/// # Safety
/// The CPU must have AVX2; heaps ascending in 1..m, m ≤ `i32::MAX`, m − heaps[0] + 1 < g.len().
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_avx2(g: &[u16], heaps: &[u32], values: &[u16], m: usize, seen: &mut Marks, stamp: u32) {
    use core::arch::x86_64::*;
    let base = g.as_ptr() as *const i32;
    let (top, low) = (_mm256_set1_epi32(m as i32), _mm256_set1_epi32(0xffff));
    let mut lanes = [0u32; 8];
    let chunks = heaps.len() / 8;
    for c in 0..chunks {
        let (h, v) = unsafe { (heaps.as_ptr().add(8 * c), values.as_ptr().add(8 * c)) };
        let offsets = _mm256_sub_epi32(top, unsafe { _mm256_loadu_si256(h as *const __m256i) });
        // Reads g(m − r) and g(m − r + 1), both inside g.
        let far = unsafe { _mm256_i32gather_epi32::<2>(base, offsets) };
        let near = _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(v as *const __m128i) });
        let options = _mm256_and_si256(_mm256_xor_si256(far, near), low);
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, options) };
        for &o in &lanes {
            seen[(o & 0xffff) as usize] = stamp;
        }
    }
    mark_portable(g, &heaps[8 * chunks..], &values[8 * chunks..], m, seen, stamp);
}

/// Marks g(a) ^ g(m − a) for every a in `from..=to` (a ≤ m − a; g must hold g(m − from)).
pub fn mark_pairs(g: &[u16], m: usize, from: usize, to: usize, seen: &mut Marks, stamp: u32) {
    if from > to {
        return;
    }
    assert!(to <= m / 2 && m - from < g.len());
    let (low, high) = (&g[from..=to], &g[m - to..=m - from]);
    for (x, y) in low.iter().zip(high.iter().rev()) {
        seen[usize::from(x ^ y)] = stamp;
    }
}

/// Pairs a cursor marks in its first batch of [`scan_pairs`] (then doubled up to [`MOST_PAIRS`]).
const FIRST_PAIRS: usize = 64;
const MOST_PAIRS: usize = 256;
/// At most this many values wanted: [`scan_pairs`] compares instead of marking.
const FEW: usize = 12;
/// Pairs per block of the comparing scan.
const BLOCK: usize = 64;
/// Where the scan's cursors start besides a = 1 (and m/4): small a have small values, whose
/// XORs with the newest values are large, so the small values still wanted are found sooner
/// among larger a. Measured on 0.6 near 10^7 (docs/octal.md): 1,354 pairs a heap against
/// 2,712 from a = 1 alone; Grundy's game near 4·10^6: 1,936 against 3,133.
const CURSORS: [usize; 3] = [1 << 11, 1 << 14, 1 << 17];

/// The ranges of a the scan's cursors start from (1, [`CURSORS`], m/4), each up to the next,
/// together covering 1..=top once. The m/4 cursor starts at 1 at least: below m = 4 it would
/// start at a = 0, which is no split (a heap of m was left whole).
pub fn cursor_ranges(m: usize, top: usize) -> impl Iterator<Item = Range<usize>> {
    let mut starts = [1, CURSORS[0], CURSORS[1], CURSORS[2], (m / 4).max(1)];
    starts.sort_unstable();
    let ends = starts.into_iter().skip(1).chain([top + 1]);
    starts.into_iter().zip(ends).map(move |(start, end)| start..end.min(top + 1)).filter(|r| !r.is_empty())
}

/// Splits marked before the scan, by another thread: the first `pairs` of each cursor's range
/// that starts at `from` or later.
#[derive(Debug, Clone, Copy, Default)]
pub struct Heads {
    pub from: usize,
    pub pairs: usize,
}

impl Heads {
    /// The head of `range` these cover (empty when none).
    pub fn of(&self, range: &Range<usize>) -> Range<usize> {
        let end = if range.start >= self.from { range.end.min(range.start + self.pairs) } else { range.start };
        range.start..end
    }
}

/// The splits (a, m − a) a scan visits: up to five cursors scanned in turn, each over a range
/// of a from its start.
#[derive(Debug, Clone, Default)]
pub struct Cursors {
    ranges: [Range<usize>; 5],
    len: usize,
}

impl Cursors {
    /// Every a in 1..=top but the `heads` marked already, one cursor per [`cursor_ranges`].
    pub fn new(m: usize, top: usize, heads: Heads) -> Cursors {
        let mut cursors = Cursors::default();
        for range in cursor_ranges(m, top) {
            let rest = heads.of(&range).end..range.end;
            if !rest.is_empty() {
                cursors.ranges[cursors.len] = rest;
                cursors.len += 1;
            }
        }
        cursors
    }

    /// The ranges still to scan.
    fn open(&mut self) -> impl Iterator<Item = &mut Range<usize>> {
        self.ranges[..self.len].iter_mut().filter(|r| r.start < r.end)
    }

    fn done(&self) -> bool {
        self.ranges[..self.len].iter().all(|r| r.start >= r.end)
    }
}

/// Scans the splits (a, m − a) the cursors cover (a ≤ m − a) for the values still in `wanted`,
/// dropping each value found; stops when none is left. While many are wanted, each cursor in
/// turn marks a batch of pairs like [`Kernel::mark`] (`seen[v] = stamp`, no branch) and the
/// values found are dropped after each round; once at most [`FEW`] are left (most of the
/// pairs: a coupon collector's tail), each cursor in turn XORs a block of [`BLOCK`] pairs into
/// a buffer and compares it with each wanted value (vector compares, no stores into `seen`).
pub fn scan_pairs(g: &[u16], m: usize, mut cursors: Cursors, seen: &mut Marks, stamp: u32, wanted: &mut Vec<u16>) {
    let ranges = &cursors.ranges[..cursors.len];
    assert!(ranges.iter().all(|r| r.start >= 1 && r.end - 1 <= m / 2 && m - r.start < g.len()), "splits of {m} outside 1..=m/2 or g");
    let mut batch = FIRST_PAIRS;
    while wanted.len() > FEW && !cursors.done() {
        for range in cursors.open() {
            let last = range.end.min(range.start + batch);
            mark_pairs(g, m, range.start, last - 1, seen, stamp);
            range.start = last;
        }
        wanted.retain(|&v| seen[usize::from(v)] != stamp);
        batch = (2 * batch).min(MOST_PAIRS);
    }
    while !wanted.is_empty() && !cursors.done() {
        for range in cursors.open() {
            let last = range.end.min(range.start + BLOCK);
            compare_pairs(g, m, range.start, last, wanted);
            range.start = last;
        }
    }
}

/// Drops from `wanted` the values of the splits (a, m − a), a in `from..to` (at most a block;
/// AVX2 where the CPU has it: the same code, wider vectors).
fn compare_pairs(g: &[u16], m: usize, from: usize, to: usize, wanted: &mut Vec<u16>) {
    static WIDE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    #[cfg(target_arch = "x86_64")]
    if *WIDE.get_or_init(crate::bits::avx2_available) {
        // SAFETY: the CPU has AVX2 (checked once).
        return unsafe { compare_pairs_avx2(g, m, from, to, wanted) };
    }
    compare_pairs_portable(g, m, from, to, wanted);
}

/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn compare_pairs_avx2(g: &[u16], m: usize, from: usize, to: usize, wanted: &mut Vec<u16>) {
    compare_pairs_portable(g, m, from, to, wanted);
}

#[inline(always)]
fn compare_pairs_portable(g: &[u16], m: usize, from: usize, to: usize, wanted: &mut Vec<u16>) {
    if to - from < BLOCK {
        for a in from..to {
            let option = g[a] ^ g[m - a];
            wanted.retain(|&v| v != option);
        }
        return;
    }
    let mut options = [0u16; BLOCK];
    let (low, high) = (&g[from..from + BLOCK], &g[m + 1 - from - BLOCK..=m - from]);
    for (o, (x, y)) in options.iter_mut().zip(low.iter().zip(high.iter().rev())) {
        *o = x ^ y;
    }
    // Not `retain`: its closure would be compiled without AVX2. `remove` keeps the order.
    let mut i = 0;
    while i < wanted.len() {
        let v = wanted[i];
        if options.iter().fold(false, |hit, &o| hit | (o == v)) {
            wanted.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The index ranges of the rare heaps r in 1..m that split m tokens into (r, m − r): all but r =
/// m/2 when the parts must differ.
pub fn rare_parts(heaps: &[u32], m: usize, unequal: bool) -> [std::ops::Range<usize>; 2] {
    let low = heaps.partition_point(|&r| r < 1);
    let high = heaps.partition_point(|&r| (r as usize) < m);
    match heaps[low..high].binary_search(&((m / 2) as u32)) {
        Ok(i) if unequal && m.is_multiple_of(2) => [low..low + i, low + i + 1..high],
        _ => [low..high, high..high],
    }
}

/// Fresh marks (all zero), on the heap.
pub fn new_marks() -> Box<Marks> {
    vec![0u32; 1 << 16].into_boxed_slice().try_into().expect("2^16 marks")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The a in `cursors`, cursor by cursor.
    fn covered(cursors: &Cursors) -> Vec<usize> {
        cursors.ranges[..cursors.len].iter().flat_map(|r| r.clone()).collect()
    }

    #[test]
    fn the_cursors_and_the_heads_cover_every_split_once() {
        for (m, top) in [(10, 5), (4097, 2048), (300_001, 150_000), (1 << 22, (1 << 21) - 1), (3 << 20, 100_000)] {
            for heads in [Heads::default(), Heads { from: 1, pairs: 3 }, Heads { from: 8192, pairs: 512 }, Heads { from: 20_000, pairs: 1 << 30 }] {
                let mut all = covered(&Cursors::new(m, top, heads));
                all.extend(cursor_ranges(m, top).flat_map(|r| heads.of(&r)));
                all.sort_unstable();
                assert_eq!(all, (1..=top).collect::<Vec<_>>(), "{m} {top} {heads:?}");
            }
        }
        let starts = |heads| Cursors::new(1 << 22, 1 << 21, heads).ranges.map(|r| r.start);
        assert_eq!(starts(Heads::default()), [1, 1 << 11, 1 << 14, 1 << 17, 1 << 20]);
        assert_eq!(starts(Heads { from: 8192, pairs: 100 }), [1, 1 << 11, (1 << 14) + 100, (1 << 17) + 100, (1 << 20) + 100]);
    }

    /// The a the cursors and their heads cover, sorted, after checking every range is a
    /// split (a ≥ 1, a ≤ top).
    fn checked_cover(m: usize, top: usize, heads: Heads) -> Vec<usize> {
        let ranges: Vec<Range<usize>> = cursor_ranges(m, top).collect();
        assert!(ranges.iter().all(|r| r.start >= 1 && r.end <= top + 1), "{m} {top}: {ranges:?}");
        let mut all = covered(&Cursors::new(m, top, heads));
        all.extend(ranges.iter().flat_map(|r| heads.of(r)));
        all.sort_unstable();
        all
    }

    const SOME_HEADS: [Heads; 4] = [Heads { from: 0, pairs: 0 }, Heads { from: 1, pairs: 3 }, Heads { from: 2, pairs: 1 }, Heads { from: 16, pairs: 8 }];

    /// Every small m (a split removing nearly all of a heap leaves m = 2 or 3: m/4 = 0) and
    /// every top up to m/2: the ranges start at a = 1 or later and cover 1..=top once.
    #[test]
    fn the_cursors_cover_every_split_of_small_heaps_once() {
        for m in 0..=600 {
            for top in 0..=m / 2 {
                for heads in SOME_HEADS {
                    assert_eq!(checked_cover(m, top, heads), (1..=top).collect::<Vec<_>>(), "{m} {top} {heads:?}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn the_cursors_cover_every_split_once(m in 0usize..1 << 22, top_part in 0.0f64..=1.0, from in 0usize..1 << 19, pairs in 0usize..1024) {
            let top = ((m / 2) as f64 * top_part) as usize;
            let heads = Heads { from, pairs };
            prop_assert_eq!(checked_cover(m, top, heads), (1..=top).collect::<Vec<_>>());
        }
    }

    /// The scan on the smallest heaps (m = 2, 3: the splits (1, 1) and (1, 2)) finds what is
    /// there, with and without the heads marked first.
    #[test]
    fn the_scan_runs_on_the_smallest_heaps() {
        let g = scrambled(64, 5);
        for m in 2usize..40 {
            for top in [m / 2, (m / 2).saturating_sub(1)] {
                let present: Vec<u16> = (1..=top).map(|a| g[a] ^ g[m - a]).collect();
                let asked: Vec<u16> = (0..32).collect();
                let mut wanted = asked.clone();
                scan_pairs(&g, m, Cursors::new(m, top, Heads::default()), &mut new_marks(), 1, &mut wanted);
                assert_eq!(wanted, asked.iter().copied().filter(|v| !present.contains(v)).collect::<Vec<_>>(), "{m} {top}");
            }
        }
    }

    /// Pseudo-random values below 2^bits.
    fn scrambled(len: u32, bits: u32) -> Vec<u16> {
        (0..len).map(|n| (n.wrapping_mul(2_654_435_761) >> (32 - bits)) as u16).collect()
    }

    #[test]
    fn the_scan_finds_exactly_the_wanted_values_present() {
        let g = scrambled(3000, 9);
        let m = 2999;
        let present: Vec<u16> = (1..=m / 2).map(|a| g[a] ^ g[m - a]).collect();
        let asked = [present[0], present[700], present[1498], 600, 601];
        let mut wanted = asked.to_vec();
        scan_pairs(&g, m, Cursors::new(m, m / 2, Heads::default()), &mut new_marks(), 3, &mut wanted);
        assert_eq!(wanted, asked.iter().copied().filter(|v| !present.contains(v)).collect::<Vec<_>>());
        assert!(!wanted.is_empty() && wanted.len() < asked.len());
    }

    #[test]
    fn the_scan_finds_many_wanted_values_by_marking_then_comparing() {
        // Past 2^17 pairs, so that every cursor runs, and heads marked elsewhere.
        let g = scrambled(600_000, 12);
        let m = 599_999;
        let asked: Vec<u16> = (0..300).chain((0..4096).step_by(61)).collect();
        for heads in [Heads::default(), Heads { from: 8192, pairs: 512 }, Heads { from: 1, pairs: 100_000 }] {
            let skipped: Vec<Range<usize>> = cursor_ranges(m, m / 2).map(|r| heads.of(&r)).collect();
            let within: std::collections::HashSet<u16> = (1..=m / 2).filter(|a| !skipped.iter().any(|r| r.contains(a))).map(|a| g[a] ^ g[m - a]).collect();
            let mut wanted = asked.clone();
            scan_pairs(&g, m, Cursors::new(m, m / 2, heads), &mut new_marks(), 9, &mut wanted);
            assert_eq!(wanted, asked.iter().copied().filter(|v| !within.contains(v)).collect::<Vec<_>>(), "{heads:?}");
        }
        if Kernel::avx2_available() {
            for (from, to) in [(1, 65), (700, 764), (1400, 1403), (299_936, 300_000)] {
                let within: Vec<u16> = (from..to).map(|a| g[a] ^ g[m - a]).collect();
                let few: Vec<u16> = within.iter().copied().step_by(7).chain([4095, 17]).collect();
                let (mut portable, mut avx2) = (few.clone(), few.clone());
                compare_pairs_portable(&g, m, from, to, &mut portable);
                // SAFETY: the CPU has AVX2 (checked above).
                unsafe { compare_pairs_avx2(&g, m, from, to, &mut avx2) };
                assert_eq!(portable, avx2);
                assert_eq!(portable, few.iter().copied().filter(|v| !within.contains(v)).collect::<Vec<_>>(), "{from}..{to}");
            }
        }
    }

    #[test]
    fn both_kernels_mark_the_same_values() {
        let g: Vec<u16> = (0..5000u32).map(|n| (n.wrapping_mul(2_654_435_761) >> 20) as u16).collect();
        let heaps: Vec<u32> = (1..4000).filter(|n| n % 7 == 3 || n % 11 == 0).collect();
        let values: Vec<u16> = heaps.iter().map(|&r| g[r as usize]).collect();
        for m in [1usize, 5, 100, 3999, 4999] {
            let below = heaps.partition_point(|&r| (r as usize) < m);
            let marked = |kernel: Kernel| {
                let mut seen = new_marks();
                kernel.mark(&g, &heaps[..below], &values[..below], m, &mut seen, 7);
                (0..1 << 16).filter(|&v| seen[v] == 7).collect::<Vec<usize>>()
            };
            let expected: Vec<usize> = {
                let mut set: Vec<usize> = heaps[..below].iter().map(|&r| usize::from(g[r as usize] ^ g[m - r as usize])).collect();
                set.sort_unstable();
                set.dedup();
                set
            };
            assert_eq!(marked(Kernel::Portable), expected, "m = {m}");
            if Kernel::avx2_available() {
                assert_eq!(marked(Kernel::Avx2), expected, "m = {m}");
            }
        }
    }
}
