//! A test program for `stress --slowest` (tests/stress_problem.rs): reads one number n and
//! spins in proportion to it (about n · 0.5 ms of CPU time), then prints n. Its slowest inputs
//! are the largest numbers the validator allows.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let n: u64 = input.trim().parse().expect("one number");
    let mut sum = 0u64;
    for i in 0..n * 500_000 {
        sum = std::hint::black_box(sum.wrapping_add(i));
    }
    std::hint::black_box(sum);
    println!("{n}");
}
