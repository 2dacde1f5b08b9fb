//! Verification of the DAGame claim (XOR over colours of pair/single Grundy values) against the
//! whole-position brute force: every DAG on N nodes with every placement of 1–3 colours, or
//! seeded random instances.
//!
//! Result files: `rows` = number of nodes N, `cols` = number of colours in the placement,
//! `xs` = number of (distinct) edges, `grundy` = claimed value, `board` (mismatches) = the
//! instance as `N|p-q,...|v:c,...` (1-based, see [`Instance::to_compact`]).

use super::random::RandomSpec;
use super::{brute, claim, Dag, Group, Instance};
use crate::error::{Error, Result};
use crate::output::records::outcome_name;
use crate::runner::{run_in_memory, Disagreement, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;

pub const GAME: &str = "dagame";
/// Rule name of the exhaustive runs.
pub const EXHAUSTIVE: &str = "exhaustive";
/// Largest N the exhaustive mode accepts (2^(N(N-1)/2) DAGs).
pub const MAX_EXHAUSTIVE_NODES: usize = 6;
/// Most colours in one placement.
pub const MAX_COLOURS: usize = 3;
/// Core-seconds per random instance with N ≤ 10 (20,000 in 5.5 s on 2 cores, docs/dagame.md;
/// 2,000 in 1.4 s on one); larger DAGs cost more, so for them this is a lower bound.
pub const RANDOM_SECONDS_PER_INSTANCE: f64 = 5e-4;

/// The usage error for exhaustive sizes out of range, if any.
fn check_exhaustive(nodes: usize, colours: &[usize]) -> Result<()> {
    if !(2..=MAX_EXHAUSTIVE_NODES).contains(&nodes) {
        return Err(Error::Usage(format!("exhaustive DAGame runs take 2 to {MAX_EXHAUSTIVE_NODES} nodes, not {nodes}")));
    }
    if let Some(&bad) = colours.iter().find(|&&k| !(1..=MAX_COLOURS).contains(&k)) {
        return Err(Error::Usage(format!("placements have 1 to {MAX_COLOURS} colours, not {bad}")));
    }
    Ok(())
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
    let size = (instance.dag.nodes() as u32, instance.colours() as u32);
    let failed = (claimed != truth).then(|| Disagreement {
        position: instance.to_compact(),
        claimed,
        naive_value: Some(truth),
        naive_outcome: outcome_name(truth != 0),
        answer: None,
    });
    results.check(size, (instance.dag.edges() as u32, claimed), failed);
}

/// Which instances a run checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DagameRun {
    /// Every DAG on each node count with every placement of each colour count.
    Exhaustive { nodes: Vec<usize>, colours: Vec<usize> },
    /// Random instances; `only` keeps those of one (nodes, colours) size.
    Random { spec: RandomSpec, only: Option<(u32, u32)> },
}

impl DagameRun {
    /// Every DAG on 2..=max_nodes nodes with every placement of 1..=3 colours.
    pub fn exhaustive(max_nodes: usize) -> Result<DagameRun> {
        if !(2..=MAX_EXHAUSTIVE_NODES).contains(&max_nodes) {
            return Err(Error::Usage(format!(
                "--max (nodes) must be between 2 and {MAX_EXHAUSTIVE_NODES} for exhaustive runs (use --random for larger DAGs), not {max_nodes}"
            )));
        }
        Ok(DagameRun::Exhaustive { nodes: (2..=max_nodes).collect(), colours: (1..=MAX_COLOURS).collect() })
    }

    pub fn random(spec: RandomSpec) -> Result<DagameRun> {
        spec.check()?;
        Ok(DagameRun::Random { spec, only: None })
    }
}

impl Verification for DagameRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::commands::COLUMNS
    }

    fn rule(&self) -> String {
        match self {
            DagameRun::Exhaustive { .. } => EXHAUSTIVE.to_string(),
            DagameRun::Random { spec, .. } => spec.rule(),
        }
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(match self {
            DagameRun::Exhaustive { nodes, colours } => nodes
                .iter()
                .map(|&n| {
                    let sizes = colours.iter().map(|&k| (n as u32, k as u32)).collect();
                    Job::new(format!("N={n}"), sizes, dag_count(n), 16)
                })
                .collect(),
            DagameRun::Random { spec, only } => vec![Job::new("random", only.iter().copied().collect(), spec.count, 64)],
        })
    }

    fn seconds_per_position(&self, _index: usize) -> Option<f64> {
        matches!(self, DagameRun::Random { .. }).then_some(RANDOM_SECONDS_PER_INSTANCE)
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        Ok(match self {
            DagameRun::Exhaustive { nodes, colours } => {
                let n = nodes[index];
                check_exhaustive(n, colours)?;
                let placements: Vec<Vec<Group>> = colours.iter().flat_map(|&k| placements(n, k)).collect();
                Box::new(move |masks: Range<u64>, part: &mut RunResults| {
                    for mask in masks {
                        check_dag(&dag_from_mask(n, mask), &placements, part);
                    }
                })
            }
            &DagameRun::Random { spec, only } => Box::new(move |indices: Range<u64>, part: &mut RunResults| {
                for index in indices {
                    let instance = spec.instance(index);
                    let size = (instance.dag.nodes() as u32, instance.colours() as u32);
                    if only.is_some_and(|want| want != size) {
                        continue;
                    }
                    let truth = brute::solve(&instance).expect("random sizes fit the brute force");
                    record(&instance, claim::solve(&instance), truth, part);
                }
            }),
        })
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        match self {
            DagameRun::Exhaustive { nodes, .. } => {
                BTreeMap::from([("max_nodes".to_string(), nodes.iter().max().copied().unwrap_or(0).into())])
            }
            DagameRun::Random { spec, .. } => BTreeMap::from([
                ("max_nodes".to_string(), spec.max_nodes.into()),
                ("random".to_string(), spec.count.into()),
                ("seed".to_string(), spec.seed.into()),
            ]),
        }
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows = nodes N, cols = colours in the placement, xs = distinct edges, grundy = claimed value".to_string(),
            "brute force: whole-position search over all tokens and stacked flags, never split by colour".to_string(),
        ]
    }
}

/// Every DAG on `nodes` nodes with every placement of `colours` colours, checked in this process.
pub fn verify_nodes(nodes: usize, colours: &[usize]) -> Result<RunResults> {
    check_exhaustive(nodes, colours)?;
    let run = DagameRun::Exhaustive { nodes: vec![nodes], colours: colours.to_vec() };
    run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
}

/// Recomputes one summary row (`rows` nodes, `cols` colours) of a committed run named `rule`
/// (`exhaustive` or a [`RandomSpec::rule`] name), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    if rule == EXHAUSTIVE {
        return verify_nodes(rows as usize, &[cols as usize]);
    }
    let spec = RandomSpec::from_rule(rule).ok_or_else(|| Error::Usage(format!("unknown DAGame rule {rule:?}")))?;
    spec.check()?;
    run_in_memory(&Plan::new(&DagameRun::Random { spec, only: Some((rows, cols)) }, Shard::ALL)?, &Silent)
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
        let r = verify_nodes(3, &[1, 2]).unwrap();
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
