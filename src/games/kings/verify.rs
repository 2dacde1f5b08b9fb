//! Verification of the kings' claim (Nim on A_i − 2) by retrograde analysis of every small set of bridges.
//!
//! Result files: `rows` = number of bridges, `cols` = the longest bridge of the set; one pattern
//! per (multiset of lengths, first player); distribution key `xs` = first player (0 White,
//! 1 Black), `grundy` = the claimed nim-sum (so `p_positions` counts claimed first-player
//! losses); `board` (mismatches) = `lengths first`, e.g. `3 5 Whiteking`, `dp_grundy` = claimed
//! nim-sum, `naive_outcome` = First, Second or Draw for the first player.
//! graphs.csv lists, per set of bridges, how many positions of the whole graph are wins, losses
//! and draws for the side to move.

use crate::runner::parallel::{par_run, record, rule_fields, rule_name};
use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use crate::games::kings::claim::Claim;
use crate::games::kings::retro::{Analysis, Value};
use crate::games::kings::{Game, Side};
use crate::output::csv::{write_csv, CsvRecord};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

pub const GAME: &str = "kings";
pub const EXHAUSTIVE: &str = "exhaustive";
/// Limits of the exhaustive runs (the graph of 4 bridges of 9 cells has 2·36⁴ ≈ 3.4M positions).
pub const MAX_SET_BRIDGES: usize = 4;
pub const MAX_SET_LENGTH: u64 = 9;
/// Name of the per-graph file.
pub const GRAPHS: &str = "graphs.csv";

/// The claim's CLI name.
pub fn claim_name(claim: Claim) -> &'static str {
    match claim {
        Claim::NimMinus2 => "nim-minus-2",
        Claim::NimMinus1 => "nim-minus-1",
    }
}

fn claim_of(name: Option<&str>) -> Result<Claim> {
    match name {
        None | Some("nim-minus-2") => Ok(Claim::NimMinus2),
        Some("nim-minus-1") => Ok(Claim::NimMinus1),
        Some(other) => Err(Error::Usage(format!("kings has no claim {other:?} (nim-minus-2 or nim-minus-1)"))),
    }
}

/// One row of graphs.csv: the whole position graph of one set of bridges.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GraphRow {
    pub game: String,
    pub rule: String,
    pub bridges: u32,
    /// Lengths, ascending, separated by spaces.
    pub lengths: String,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl CsvRecord for GraphRow {
    const HEADER: &'static [&'static str] = &["game", "rule", "bridges", "lengths", "positions", "wins", "losses", "draws"];
}

/// Every multiset of `bridges` lengths in 2..=max_length whose longest is exactly `longest`
/// (`None`: any), ascending.
pub fn length_sets(bridges: usize, max_length: u64, longest: Option<u64>) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..bridges {
        out = out
            .into_iter()
            .flat_map(|set: Vec<u64>| {
                let from = set.last().copied().unwrap_or(2);
                (from..=max_length).map(move |a| [set.clone(), vec![a]].concat())
            })
            .collect();
    }
    out.retain(|set| longest.is_none() || set.last().copied() == longest);
    out
}

/// A whole run: tallies and the graphs.csv rows.
pub struct KingsRun {
    pub results: RunResults,
    pub graphs: Vec<GraphRow>,
}

/// Every multiset of 1..=max_bridges lengths in 2..=max_length (or of exactly `only` =
/// (bridges, longest)), both first players, claim vs retrograde analysis, in parallel.
pub fn verify_sets(max_bridges: usize, max_length: u64, claim: Claim, only: Option<(u32, u32)>, progress: &(dyn Fn(u64) + Sync)) -> Result<KingsRun> {
    if !(1..=MAX_SET_BRIDGES).contains(&max_bridges) || !(2..=MAX_SET_LENGTH).contains(&max_length) {
        return Err(Error::Usage(format!(
            "kings runs take 1 to {MAX_SET_BRIDGES} bridges of 2 to {MAX_SET_LENGTH} cells, not {max_bridges} of up to {max_length}"
        )));
    }
    let rule = rule_name(EXHAUSTIVE, claim_name(claim), "nim-minus-2");
    let sets: Vec<Vec<u64>> = match only {
        Some((k, longest)) => length_sets(k as usize, longest.into(), Some(longest.into())),
        None => (1..=max_bridges).flat_map(|k| length_sets(k, max_length, None)).collect(),
    };
    let sizes: Vec<(u32, u32)> = match only {
        Some(size) => vec![size],
        None => (1..=max_bridges as u32).flat_map(|k| (2..=max_length as u32).map(move |l| (k, l))).collect(),
    };
    let graphs = Mutex::new(Vec::new());
    let results = par_run(GAME, &rule, &sizes, sets.len() as u64, 1, progress, |indices, part| {
        for index in indices {
            let row = check_set(&sets[index as usize], claim, part);
            graphs.lock().expect("no panics while holding the lock").push(GraphRow { rule: rule.clone(), ..row });
        }
    });
    let mut graphs = graphs.into_inner().expect("no panics while holding the lock");
    graphs.sort();
    Ok(KingsRun { results, graphs })
}

/// Analyses one set of bridges and checks both first players.
fn check_set(lengths: &[u64], claim: Claim, results: &mut RunResults) -> GraphRow {
    let analysis = Analysis::new(lengths).expect("exhaustive sets fit the analysis");
    let size = (lengths.len() as u32, *lengths.last().expect("non-empty") as u32);
    let shown: Vec<String> = lengths.iter().map(u64::to_string).collect();
    for first in [Side::White, Side::Black] {
        let game = Game { lengths: lengths.to_vec(), first };
        let nim_sum = claim.nim_sum(lengths) as u32;
        let truth = analysis.start(first);
        let claimed = if claim.winner(&game) == first { Value::Win } else { Value::Loss };
        let outcome = match truth {
            Value::Win => "First",
            Value::Loss => "Second",
            Value::Draw => "Draw",
        };
        let mismatch = (claimed != truth).then(|| (format!("{} {}", shown.join(" "), first.name()), nim_sum, None, outcome));
        record(results, size, (first as u32, nim_sum), mismatch);
    }
    let (wins, losses, draws) = analysis.counts();
    GraphRow {
        game: GAME.into(),
        rule: String::new(),
        bridges: lengths.len() as u32,
        lengths: shown.join(" "),
        positions: wins + losses + draws,
        wins,
        losses,
        draws,
    }
}

/// Recomputes one summary row (`rows` bridges, longest bridge `cols`) of a committed run named
/// `rule` (`exhaustive`, optionally `:claim=NAME`), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let claim = claim_of(fields.get("claim").copied())?;
    if kind != EXHAUSTIVE {
        return Err(Error::Usage(format!("kings has no rule {rule:?}")));
    }
    Ok(verify_sets(rows as usize, cols.into(), claim, Some((rows, cols)), &|_| {})?.results)
}

/// Writes graphs.csv into `dir`; returns its name (for the manifest).
pub fn write_graphs(dir: &Path, graphs: &[GraphRow]) -> Result<&'static str> {
    write_csv(&dir.join(GRAPHS), graphs)?;
    Ok(GRAPHS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_multisets() {
        // Lengths 2..=4: 3 singles, C(4, 2) = 6 pairs; pairs with longest 4: {2,4},{3,4},{4,4}.
        assert_eq!(length_sets(1, 4, None).len(), 3);
        assert_eq!(length_sets(2, 4, None).len(), 6);
        assert_eq!(length_sets(2, 4, Some(4)).len(), 3);
    }

    #[test]
    fn claim_holds_and_wrong_claim_fails() {
        let run = verify_sets(2, 5, Claim::NimMinus2, None, &|_| {}).unwrap();
        assert!(run.results.all_agree(), "{:?}", run.results.mismatches);
        assert_eq!(run.graphs.len(), 4 + 10);
        let wrong = verify_sets(2, 5, Claim::NimMinus1, None, &|_| {}).unwrap();
        assert!(!wrong.results.all_agree());
        let size = recompute_size("exhaustive", 2, 4).unwrap();
        assert_eq!(size.sizes[&(2, 4)], run.results.sizes[&(2, 4)]);
    }
}
