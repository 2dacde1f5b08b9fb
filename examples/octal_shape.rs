//! Times the two-thread sparse method with a given helper shape (docs/octal.md, "Why 8192"):
//! `cargo run --release --example octal_shape -- CODE MAX THREADS LAG PAIRS` computes g up to
//! 200,000 on one thread, then on to MAX as asked, and prints the rates and a digest of the
//! values (equal whatever the shape). Linux: CPU time from /proc/self/stat.

mod octal_cli;

use sprague::games::octal::code::Code;
use sprague::games::octal::pipeline::Shape;
use sprague::games::octal::values::{Engine, Method};
use std::time::Instant;

/// CPU seconds of this process (user + system).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}

/// The first values, computed on one thread before the timed part.
const WARM: usize = 200_000;

fn main() {
    octal_cli::main("octal_shape", ["MAX", "THREADS", "LAG", "PAIRS"], &format!("(MAX > {WARM}, LAG ≥ 1, PAIRS ≥ 1)"), run);
}

fn run(code: Code, [max, threads, lag, pairs]: [usize; 4]) -> Result<(), String> {
    if max <= WARM || lag == 0 || pairs == 0 {
        return Err("MAX must exceed the warm-up and LAG and PAIRS be at least 1".into());
    }
    let mut e = Engine::new(&code, Method::Sparse);
    e.extend_to(WARM, &mut |_| {}).map_err(|e| e.to_string())?;
    e.set_threads(threads);
    e.set_shape(Shape { lag, pairs });
    let (t, c) = (Instant::now(), cpu());
    e.extend_to(max, &mut |_| {}).map_err(|e| e.to_string())?;
    let (w, u) = (t.elapsed().as_secs_f64(), cpu() - c);
    let h: u64 = e.values().iter().fold(0u64, |h, &v| h.wrapping_mul(1_000_003).wrapping_add(v as u64));
    let n = (max - WARM) as f64;
    println!("{threads} thr lag {lag} pairs {pairs}: {w:.2} s wall {u:.2} s cpu: {:.0} values/s wall {:.0}/cpu-s hash {h:x}", n / w, n / u);
    Ok(())
}
