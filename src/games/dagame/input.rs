//! DAGame input: the contest format (`N M`, M edges, `K`, K tokens) and a compact one-line form.

use super::{Dag, Instance, MAX_EDGES, MAX_NODES};
use crate::error::{Error, Result};
use crate::input::Scanner;
use std::fmt::Write;

impl Instance {
    /// Parses the contest input (1-based nodes and colours), reporting line:col on any error.
    pub fn parse_input(source_name: &str, text: &str) -> Result<Instance> {
        let mut s = Scanner::new(source_name, text);
        if s.at_end() {
            return Err(s.error_at(1, 1, "empty input: expected a line `N M`"));
        }
        let n: usize = s.number("N (number of nodes)", 2, MAX_NODES)?;
        let m: usize = s.number("M (number of edges)", 1, MAX_EDGES)?;
        let mut edges = Vec::with_capacity(m);
        for i in 1..=m {
            let p_tok = peek_position(&mut s);
            let p: u16 = s.number(&format!("start node p of edge {i}"), 1, n as u16)?;
            let q: u16 = s.number(&format!("end node q of edge {i}"), 1, n as u16)?;
            if p >= q {
                return Err(s.error_at(
                    p_tok.0,
                    p_tok.1,
                    format!("edge {i} goes {p} -> {q}; every edge must go from a lower to a higher node (p < q)"),
                ));
            }
            edges.push((p - 1, q - 1));
        }
        let k: usize = s.number("K (number of tokens)", 1, 2 * n)?;
        let mut tokens = Vec::with_capacity(k);
        let mut seen: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for i in 1..=k {
            let v: u16 = s.number(&format!("node of token {i}"), 1, n as u16)?;
            let c_pos = peek_position(&mut s);
            let c: u32 = s.number(&format!("colour of token {i}"), 1, n as u32)?;
            let earlier = &mut seen[c as usize];
            if earlier.len() == 2 {
                return Err(s.error_at(
                    c_pos.0,
                    c_pos.1,
                    format!("token {i} is a third token of colour {c} (tokens {} and {} have it already)", earlier[0], earlier[1]),
                ));
            }
            earlier.push(i);
            tokens.push((v - 1, c));
        }
        if !s.at_end() {
            let (line, col) = s.position();
            return Err(s.error_at(line, col, format!("extra input after the {k} tokens")));
        }
        Ok(Instance { dag: Dag::new(n, &edges), tokens })
    }

    /// The contest input text of this instance (1-based).
    pub fn to_input(&self) -> String {
        let edges = self.dag.edge_list();
        let mut text = format!("{} {}\n", self.dag.nodes(), edges.len());
        for (p, q) in edges {
            writeln!(text, "{} {}", p + 1, q + 1).expect("writing to a String");
        }
        writeln!(text, "{}", self.tokens.len()).expect("writing to a String");
        for &(v, c) in &self.tokens {
            writeln!(text, "{} {c}", v + 1).expect("writing to a String");
        }
        text
    }

    /// One line, 1-based: `N|p-q,p-q,...|v:c,v:c,...`, e.g. `3|1-2,2-3|1:1,3:1`.
    pub fn to_compact(&self) -> String {
        let edges: Vec<String> = self.dag.edge_list().iter().map(|(p, q)| format!("{}-{}", p + 1, q + 1)).collect();
        let tokens: Vec<String> = self.tokens.iter().map(|(v, c)| format!("{}:{c}", v + 1)).collect();
        format!("{}|{}|{}", self.dag.nodes(), edges.join(","), tokens.join(","))
    }

    /// Reads the form written by [`Instance::to_compact`] (edges may be empty here).
    pub fn from_compact(text: &str) -> Result<Instance> {
        let bad = |why: &str| Error::Usage(format!("invalid DAGame position {}: {why}", crate::input::quoted(text)));
        let mut parts = text.trim().split('|');
        let (Some(n), Some(e), Some(t), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return Err(bad("expected N|edges|tokens"));
        };
        let n: usize = n.parse().ok().filter(|n| (1..=MAX_NODES).contains(n)).ok_or_else(|| bad("node count"))?;
        let node = |s: &str| -> Result<u16> {
            s.parse::<u16>().ok().filter(|&v| v >= 1 && v as usize <= n).map(|v| v - 1).ok_or_else(|| bad("node"))
        };
        let mut edges = Vec::new();
        for pair in e.split(',').filter(|s| !s.is_empty()) {
            let (p, q) = pair.split_once('-').ok_or_else(|| bad("edge p-q"))?;
            let (p, q) = (node(p)?, node(q)?);
            if p >= q {
                return Err(bad("edge not from lower to higher node"));
            }
            edges.push((p, q));
        }
        let mut tokens = Vec::new();
        for tok in t.split(',').filter(|s| !s.is_empty()) {
            let (v, c) = tok.split_once(':').ok_or_else(|| bad("token v:c"))?;
            let c: u32 = c.parse().ok().filter(|&c| c >= 1).ok_or_else(|| bad("colour"))?;
            if tokens.iter().filter(|&&(_, d)| d == c).count() == 2 {
                return Err(bad("third token of a colour"));
            }
            tokens.push((node(v)?, c));
        }
        Ok(Instance { dag: Dag::new(n, &edges), tokens })
    }
}

/// The 1-based position of the next token (or of the end of input).
fn peek_position(s: &mut Scanner<'_>) -> (usize, usize) {
    s.skip_blank();
    s.position()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Instance::parse_input("in", text).unwrap_err().to_string()
    }

    #[test]
    fn parses_and_round_trips() {
        let inst = Instance::parse_input("in", "3 3\n1 2\n2 3\n1 2\n2\n1 1\n3 1\n").unwrap();
        assert_eq!(inst.dag.edges(), 2, "repeated edge counted once");
        assert_eq!(inst.tokens, vec![(0, 1), (2, 1)]);
        assert_eq!(inst.to_compact(), "3|1-2,2-3|1:1,3:1");
        assert_eq!(Instance::from_compact(&inst.to_compact()).unwrap(), inst);
        assert_eq!(Instance::parse_input("again", &inst.to_input()).unwrap(), inst);
    }

    #[test]
    fn rejects_bad_input_with_position() {
        assert_eq!(err("3 1\n2 2\n1\n1 1\n"), "in:2:1: edge 1 goes 2 -> 2; every edge must go from a lower to a higher node (p < q)");
        assert_eq!(err("3 1\n1 4\n1\n1 1\n"), "in:2:3: end node q of edge 1 must be between 1 and 3, found 4");
        assert_eq!(
            err("3 1\n1 2\n3\n1 1\n2 1\n3 1\n"),
            "in:6:3: token 3 is a third token of colour 1 (tokens 1 and 2 have it already)"
        );
        assert_eq!(err("3 1\n1 2\n1\n1 1\n9\n"), "in:5:1: extra input after the 1 tokens");
        assert_eq!(err("3 1\n1 2\n"), "in:2:4: expected K (number of tokens), found end of input");
        assert_eq!(err(""), "in:1:1: empty input: expected a line `N M`");
    }

    #[test]
    fn compact_rejects_garbage() {
        assert!(Instance::from_compact("3|2-1|1:1").is_err());
        assert!(Instance::from_compact("3||1:1,2:1,3:1").is_err());
        assert!(Instance::from_compact("3|1-2").is_err());
    }
}
