//! The sparse method's inner loop: for a split of m tokens into a rare heap r and m − r, the
//! option g(r) ^ g(m − r) is marked by a store `seen[v] = stamp` (no read-modify-write). The
//! rare heaps and their values lie in two contiguous arrays ([`super::split::Split::rare_pairs`]);
//! AVX2 gathers eight g(m − r) at once where the CPU has it (run-time detection, as in
//! [`crate::bits`]), a portable loop does the same everywhere else (tested equal).

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

fn mark_portable(g: &[u16], heaps: &[u32], values: &[u16], m: usize, seen: &mut Marks, stamp: u32) {
    for (&r, &v) in heaps.iter().zip(values) {
        seen[usize::from(v ^ g[m - r as usize])] = stamp;
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

/// Pairs in the first batch of [`scan_pairs`] (then doubled up to [`MOST_PAIRS`]).
const FIRST_PAIRS: usize = 64;
const MOST_PAIRS: usize = 256;
/// At most this many values wanted: [`scan_pairs`] compares instead of marking.
const FEW: usize = 12;
/// Pairs per block of the comparing scan.
const BLOCK: usize = 64;

/// Scans the splits (a, m − a) for a in `from..=to` (a ≤ m − a) for the values still in
/// `wanted`, dropping each value found; stops when none is left. While many are wanted, pairs
/// are marked in batches like [`Kernel::mark`] (`seen[v] = stamp`, no branch) and the values
/// found dropped after each batch; once at most [`FEW`] are left (most of the pairs: a coupon
/// collector's tail), blocks of [`BLOCK`] pairs are XORed into a buffer and compared with each
/// wanted value (vector compares, no stores into `seen`).
pub fn scan_pairs(g: &[u16], m: usize, from: usize, to: usize, seen: &mut Marks, stamp: u32, wanted: &mut Vec<u16>) {
    let (mut a, mut batch) = (from, FIRST_PAIRS);
    while a <= to && wanted.len() > FEW {
        let last = to.min(a + batch - 1);
        mark_pairs(g, m, a, last, seen, stamp);
        wanted.retain(|&v| seen[usize::from(v)] != stamp);
        a = last + 1;
        batch = (2 * batch).min(MOST_PAIRS);
    }
    if a <= to && !wanted.is_empty() {
        assert!(to <= m / 2 && m - a < g.len());
        compare_pairs(g, m, a, to, wanted);
    }
}

/// The comparing scan of [`scan_pairs`] (AVX2 where the CPU has it: the same code, wider vectors).
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
    let mut options = [0u16; BLOCK];
    let mut a = from;
    while a + BLOCK - 1 <= to && !wanted.is_empty() {
        let (low, high) = (&g[a..a + BLOCK], &g[m + 1 - a - BLOCK..=m - a]);
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
        a += BLOCK;
    }
    // The last pairs, fewer than a block.
    while a <= to && !wanted.is_empty() {
        let option = g[a] ^ g[m - a];
        wanted.retain(|&v| v != option);
        a += 1;
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

    #[test]
    fn the_scan_finds_exactly_the_wanted_values_present() {
        let g: Vec<u16> = (0..3000u32).map(|n| (n.wrapping_mul(2_654_435_761) >> 23) as u16).collect();
        let m = 2999;
        let present: Vec<u16> = (1..=m / 2).map(|a| g[a] ^ g[m - a]).collect();
        let asked = [present[0], present[700], present[1498], 600, 601];
        let mut wanted = asked.to_vec();
        scan_pairs(&g, m, 1, m / 2, &mut new_marks(), 3, &mut wanted);
        assert_eq!(wanted, asked.iter().copied().filter(|v| !present.contains(v)).collect::<Vec<_>>());
        assert!(!wanted.is_empty() && wanted.len() < asked.len());
    }

    #[test]
    fn the_scan_finds_many_wanted_values_by_marking_then_comparing() {
        let g: Vec<u16> = (0..3000u32).map(|n| (n.wrapping_mul(2_654_435_761) >> 24) as u16).collect();
        let m = 2999;
        let present: Vec<u16> = (1..=m / 2).map(|a| g[a] ^ g[m - a]).collect();
        let asked: Vec<u16> = (0..300).collect();
        for (from, to) in [(1, m / 2), (5, 700), (700, 763), (1400, 1499)] {
            let within = &present[from - 1..to];
            let mut wanted = asked.clone();
            scan_pairs(&g, m, from, to, &mut new_marks(), 9, &mut wanted);
            assert_eq!(wanted, asked.iter().copied().filter(|v| !within.contains(v)).collect::<Vec<_>>(), "{from}..={to}");
            if Kernel::avx2_available() {
                let few: Vec<u16> = within.iter().copied().step_by(97).chain([256, 299]).collect();
                let (mut portable, mut avx2) = (few.clone(), few.clone());
                compare_pairs_portable(&g, m, from, to, &mut portable);
                // SAFETY: the CPU has AVX2 (checked above).
                unsafe { compare_pairs_avx2(&g, m, from, to, &mut avx2) };
                assert_eq!(portable, avx2);
                assert_eq!(portable, few.iter().copied().filter(|v| !within.contains(v)).collect::<Vec<_>>());
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
