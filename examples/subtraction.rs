//! The subtraction game S = {1, 3, 4} from your own crate: one heap of n stones, a move takes
//! 1, 3 or 4 of them; claim: the Grundy values repeat with period 7 (0 1 0 1 2 3 2).
//! `cargo run --release --example subtraction -- 1000 out/subtraction`
use sprague::custom::{verify, CustomGame};

struct Subtraction;

impl CustomGame for Subtraction {
    type Position = u32;
    fn name(&self) -> &str {
        "subtraction-134"
    }
    fn positions(&self, size: u32) -> Vec<u32> {
        vec![size]
    }
    fn moves(&self, &n: &u32) -> Vec<u32> {
        [1, 3, 4].into_iter().filter(|&k| k <= n).map(|k| n - k).collect()
    }
    fn claim(&self, &n: &u32) -> Option<u32> {
        Some([0, 1, 0, 1, 2, 3, 2][n as usize % 7])
    }
    fn index(&self, &n: &u32) -> Option<(u32, usize)> {
        Some((n, 0)) // n is positions(n)[0]: values in a flat array, not a hash table
    }
}

fn main() -> sprague::Result<()> {
    let mut args = std::env::args().skip(1);
    let max = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let dir = args.next().unwrap_or_else(|| "out/subtraction".into());
    let report = verify(&Subtraction, max, &dir)?;
    let total = |f: fn(&sprague::runner::SizeTally) -> u64| report.results.sizes.values().map(f).sum::<u64>();
    println!("{} positions, {} mismatches; files in {dir}", total(|t| t.patterns), total(|t| t.mismatches));
    std::process::exit(if report.all_agree() { 0 } else { 1 })
}
