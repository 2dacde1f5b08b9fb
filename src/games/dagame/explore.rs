//! What `sprague serve` shows of DAGame: the DAG as a graph with the tokens on its nodes, every
//! slide of a token (or of a stacked pair) along one edge.

use super::claim::{group_value, node_grundy, PairTable};
use super::{groups_of, Group, Instance, MAX_EDGES, MAX_NODES};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, check_text, move_info, Eval, SOURCE};
use serde_json::json;
use std::fmt::Write;

pub fn explorer() -> Box<dyn Explore> {
    Box::new(DagExplorer)
}

struct DagExplorer;

/// The claimed values of one DAG: single tokens, and pairs reachable from the position's.
pub(super) struct Values {
    single: Vec<u16>,
    pairs: PairTable,
}

impl Values {
    /// The claimed value of `tokens` (the position's tokens, moved or not).
    pub(super) fn of(&self, tokens: &[(u16, u32)]) -> u64 {
        groups_of(tokens).into_iter().fold(0, |x, g| x ^ u64::from(group_value(&self.single, &self.pairs, g)))
    }
}

/// The claimed values for `instance` and every position its moves reach; an error once
/// stopped ([`PairTable::for_pairs`]: an analysis whose client left).
pub(super) fn claimed_values(instance: &Instance) -> Result<Values> {
    let single = node_grundy(&instance.dag);
    let starts = instance.groups().into_iter().filter_map(|g| if let Group::Pair(a, b) = g { Some((a, b)) } else { None });
    Ok(Values { pairs: PairTable::for_pairs(&instance.dag, &single, starts)?, single })
}

/// The tokens part of the contest input (K, then `node colour` lines, 1-based).
fn tokens_text(tokens: &[(u16, u32)]) -> String {
    let mut text = format!("{}\n", tokens.len());
    for &(v, c) in tokens {
        writeln!(text, "{} {c}", v + 1).expect("writing to a String");
    }
    text
}

/// Every move: the tokens it moves (one, or a stacked pair) and the node they reach.
pub(super) fn moves_of(instance: &Instance) -> Vec<(Vec<usize>, u16)> {
    let tokens = &instance.tokens;
    let mut out = Vec::new();
    for (i, &(v, c)) in tokens.iter().enumerate() {
        let stacked: Vec<usize> = (0..tokens.len()).filter(|&j| j != i && tokens[j] == (v, c)).collect();
        if stacked.iter().any(|&j| j < i) {
            continue; // moved with its partner, listed there
        }
        let movers: Vec<usize> = std::iter::once(i).chain(stacked).collect();
        out.extend(instance.dag.out(v as usize).iter().map(|&w| (movers.clone(), w)));
    }
    out
}

impl Explore for DagExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "dagame",
            title: "DAGame (BOJ 27306)".to_string(),
            view: View::Graph,
            format: format!(
                "The contest input: `N M` (N up to {MAX_NODES}, M up to {MAX_EDGES}), M edges `p q` (p < q), K, then K tokens `node colour` (at most two per colour; two on one node are stacked). The drawing adds `colours`, the colour of each token."
            ),
            example: "6 5\n1 2\n2 3\n4 5\n4 6\n5 6\n3\n1 1\n2 1\n4 2\n".to_string(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let instance = Instance::parse_input(SOURCE, position)?;
        let moves = moves_of(&instance);
        check_moves("dagame", moves.len() as u64)?;
        let full = instance.to_input();
        let graph = &full[..full.len() - tokens_text(&instance.tokens).len()];
        check_text("dagame", moves.len() as u64, full.len())?;
        let values = claimed_values(&instance)?;
        let mut listed = Vec::with_capacity(moves.len());
        for (movers, w) in moves {
            // Stopped once its client has left (`analyse_unless` then discards what it listed).
            if crate::impartial::stopped() {
                break;
            }
            let (v, c) = instance.tokens[movers[0]];
            let mut tokens = instance.tokens.clone();
            movers.iter().for_each(|&i| tokens[i].0 = w);
            let who: Vec<String> = movers.iter().map(|i| (i + 1).to_string()).collect();
            let noun = if movers.len() > 1 { "tokens" } else { "token" };
            let name = format!("{noun} {} (colour {c}): {} → {}", who.join("+"), v + 1, w + 1);
            let detail = json!({"tokens": movers.iter().map(|i| i + 1).collect::<Vec<_>>(), "from": v + 1, "to": w + 1});
            listed.push(move_info(name, format!("{graph}{}", tokens_text(&tokens)), Eval::grundy(values.of(&tokens)), detail));
        }
        let nodes: Vec<_> = (1..=instance.dag.nodes()).map(|v| json!({"id": v, "label": v.to_string()})).collect();
        let edges: Vec<[u16; 2]> = instance.dag.edge_list().into_iter().map(|(p, q)| [p + 1, q + 1]).collect();
        let drawing = json!({
            "nodes": nodes,
            "edges": edges,
            "tokens": instance.tokens.iter().map(|&(v, _)| v + 1).collect::<Vec<_>>(),
            "colours": instance.tokens.iter().map(|&(_, c)| c).collect::<Vec<_>>(),
        });
        Ok(analysis(full.clone(), Eval::grundy(values.of(&instance.tokens)), drawing, listed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    #[test]
    fn stacked_tokens_move_together() {
        // Chain 1 → 2 → 3, both tokens of colour 1 on node 1: one move, the pair to node 2.
        let analysis = explorer().analyse("3 2\n1 2\n2 3\n2\n1 1\n1 1\n").unwrap();
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["tokens 1+2 (colour 1): 1 → 2"]);
        assert_eq!(analysis.moves[0].position, "3 2\n1 2\n2 3\n2\n2 1\n2 1\n");
        assert_eq!((analysis.value, analysis.winner), (Some(0), Winner::Second), "a stack on node 1 is worth g(1) = 0");
        assert_eq!(analysis.drawing["tokens"], json!([1, 1]));
    }

    /// A client gone before its analysis began stops it: the pair values (an error, not a
    /// panic), as the listing of the moves once it has begun.
    #[test]
    fn a_client_that_left_cancels_the_analysis() {
        crate::game::explore::assert_cancellable(&*explorer(), &explorer().info().example);
    }

    #[test]
    fn the_contest_sample() {
        let analysis = explorer().analyse(&explorer().info().example).unwrap();
        assert_eq!(analysis.value.map(|v| v != 0), Some(super::super::claim::solve(&Instance::parse_input("t", &analysis.position).unwrap()) != 0));
        assert_eq!(analysis.drawing["edges"].as_array().unwrap().len(), 5);
    }
}
