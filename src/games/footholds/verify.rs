//! Verification of the footholds claim (memoized negamax = plain full-tree DFS) on every small board and random 5×5 boards.
//!
//! Result files: `rows`/`cols` = board shape, `xs` = total moves, `grundy` = 1 when A (the
//! first player) wins, else 0; `board` (mismatches) = the position as `RxC|rows|ar,ac,br,bc`,
//! `dp_grundy`/`naive_grundy` = the claimed/naive total moves, `naive_outcome` = naive winner.
//! outcomes.csv restates the distribution as (winner, moves, positions) per shape.

use crate::runner::random::{below, stream};
use crate::runner::rule::{rule_fields, rule_number, Claims};
use crate::runner::{run_in_memory, Disagreement, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use crate::error::{Error, Result};
use super::claim::{Policy, Solver};
use super::{brute, Position, MAX_SIDE};
use crate::output::csv::{write_csv, CsvRecord};
use crate::output::records::outcome_name;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const GAME: &str = "footholds";
pub const EXHAUSTIVE: &str = "exhaustive";
/// Largest cell count of the exhaustive runs (2^cells boards × pairs of start cells).
pub const MAX_EXHAUSTIVE_CELLS: usize = 16;
/// Name of the game-specific distribution file.
pub const OUTCOMES: &str = "outcomes.csv";

/// The claims `verify footholds` can test.
pub const CLAIMS: Claims<Policy> = Claims { game: GAME, variants: &[("memo", Policy::LoseSlow), ("lose-fast", Policy::LoseFast)] };

/// Every shape r×c (each side ≤ 5) with at most `max_cells` cells.
pub fn shapes(max_cells: usize) -> Vec<(usize, usize)> {
    (1..=MAX_SIDE).flat_map(|r| (1..=MAX_SIDE).map(move |c| (r, c))).filter(|&(r, c)| r * c <= max_cells).collect()
}

/// Claim vs DFS on one position; tallied under its shape.
fn check(solver: &mut Solver, pos: &Position, results: &mut RunResults) {
    let claimed = solver.solve(pos);
    let truth = brute::solve(pos);
    let failed = (claimed != truth).then(|| Disagreement {
        position: pos.to_compact(),
        claimed: claimed.moves,
        naive_value: Some(truth.moves),
        naive_outcome: outcome_name(truth.first_wins),
        answer: None,
    });
    results.check((pos.rows.into(), pos.cols.into()), (claimed.moves, u32::from(claimed.first_wins)), failed);
}

/// Seeded random 5×5 boards: `count` of them, board i drawn from stream i of `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    pub seed: u64,
    pub count: u64,
}

impl RandomSpec {
    /// Position `index`: each cell a foothold with probability d/8 (d in 4..=7, drawn per
    /// board), at least the two start cells; A and B uniform over the cells.
    pub fn position(&self, index: u64) -> Position {
        let mut rng = stream(self.seed, index);
        let cells = (MAX_SIDE * MAX_SIDE) as u64;
        let density = 4 + below(&mut rng, 4);
        let mut board = (0..cells).fold(0u32, |m, i| m | u32::from(below(&mut rng, 8) < density) << i);
        let a = below(&mut rng, cells) as usize;
        let b = below(&mut rng, cells) as usize;
        board |= 1 << a | 1 << b;
        Position::new(MAX_SIDE, MAX_SIDE, board, a, b)
    }
}

/// Which positions a run checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Boards {
    /// Every board of each shape, with every ordered pair of start cells on footholds.
    Exhaustive(Vec<(usize, usize)>),
    Random(RandomSpec),
}

/// A footholds verification: positions and the claim under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootholdsRun {
    pub boards: Boards,
    pub policy: Policy,
}

impl FootholdsRun {
    /// Every shape with at most `max_cells` cells (sides ≤ 5).
    pub fn exhaustive(max_cells: usize, policy: Policy) -> Result<FootholdsRun> {
        if max_cells > MAX_EXHAUSTIVE_CELLS {
            return Err(Error::Usage(format!("exhaustive footholds runs take at most {MAX_EXHAUSTIVE_CELLS} cells, not {max_cells}")));
        }
        Ok(FootholdsRun { boards: Boards::Exhaustive(shapes(max_cells)), policy })
    }

    /// One shape.
    pub fn shape(rows: usize, cols: usize, policy: Policy) -> Result<FootholdsRun> {
        if !shapes(MAX_EXHAUSTIVE_CELLS).contains(&(rows, cols)) {
            return Err(Error::Usage(format!(
                "exhaustive footholds runs take shapes up to {MAX_SIDE}x{MAX_SIDE} with at most {MAX_EXHAUSTIVE_CELLS} cells, not {rows}x{cols}"
            )));
        }
        Ok(FootholdsRun { boards: Boards::Exhaustive(vec![(rows, cols)]), policy })
    }
}

/// Core-seconds per random 5x5 position (20,000 in 1.9 s on 2 cores, docs/minimax.md; 2,000 in
/// 0.7 s on one), for the estimate.
pub const RANDOM_SECONDS_PER_POSITION: f64 = 1.9e-4;

impl Verification for FootholdsRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::commands::COLUMNS
    }

    fn rule(&self) -> String {
        let base = match &self.boards {
            Boards::Exhaustive(_) => EXHAUSTIVE.to_string(),
            Boards::Random(spec) => format!("random:seed={}:count={}", spec.seed, spec.count),
        };
        CLAIMS.rule(&base, self.policy)
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(match &self.boards {
            Boards::Exhaustive(shapes) => shapes
                .iter()
                .map(|&(r, c)| Job::new(format!("{r}x{c}"), vec![(r as u32, c as u32)], 1 << (r * c), 32))
                .collect(),
            Boards::Random(spec) => vec![Job::new("5x5", vec![(MAX_SIDE as u32, MAX_SIDE as u32)], spec.count, 4)],
        })
    }

    fn seconds_per_position(&self, _index: usize) -> Option<f64> {
        matches!(self.boards, Boards::Random(_)).then_some(RANDOM_SECONDS_PER_POSITION)
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let policy = self.policy;
        Ok(match &self.boards {
            Boards::Exhaustive(shapes) => {
                let (rows, cols) = shapes[index];
                Box::new(move |boards: Range<u64>, part: &mut RunResults| {
                    let mut solver = Solver::new(rows, cols, policy);
                    for board in boards {
                        let board = board as u32;
                        let cells = (0..rows * cols).filter(|&i| board >> i & 1 == 1);
                        for a in cells.clone() {
                            for b in cells.clone() {
                                check(&mut solver, &Position::new(rows, cols, board, a, b), part);
                            }
                        }
                    }
                })
            }
            &Boards::Random(spec) => Box::new(move |indices: Range<u64>, part: &mut RunResults| {
                let mut solver = Solver::new(MAX_SIDE, MAX_SIDE, policy);
                for index in indices {
                    check(&mut solver, &spec.position(index), part);
                }
            }),
        })
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        match &self.boards {
            Boards::Exhaustive(shapes) => {
                let max_cells = shapes.iter().map(|(r, c)| r * c).max().unwrap_or(0);
                BTreeMap::from([("max_cells".to_string(), max_cells.into())])
            }
            Boards::Random(spec) => {
                BTreeMap::from([("random".to_string(), spec.count.into()), ("seed".to_string(), spec.seed.into())])
            }
        }
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows x cols = board shape; xs = total moves, grundy = 1 when A (moving first) wins; every board with every ordered start pair on footholds".to_string(),
            "brute force: plain full-tree DFS without memo; outcomes.csv = (winner, moves) distribution per shape".to_string(),
        ]
    }

    fn write_extra(&self, dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
        write_csv(&dir.join(OUTCOMES), &outcome_rows(results))?;
        Ok(vec![OUTCOMES])
    }
}

/// Every board of shape rows×cols with every ordered pair of start cells, checked in this process.
pub fn verify_shape(rows: usize, cols: usize, policy: Policy) -> Result<RunResults> {
    run_in_memory(&Plan::new(&FootholdsRun::shape(rows, cols, policy)?, Shard::ALL)?, &Silent)
}

/// Recomputes one summary row (shape `rows`×`cols`) of a committed run named `rule`
/// (`exhaustive` or `random:seed=S:count=N`, optionally `:claim=NAME`), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let policy = CLAIMS.of(fields.get("claim").copied())?;
    match kind {
        EXHAUSTIVE => verify_shape(rows as usize, cols as usize, policy),
        "random" if (rows, cols) == (MAX_SIDE as u32, MAX_SIDE as u32) => {
            let spec = RandomSpec { seed: rule_number(rule, &fields, "seed")?, count: rule_number(rule, &fields, "count")? };
            let run = FootholdsRun { boards: Boards::Random(spec), policy };
            run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
        }
        _ => Err(Error::Usage(format!("footholds has no size {rows}x{cols} under rule {rule:?}"))),
    }
}

/// One row of outcomes.csv: how many positions of a shape end with `winner` after `moves`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OutcomeRow {
    pub game: String,
    pub rule: String,
    pub rows: u32,
    pub cols: u32,
    /// `A` (moves first) or `B`.
    pub winner: String,
    pub moves: u32,
    pub positions: u64,
}

impl CsvRecord for OutcomeRow {
    const HEADER: &'static [&'static str] = &["game", "rule", "rows", "cols", "winner", "moves", "positions"];
}

/// outcomes.csv rows, sorted by shape, winner, moves.
pub fn outcome_rows(results: &RunResults) -> Vec<OutcomeRow> {
    let mut rows: Vec<OutcomeRow> = results
        .distribution_rows()
        .into_iter()
        .map(|d| OutcomeRow {
            game: d.game,
            rule: d.rule,
            rows: d.rows,
            cols: d.cols,
            winner: if d.grundy == 1 { "A" } else { "B" }.into(),
            moves: d.xs,
            positions: d.patterns,
        })
        .collect();
    rows.sort();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_shapes_agree_and_count_pairs() {
        let r = verify_shape(2, 3, Policy::LoseSlow).unwrap();
        assert!(r.all_agree(), "{:?}", r.mismatches);
        // Σ_k C(n, k) k² = n(n + 1) 2^(n − 2) ordered start pairs over all boards of n cells.
        assert_eq!(r.sizes[&(2, 3)].patterns, 6 * 7 * 16);
        // Winner A ⇔ odd number of moves.
        assert!(r.sizes[&(2, 3)].distribution.keys().all(|&(moves, a_wins)| a_wins == moves % 2));
    }

    #[test]
    fn lose_fast_is_caught() {
        let r = verify_shape(3, 3, Policy::LoseFast).unwrap();
        assert!(!r.all_agree());
        assert_eq!(r.rule, "exhaustive:claim=lose-fast");
    }

    #[test]
    fn random_positions_repeat() {
        let spec = RandomSpec { seed: 5, count: 3 };
        assert_eq!(spec.position(2), spec.position(2));
        assert_eq!(recompute_size("random:seed=5:count=3", 5, 5).unwrap().sizes[&(5, 5)].patterns, 3);
    }
}
