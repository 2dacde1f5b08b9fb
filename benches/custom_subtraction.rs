//! Positions per second of `sprague::custom::verify` (the Rust trait path) on every core: the
//! subtraction game S = {1, 3, 4} on three heaps, every position a ≤ b ≤ c with a + b + c ≤ MAX,
//! exact values by brute force, claim = XOR of the period-7 values, components = the heaps.
//! `cargo bench --bench custom_subtraction [-- MAX]` (default 600: 6,105,551 positions).

use sprague::custom::{verify, CustomGame};
use std::time::Instant;

const VALUES: [u32; 7] = [0, 1, 0, 1, 2, 3, 2];

/// Three heaps, sorted ascending.
struct ThreeHeaps;

impl CustomGame for ThreeHeaps {
    type Position = [u16; 3];
    fn name(&self) -> &str {
        "subtraction-134-3-heaps"
    }
    fn positions(&self, size: u32) -> Vec<[u16; 3]> {
        let n = size as u16;
        let mut out = Vec::new();
        for a in 0..=n / 3 {
            for b in a..=(n - a) / 2 {
                out.push([a, b, n - a - b]);
            }
        }
        out
    }
    fn moves(&self, heaps: &[u16; 3]) -> Vec<[u16; 3]> {
        let mut out = Vec::with_capacity(9);
        self.moves_into(heaps, &mut out);
        out
    }
    fn moves_into(&self, heaps: &[u16; 3], out: &mut Vec<[u16; 3]>) {
        for i in 0..3 {
            for k in [1, 3, 4].into_iter().filter(|&k| k <= heaps[i]) {
                let mut next = *heaps;
                next[i] -= k;
                next.sort_unstable();
                out.push(next);
            }
        }
    }
    fn claim(&self, heaps: &[u16; 3]) -> Option<u32> {
        Some(heaps.iter().fold(0, |x, &h| x ^ VALUES[usize::from(h) % 7]))
    }
    fn components(&self, heaps: &[u16; 3]) -> Option<Vec<[u16; 3]>> {
        let mut out = Vec::with_capacity(3);
        self.components_into(heaps, &mut out);
        Some(out)
    }
    fn components_into(&self, heaps: &[u16; 3], out: &mut Vec<[u16; 3]>) -> bool {
        out.extend(heaps.iter().map(|&h| [0, 0, h]));
        true
    }
    /// The place of [a, b, c] in `positions(a + b + c)`: the rows a' < a hold
    /// (n - a') / 2 - a' + 1 positions each, and Σ_{m ≤ x} ⌊m / 2⌋ = ⌊x² / 4⌋.
    fn index(&self, &[a, b, c]: &[u16; 3]) -> Option<(u32, usize)> {
        let (a, b, n) = (usize::from(a), usize::from(b), usize::from(a + b + c));
        let floor_halves = |x: usize| x * x / 4;
        Some((n as u32, floor_halves(n) - floor_halves(n - a) - a * a.saturating_sub(1) / 2 + b))
    }
}

fn main() {
    let max = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(600);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let start = Instant::now();
    let report = verify(&ThreeHeaps, max, dir.path()).expect("the run");
    let seconds = start.elapsed().as_secs_f64();
    let positions: u64 = report.results.sizes.values().map(|t| t.patterns).sum();
    assert!(report.all_agree(), "{:?}", report.results.first_mismatch(&[]));
    let threads = rayon::current_num_threads();
    println!("custom_subtraction: {positions} positions (sizes 0..={max}) in {seconds:.2} s on {threads} threads: {:.1} M positions/s", positions as f64 / seconds / 1e6);
}
