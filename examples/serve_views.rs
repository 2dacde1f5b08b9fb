//! `sprague serve` with three tiny test-only games, one per view the wall does not use (heaps,
//! graph, text), so that the page's other views can be tried and tested in a browser before
//! the real games' explorers exist: `cargo run --release --example serve_views -- PORT`.
//!
//! - `demo-heaps`: Nim (`3 4 5`: heap sizes); a move takes any number from one heap.
//! - `demo-graph`: tokens on a fixed DAG (`0 2`: the nodes holding a token); a move slides
//!   one token along an edge.
//! - `demo-text`: the subtraction game {1, 2} on one heap (`7`).

use serde_json::json;
use sprague::game::explore::{Analysis, Explore, GameInfo, MoveInfo, View, Winner};
use sprague::{Error, Result};

/// The DAG of `demo-graph`: edges (from, to), nodes 0..7.
const EDGES: &[(usize, usize)] = &[(0, 1), (0, 2), (1, 3), (2, 3), (2, 4), (3, 5), (4, 5), (4, 6), (1, 6)];
const NODES: usize = 7;

fn numbers(position: &str, what: &str) -> Result<Vec<usize>> {
    position.split_whitespace().enumerate().map(|(i, t)| t.parse().map_err(|_| Error::Input { source_name: "position".into(), line: 1, col: i + 1, message: format!("{what} {} is not a number: {t:?}", i + 1) })).collect()
}

fn analysis(position: String, value: u64, drawing: serde_json::Value, moves: Vec<(String, String, u64)>) -> Analysis {
    let moves = moves.into_iter().map(|(name, position, value)| MoveInfo { name, position, value: Some(value), winning: value == 0, detail: json!({}) }).collect();
    Analysis { position, value: Some(value), winner: Winner::of_value(value), drawing, moves }
}

fn info(name: &'static str, title: &str, view: View, format: &str, example: &str) -> GameInfo {
    GameInfo { name, title: title.into(), view, format: format.into(), example: example.into(), grundy: true }
}

struct Heaps;

impl Explore for Heaps {
    fn info(&self) -> GameInfo {
        info("demo-heaps", "Demo: Nim (heaps)", View::Heaps, "Heap sizes separated by spaces.", "3 4 5")
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let heaps = numbers(position, "heap")?;
        let text = |h: &[usize]| h.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
        let value = heaps.iter().fold(0, |x, &n| x ^ n as u64);
        let mut moves = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            for take in 1..=n {
                let mut after = heaps.clone();
                after[i] -= take;
                moves.push((format!("heap {}: take {take}", i + 1), text(&after), value ^ n as u64 ^ after[i] as u64));
            }
        }
        Ok(analysis(text(&heaps), value, json!({ "heaps": heaps }), moves))
    }
}

struct Graph;

fn node_value(node: usize) -> u64 {
    let options: Vec<u64> = EDGES.iter().filter(|e| e.0 == node).map(|e| node_value(e.1)).collect();
    (0..).find(|v| !options.contains(v)).unwrap()
}

impl Explore for Graph {
    fn info(&self) -> GameInfo {
        info("demo-graph", "Demo: tokens on a DAG (graph)", View::Graph, "The nodes (0–6) holding a token, separated by spaces.", "0 2")
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let tokens = numbers(position, "token")?;
        if let Some(i) = tokens.iter().position(|&t| t >= NODES) {
            return Err(Error::Input { source_name: "position".into(), line: 1, col: i + 1, message: format!("no node {}", tokens[i]) });
        }
        let text = |t: &[usize]| t.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
        let value = tokens.iter().fold(0, |x, &t| x ^ node_value(t));
        let mut moves = Vec::new();
        for (i, &t) in tokens.iter().enumerate() {
            for &(_, to) in EDGES.iter().filter(|e| e.0 == t) {
                let mut after = tokens.clone();
                after[i] = to;
                moves.push((format!("{t}→{to}"), text(&after), value ^ node_value(t) ^ node_value(to)));
            }
        }
        let nodes: Vec<_> = (0..NODES).map(|n| json!({ "id": n, "label": n.to_string() })).collect();
        Ok(analysis(text(&tokens), value, json!({ "nodes": nodes, "edges": EDGES.iter().map(|e| [e.0, e.1]).collect::<Vec<_>>(), "tokens": tokens }), moves))
    }
}

struct Text;

impl Explore for Text {
    fn info(&self) -> GameInfo {
        info("demo-text", "Demo: subtraction {1, 2} (text)", View::Text, "One heap size.", "7")
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let n = match numbers(position, "heap")?[..] {
            [n] => n,
            _ => return Err(Error::Input { source_name: "position".into(), line: 1, col: 1, message: "one heap size".into() }),
        };
        let moves = (1..=2.min(n)).map(|k| (format!("take {k}"), (n - k).to_string(), ((n - k) % 3) as u64)).collect();
        Ok(analysis(n.to_string(), (n % 3) as u64, json!({ "text": format!("a heap of {n}") }), moves))
    }
}

fn main() -> Result<()> {
    let port = std::env::args().nth(1).map_or(Ok(0), |p| p.parse()).map_err(|e| Error::Usage(format!("PORT: {e}")))?;
    let explorers: Vec<Box<dyn Explore>> = vec![Box::new(Heaps), Box::new(Graph), Box::new(Text)];
    let options = sprague::serve::Options::new(port, sprague::games::explorers().into_iter().chain(explorers).collect());
    sprague::serve::serve(options, |address| eprintln!("serve_views: listening on http://{address}/"))
}
