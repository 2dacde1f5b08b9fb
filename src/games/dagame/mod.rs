//! DAGame (BOJ 27306): coloured tokens on a DAG whose same-colour pairs merge when they meet.
//!
//! Rules: nodes `0..n` (0-based here, 1-based in the input), edges `p → q` with `p < q`. Each
//! colour has one or two tokens; a move slides one token along one edge. Two tokens of one
//! colour on the same node are stacked for good and move together. No move ⇒ the mover loses.
//!
//! - [`input`]: the contest format (and a compact one-line form used in result files).
//! - [`claim`]: the claimed solver (XOR over colours of single-node or pair Grundy values).
//! - [`brute`]: whole-position search over all tokens, never split by colour.
//! - [`cost`]: the bound on the brute force's states a hopeless `--engine naive` is refused on.

pub mod brute;
pub mod claim;
pub mod commands;
pub mod contest;
pub mod cost;
pub mod explore;
pub mod input;
pub mod moves;
pub mod random;
pub mod verify;

pub use commands::GAME;

/// Largest node count the contest allows.
pub const MAX_NODES: usize = 500;
/// Largest edge count the contest allows.
pub const MAX_EDGES: usize = 100_000;

/// A DAG on nodes `0..n` with edges from lower to higher numbers, repeated edges removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dag {
    /// `start[v]..start[v + 1]` indexes `targets` with the successors of `v`, ascending.
    start: Vec<u32>,
    targets: Vec<u16>,
}

impl Dag {
    /// Builds the DAG; every edge `(p, q)` must satisfy `p < q < nodes` (0-based).
    pub fn new(nodes: usize, edges: &[(u16, u16)]) -> Dag {
        let mut sorted: Vec<(u16, u16)> = edges.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut start = vec![0u32; nodes + 1];
        for &(p, q) in &sorted {
            assert!(p < q && (q as usize) < nodes, "edge {p}->{q} is not forward inside {nodes} nodes");
            start[p as usize + 1] += 1;
        }
        for v in 0..nodes {
            start[v + 1] += start[v];
        }
        Dag { start, targets: sorted.into_iter().map(|(_, q)| q).collect() }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    /// Number of distinct edges.
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// Successors of `v`, ascending.
    pub fn out(&self, v: usize) -> &[u16] {
        &self.targets[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// All distinct edges `(p, q)`, sorted.
    pub fn edge_list(&self) -> Vec<(u16, u16)> {
        (0..self.nodes()).flat_map(|p| self.out(p).iter().map(move |&q| (p as u16, q))).collect()
    }
}

/// The tokens of one colour: one token, or two (possibly on the same node, then stacked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Single(u16),
    Pair(u16, u16),
}

/// One game position: the DAG and its tokens `(node, colour)`, 0-based nodes, colours ≥ 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub dag: Dag,
    /// Tokens in input order.
    pub tokens: Vec<(u16, u32)>,
}

impl Instance {
    /// An instance whose colour `i + 1` holds the tokens of `groups[i]`.
    pub fn from_groups(dag: Dag, groups: &[Group]) -> Instance {
        let mut tokens = Vec::new();
        for (i, group) in groups.iter().enumerate() {
            let colour = i as u32 + 1;
            match *group {
                Group::Single(v) => tokens.push((v, colour)),
                Group::Pair(a, b) => tokens.extend([(a, colour), (b, colour)]),
            }
        }
        Instance { dag, tokens }
    }

    /// The tokens grouped by colour, in order of colour.
    pub fn groups(&self) -> Vec<Group> {
        groups_of(&self.tokens)
    }

    /// Number of distinct colours.
    pub fn colours(&self) -> usize {
        let mut colours: Vec<u32> = self.tokens.iter().map(|&(_, c)| c).collect();
        colours.sort_unstable();
        colours.dedup();
        colours.len()
    }
}

/// Tokens `(node, colour)` grouped by colour, in order of colour.
pub fn groups_of(tokens: &[(u16, u32)]) -> Vec<Group> {
    let mut by_colour: std::collections::BTreeMap<u32, Group> = std::collections::BTreeMap::new();
    for &(v, c) in tokens {
        by_colour
            .entry(c)
            .and_modify(|g| {
                if let Group::Single(a) = *g {
                    *g = Group::Pair(a, v);
                } else {
                    panic!("colour {c} has more than two tokens");
                }
            })
            .or_insert(Group::Single(v));
    }
    by_colour.into_values().collect()
}

/// The contest's answer: `Young` moves first and wins on a non-zero value, else `Cheol` wins.
pub fn winner_name(grundy: u32) -> &'static str {
    if grundy != 0 {
        "Young"
    } else {
        "Cheol"
    }
}
