//! DAGame as a contest problem for `stress`: `N M`, M edges, `K`, K tokens; Young or Cheol
//! expected. The trusted answer is the pair-Grundy claim `verify dagame` checks.

use super::verify::{dag_count, dag_from_mask, placements, MAX_COLOURS, MAX_EXHAUSTIVE_NODES};
use super::{claim, winner_name, Dag, Group, Instance, MAX_EDGES, MAX_NODES};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand};
use crate::output::text::counted;
use crate::stress::numbers::{draw, growing, near_powers_of_two};
use crate::stress::order::masks;
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `sprague stress dagame`.
pub static STRESS: StressCommand = StressCommand {
    name: "dagame",
    about: "DAGame (BOJ 27306): `N M`, M edges, `K`, K tokens to the program, Young or Cheol expected.",
    max: OptSpec::value("max", "NODES", "The exhaustive generator's bound: every DAG on 2 to NODES nodes (at most 6) with every placement of 1 to 3 colours.").default("4"),
    build: |args| crate::game::stress::side_with_moves(DagameContest { exhaustive_max: max_in(args, "dagame", 2..=MAX_EXHAUSTIVE_NODES as u64)? as usize }, args),
    examples: &["sprague stress dagame --cmd ./a.out", "sprague stress dagame --cmd ./a.out --generator random,adversarial --seed 3"],
};

/// DAGame's contest side; `exhaustive_max` bounds the nodes of exhaustive inputs.
pub struct DagameContest {
    pub exhaustive_max: usize,
}

/// `tokens` with colours renumbered 1, 2, … in order of first appearance.
fn compact_colours(tokens: &[(u16, u32)]) -> Vec<(u16, u32)> {
    let mut seen: Vec<u32> = Vec::new();
    tokens
        .iter()
        .map(|&(v, c)| {
            let label = seen.iter().position(|&s| s == c).unwrap_or_else(|| {
                seen.push(c);
                seen.len() - 1
            });
            (v, label as u32 + 1)
        })
        .collect()
}

/// An instance with these edges and tokens (colours made compact), if it is a legal input.
fn legal(nodes: usize, edges: &[(u16, u16)], tokens: &[(u16, u32)]) -> Option<Instance> {
    (nodes >= 2 && !edges.is_empty() && !tokens.is_empty()).then(|| Instance { dag: Dag::new(nodes, edges), tokens: compact_colours(tokens) })
}

impl Contest for DagameContest {
    type Case = Instance;
    type Answer = String;

    fn write_input(&self, instance: &Instance, out: &mut Vec<u8>) {
        out.extend_from_slice(instance.to_input().as_bytes());
    }

    fn answer(&self, instance: &Instance) -> String {
        winner_name(claim::solve(instance)).to_string()
    }

    fn parse_output(&self, _instance: &Instance, stdout: &str) -> Result<String, String> {
        answer::one_of(stdout, &["Young", "Cheol"])
    }

    /// Nodes, then edges, then tokens.
    fn size_key(&self, instance: &Instance) -> Option<Vec<u64>> {
        Some([instance.dag.nodes(), instance.dag.edges(), instance.tokens.len()].map(|n| n as u64).to_vec())
    }

    fn describe(&self, instance: &Instance) -> String {
        format!("{}, {}, {}", counted(instance.dag.nodes() as u64, "node"), counted(instance.dag.edges() as u64, "edge"), counted(instance.tokens.len() as u64, "token"))
    }

    /// A node dropped (with its edges and tokens), then a token, then an edge; colours are
    /// renumbered from 1 (also a candidate on its own when they are not).
    fn shrink_candidates(&self, instance: &Instance) -> Vec<Instance> {
        let (n, edges, tokens) = (instance.dag.nodes(), instance.dag.edge_list(), &instance.tokens);
        let mut out = Vec::new();
        for v in 0..n as u16 {
            let shift = |u: u16| if u > v { u - 1 } else { u };
            let kept: Vec<(u16, u16)> = edges.iter().filter(|&&(p, q)| p != v && q != v).map(|&(p, q)| (shift(p), shift(q))).collect();
            let on: Vec<(u16, u32)> = tokens.iter().filter(|t| t.0 != v).map(|&(u, c)| (shift(u), c)).collect();
            out.extend(legal(n - 1, &kept, &on));
        }
        for skip in 0..tokens.len() {
            let rest: Vec<(u16, u32)> = tokens.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &t)| t).collect();
            out.extend(legal(n, &edges, &rest));
        }
        for skip in 0..edges.len() {
            let rest: Vec<(u16, u16)> = edges.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &e)| e).collect();
            out.extend(legal(n, &rest, tokens));
        }
        if compact_colours(tokens) != *tokens {
            out.extend(legal(n, &edges, tokens));
        }
        out
    }
}

impl Generator for DagameContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Instance> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match source {
            Source::Exhaustive => Box::new((2..=self.exhaustive_max).flat_map(|n| {
                (1..dag_count(n)).flat_map(move |mask| {
                    let dag = dag_from_mask(n, mask);
                    (1..=MAX_COLOURS.min(n)).flat_map(move |k| {
                        let dag = dag.clone();
                        placements(n, k).into_iter().map(move |groups| Instance::from_groups(dag.clone(), &groups))
                    })
                })
            })),
            Source::Random => Box::new((0u64..).map(move |i| {
                let n = if rng.random_range(0..16) == 0 { MAX_NODES } else { draw(&mut rng, 2, growing(i, 2, MAX_NODES as u64)) as usize };
                let density = rng.random_range(0.0..=1.0);
                let dag = random_dag(&mut rng, n, density);
                let colours = draw(&mut rng, 1, n as u64) as usize;
                random_tokens(&mut rng, dag, colours)
            })),
            Source::Adversarial => Box::new(adversarial(rng)),
        }
    }

    /// By nodes (up to [`BY_SIZE_NODES`]), edges and tokens: every DAG numbered in a
    /// topological order ([`dag_from_mask`]) with that many edges, every placement of that
    /// many tokens (at most 2N tokens of at most N colours, as inputs allow; colours
    /// interchangeable).
    fn by_size(&self, _instance: &Instance) -> Cases<'_, Instance> {
        let keys = (2..=BY_SIZE_NODES).flat_map(|n| (1..=n * (n - 1) / 2).flat_map(move |e| (1..=2 * n).map(move |t| (n, e, t))));
        Box::new(keys.flat_map(|(n, e, t)| {
            let groups: Vec<Vec<Group>> = (t.div_ceil(2)..=t.min(n)).flat_map(|k| placements(n, k)).filter(|g| tokens(g) == t).collect();
            masks(n * (n - 1) / 2, e).flat_map(move |mask| {
                let dag = dag_from_mask(n, mask);
                groups.clone().into_iter().map(move |g| Instance::from_groups(dag.clone(), &g))
            })
        }))
    }
}

/// The most nodes of the size order (the edge sets of its DAGs fit a 64-bit mask).
pub const BY_SIZE_NODES: usize = 11;

/// The tokens of a placement.
fn tokens(groups: &[Group]) -> usize {
    groups.iter().map(|g| if matches!(g, Group::Single(_)) { 1 } else { 2 }).sum()
}

/// A DAG on `n` nodes, each forward edge present with probability `density` (at most
/// [`MAX_EDGES`] of them, at least the edge 1 → 2).
fn random_dag(rng: &mut ChaCha8Rng, n: usize, density: f64) -> Dag {
    let mut edges = Vec::new();
    'pairs: for p in 0..n as u16 {
        for q in p + 1..n as u16 {
            if edges.len() >= MAX_EDGES {
                break 'pairs;
            }
            if rng.random_bool(density) {
                edges.push((p, q));
            }
        }
    }
    if edges.is_empty() {
        edges.push((0, 1));
    }
    Dag::new(n, &edges)
}

/// `colours` colours with distinct labels in 1..=N, each one token or two (stacked or not),
/// tokens in random order.
fn random_tokens(rng: &mut ChaCha8Rng, dag: Dag, colours: usize) -> Instance {
    let n = dag.nodes();
    let mut labels: Vec<u32> = (1..=n as u32).collect();
    let mut tokens = Vec::new();
    for k in 0..colours.min(n) {
        let at = rng.random_range(k..n);
        labels.swap(k, at);
        let copies = rng.random_range(1..=2);
        tokens.extend((0..copies).map(|_| (rng.random_range(0..n) as u16, labels[k])));
    }
    for i in (1..tokens.len()).rev() {
        tokens.swap(i, rng.random_range(0..=i));
    }
    Instance { dag, tokens }
}

/// The largest inputs (500 nodes, 100,000 edges, 1,000 tokens), then forever second-player
/// wins on complete DAGs, where node values reach N − 1: random colours, then one more token
/// on the node whose value cancels the XOR, on DAGs just past a power of two.
fn adversarial(mut rng: ChaCha8Rng) -> impl Iterator<Item = Instance> + Send {
    let mut big_rng = ChaCha8Rng::seed_from_u64(rng.random());
    let largest = std::iter::repeat_with(move || {
        let dag = random_dag(&mut big_rng, MAX_NODES, 1.0);
        let tokens = (1..=MAX_NODES as u32).flat_map(|c| [c, c]).map(|c| (big_rng.random_range(0..MAX_NODES) as u16, c)).collect();
        Instance { dag, tokens }
    })
    .take(2);
    let complete_max = (1..=MAX_NODES).take_while(|n| n * (n - 1) / 2 <= MAX_EDGES).last().expect("2 nodes fit");
    let sizes = near_powers_of_two(17, complete_max as u64);
    let zero = std::iter::repeat_with(move || loop {
        let n = if rng.random_bool(0.25) { complete_max } else { sizes[rng.random_range(0..sizes.len())] as usize };
        let dag = random_dag(&mut rng, n, 1.0);
        let colours = rng.random_range(1..=8.min(n - 1));
        let mut instance = random_tokens(&mut rng, dag, colours);
        let total = claim::solve(&instance) as usize;
        let free = (1..=n as u32).find(|c| instance.tokens.iter().all(|t| t.1 != *c)).expect("fewer colours than nodes");
        if total < n {
            if total != 0 {
                instance.tokens.push(((n - 1 - total) as u16, free));
            }
            return instance;
        }
    });
    largest.chain(zero)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_order_lists_every_input_in_order() {
        let game = DagameContest { exhaustive_max: 3 };
        let case = game.cases(Source::Random, 1).find(|i| i.dag.nodes() == 4).unwrap();
        let listed = crate::stress::order::check_by_size(&game, &case, |i| i.dag.nodes() <= 3);
        assert_eq!(listed, game.cases(Source::Exhaustive, 0).count(), "up to 3 nodes: at most 3 colours, as the exhaustive one");
        for instance in game.by_size(&case).take(3000) {
            let text = String::from_utf8(game.input_text(&instance)).unwrap();
            assert!(Instance::parse_input("by_size", &text).is_ok(), "{text}");
        }
    }

    #[test]
    fn inputs_answers_and_shrinking() {
        let game = DagameContest { exhaustive_max: 3 };
        let inst = Instance::parse_input("t", "3 2\n1 2\n2 3\n2\n1 3\n3 3\n").unwrap();
        assert_eq!(game.input_text(&inst), b"3 2\n1 2\n2 3\n2\n1 3\n3 3\n");
        assert_eq!(game.answer(&inst), winner_name(claim::solve(&inst)));
        let smaller = game.shrink_candidates(&inst);
        assert!(smaller.iter().all(|i| Instance::parse_input("again", &i.to_input()).ok().as_ref() == Some(i)));
        assert!(smaller.contains(&Instance::parse_input("t", "3 2\n1 2\n2 3\n2\n1 1\n3 1\n").unwrap()), "colour 3 renumbered");
        assert!(smaller.iter().any(|i| i.dag.nodes() == 2));
        // n = 2: one DAG, 2 + 3 single/pair groups: 5 placements of one colour, 15 of two.
        assert_eq!(game.cases(Source::Exhaustive, 0).take_while(|i| i.dag.nodes() == 2).count(), 5 + 15);
    }

    #[test]
    fn adversarial_inputs_are_legal_and_large_ones_lose() {
        let game = DagameContest { exhaustive_max: 3 };
        let cases: Vec<Instance> = game.cases(Source::Adversarial, 5).take(12).collect();
        assert_eq!((cases[0].dag.nodes(), cases[0].dag.edges(), cases[0].tokens.len()), (MAX_NODES, MAX_EDGES, 1000));
        for inst in &cases[2..] {
            assert_eq!(game.answer(inst), "Cheol", "{}", inst.to_compact());
            assert_eq!(Instance::parse_input("again", &inst.to_input()).ok().as_ref(), Some(inst));
        }
        assert!(cases[2..].iter().any(|i| i.dag.nodes() > 64));
    }
}
