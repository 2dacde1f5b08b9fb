//! Whole-position DAGame search: every token and stacked flag in one state, Grundy value by mex
//! over all moves, memoised. Shares only the move rule with nothing else: no split by colour.

use super::{Dag, Instance};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;

/// Most tokens a state can hold (7 bits of node per token plus one stacked bit, in a u64).
pub const MAX_TOKENS: usize = 8;
/// Most nodes a state can address.
pub const MAX_NODES: usize = 128;

/// Whole-position search on one DAG for one token layout (which tokens share a colour).
pub struct Brute<'a> {
    dag: &'a Dag,
    /// `partner[i]`: the other token of token i's colour.
    partner: Vec<Option<usize>>,
    memo: FxHashMap<u64, u32>,
    /// Most states the memo may hold; past it the search gives up (`exhausted`).
    max_states: usize,
    exhausted: bool,
}

/// Token nodes and stacked flags.
#[derive(Clone, PartialEq, Eq)]
struct State {
    node: Vec<u16>,
    stacked: Vec<bool>,
}

impl State {
    fn key(&self) -> u64 {
        self.node.iter().zip(&self.stacked).enumerate().fold(0, |key, (i, (&v, &s))| {
            key | (v as u64) << (8 * i) | (s as u64) << (8 * i + 7)
        })
    }
}

impl<'a> Brute<'a> {
    /// A search for tokens whose colours are `colours` (token i has colour `colours[i]`).
    pub fn new(dag: &'a Dag, colours: &[u32]) -> Result<Brute<'a>> {
        if colours.len() > MAX_TOKENS || dag.nodes() > MAX_NODES {
            return Err(Error::Usage(format!(
                "brute force handles at most {MAX_TOKENS} tokens on {MAX_NODES} nodes (got {} on {})",
                colours.len(),
                dag.nodes()
            )));
        }
        let partner = (0..colours.len())
            .map(|i| (0..colours.len()).find(|&j| j != i && colours[j] == colours[i]))
            .collect();
        Ok(Brute { dag, partner, memo: FxHashMap::default(), max_states: usize::MAX, exhausted: false })
    }

    /// The same search, giving up once its memo holds `max_states` states (its values are then
    /// void: [`Brute::finished`] says so).
    pub fn within(self, max_states: usize) -> Brute<'a> {
        Brute { max_states, ..self }
    }

    /// An error when the search gave up at its limit of states.
    pub fn finished(&self) -> Result<()> {
        if !self.exhausted {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "the whole-position search passed {} states, all the memory allowed, without finishing; \
             use the claim (--engine claim, the default)",
            self.max_states
        )))
    }

    /// States the memo holds (those visited so far).
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The Grundy value of the whole position with token i on `nodes[i]`; tokens of one colour
    /// that start on the same node are stacked from the start.
    pub fn grundy(&mut self, nodes: &[u16]) -> u32 {
        assert_eq!(nodes.len(), self.partner.len(), "one node per token");
        let stacked = (0..nodes.len()).map(|i| self.partner[i].is_some_and(|j| nodes[j] == nodes[i])).collect();
        self.value(&State { node: nodes.to_vec(), stacked })
    }

    fn value(&mut self, state: &State) -> u32 {
        let key = state.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.exhausted |= self.memo.len() >= self.max_states;
        if self.exhausted {
            return 0;
        }
        let mut seen = Vec::new();
        for next in self.moves(state) {
            seen.push(self.value(&next));
        }
        let value = (0..).find(|g| !seen.contains(g)).expect("some value is free");
        self.memo.insert(key, value);
        value
    }

    /// Every position one move away: one token (with its stack mate, if stacked) along one edge.
    fn moves(&self, state: &State) -> Vec<State> {
        let mut out = Vec::new();
        for i in 0..state.node.len() {
            let mate = self.partner[i];
            if state.stacked[i] && mate.is_some_and(|j| j < i) {
                continue; // the stack already moved as its lower token
            }
            for &w in self.dag.out(state.node[i] as usize) {
                let mut next = state.clone();
                next.node[i] = w;
                if let Some(j) = mate {
                    if state.stacked[i] {
                        next.node[j] = w;
                    } else if state.node[j] == w {
                        next.stacked[i] = true;
                        next.stacked[j] = true;
                    }
                }
                out.push(next);
            }
        }
        out
    }
}

/// The brute-force Grundy value of a whole instance.
pub fn solve(instance: &Instance) -> Result<u32> {
    solve_within(instance, usize::MAX)
}

/// [`solve`], giving up with an error once the search holds `max_states` states (so that an
/// instance too large for the machine ends cleanly instead of exhausting its memory).
pub fn solve_within(instance: &Instance, max_states: usize) -> Result<u32> {
    let colours: Vec<u32> = instance.tokens.iter().map(|&(_, c)| c).collect();
    let nodes: Vec<u16> = instance.tokens.iter().map(|&(v, _)| v).collect();
    let mut search = Brute::new(&instance.dag, &colours)?.within(max_states);
    let value = search.grundy(&nodes);
    search.finished()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_separate_tokens_xor_like_nim_heaps() {
        // Chain 1→2→3: a token at 1 is worth 0, at 2 worth 1; two colours at 2 and 2 sum to 0.
        let dag = Dag::new(3, &[(0, 1), (1, 2)]);
        let mut b = Brute::new(&dag, &[1, 2]).unwrap();
        assert_eq!(b.grundy(&[1, 1]), 0);
        assert_eq!(b.grundy(&[0, 1]), 1);
    }

    #[test]
    fn same_colour_on_one_node_moves_as_one() {
        // Stacked at node 2 of the chain: one move left, not two.
        let dag = Dag::new(3, &[(0, 1), (1, 2)]);
        let mut b = Brute::new(&dag, &[1, 1]).unwrap();
        assert_eq!(b.grundy(&[1, 1]), 1);
        // Different colours on the same node do not stack: two moves, value 0.
        let mut b = Brute::new(&dag, &[1, 2]).unwrap();
        assert_eq!(b.grundy(&[1, 1]), 0);
    }

    #[test]
    fn a_search_past_its_limit_of_states_ends_with_an_error() {
        let dag = Dag::new(4, &[(0, 1), (1, 2), (2, 3)]);
        let instance = Instance { dag, tokens: vec![(0, 1), (0, 2)] };
        assert_eq!(solve_within(&instance, 16).unwrap(), 0, "4 × 4 states fit");
        let err = solve_within(&instance, 4).unwrap_err().to_string();
        assert!(err.contains("passed 4 states") && err.contains("--engine claim"), "{err}");
    }

    #[test]
    fn rejects_too_many_tokens() {
        let dag = Dag::new(2, &[(0, 1)]);
        assert!(Brute::new(&dag, &[1; 9]).is_err());
    }
}
