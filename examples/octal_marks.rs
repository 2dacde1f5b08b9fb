//! How fast the sparse method's rare-heap loop can be, alone (docs/octal.md, "The ceiling"):
//! `cargo run --release --example octal_marks -- CODE FROM TO` computes g up to TO on one
//! thread, then, for every heap m in FROM..TO, reads g(m − r) for each rare heap r three ways
//! and prints nanoseconds per rare heap (the best of three passes): marking one option at a
//! time (the engine's own loop, [`Kernel::mark`]), all options of a heap first and then their
//! marks, and the reads alone (their sum, no mark).
//! The reads alone bound any method that must look at every rare heap of every heap.

mod octal_cli;

use sprague::games::octal::code::Code;
use sprague::games::octal::fast::{new_marks, Kernel, Marks};
use sprague::games::octal::values::{Engine, Method};
use std::time::Instant;

fn main() {
    octal_cli::main("octal_marks", ["FROM", "TO"], "(FROM above the farthest rare heap, FROM < TO)", run);
}

fn run(code: Code, [from, to]: [usize; 2]) -> Result<(), String> {
    let mut engine = Engine::new(&code, Method::Sparse);
    engine.extend_to(to, &mut |_| {}).map_err(|e| e.to_string())?;
    let (heaps, values) = engine.split().rare_pairs();
    let start = heaps.partition_point(|&r| r < 1);
    let (heaps, values) = (&heaps[start..], &values[start..]);
    let Some(&farthest) = heaps.last() else { return Err(format!("{code} has no rare heaps below {to}")) };
    let farthest = farthest as usize;
    if from <= farthest || from >= to {
        return Err(format!("FROM must lie above the farthest rare heap ({farthest}) and below TO"));
    }
    let rare = Rare { g: engine.values(), heaps, values, from, to };
    let mut seen = new_marks();
    let (one, a) = rare.best(|m| rare.mark_one_at_a_time(m, &mut seen));
    let mut options = vec![0u16; heaps.len()];
    let (two, b) = rare.best(|m| rare.mark_options_first(m, &mut options, &mut seen));
    let (reads, _) = rare.best(|m| rare.read(m));
    assert_eq!(a, b, "the two marking loops disagree");
    let heap_us = reads * heaps.len() as f64 / 1e3;
    println!("{code}: {} rare heaps (the farthest {farthest}), heaps {from}..{to}", heaps.len());
    println!("ns per rare heap: marking one at a time {one:.2}, options first {two:.2}, reads alone {reads:.2}");
    println!("the reads alone: {heap_us:.2} µs a heap, at most {:.0} values per second on one core doing nothing else", 1e6 / heap_us);
    Ok(())
}

/// The rare heaps and the values they pair with, for heaps m in from..to.
struct Rare<'a> {
    g: &'a [u16],
    heaps: &'a [u32],
    values: &'a [u16],
    from: usize,
    to: usize,
}

impl Rare<'_> {
    /// Nanoseconds per rare heap of `f` over every heap (the best of three passes: this host's
    /// speed drifts between seconds), and a checksum of what it returned.
    fn best(&self, mut f: impl FnMut(usize) -> u64) -> (f64, u64) {
        let mut best = (f64::INFINITY, 0);
        for _ in 0..3 {
            let began = Instant::now();
            let check = (self.from..self.to).fold(0u64, |sum, m| sum.wrapping_add(f(m)));
            best = (best.0.min(began.elapsed().as_secs_f64() * 1e9 / ((self.to - self.from) * self.heaps.len()) as f64), check);
        }
        best
    }

    /// The engine's loop (the portable kernel, which the engine runs by default).
    fn mark_one_at_a_time(&self, m: usize, seen: &mut Marks) -> u64 {
        Kernel::Portable.mark(self.g, self.heaps, self.values, m, seen, m as u32);
        u64::from(seen[m % 512])
    }

    /// Every option of heap m first, then the marks.
    fn mark_options_first(&self, m: usize, options: &mut [u16], seen: &mut Marks) -> u64 {
        for ((o, &r), &v) in options.iter_mut().zip(self.heaps).zip(self.values) {
            *o = self.option(m, r, v);
        }
        for &o in options.iter() {
            seen[usize::from(o)] = m as u32;
        }
        u64::from(seen[m % 512])
    }

    /// The reads alone: the sum of the options, nothing marked.
    fn read(&self, m: usize) -> u64 {
        self.heaps.iter().zip(self.values).map(|(&r, &v)| u64::from(self.option(m, r, v))).sum()
    }

    /// The option g(r) ^ g(m − r), read as the engine reads it: the index clamped into g (a
    /// no-op here).
    #[inline(always)]
    fn option(&self, m: usize, r: u32, value: u16) -> u16 {
        value ^ self.g[m.wrapping_sub(r as usize).min(self.g.len() - 1)]
    }
}
