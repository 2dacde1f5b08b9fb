//! What `sprague serve` shows of a take-and-break game: its code and a row of heaps (the
//! contest input of `solve octal`), every move the code allows on every heap.

use super::code::{Code, NONE, ONE, THREE, TWO};
use super::values::{pair_top, values, Method};
use super::{parse_position, MAX_HEAPS, MAX_HEAP, MAX_HEAP_THREE};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analyse_heaps, check_moves, counted_heaps, xor_of, Eval, HeapMove, HeapRules, SOURCE};
use serde_json::{json, Value};

pub fn explorer() -> Box<dyn Explore> {
    Box::new(OctalExplorer)
}

struct OctalExplorer;

/// One position's code and the one-heap values up to its largest heap.
struct Rules {
    code: Code,
    g: Vec<u16>,
}

/// Partitions of m into exactly three positive parts (A069905: round(m²/12)).
fn three_parts(m: u64) -> u64 {
    (m * m + 6) / 12
}

impl HeapRules for Rules {
    fn game(&self) -> &str {
        "octal"
    }

    /// What [`Code::options`] lists, counted without listing it.
    fn count(&self, n: u64) -> u64 {
        let digits = self.code.digits.iter().enumerate().take(n as usize + 1);
        digits
            .map(|(k, &d)| {
                let m = n - k as u64;
                u64::from(d & NONE != 0 && m == 0 && k > 0)
                    + u64::from(d & ONE != 0 && m >= 1 && k > 0)
                    + if d & TWO != 0 { pair_top(m as usize, self.code.unequal) as u64 } else { 0 }
                    + if d & THREE != 0 { three_parts(m) } else { 0 }
            })
            .sum()
    }

    fn moves(&self, n: u64) -> Vec<HeapMove> {
        let options = self.code.options(n as usize);
        options.into_iter().map(|parts| heap_move(n, parts.into_iter().map(|p| p as u64).collect())).collect()
    }

    fn eval(&self, heaps: &[u64]) -> Eval {
        xor_of(heaps, |n| u64::from(self.g[n as usize]))
    }

    fn text(&self, heaps: &[u64]) -> String {
        format!("{}\n{}", self.code, counted_heaps(heaps))
    }

    fn max_heaps(&self) -> usize {
        MAX_HEAPS
    }

    fn extra(&self) -> Value {
        json!({"code": self.code.to_string()})
    }
}

/// The move that leaves `parts` of a heap of `n`, named by the tokens it takes and the split.
fn heap_move(n: u64, parts: Vec<u64>) -> HeapMove {
    let taken = n - parts.iter().sum::<u64>();
    let split: Vec<String> = parts.iter().map(u64::to_string).collect();
    let name = match (taken, parts.len()) {
        (_, 0 | 1) => format!("take {taken}"),
        (0, _) => format!("split into {}", split.join("+")),
        _ => format!("take {taken}, split into {}", split.join("+")),
    };
    HeapMove { name, parts }
}

impl Explore for OctalExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "octal",
            title: "Take-and-break games (octal codes)".to_string(),
            view: View::Heaps,
            format: format!(
                "The contest input of `solve octal`: the code (0.07, 4.07, 0x0.8, {{1,3,4}}, grundy) on the first line, n (0 to {MAX_HEAPS}; 0 once every heap is gone) on the second, then n heaps (1 to {MAX_HEAP}; {MAX_HEAP_THREE} for codes with three-heap moves). The drawing adds `code`."
            ),
            example: "0.07\n2\n5 8\n".to_string(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let input = parse_position(SOURCE, position, 0)?;
        let heaps: Vec<u64> = input.heaps.iter().map(|&h| h as u64).collect();
        let mut rules = Rules { code: input.code, g: Vec::new() };
        // Refused before the values are computed (plain mex of three-heap codes is slow).
        check_moves("octal", heaps.iter().map(|&n| rules.count(n)).sum())?;
        rules.g = values(&rules.code, input.heaps.iter().copied().max().unwrap_or(0), Method::Sparse)?;
        analyse_heaps(&rules, &heaps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_listed_options() {
        for code in ["0.07", "4.07", "0x0.8", "0x0.f7", "{1,3,4}", "grundy", "0.165", "4.4"] {
            let rules = Rules { code: Code::parse(code).unwrap(), g: Vec::new() };
            for n in 0..40 {
                assert_eq!(rules.count(n), rules.code.options(n as usize).len() as u64, "{code}, heap {n}");
            }
        }
    }

    #[test]
    fn moves_are_named_by_what_they_take_and_leave() {
        let analysis = explorer().analyse("0.07\n1\n5\n").unwrap();
        let names: Vec<&str> = analysis.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["heap 1: take 2", "heap 1: take 2, split into 1+2"]);
        assert_eq!(analysis.moves[1].position, "0.07\n2\n1 2\n");
        assert_eq!(analysis.drawing["code"], "0.07");
        let names: Vec<String> = explorer().analyse("grundy\n1\n7\n").unwrap().moves.into_iter().map(|m| m.name).collect();
        assert_eq!(names, ["heap 1: split into 1+6", "heap 1: split into 2+5", "heap 1: split into 3+4"]);
    }
}
