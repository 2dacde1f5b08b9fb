//! A test program for `stress --slowest` (tests/stress_problem.rs): reads one number n and
//! spins in proportion to n² (about 90 ms of CPU time at n = 100, 22 ms at 50), then prints n.
//! Its slowest inputs are the largest numbers the validator allows. The square makes a step of
//! a tenth in n cost a fifth more time (5 ms at n = 50), well above the millisecond or two by
//! which a process's start-up varies on a loaded machine, which a linear cost (1.5 ms) was not.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let n: u64 = input.trim().parse().expect("one number");
    let mut sum = 0u64;
    for i in 0..n * n * 15_000 {
        sum = std::hint::black_box(sum.wrapping_add(i));
    }
    std::hint::black_box(sum);
    println!("{n}");
}
