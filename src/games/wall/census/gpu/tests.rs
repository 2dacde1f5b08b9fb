//! The GPU kernels' logic without a GPU: census.h compiled for the host with the system C
//! compiler (`cc`, which every Rust build already needs as its linker) into host.c's program,
//! driven over the same inputs as the CPU engine and compared count for count.

use super::*;
use crate::games::wall::board::rules::Rule;
use crate::games::wall::census::CensusEngine;
use crate::games::wall::verify::engine::tests::run;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// host.c built once per test process.
fn host_program() -> &'static PathBuf {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory").keep();
        std::fs::write(dir.join("census.h"), HEADER).unwrap();
        std::fs::write(dir.join("host.c"), include_str!("host.c")).unwrap();
        let program = dir.join("host");
        let status = Command::new("cc")
            .args(["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&program)
            .arg(dir.join("host.c"))
            .status()
            .expect("the C compiler `cc` (needed to test the GPU kernel's logic on the host)");
        assert!(status.success(), "cc failed on census.h/host.c");
        program
    })
}

/// The host program's counts of `ranges` of `shape` with tables up to `limit` cells, as
/// (X count, value) → count.
fn host_counts(shape: Shape, limit: usize, ranges: &[Range]) -> Vec<(u32, u32, u64)> {
    let (layout, bytes) = Tables::layout(shape, limit);
    let mut input = format!("{} {} {bytes}\n", layout.h, layout.w);
    input += &layout.offsets.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    for r in ranges {
        input += &format!("\n{} {} {} {}", r.m_first, r.m_last, r.lo, r.hi);
    }
    let mut child = Command::new(host_program()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{shape}: host program exited with {}", output.status);
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .map(|line| {
            let f: Vec<u64> = line.split(' ').map(|s| s.parse().unwrap()).collect();
            (f[0] as u32, f[1] as u32, f[2])
        })
        .collect()
}

/// The CPU engine's counts of `positions` of `shape`, in the same form.
fn cpu_counts(census: &CensusEngine, shape: Shape, positions: &[std::ops::Range<u64>]) -> Vec<(u32, u32, u64)> {
    let mut results = RunResults::new("wall", "standard");
    for p in positions {
        results.merge(&run(census, Rule::Standard, p.clone()));
    }
    let size = results.sizes.get(&(shape.rows as u32, shape.cols as u32));
    size.map(|s| s.distribution.iter().filter(|(_, &n)| n > 0).map(|(&(xs, g), &n)| (xs, g, n)).collect()).unwrap_or_default()
}

use crate::runner::RunResults;

/// Every size from 2×1 to 5×6 (and 6×3, 6×4, 7×3, 8×3), whole and split at unaligned points, with all
/// quadrants tabled and (sizes of 3+ rows and columns) with the fewest tables the recursion
/// allows: equal to the CPU engine.
#[test]
fn host_kernel_equals_the_cpu_engine_on_small_sizes() {
    let sizes = (2..=5).flat_map(|h| (1..=6).map(move |w| (h, w))).chain([(6, 3), (6, 4), (7, 3), (8, 3)]);
    for (h, w) in sizes {
        let shape = Shape::new(h, w);
        let total = 1u64 << shape.cells();
        let cuts = [0, total / 3, (total / 3 + 5).min(total), total];
        let parts: Vec<std::ops::Range<u64>> = cuts.windows(2).map(|c| c[0]..c[1]).filter(|r| !r.is_empty()).collect();
        let expected = cpu_counts(&CensusEngine::build(shape), shape, std::slice::from_ref(&(0..total)));
        let ranges: Vec<Range> = parts.iter().map(|p| Range::of(p, shape)).collect();
        assert_eq!(host_counts(shape, BASE_LIMIT, &ranges), expected, "{shape}");
        let fewest = (h - 2) * w.saturating_sub(2);
        if h >= 3 && w >= 3 && shape.cells() <= 20 {
            assert_eq!(host_counts(shape, fewest, &ranges), expected, "{shape} with tables of at most {fewest} cells");
        }
    }
}

/// Random middle patterns of 6×7, 7×7, 7×6 and 8×4 (whole, and one cut inside a pattern), the
/// host program with the fewest tables the recursion allows (6×7: at most 20 cells, 5×5, 4×6
/// and 5×6 by the recursion; 7×7: 25, the 6×6 corners too) against the CPU engine (tables of
/// 30 cells). 7×6 and 8×4 are the transposes the GPU validation runs (scripts/gpu-census.sh).
#[test]
fn host_kernel_equals_the_cpu_engine_on_random_middle_patterns() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(28);
    for (h, w, patterns) in [(6, 7, 16), (7, 7, 8), (7, 6, 16), (8, 4, 32)] {
        let shape = Shape::new(h, w);
        let census = CensusEngine::build(shape);
        let per = 2 * w as u32;
        let middles = 1u64 << ((h - 2) * w);
        // Canonical patterns (the others count nothing on either side), and one partial.
        let mirrors = crate::games::wall::board::symmetry::Symmetries::mirrors(Shape::new(h - 2, w));
        let mut chosen = Vec::new();
        while chosen.len() < patterns {
            let m = rng.random_range(0..middles);
            if mirrors.canonical_weight(m).is_some() {
                chosen.push(m);
            }
        }
        let mut positions: Vec<std::ops::Range<u64>> = chosen.iter().map(|&m| m << per..(m + 1) << per).collect();
        let cut = positions[0].start + rng.random_range(1..1u64 << per);
        positions[0] = cut..positions[0].end;
        let ranges: Vec<Range> = positions.iter().map(|p| Range::of(p, shape)).collect();
        let fewest = (h - 2) * (w - 2);
        assert_eq!(host_counts(shape, fewest, &ranges), cpu_counts(&census, shape, &positions), "{shape}");
    }
}

#[test]
fn layouts_ranges_and_limits() {
    let (layout, bytes) = Tables::layout(Shape::new(6, 7), BASE_LIMIT);
    assert_eq!(bytes, crate::games::wall::census::tables::GrundyTables::bytes(Shape::new(5, 6)) - 1 - 5 - 6);
    assert_eq!(layout.filled().last(), Some((5, 6)));
    assert_eq!(layout.offsets[DIM], NONE, "no table for 1×0");
    // 7×7 tables its 6×6 corners when 66 GiB are free, not with 60.
    let gib = 1u64 << 30;
    assert_eq!(table_limit(Shape::new(7, 7), 70 * gib, 2 * gib), Some(36));
    assert_eq!(table_limit(Shape::new(7, 7), 60 * gib, 2 * gib), Some(30));
    assert_eq!(table_limit(Shape::new(7, 8), 8 * gib, 2 * gib), Some(30));
    assert_eq!(table_limit(Shape::new(7, 8), 3 * gib, 2 * gib), None);
    let r = Range::of(&(5..(3 << 14) + 7), Shape::new(7, 7));
    assert_eq!(r, Range { m_first: 0, m_last: 3, lo: 5, hi: 7 });
    assert!(supports(Shape::new(7, 8)) && supports(Shape::new(8, 7)) && !supports(Shape::new(8, 8)) && !supports(Shape::new(2, 9)));
}

/// Every size the engine takes launches without opting in to more than the 48 KiB of shared
/// memory a block gets by default on every CUDA GPU (docs/census.md's table).
#[test]
fn shared_memory_fits_every_supported_size() {
    let largest = (1..=8)
        .flat_map(|rows| (1..=8).map(move |cols| Shape::new(rows, cols)))
        .filter(|&s| supports(s) && s.rows >= 2)
        .map(|s| (Tables::layout(s, BASE_LIMIT).0.shared_bytes(), s))
        .max_by_key(|&(bytes, _)| bytes)
        .unwrap();
    assert_eq!(largest, ((7 * 8 + 1) * 128 + 2 * 6 * 8 * 256, Shape::new(7, 8)), "7×8 needs the most: 31.1 KiB");
    assert!(largest.0 <= 48 << 10);
}

/// The manifest's line of a GPU census: the set-up, the kernels' time and their rate.
#[test]
fn timing_lines() {
    use device::{timing_line, Timings};
    use std::time::Duration;
    let line = timing_line(Shape::new(6, 7), "NVIDIA H200 (sm_90, 132 SMs): …", Duration::from_millis(2500), 1 << 42);
    assert_eq!(line, "GPU census of 6x7 on NVIDIA H200 (sm_90, 132 SMs): …; census kernels 2.50 s for 4398046511104 boards (1.759e12 boards/s)");
    let start = timing_line(Shape::new(2, 2), "G", Duration::ZERO, 0);
    assert_eq!(start, "GPU census of 2x2 on G; census kernels 0.00 s for 0 boards", "no rate before the first launch");
    assert!(Timings::default().lines().is_empty());
}
