//! `solve dagame` at the full limits (N = 500, M = 100,000, K = 2N): parse + claimed solver.

use criterion::{criterion_group, criterion_main, Criterion};
use sprague::games::dagame::{claim, Dag, Group, Instance};

/// The densest DAG the limits allow (the first 100,000 forward pairs), every colour a pair:
/// node 1 reaches every node, so nearly all 124,750 pairs are needed.
fn dense_input() -> String {
    let edges: Vec<(u16, u16)> = (0..500u16).flat_map(|p| (p + 1..500).map(move |q| (p, q))).take(100_000).collect();
    let groups: Vec<Group> = (0..500u16).map(|c| Group::Pair(c, (c * 7 + 1) % 500)).collect();
    Instance::from_groups(Dag::new(500, &edges), &groups).to_input()
}

/// A chain 1 → … → 500 with the remaining edges repeated (M = 100,000), tokens in pairs.
fn chain_input() -> String {
    let chain: Vec<(u16, u16)> = (0..499u16).map(|v| (v, v + 1)).collect();
    let groups: Vec<Group> = (0..500u16).map(|c| Group::Pair(c / 2, 499 - c / 2)).collect();
    let text = Instance::from_groups(Dag::new(500, &chain), &groups).to_input();
    let (_, rest) = text.split_once('\n').expect("header line");
    let extra: String = (0..100_000 - 499).map(|i| format!("{} {}\n", i % 499 + 1, i % 499 + 2)).collect();
    let (edges, tokens) = rest.split_at(rest.find("1000\n").expect("K line"));
    format!("500 100000\n{edges}{extra}{tokens}")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_dagame");
    group.sample_size(10);
    for (name, text) in [("dense_500_100k_1000", dense_input()), ("chain_500_100k_1000", chain_input())] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let instance = Instance::parse_input(name, &text).expect("valid input");
                claim::solve(&instance)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
