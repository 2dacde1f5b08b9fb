//! What `sprague serve` shows of Grundy's game: a row of heaps (the contest input), every
//! split of every heap into two unequal heaps.

use super::claim::Claim;
use super::{parse_input, splits, MAX_HEAP, MAX_HEAPS};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analyse_heaps, counted_heaps, xor_of, Eval, HeapMove, HeapRules, SOURCE};

pub fn explorer() -> Box<dyn Explore> {
    Box::new(GrundyExplorer)
}

struct GrundyExplorer;

/// The one-heap values up to the position's largest heap.
struct Rules {
    g: Vec<u16>,
}

impl HeapRules for Rules {
    fn game(&self) -> &str {
        "grundy"
    }

    fn count(&self, n: u64) -> u64 {
        splits(n as u16).count() as u64
    }

    fn moves(&self, n: u64) -> Vec<HeapMove> {
        splits(n as u16).map(|(a, b)| HeapMove { name: format!("split {n} into {a}+{b}"), parts: vec![u64::from(a), u64::from(b)] }).collect()
    }

    fn eval(&self, heaps: &[u64]) -> Eval {
        xor_of(heaps, |n| u64::from(self.g[n as usize]))
    }

    fn text(&self, heaps: &[u64]) -> String {
        counted_heaps(heaps)
    }

    fn max_heaps(&self) -> usize {
        MAX_HEAPS
    }
}

impl Explore for GrundyExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "grundy",
            title: "Grundy's game (split a heap into two unequal heaps)".to_string(),
            view: View::Heaps,
            format: format!("The contest input: n (1 to {MAX_HEAPS}), then n heaps (1 to {MAX_HEAP})."),
            example: "2\n5 7\n".to_string(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let heaps = parse_input(SOURCE, position)?;
        let rules = Rules { g: Claim::Xor.values(heaps.iter().copied().max().unwrap_or(0))? };
        analyse_heaps(&rules, &heaps.iter().map(|&h| u64::from(h)).collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client gone before its analysis began stops the one-heap values (an error, not a panic).
    #[test]
    fn a_client_that_left_cancels_the_values() {
        crate::game::explore::assert_cancellable(&*explorer(), "2\n3 5\n");
    }

    #[test]
    fn splits_and_values() {
        let analysis = explorer().analyse("2\n3 5\n").unwrap();
        // g(3) = 1, g(5) = 2: value 3; splitting 5 into 1+4 leaves g(3) ^ g(1) ^ g(4) = 1 ^ 0 ^ 0.
        assert_eq!(analysis.value, Some(3));
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["heap 1: split 3 into 1+2", "heap 2: split 5 into 1+4", "heap 2: split 5 into 2+3"]);
        assert_eq!((analysis.moves[1].position.as_str(), analysis.moves[1].value), ("3\n3 1 4\n", Some(1)));
    }
}
