//! Verification of the kings' claim (Nim on A_i − 2) by retrograde analysis of every small set of bridges.
//!
//! Result files: `rows` = number of bridges, `cols` = the longest bridge of the set; one pattern
//! per (multiset of lengths, first player); distribution key `xs` = first player (0 White,
//! 1 Black), `grundy` = the claimed nim-sum (so `p_positions` counts claimed first-player
//! losses); `board` (mismatches) = `lengths first`, e.g. `3 5 Whiteking`, `dp_grundy` = claimed
//! nim-sum, `naive_outcome` = First, Second or Draw for the first player.
//! graphs.csv lists, per set of bridges, how many positions of the whole graph are wins, losses
//! and draws for the side to move.

use crate::runner::rule::{rule_fields, Claims};
use crate::runner::{run_in_memory, Disagreement, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::ops::Range;
use crate::error::{Error, Result};
use super::claim::Claim;
use super::retro::{Analysis, Value};
use super::{Game, Side};
use crate::output::csv::{from_csv_line, to_csv_line, write_csv, CsvRecord};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const GAME: &str = "kings";
pub const EXHAUSTIVE: &str = "exhaustive";
/// Limits of the exhaustive runs (the graph of 4 bridges of 9 cells has 2·36⁴ ≈ 3.4M positions).
pub const MAX_SET_BRIDGES: usize = 4;
pub const MAX_SET_LENGTH: u64 = 9;
/// Name of the per-graph file.
pub const GRAPHS: &str = "graphs.csv";

/// The claims `verify kings` can test.
pub const CLAIMS: Claims<Claim> = Claims { game: GAME, variants: &[("nim-minus-2", Claim::NimMinus2), ("nim-minus-1", Claim::NimMinus1)] };

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

/// A kings verification: every multiset of 1..=max_bridges lengths in 2..=max_length (or of
/// exactly `only` = (bridges, longest)), both first players, claim vs retrograde analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingsRun {
    pub max_bridges: usize,
    pub max_length: u64,
    pub claim: Claim,
    pub only: Option<(u32, u32)>,
}

impl KingsRun {
    pub fn new(max_bridges: usize, max_length: u64, claim: Claim) -> Result<KingsRun> {
        if !(1..=MAX_SET_BRIDGES).contains(&max_bridges) || !(2..=MAX_SET_LENGTH).contains(&max_length) {
            return Err(Error::Usage(format!(
                "kings runs take 1 to {MAX_SET_BRIDGES} bridges of 2 to {MAX_SET_LENGTH} cells, not {max_bridges} of up to {max_length}"
            )));
        }
        Ok(KingsRun { max_bridges, max_length, claim, only: None })
    }

    /// The sets of job `index` (bridge count `index + 1`, or the one size of `only`).
    fn sets(&self, index: usize) -> Vec<Vec<u64>> {
        match self.only {
            Some((k, longest)) => length_sets(k as usize, longest.into(), Some(longest.into())),
            None => length_sets(index + 1, self.max_length, None),
        }
    }
}

impl Verification for KingsRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::commands::COLUMNS
    }

    fn rule(&self) -> String {
        CLAIMS.rule(EXHAUSTIVE, self.claim)
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(match self.only {
            Some(size) => vec![Job::new(format!("{}x{}", size.0, size.1), vec![size], self.sets(0).len() as u64, 1)],
            None => (1..=self.max_bridges)
                .map(|k| {
                    let sizes = (2..=self.max_length as u32).map(|l| (k as u32, l)).collect();
                    Job::new(format!("bridges={k}"), sizes, self.sets(k - 1).len() as u64, 1)
                })
                .collect(),
        })
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let (sets, claim) = (self.sets(index), self.claim);
        Ok(Box::new(move |indices: Range<u64>, part: &mut RunResults| {
            for index in indices {
                let row = check_set(&sets[index as usize], claim, part);
                part.extra_rows.push(to_csv_line(&GraphRow { rule: part.rule.clone(), ..row }));
            }
        }))
    }

    fn parameters(&self) -> BTreeMap<String, Json> {
        BTreeMap::from([
            ("max_bridges".to_string(), self.max_bridges.into()),
            ("max_length".to_string(), self.max_length.into()),
        ])
    }

    fn notes(&self, results: &RunResults) -> Vec<String> {
        let graphs = graph_rows(results).unwrap_or_default();
        let draws: u64 = graphs.iter().map(|g| g.draws).sum();
        let positions: u64 = graphs.iter().map(|g| g.positions).sum();
        vec![
            "rows = bridges, cols = longest bridge; one pattern per (set of lengths, first player); xs = first player (0 White, 1 Black), grundy = claimed nim-sum".to_string(),
            format!("brute force: retrograde analysis of the whole position graph (draws allowed); graphs.csv: {positions} positions, {draws} draws"),
        ]
    }

    fn write_extra(&self, dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
        write_csv(&dir.join(GRAPHS), &graph_rows(results)?)?;
        Ok(vec![GRAPHS])
    }
}

/// The graphs.csv rows kept in `results`, sorted.
pub fn graph_rows(results: &RunResults) -> Result<Vec<GraphRow>> {
    let mut rows = results.extra_rows.iter().map(|line| from_csv_line::<GraphRow>(line)).collect::<Result<Vec<_>>>()?;
    rows.sort();
    Ok(rows)
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
        let failed = (claimed != truth).then(|| Disagreement {
            position: format!("{} {}", shown.join(" "), first.name()),
            claimed: nim_sum,
            naive_value: None,
            naive_outcome: match truth {
                Value::Win => "First",
                Value::Loss => "Second",
                Value::Draw => "Draw",
            },
            answer: None,
        });
        results.check(size, (first as u32, nim_sum), failed);
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

/// Every set of 1..=max_bridges bridges of 2..=max_length cells, checked in this process.
pub fn verify_sets(max_bridges: usize, max_length: u64, claim: Claim) -> Result<RunResults> {
    run_in_memory(&Plan::new(&KingsRun::new(max_bridges, max_length, claim)?, Shard::ALL)?, &Silent)
}

/// Every set of `rows` bridges with longest `cols`, checked in this process.
pub fn verify_size(rows: u32, cols: u32, claim: Claim) -> Result<RunResults> {
    let run = KingsRun { only: Some((rows, cols)), ..KingsRun::new(rows as usize, cols.into(), claim)? };
    run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
}

/// Recomputes one summary row (`rows` bridges, longest bridge `cols`) of a committed run named
/// `rule` (`exhaustive`, optionally `:claim=NAME`), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let claim = CLAIMS.of(fields.get("claim").copied())?;
    if kind != EXHAUSTIVE {
        return Err(Error::Usage(format!("kings has no rule {rule:?}")));
    }
    verify_size(rows, cols, claim)
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
        let run = KingsRun::new(2, 5, Claim::NimMinus2).unwrap();
        let results = run_in_memory(&Plan::new(&run, Shard::ALL).unwrap(), &Silent).unwrap();
        assert!(results.all_agree(), "{:?}", results.mismatches);
        assert_eq!(graph_rows(&results).unwrap().len(), 4 + 10);
        let wrong = KingsRun::new(2, 5, Claim::NimMinus1).unwrap();
        assert!(!run_in_memory(&Plan::new(&wrong, Shard::ALL).unwrap(), &Silent).unwrap().all_agree());
        let size = recompute_size("exhaustive", 2, 4).unwrap();
        assert_eq!(size.sizes[&(2, 4)], results.sizes[&(2, 4)]);
    }
}
