//! Exact values that trust the program's `components`: a position that splits is worth the XOR of its parts' values, and only the parts are explored.
//!
//! Under normal play a sum of independent games is worth the XOR of their Grundy values, so a
//! game whose moves split a position (Kayles, Grundy's game, octal games) is solved on its
//! parts: rows and their sums instead of every multiset of rows. The decomposition is the
//! program's claim, taken on trust here (`verify custom` checks it against the brute force);
//! the whole positions are solved by mex over their moves, as in [`Explorer::values`].

use super::protocol::{self, Verb};
use super::Explorer;
use crate::error::Result;
use crate::impartial::mex;
use rustc_hash::FxHashMap;

/// A position the program split (`parts`) or not (`whole`: valued by its moves).
enum Node {
    Whole,
    Parts(Box<[u32]>),
}

/// The explorer, with every position's answer to `components` and the values found.
pub struct Splitter<'e> {
    explorer: &'e mut Explorer,
    nodes: FxHashMap<u32, Node>,
    values: FxHashMap<u32, u32>,
    /// Positions whose `components` answer named no parts (the empty sum, value 0), in the
    /// order they were asked.
    empty: Vec<u32>,
}

impl<'e> Splitter<'e> {
    pub fn new(explorer: &'e mut Explorer) -> Self {
        Splitter { explorer, nodes: FxHashMap::default(), values: FxHashMap::default(), empty: Vec::new() }
    }

    /// The Grundy values of `roots`.
    pub fn values(&mut self, roots: &[u32]) -> Result<Vec<u32>> {
        let mut frontier = roots.to_vec();
        while !frontier.is_empty() {
            frontier = self.step(&frontier)?;
        }
        for &root in roots {
            self.solve(root)?;
        }
        Ok(roots.iter().map(|r| self.values[r]).collect())
    }

    /// The positions that answered `components` with no parts: each taken as the empty sum
    /// (value 0), which is more often a program's bug than its meaning (`-` is no split).
    pub fn empty_splits(&self) -> &[u32] {
        &self.empty
    }

    /// Asks `components` of the new positions of `ids`, then `moves` of those that do not
    /// split; the positions their parts and moves reach that are new.
    fn step(&mut self, ids: &[u32]) -> Result<Vec<u32>> {
        let mut new: Vec<u32> = ids.iter().copied().filter(|id| !self.nodes.contains_key(id)).collect();
        new.sort_unstable();
        new.dedup();
        let tokens: Vec<String> = new.iter().map(|&id| self.explorer.token(id).to_string()).collect();
        let args: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let answers = if args.is_empty() { Vec::new() } else { self.explorer.program().ask(Verb::Components, &args)? };
        let (mut next, mut whole) = (Vec::new(), Vec::new());
        for ((&id, token), answer) in new.iter().zip(&tokens).zip(&answers) {
            let context = protocol::request(Verb::Components, token);
            let parts = protocol::components(answer).map_err(|why| self.explorer.bad_answer(&context, why))?;
            let parts = parts.map(|p| p.into_iter().map(|t| self.explorer.intern(t, &context)).collect::<Result<Vec<u32>>>()).transpose()?;
            let node = match parts {
                Some(parts) if parts != [id] => {
                    if parts.is_empty() {
                        self.empty.push(id);
                    }
                    next.extend(&parts);
                    Node::Parts(parts.into_boxed_slice())
                }
                _ => {
                    whole.push(id);
                    Node::Whole
                }
            };
            self.nodes.insert(id, node);
        }
        self.explorer.expand(&whole)?;
        next.extend(whole.iter().flat_map(|&id| self.explorer.moves(id).unwrap_or_default()));
        next.retain(|id| !self.nodes.contains_key(id));
        Ok(next)
    }

    /// The positions `id`'s value depends on: its parts, or its moves.
    fn dependencies(&self, id: u32) -> &[u32] {
        match &self.nodes[&id] {
            Node::Parts(parts) => parts,
            Node::Whole => self.explorer.moves(id).unwrap_or_default(),
        }
    }

    /// What links the cycle of `stack` back to `back_to`: the answers of its positions.
    fn links(&self, stack: &[(u32, usize)], back_to: u32) -> &'static str {
        let start = stack.iter().position(|&(id, _)| id == back_to).unwrap_or(0);
        let split = |&(id, _): &(u32, usize)| matches!(self.nodes[&id], Node::Parts(_));
        match (stack[start..].iter().all(split), stack[start..].iter().any(split)) {
            (true, _) => "components",
            (false, true) => "moves and components",
            (false, false) => "moves",
        }
    }

    /// Values every position below `root` (all explored) in post-order; a position met again
    /// on its own path is a cycle.
    fn solve(&mut self, root: u32) -> Result<()> {
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        let mut on_stack = rustc_hash::FxHashSet::default();
        on_stack.insert(root);
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            if self.values.contains_key(&id) {
                on_stack.remove(&id);
                stack.pop();
                continue;
            }
            if let Some(&child) = self.dependencies(id).get(*next) {
                *next += 1;
                if !self.values.contains_key(&child) {
                    if !on_stack.insert(child) {
                        return Err(self.explorer.cycle(&stack, child, self.links(&stack, child)));
                    }
                    stack.push((child, 0));
                }
                continue;
            }
            let values = self.dependencies(id).iter().map(|c| self.values[c]);
            let value = match self.nodes[&id] {
                Node::Parts(_) => values.fold(0, |x, v| x ^ v),
                Node::Whole => mex(values),
            };
            self.values.insert(id, value);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::custom::program::fake::Fake;
    use crate::custom::program::GraphLimits;
    use crate::impartial::Convention;
    use std::sync::Arc;

    /// Kayles with one row per token (`5`) and sums of rows (`1+3`), split into their rows.
    fn kayles(verb: Verb, arg: &str) -> Option<String> {
        let rows: Vec<u32> = arg.split('+').map(|r| r.parse().ok()).collect::<Option<_>>()?;
        Some(match (verb, &rows[..]) {
            (Verb::Components, [_]) => "-".to_string(),
            (Verb::Components, _) => rows.iter().map(u32::to_string).collect::<Vec<_>>().join(" "),
            (Verb::Moves, &[n]) => {
                let cuts = (1..=2).filter(|&t| t <= n).flat_map(|t| (0..=n - t).map(move |l| (l, n - t - l)));
                cuts.map(|(l, r)| format!("{l}+{r}")).collect::<Vec<_>>().join(" ")
            }
            _ => return None,
        })
    }

    #[test]
    fn kayles_is_solved_on_rows_and_their_sums() {
        let game = Arc::new(Fake::new("positions moves components", kayles));
        let mut explorer = Explorer::new(game.clone(), Convention::Normal, GraphLimits::default());
        let roots: Vec<u32> = (0..=100).map(|n| explorer.intern(&n.to_string(), "test").unwrap()).collect();
        let values = Splitter::new(&mut explorer).values(&roots).unwrap();
        // The one-row recurrence: g(n) = mex of g(l) ^ g(r) over the rows a move leaves.
        let mut g: Vec<u32> = Vec::new();
        for n in 0..=100usize {
            let cuts = (1..=2).filter(|&t| t <= n).flat_map(|t| (0..=n - t).map(move |l| (l, n - t - l)));
            g.push(mex(cuts.map(|(l, r)| g[l] ^ g[r]).collect::<Vec<_>>()));
        }
        assert_eq!(values, g);
        // OEIS A002186: 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, …, period 12 from n = 71 on.
        assert_eq!(values[..13], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        assert!((71..=88).all(|n| values[n] == values[n + 12]) && values[70] != values[82]);
        assert!(explorer.len() < 101 * 101, "rows and pairs of rows only: {}", explorer.len());
    }

    #[test]
    fn an_empty_split_is_the_empty_sum_and_is_recorded() {
        // "a" splits into "b" and nothing else, "b" into no parts; "c" does not split and moves to "b".
        let game = Arc::new(Fake::new("positions moves components", |verb, arg: &str| match (verb, arg) {
            (Verb::Components, "a") => Some("b c".into()),
            (Verb::Components, "b") => Some(String::new()),
            (Verb::Components, _) => Some("-".into()),
            (Verb::Moves, "c") => Some("b".into()),
            (Verb::Moves, _) => Some(String::new()),
            _ => None,
        }));
        let mut explorer = Explorer::new(game, Convention::Normal, GraphLimits::default());
        let root = explorer.intern("a", "test").unwrap();
        let mut splitter = Splitter::new(&mut explorer);
        assert_eq!(splitter.values(&[root]).unwrap(), [1], "b = 0, c = mex {{0}} = 1, a = 0 ^ 1");
        let empty: Vec<u32> = splitter.empty_splits().to_vec();
        assert_eq!(empty.iter().map(|&id| explorer.token(id)).collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn parts_that_lead_back_are_a_cycle() {
        let game = Arc::new(Fake::new("positions moves components", |verb, arg: &str| match (verb, arg) {
            (Verb::Components, "a") => Some("b c".into()),
            (Verb::Components, "b") => Some("a".into()),
            (Verb::Components, _) | (Verb::Moves, _) => Some(String::new()),
            _ => None,
        }));
        let mut explorer = Explorer::new(game, Convention::Normal, GraphLimits::default());
        let root = explorer.intern("a", "test").unwrap();
        let err = Splitter::new(&mut explorer).values(&[root]).unwrap_err().to_string();
        assert!(err.contains("the components form a cycle of 2 positions: a -> b -> a") && err.contains("`components` must split"), "{err}");
        // A position among its own parts (with another copy: not the plain `P` of no split);
        // a move back to a position that split.
        let game = Arc::new(Fake::new("positions moves components", |verb, arg: &str| match (verb, arg) {
            (Verb::Components, "p") => Some("p p".into()),
            (Verb::Components, "m") => Some("-".into()),
            (Verb::Components, "s") => Some("m".into()),
            (Verb::Moves, "m") => Some("s".into()),
            (Verb::Components, _) | (Verb::Moves, _) => Some(String::new()),
            _ => None,
        }));
        let mut explorer = Explorer::new(game, Convention::Normal, GraphLimits::default());
        let (p, m) = (explorer.intern("p", "test").unwrap(), explorer.intern("m", "test").unwrap());
        let err = Splitter::new(&mut explorer).values(&[p]).unwrap_err().to_string();
        assert!(err.contains("the components form a cycle of 1 position: p -> p"), "{err}");
        let err = Splitter::new(&mut explorer).values(&[m]).unwrap_err().to_string();
        assert!(err.contains("the moves and components form a cycle of 2 positions: m -> s -> m"), "{err}");
    }
}
