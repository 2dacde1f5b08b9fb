//! Program runs per second of the stress harness: the process pool judging small wall boards
//! (every pattern up to 3×4, 8,190 boards) with examples/wall_right, on every core.
//! Build the example first (`cargo build --release --examples`); `scripts/bench-stress.sh` measures
//! the same through the command line (`sprague stress wall`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sprague::games::wall::search::contest::WallContest;
use sprague::games::wall::Shape;
use sprague::stress::{CommandLine, Generator, Limits, Plan, Pool, Source};
use std::path::PathBuf;

fn program() -> CommandLine {
    let default = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/examples/wall_right");
    let path = std::env::var_os("SPRAGUE_STRESS_PROGRAM").map_or(default, PathBuf::from);
    CommandLine::parse(&path.to_string_lossy()).expect("build it first: cargo build --release --examples")
}

fn runs_per_second(c: &mut Criterion) {
    let game = WallContest { exhaustive_max: Shape::new(3, 4) };
    let cases = game.cases(Source::Exhaustive, 0).count() as u64;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut pool = Pool::new(&program(), Limits::default(), jobs).unwrap();
    let plan = Plan { budget: None, max_failures: 1, max_runs: None };
    let mut group = c.benchmark_group("stress_pool");
    group.throughput(Throughput::Elements(cases));
    group.sample_size(10);
    group.bench_function(format!("wall_right_{jobs}_jobs"), |b| {
        b.iter(|| {
            let report = pool.run_stream(&game, game.cases(Source::Exhaustive, 0), &plan, &|_| {}).unwrap();
            assert!(report.found.is_empty() && report.runs == cases);
        })
    });
    group.finish();
}

criterion_group!(benches, runs_per_second);
criterion_main!(benches);
