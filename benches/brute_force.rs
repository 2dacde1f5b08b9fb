//! The generic brute force (`impartial::BruteForce`, what verify's naive oracles run), fresh
//! memo each time: a deep one-heap chain (cheap steps, where a per-step cost shows most) and
//! Kayles (0.77) over whole positions. `cargo bench --bench brute_force`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sprague::games::octal::brute::WholePositions;
use sprague::games::octal::code::Code;
use sprague::impartial::{BruteForce, Impartial};

/// One heap; a move takes 1 or 2 stones (Grundy n mod 3).
struct TakeOneOrTwo;

impl Impartial for TakeOneOrTwo {
    type Position = u32;
    fn moves(&self, &n: &u32) -> Vec<u32> {
        [1, 2].iter().filter(|&&k| k <= n).map(|k| n - k).collect()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("brute_force");
    group.bench_function("chain_take_1_or_2_100k", |b| b.iter(|| BruteForce::new(&TakeOneOrTwo).grundy(black_box(&100_000))));
    let kayles = Code::parse("0.77").expect("0.77 is a code");
    let whole = WholePositions(&kayles);
    let heaps = vec![7, 9, 11];
    assert_eq!(BruteForce::new(&whole).grundy(&heaps), 0, "g(7) ^ g(9) ^ g(11) = 2 ^ 4 ^ 6 in Kayles");
    group.bench_function("kayles_whole_7_9_11", |b| b.iter(|| BruteForce::new(&whole).grundy(black_box(&heaps))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
