//! Seeded random DAGame instances: instance i is stream i of the seed, so any one can be rebuilt.

use super::verify::MAX_COLOURS;
use super::{brute, Dag, Instance};
use crate::error::{Error, Result};
use crate::runner::random::{self, stream};
use rand_chacha::ChaCha8Rng;

/// Largest N of random instances (the brute force's state encoding).
pub const MAX_RANDOM_NODES: usize = brute::MAX_NODES;

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

    pub fn check(&self) -> Result<()> {
        if !(2..=MAX_RANDOM_NODES).contains(&self.max_nodes) {
            return Err(Error::Usage(format!("random DAGame instances take 2 to {MAX_RANDOM_NODES} nodes, not {}", self.max_nodes)));
        }
        Ok(())
    }

    /// Instance number `index`: its own stream of the seed, so any one can be rebuilt.
    pub fn instance(&self, index: u64) -> Instance {
        random_instance(&mut stream(self.seed, index), self.max_nodes)
    }
}

/// A uniform draw from 0..n.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    random::below(rng, n as u64) as usize
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
