//! The claimed DAGame solver: Grundy value = XOR over colours; a colour is worth its single-node
//! DAG Grundy value, or for two tokens at a ≠ b the pair value G(a, b) = mex over moving either
//! token one edge (landing on the partner's node gives that node's single value).

use super::{Dag, Group, Instance};
use crate::error::{Error, Result};
use crate::impartial::stopped;

/// Marks which values occur among a node's options, then finds the least absent one.
struct Mex {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Mex {
    fn new(max_value: usize) -> Mex {
        Mex { stamp: vec![0; max_value + 2], epoch: 0 }
    }

    fn begin(&mut self) {
        self.epoch += 1;
    }

    fn add(&mut self, value: u16) {
        if let Some(slot) = self.stamp.get_mut(value as usize) {
            *slot = self.epoch;
        }
    }

    fn value(&self) -> u16 {
        self.stamp.iter().position(|&s| s != self.epoch).expect("a free slot past the largest option") as u16
    }
}

/// Grundy value of a single (or stacked) token on every node; nodes are done from the last
/// down, since every edge goes to a higher number.
pub fn node_grundy(dag: &Dag) -> Vec<u16> {
    let n = dag.nodes();
    let mut g = vec![0u16; n];
    let mut mex = Mex::new(n);
    for v in (0..n).rev() {
        mex.begin();
        for &w in dag.out(v) {
            mex.add(g[w as usize]);
        }
        g[v] = mex.value();
    }
    g
}

const UNKNOWN: u16 = u16::MAX;

/// Pair values G(a, b), a ≠ b, for the pairs some start position can reach.
pub struct PairTable {
    n: usize,
    /// Index `lo * n + hi` with lo < hi; `UNKNOWN` where no start needs it.
    values: Vec<u16>,
}

impl PairTable {
    /// Pair values for every pair reachable from `starts` (pairs with a ≠ b), without recursion;
    /// an error once [`stopped`] (an analysis whose client left, [`crate::impartial::stoppable`]),
    /// looked at every 1024 pairs marked and before every row of the fill.
    pub fn for_pairs(dag: &Dag, single: &[u16], starts: impl IntoIterator<Item = (u16, u16)>) -> Result<PairTable> {
        let n = dag.nodes();
        let mut needed = vec![false; n * n];
        let mut stack: Vec<(u16, u16)> = Vec::new();
        for (a, b) in starts.into_iter().filter(|(a, b)| a != b) {
            let (lo, hi) = order(a, b);
            if !std::mem::replace(&mut needed[lo as usize * n + hi as usize], true) {
                stack.push((lo, hi));
            }
        }
        // Marked when pushed, so every pair is expanded once.
        let mut expanded = 0u32;
        while let Some((lo, hi)) = stack.pop() {
            expanded = expanded.wrapping_add(1);
            if expanded.is_multiple_of(1024) && stopped() {
                return Err(stopped_at(lo.into()));
            }
            for_each_pair_option(dag, lo, hi, |next| {
                if let Option_::Pair(a, b) = next {
                    if !std::mem::replace(&mut needed[a as usize * n + b as usize], true) {
                        stack.push((a, b));
                    }
                }
            });
        }
        Self::fill(dag, single, |i| needed[i])
    }

    /// Pair values for every pair of distinct nodes (an error once [`stopped`], as `for_pairs`).
    pub fn full(dag: &Dag, single: &[u16]) -> Result<PairTable> {
        Self::fill(dag, single, |_| true)
    }

    /// Computes the wanted pairs in decreasing (lo, hi) order: every option of (lo, hi) is a
    /// pair with a larger lo, or the same lo and a larger hi, so it is already known.
    fn fill(dag: &Dag, single: &[u16], wanted: impl Fn(usize) -> bool) -> Result<PairTable> {
        let n = dag.nodes();
        let mut values = vec![UNKNOWN; n * n];
        let mut mex = Mex::new(2 * n);
        for lo in (0..n).rev() {
            if stopped() {
                return Err(stopped_at(lo));
            }
            for hi in (lo + 1..n).rev() {
                let index = lo * n + hi;
                if !wanted(index) {
                    continue;
                }
                mex.begin();
                for_each_pair_option(dag, lo as u16, hi as u16, |next| match next {
                    Option_::Stacked(v) => mex.add(single[v as usize]),
                    Option_::Pair(a, b) => {
                        let value = values[a as usize * n + b as usize];
                        debug_assert_ne!(value, UNKNOWN, "option ({a}, {b}) of ({lo}, {hi}) not computed");
                        mex.add(value)
                    }
                });
                values[index] = mex.value();
            }
        }
        Ok(PairTable { n, values })
    }

    /// G(a, b) for a ≠ b; panics when the pair was not among those requested.
    pub fn get(&self, a: u16, b: u16) -> u16 {
        let (lo, hi) = order(a, b);
        let value = self.values[lo as usize * self.n + hi as usize];
        assert!(a != b && value != UNKNOWN, "pair ({a}, {b}) was not computed");
        value
    }
}

/// The error of pair values stopped at the pairs whose first node is `lo` (0-based).
fn stopped_at(lo: usize) -> Error {
    Error::Usage(format!("the pair values were stopped at the pairs of node {}", lo + 1))
}

/// Where a move of one token of a pair leads.
enum Option_ {
    /// Both tokens now on this node, stacked.
    Stacked(u16),
    /// Still two nodes, ordered lo < hi.
    Pair(u16, u16),
}

/// Calls `f` on the option of every move of either token of the pair `(lo, hi)`.
fn for_each_pair_option(dag: &Dag, lo: u16, hi: u16, mut f: impl FnMut(Option_)) {
    for (mover, stay) in [(lo, hi), (hi, lo)] {
        for &w in dag.out(mover as usize) {
            if w == stay {
                f(Option_::Stacked(w));
            } else {
                let (a, b) = order(w, stay);
                f(Option_::Pair(a, b));
            }
        }
    }
}

fn order(a: u16, b: u16) -> (u16, u16) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The claimed value of one colour.
pub fn group_value(single: &[u16], pairs: &PairTable, group: Group) -> u32 {
    match group {
        Group::Single(v) => single[v as usize] as u32,
        Group::Pair(a, b) if a == b => single[a as usize] as u32,
        Group::Pair(a, b) => pairs.get(a, b) as u32,
    }
}

/// The claimed Grundy value of a whole position: XOR of its colours' values.
pub fn solve(instance: &Instance) -> u32 {
    let groups = instance.groups();
    let single = node_grundy(&instance.dag);
    let starts = groups.iter().filter_map(|g| match *g {
        Group::Pair(a, b) => Some((a, b)),
        Group::Single(_) => None,
    });
    let pairs = PairTable::for_pairs(&instance.dag, &single, starts).expect("never stopped: only serve's analyses are, and they ask claimed_values");
    groups.iter().fold(0, |acc, &g| acc ^ group_value(&single, &pairs, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> Dag {
        let edges: Vec<(u16, u16)> = (0..n as u16 - 1).map(|v| (v, v + 1)).collect();
        Dag::new(n, &edges)
    }

    #[test]
    fn chain_values_alternate() {
        let dag = chain(5);
        assert_eq!(node_grundy(&dag), vec![0, 1, 0, 1, 0]);
    }

    #[test]
    fn stacking_on_a_chain() {
        // Tokens at 1 and 2 of the chain 1→2→3: moving the back token stacks them at 2, where
        // the stack is worth g(2) = 1; moving the front one gives (1, 3): back token's last
        // moves. Hand count: G(2,3)=mex{g(3)=0}=1, G(1,3)=mex{G(2,3)=1}=0, G(1,2)=mex{g(2)=1, G(1,3)=0}=2.
        let dag = chain(3);
        let single = node_grundy(&dag);
        let pairs = PairTable::full(&dag, &single).unwrap();
        assert_eq!((pairs.get(1, 2), pairs.get(0, 2), pairs.get(0, 1)), (1, 0, 2));
        let partial = PairTable::for_pairs(&dag, &single, [(1, 0)]).unwrap();
        assert_eq!(partial.get(0, 1), 2);
    }

    /// On a chain ending at L, G(a, b) = (b - a) mod 2 when b - a ≥ 2, and for neighbours 1 if
    /// L - b is even, else 2 (tests/dagame.rs checks this law against brute force on short chains).
    #[test]
    fn long_chain_needs_no_recursion() {
        let dag = chain(500);
        let single = node_grundy(&dag);
        let pairs = PairTable::for_pairs(&dag, &single, [(0, 1)]).unwrap();
        assert_eq!([pairs.get(0, 1), pairs.get(1, 2), pairs.get(0, 2), pairs.get(0, 3)], [1, 2, 0, 1]);
        assert_eq!(pairs.get(497, 498), 2);
        assert_eq!(pairs.get(0, 499), 1);
    }

    /// Stopped work ends while it marks the pairs it needs (the chain's 124,750), or at the
    /// first row of the fill when it needs none: an error, not a panic.
    #[test]
    fn stopped_pair_values_are_an_error() {
        let dag = chain(500);
        let single = node_grundy(&dag);
        let gone = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let stop = |starts: &[(u16, u16)]| crate::impartial::stoppable(gone.clone(), || PairTable::for_pairs(&dag, &single, starts.iter().copied()).err().map(|e| e.to_string()));
        let marking = stop(&[(0, 1)]);
        assert!(marking.1, "the flag was seen");
        let node = marking.0.expect("an error").strip_prefix("the pair values were stopped at the pairs of node ").expect("where").parse::<usize>().unwrap();
        assert!(node < 500, "stopped before the fill's first row (node 500)");
        assert_eq!(stop(&[]), (Some("the pair values were stopped at the pairs of node 500".to_string()), true));
    }
}
