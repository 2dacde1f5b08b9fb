//! What `solve dagame --engine naive` will cost before it starts: a bound on the states the
//! whole-position search can visit, from the graph alone, and the memory and time they take,
//! so that a hopeless search is refused up front (as `solve wall --engine naive` is).
//!
//! A state puts every token on a node reachable from its start. A colour with one token at v
//! has |R(v)| placements (R(v): the nodes reachable from v, v included); a colour with tokens
//! at a and b has |R(a)|·|R(b)| placements apart and |R(a) ∩ R(b)| stacked. The bound is the
//! product over colours. It is exact when every placement is reachable (separate colours on
//! chains, the worst case) and never too low. This model only refuses; the oracle never uses it.

use super::{brute, Dag, Group, Instance};
use crate::error::Result;
use crate::runner::cost::search_memo_cap;

/// Bytes the search keeps per state: one hash map of 64-bit keys and 32-bit values, 17 bytes a
/// bucket at hashbrown's load of 44–88 %, the old table alive while it doubles. Measured with
/// /usr/bin/time -v on separate colours starting at node 1 of a chain (the bound exact): 3
/// tokens on 128 nodes (2.10 M states) 109 MiB, 4 on 50 (6.25 M) 210 MiB, 4 on 64 (16.8 M)
/// 822 MiB, i.e. 34–53 bytes a state; the most is used.
pub const BYTES_PER_STATE: f64 = 53.0;

/// Core-seconds per state visited, measured on the same runs (user time on a busy machine):
/// 1.82, 10.3 and 32.3 s, i.e. 0.87–1.92 µs a state; rounded up.
pub const SECONDS_PER_STATE: f64 = 2e-6;

/// Upper bound on the states the whole-position search visits on `instance`.
pub fn states_bound(instance: &Instance) -> f64 {
    let dag = &instance.dag;
    instance.groups().iter().map(|&group| placements(dag, group)).product()
}

/// Placements of one colour's tokens within the nodes reachable from their starts.
fn placements(dag: &Dag, group: Group) -> f64 {
    match group {
        Group::Single(v) => reachable(dag, v).iter().filter(|&&r| r).count() as f64,
        Group::Pair(a, b) => {
            let (ra, rb) = (reachable(dag, a), reachable(dag, b));
            let count = |f: &dyn Fn(usize) -> bool| (0..ra.len()).filter(|&v| f(v)).count() as f64;
            count(&|v| ra[v]) * count(&|v| rb[v]) + count(&|v| ra[v] && rb[v])
        }
    }
}

/// Which nodes are reachable from `start` (itself included); edges go to higher nodes.
fn reachable(dag: &Dag, start: u16) -> Vec<bool> {
    let mut seen = vec![false; dag.nodes()];
    seen[start as usize] = true;
    for v in start as usize..dag.nodes() {
        if seen[v] {
            for &w in dag.out(v) {
                seen[w as usize] = true;
            }
        }
    }
    seen
}

/// What the naive engine may spend on one instance: the memory available (`None`: unknown),
/// and a day unless forced.
#[derive(Debug, Clone, Copy)]
pub struct NaiveLimits {
    pub memory: Option<u64>,
    pub force: bool,
}

impl NaiveLimits {
    /// Refuses, unless forced, an instance whose bound on states will not fit in memory or
    /// takes more than a day; otherwise the most states the search may hold (the memory
    /// available over [`BYTES_PER_STATE`]), past which it stops with an error.
    pub fn check(self, instance: &Instance) -> Result<usize> {
        let states = states_bound(instance);
        let bytes = states * BYTES_PER_STATE;
        let what = format!(
            "the whole-position search of this instance ({} tokens on {} nodes, up to {states:.2e} states)",
            instance.tokens.len(),
            instance.dag.nodes()
        );
        let advice = "use the claim (--engine claim, the default)";
        search_memo_cap(&what, states * SECONDS_PER_STATE, bytes, BYTES_PER_STATE, self.memory, self.force, advice)
    }

    /// The brute-force value of `instance` within these limits.
    pub fn solve(self, instance: &Instance) -> Result<u32> {
        let cap = self.check(instance)?;
        brute::solve_within(instance, cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> Dag {
        Dag::new(n, &(0..n as u16 - 1).map(|v| (v, v + 1)).collect::<Vec<_>>())
    }

    #[test]
    fn the_bound_is_exact_for_separate_colours_on_a_chain_and_holds_elsewhere() {
        let instance = Instance { dag: chain(6), tokens: vec![(0, 1), (2, 2), (5, 3)] };
        assert_eq!(states_bound(&instance), 6.0 * 4.0 * 1.0);
        let mut search = brute::Brute::new(&instance.dag, &[1, 2, 3]).unwrap();
        search.grundy(&[0, 2, 5]);
        assert_eq!(search.states(), 24);
        // A pair on a triangle: placements apart and stacked.
        let instance = Instance { dag: Dag::new(3, &[(0, 1), (0, 2), (1, 2)]), tokens: vec![(0, 1), (1, 1)] };
        assert_eq!(states_bound(&instance), 3.0 * 2.0 + 2.0);
        let mut search = brute::Brute::new(&instance.dag, &[1, 1]).unwrap();
        search.grundy(&[0, 1]);
        assert!(search.states() as f64 <= states_bound(&instance));
    }

    #[test]
    fn a_search_too_large_for_memory_is_refused_up_front() {
        let instance = Instance { dag: chain(128), tokens: (0..8).map(|i| (i as u16, 1 + i / 2)).collect() };
        let limits = NaiveLimits { memory: Some(1 << 30), force: false };
        let err = limits.check(&instance).unwrap_err().to_string();
        assert!(err.contains("8 tokens on 128 nodes") && err.contains("only 1.00 GiB is available") && err.contains("--engine claim"), "{err}");
        // Forced: the search may hold what fits in the memory, then stops.
        let forced = NaiveLimits { force: true, ..limits };
        assert_eq!(forced.check(&instance).unwrap(), ((1u64 << 30) as f64 / BYTES_PER_STATE) as usize);
    }

    #[test]
    fn a_search_longer_than_a_day_is_refused_unless_forced() {
        let instance = Instance { dag: chain(128), tokens: (0..6).map(|i| (i as u16, 1 + i)).collect() };
        let limits = NaiveLimits { memory: None, force: false };
        let err = limits.check(&instance).unwrap_err().to_string();
        assert!(err.contains("would take an estimated 90.4 days"), "{err}");
        assert_eq!(NaiveLimits { force: true, ..limits }.check(&instance).unwrap(), usize::MAX);
    }

    #[test]
    fn a_small_search_is_accepted() {
        let instance = Instance { dag: chain(6), tokens: vec![(0, 1), (2, 1), (3, 2)] };
        let limits = NaiveLimits { memory: Some(1 << 20), force: false };
        assert_eq!(limits.solve(&instance).unwrap(), brute::solve(&instance).unwrap());
    }
}
