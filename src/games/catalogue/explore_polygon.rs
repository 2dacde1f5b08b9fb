//! What `sprague serve` shows of the polygon game: an N-gon with the chords drawn so far, its
//! free vertices split into regions (each an independent smaller polygon: the octal game 0.07).

use super::polygon::{claimed_values, crosses, MAX_N, MIN_N};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, check_text, move_info, Eval, SOURCE};
use crate::input::Scanner;
use serde_json::json;
use std::collections::BTreeMap;

pub fn explorer() -> Box<dyn Explore> {
    Box::new(PolygonExplorer)
}

struct PolygonExplorer;

/// A polygon of `n` vertices (0-based here) with chords (a < b) that neither cross nor touch.
struct Drawn {
    n: u32,
    chords: Vec<(u32, u32)>,
}

impl Drawn {
    /// Reads N, then chords `A B` (1-based) up to the end; each must join two vertices no
    /// earlier chord uses and cross none.
    fn parse(text: &str) -> Result<Drawn> {
        let mut s = Scanner::new(SOURCE, text);
        let n = s.number::<u32>("N (number of vertices)", MIN_N, MAX_N)?;
        let mut chords: Vec<(u32, u32)> = Vec::new();
        while !s.at_end() {
            let i = chords.len() + 1;
            let (line, col) = s.position();
            let a = s.number::<u32>(&format!("first vertex of chord {i}"), 1, n)? - 1;
            let b = s.number::<u32>(&format!("second vertex of chord {i}"), 1, n)? - 1;
            let chord = (a.min(b), a.max(b));
            let used = |v: u32| chords.iter().any(|&(p, q)| p == v || q == v);
            let why = if a == b {
                Some("joins a vertex to itself".to_string())
            } else if used(a) || used(b) {
                Some("touches an earlier chord (a vertex may end one chord only)".to_string())
            } else {
                chords.iter().find(|&&c| crosses(c, chord)).map(|&(p, q)| format!("crosses chord {}–{}", p + 1, q + 1))
            };
            if let Some(why) = why {
                return Err(s.error_at(line, col, format!("chord {i} ({}–{}) {why}", a + 1, b + 1)));
            }
            chords.push(chord);
        }
        chords.sort_unstable();
        Ok(Drawn { n, chords })
    }

    fn text(&self) -> String {
        let lines: String = self.chords.iter().map(|&(a, b)| format!("{} {}\n", a + 1, b + 1)).collect();
        format!("{}\n{lines}", self.n)
    }

    /// The free vertices grouped by region (the chords on the same side), each ascending,
    /// regions in order of their first vertex.
    fn regions(&self) -> Vec<Vec<u32>> {
        let used = |v: u32| self.chords.iter().any(|&(a, b)| a == v || b == v);
        let mut by_side: BTreeMap<Vec<bool>, Vec<u32>> = BTreeMap::new();
        for v in (0..self.n).filter(|&v| !used(v)) {
            let side: Vec<bool> = self.chords.iter().map(|&(a, b)| a < v && v < b).collect();
            by_side.entry(side).or_default().push(v);
        }
        let mut regions: Vec<Vec<u32>> = by_side.into_values().collect();
        regions.sort_unstable();
        regions
    }
}

impl Explore for PolygonExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "polygon",
            title: "Polygon chords (Dawson's Kayles, 0.07)".to_string(),
            view: View::Heaps,
            format: format!(
                "N ({MIN_N} to {MAX_N}, the contest input without coordinates), then the chords drawn so far, one per line as two vertex numbers `A B` (1 to N around the polygon). The heaps drawn are the regions' free vertices."
            ),
            example: "8\n".to_string(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let drawn = Drawn::parse(position)?;
        let regions = drawn.regions();
        let sizes: Vec<u64> = regions.iter().map(|r| r.len() as u64).collect();
        let count = sizes.iter().map(|&k| k * k.saturating_sub(1) / 2).sum();
        check_moves("polygon", count)?;
        check_text("polygon", count, drawn.text().len() + 10)?;
        let g = claimed_values(drawn.n)?;
        let value = sizes.iter().fold(0u64, |x, &k| x ^ u64::from(g[k as usize]));
        let mut moves = Vec::new();
        // Up to 10,000 moves, each a copy of the position (0.3 s at the limits): the listing
        // stops once its client has left (`analyse_unless` then discards it).
        'regions: for (r, region) in regions.iter().enumerate() {
            let k = region.len();
            for i in 0..k {
                for j in i + 1..k {
                    if crate::impartial::stopped() {
                        break 'regions;
                    }
                    let (inside, outside) = (j - i - 1, k - 2 - (j - i - 1));
                    let after = value ^ u64::from(g[k] ^ g[inside] ^ g[outside]);
                    let (a, b) = (region[i], region[j]);
                    let mut next = Drawn { n: drawn.n, chords: drawn.chords.clone() };
                    next.chords.push((a, b));
                    next.chords.sort_unstable();
                    let detail = json!({"chord": [a + 1, b + 1], "region": r + 1, "parts": [inside, outside]});
                    moves.push(move_info(format!("chord {}–{}", a + 1, b + 1), next.text(), Eval::grundy(after), detail));
                }
            }
        }
        let chords: Vec<[u32; 2]> = drawn.chords.iter().map(|&(a, b)| [a + 1, b + 1]).collect();
        let listed: Vec<Vec<u32>> = regions.iter().map(|r| r.iter().map(|v| v + 1).collect()).collect();
        let drawing = json!({"heaps": sizes, "vertices": drawn.n, "chords": chords, "regions": listed});
        Ok(analysis(drawn.text(), Eval::grundy(value), drawing, moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn chords_split_the_free_vertices_into_regions() {
        let analysis = explorer().analyse("8\n2 5\n").unwrap();
        // Vertices 3, 4 inside the chord 2–5; 1, 6, 7, 8 outside.
        assert_eq!(analysis.drawing["heaps"], json!([4, 2]));
        assert_eq!(analysis.drawing["regions"], json!([[1, 6, 7, 8], [3, 4]]));
        // g(4) ^ g(2) = 2 ^ 1 (A002187).
        assert_eq!(analysis.value, Some(3));
        assert_eq!(analysis.moves.len(), 6 + 1);
    }

    #[test]
    fn bad_chords_are_located() {
        let err = |t: &str| match explorer().analyse(t).unwrap_err() {
            e @ Error::Input { .. } => e.to_string(),
            other => panic!("{other}"),
        };
        assert_eq!(err("6\n1 4\n2 5\n"), "position:3:1: chord 2 (2–5) crosses chord 1–4");
        assert_eq!(err("6\n1 4\n4 5\n"), "position:3:1: chord 2 (4–5) touches an earlier chord (a vertex may end one chord only)");
        assert_eq!(err("6\n1 7\n"), "position:2:3: second vertex of chord 1 must be between 1 and 6, found 7");
    }

    /// A client gone before its analysis began stops it: the values (an error, not a panic),
    /// as the listing of the moves once it has begun.
    #[test]
    fn a_client_that_left_cancels_the_analysis() {
        crate::game::explore::assert_cancellable(&*explorer(), "8\n2 5\n");
    }
}
