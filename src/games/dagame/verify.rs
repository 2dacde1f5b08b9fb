//! Verification of the DAGame claim (XOR over colours of pair/single Grundy values) against the
//! whole-position brute force: every DAG on N nodes with every placement of 1–3 colours, or
//! seeded random instances.
//!
//! Result files: `rows` = number of nodes N, `cols` = number of colours in the placement,
//! `xs` = number of (distinct) edges, `grundy` = claimed value, `board` (mismatches) = the
//! instance as `N|p-q,...|v:c,...` (1-based, see [`Instance::to_compact`]).

use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use crate::games::dagame::{brute, claim, Dag, Group, Instance};
use crate::output::records::{outcome_name, MismatchRow};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

pub const GAME: &str = "dagame";
/// Rule name of the exhaustive runs.
pub const EXHAUSTIVE: &str = "exhaustive";
/// Largest N the exhaustive mode accepts (2^(N(N-1)/2) DAGs).
pub const MAX_EXHAUSTIVE_NODES: usize = 6;
/// Largest N of random instances (the brute force's state encoding).
pub const MAX_RANDOM_NODES: usize = brute::MAX_NODES;
/// Most colours in one placement.
pub const MAX_COLOURS: usize = 3;

/// Every DAG on `nodes` nodes with every placement of `colours` colours (each a single token,
/// two tokens on distinct nodes, or two stacked), claim vs brute force, in parallel.
pub fn verify_nodes(nodes: usize, colours: &[usize], progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    if !(2..=MAX_EXHAUSTIVE_NODES).contains(&nodes) {
        return Err(Error::Usage(format!("exhaustive DAGame runs take 2 to {MAX_EXHAUSTIVE_NODES} nodes, not {nodes}")));
    }
    if let Some(&bad) = colours.iter().find(|&&k| !(1..=MAX_COLOURS).contains(&k)) {
        return Err(Error::Usage(format!("placements have 1 to {MAX_COLOURS} colours, not {bad}")));
    }
    let placements: Vec<Vec<Group>> = colours.iter().flat_map(|&k| placements(nodes, k)).collect();
    let dags = 1u64 << (nodes * (nodes - 1) / 2);
    let chunk = 16u64;
    let parts: Vec<RunResults> = (0..dags.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut part = RunResults::new(GAME, EXHAUSTIVE);
            let masks = c * chunk..((c + 1) * chunk).min(dags);
            for mask in masks.clone() {
                check_dag(&dag_from_mask(nodes, mask), &placements, &mut part);
            }
            progress(masks.end - masks.start);
            part
        })
        .collect();
    let mut results = RunResults::new(GAME, EXHAUSTIVE);
    for &k in colours {
        results.size_mut(nodes as u32, k as u32);
    }
    for part in &parts {
        results.merge(part);
    }
    Ok(results)
}

/// Number of DAGs the exhaustive mode checks on `nodes` nodes.
pub fn dag_count(nodes: usize) -> u64 {
    1u64 << (nodes * (nodes - 1) / 2)
}

/// The DAG whose edge set is `mask` over the pairs (p, q), p < q, in lexicographic order.
pub fn dag_from_mask(nodes: usize, mask: u64) -> Dag {
    let pairs = (0..nodes as u16).flat_map(|p| (p + 1..nodes as u16).map(move |q| (p, q)));
    let edges: Vec<(u16, u16)> = pairs.enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, e)| e).collect();
    Dag::new(nodes, &edges)
}

/// Every multiset of `colours` colour groups on `nodes` nodes (colours are interchangeable).
/// Groups: a single token on v, or two tokens on a ≤ b (a = b: stacked from the start).
pub fn placements(nodes: usize, colours: usize) -> Vec<Vec<Group>> {
    let n = nodes as u16;
    let mut kinds: Vec<Group> = (0..n).map(Group::Single).collect();
    kinds.extend((0..n).flat_map(|a| (a..n).map(move |b| Group::Pair(a, b))));
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(colours);
    multisets(&kinds, colours, 0, &mut current, &mut out);
    out
}

fn multisets(kinds: &[Group], left: usize, from: usize, current: &mut Vec<Group>, out: &mut Vec<Vec<Group>>) {
    if left == 0 {
        out.push(current.clone());
        return;
    }
    for i in from..kinds.len() {
        current.push(kinds[i]);
        multisets(kinds, left - 1, i, current, out);
        current.pop();
    }
}

/// Claim vs brute force on every placement over one DAG. The brute-force memo is shared by the
/// placements with the same colour layout (it is the same game graph).
fn check_dag(dag: &Dag, placements: &[Vec<Group>], results: &mut RunResults) {
    let mut searches: FxHashMap<Vec<u32>, brute::Brute<'_>> = FxHashMap::default();
    for groups in placements {
        let instance = Instance::from_groups(dag.clone(), groups);
        let colours: Vec<u32> = instance.tokens.iter().map(|&(_, c)| c).collect();
        let nodes: Vec<u16> = instance.tokens.iter().map(|&(v, _)| v).collect();
        let search = searches
            .entry(colours)
            .or_insert_with_key(|colours| brute::Brute::new(dag, colours).expect("exhaustive sizes fit the brute force"));
        let truth = search.grundy(&nodes);
        record(&instance, claim::solve(&instance), truth, results);
    }
}

/// Tallies one position under (nodes, colours) and keeps it when the claim is wrong.
fn record(instance: &Instance, claimed: u32, truth: u32, results: &mut RunResults) {
    let (rows, cols) = (instance.dag.nodes() as u32, instance.colours() as u32);
    let tally = results.size_mut(rows, cols);
    tally.record(instance.dag.edges() as u32, claimed, 1);
    if claimed != truth {
        tally.mismatches += 1;
        results.mismatches.push(MismatchRow {
            game: GAME.into(),
            rule: results.rule.clone(),
            rows,
            cols,
            board: instance.to_compact(),
            dp_grundy: claimed,
            naive_grundy: Some(truth),
            naive_outcome: outcome_name(truth != 0).into(),
        });
    }
}

/// A reproducible stream of random instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    pub count: u64,
    pub seed: u64,
    /// Node counts are drawn from 2..=max_nodes.
    pub max_nodes: usize,
}

impl RandomSpec {
    /// The rule name recorded in the result files, e.g. `random:seed=1:count=100:max_nodes=9`.
    pub fn rule(&self) -> String {
        format!("random:seed={}:count={}:max_nodes={}", self.seed, self.count, self.max_nodes)
    }

    /// Reads a rule name written by [`RandomSpec::rule`].
    pub fn from_rule(rule: &str) -> Option<RandomSpec> {
        let rest = rule.strip_prefix("random:seed=")?;
        let (seed, rest) = rest.split_once(":count=")?;
        let (count, max_nodes) = rest.split_once(":max_nodes=")?;
        Some(RandomSpec { seed: seed.parse().ok()?, count: count.parse().ok()?, max_nodes: max_nodes.parse().ok()? })
    }

    fn check(&self) -> Result<()> {
        if !(2..=MAX_RANDOM_NODES).contains(&self.max_nodes) {
            return Err(Error::Usage(format!("random DAGame instances take 2 to {MAX_RANDOM_NODES} nodes, not {}", self.max_nodes)));
        }
        Ok(())
    }

    /// Instance number `index`: its own ChaCha8 stream of the seed, so any one can be rebuilt.
    pub fn instance(&self, index: u64) -> Instance {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        random_instance(&mut rng, self.max_nodes)
    }
}

/// A uniform draw from 0..n (multiply-shift; portable, no dependence on `rand` versions).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// N in 2..=max_nodes; each forward edge with probability d/5 (d in 1..=4); 1–3 colours with
/// distinct labels in 1..=N, each a single token (1/3) or two tokens (2/3); tokens shuffled.
fn random_instance(rng: &mut ChaCha8Rng, max_nodes: usize) -> Instance {
    let n = 2 + below(rng, max_nodes - 1);
    let density = 1 + below(rng, 4);
    let mut edges = Vec::new();
    for p in 0..n as u16 {
        for q in p + 1..n as u16 {
            if below(rng, 5) < density {
                edges.push((p, q));
            }
        }
    }
    let colours = 1 + below(rng, MAX_COLOURS.min(n));
    let mut labels: Vec<u32> = Vec::new();
    while labels.len() < colours {
        let c = 1 + below(rng, n) as u32;
        if !labels.contains(&c) {
            labels.push(c);
        }
    }
    let mut tokens = Vec::new();
    for &c in &labels {
        let copies = if below(rng, 3) == 0 { 1 } else { 2 };
        for _ in 0..copies {
            tokens.push((below(rng, n) as u16, c));
        }
    }
    for i in (1..tokens.len()).rev() {
        tokens.swap(i, below(rng, i + 1));
    }
    Instance { dag: Dag::new(n, &edges), tokens }
}

/// `spec.count` random instances, claim vs brute force, in parallel. `only` keeps just the
/// instances of one (nodes, colours) size.
pub fn verify_random(spec: RandomSpec, only: Option<(u32, u32)>, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    spec.check()?;
    let rule = spec.rule();
    let chunk = 64u64;
    let parts: Vec<RunResults> = (0..spec.count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut part = RunResults::new(GAME, rule.clone());
            let indices = c * chunk..((c + 1) * chunk).min(spec.count);
            for index in indices.clone() {
                let instance = spec.instance(index);
                let size = (instance.dag.nodes() as u32, instance.colours() as u32);
                if only.is_some_and(|want| want != size) {
                    continue;
                }
                let truth = brute::solve(&instance).expect("random sizes fit the brute force");
                record(&instance, claim::solve(&instance), truth, &mut part);
            }
            progress(indices.end - indices.start);
            part
        })
        .collect();
    let mut results = RunResults::new(GAME, rule);
    if let Some((rows, cols)) = only {
        results.size_mut(rows, cols);
    }
    for part in &parts {
        results.merge(part);
    }
    Ok(results)
}

/// Recomputes one summary row (`rows` nodes, `cols` colours) of a committed run named `rule`
/// (`exhaustive` or a [`RandomSpec::rule`] name), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let none = &|_| {};
    if rule == EXHAUSTIVE {
        return verify_nodes(rows as usize, &[cols as usize], none);
    }
    let spec = RandomSpec::from_rule(rule).ok_or_else(|| Error::Usage(format!("unknown DAGame rule {rule:?}")))?;
    verify_random(spec, Some((rows, cols)), none)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_counts_are_multisets() {
        // 2 nodes: kinds = 2 singles + 3 pairs = 5; multisets of size k: C(5 + k - 1, k).
        assert_eq!(placements(2, 1).len(), 5);
        assert_eq!(placements(2, 2).len(), 15);
        assert_eq!(placements(2, 3).len(), 35);
    }

    #[test]
    fn small_exhaustive_run_agrees() {
        let r = verify_nodes(3, &[1, 2], &|_| {}).unwrap();
        assert!(r.all_agree(), "{:?}", r.mismatches);
        // 3 nodes: 8 DAGs × (9 kinds, then C(10, 2) = 45 two-colour placements).
        assert_eq!(r.sizes[&(3, 1)].patterns, 8 * 9);
        assert_eq!(r.sizes[&(3, 2)].patterns, 8 * 45);
    }

    #[test]
    fn random_rule_round_trips_and_instances_repeat() {
        let spec = RandomSpec { count: 5, seed: 7, max_nodes: 9 };
        assert_eq!(RandomSpec::from_rule(&spec.rule()), Some(spec));
        assert_eq!(spec.instance(3), spec.instance(3));
        assert_ne!(spec.instance(3), spec.instance(4));
    }
}
