//! A test program for `stress --slowest` (tests/stress_problem.rs): reads one number n and
//! spins in proportion to n³ (about 90 ms of CPU time at n = 100, 11 ms at 50), then prints n.
//! Its slowest inputs are the largest numbers the validator allows. The cube makes a step of
//! a tenth in n cost a third more time, above the noise of a loaded host, where one input's
//! runs were seen to differ by half; the square (a fifth more) let the climb stall at 80 once.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let n: u64 = input.trim().parse().expect("one number");
    let mut sum = 0u64;
    for i in 0..n * n * n * 150 {
        sum = std::hint::black_box(sum.wrapping_add(i));
    }
    std::hint::black_box(sum);
    println!("{n}");
}
