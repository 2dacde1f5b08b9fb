//! Verification of the footholds claim (memoized negamax = plain full-tree DFS) on every small board and random 5×5 boards.
//!
//! Result files: `rows`/`cols` = board shape, `xs` = total moves, `grundy` = 1 when A (the
//! first player) wins, else 0; `board` (mismatches) = the position as `RxC|rows|ar,ac,br,bc`,
//! `dp_grundy`/`naive_grundy` = the claimed/naive total moves, `naive_outcome` = naive winner.
//! outcomes.csv restates the distribution as (winner, moves, positions) per shape.

use crate::runner::parallel::{below, par_run, record, rule_fields, rule_name, rule_number, stream};
use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use crate::games::footholds::claim::{Policy, Solver};
use crate::games::footholds::{brute, Outcome, Position, MAX_SIDE};
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

/// The claim's CLI name of a policy.
pub fn claim_name(policy: Policy) -> &'static str {
    match policy {
        Policy::LoseSlow => "memo",
        Policy::LoseFast => "lose-fast",
    }
}

/// The policy named by a rule's `claim=` field (absent: the claim under test).
fn policy_of(claim: Option<&str>) -> Result<Policy> {
    match claim {
        None | Some("memo") => Ok(Policy::LoseSlow),
        Some("lose-fast") => Ok(Policy::LoseFast),
        Some(other) => Err(Error::Usage(format!("footholds has no claim {other:?} (memo or lose-fast)"))),
    }
}

/// Every shape r×c (each side ≤ 5) with at most `max_cells` cells.
pub fn shapes(max_cells: usize) -> Vec<(usize, usize)> {
    (1..=MAX_SIDE).flat_map(|r| (1..=MAX_SIDE).map(move |c| (r, c))).filter(|&(r, c)| r * c <= max_cells).collect()
}

/// Claim vs DFS on one position; tallied under its shape.
fn check(solver: &mut Solver, pos: &Position, results: &mut RunResults) {
    let claimed = solver.solve(pos);
    let truth = brute::solve(pos);
    let mismatch = (claimed != truth)
        .then(|| (pos.to_compact(), claimed.moves, Some(truth.moves), outcome_name(truth.first_wins)));
    record(results, (pos.rows.into(), pos.cols.into()), key(claimed), mismatch);
}

fn key(o: Outcome) -> (u32, u32) {
    (o.moves, u32::from(o.first_wins))
}

/// Every board of shape rows×cols with every ordered pair of start cells on footholds (A and B
/// may share a cell), in parallel over boards.
pub fn verify_shape(rows: usize, cols: usize, policy: Policy, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    if !shapes(MAX_EXHAUSTIVE_CELLS).contains(&(rows, cols)) {
        return Err(Error::Usage(format!(
            "exhaustive footholds runs take shapes up to {MAX_SIDE}x{MAX_SIDE} with at most {MAX_EXHAUSTIVE_CELLS} cells, not {rows}x{cols}"
        )));
    }
    let rule = rule_name(EXHAUSTIVE, claim_name(policy), "memo");
    let size = (rows as u32, cols as u32);
    Ok(par_run(GAME, &rule, &[size], 1 << (rows * cols), 32, progress, |boards, part| {
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
    }))
}

/// Seeded random 5×5 boards: `count` of them, board i drawn from stream i of `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    pub seed: u64,
    pub count: u64,
    pub policy: Policy,
}

impl RandomSpec {
    /// The rule name, e.g. `random:seed=1:count=1000`.
    pub fn rule(&self) -> String {
        rule_name(&format!("random:seed={}:count={}", self.seed, self.count), claim_name(self.policy), "memo")
    }

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

/// `spec.count` random 5×5 positions, claim vs DFS, in parallel.
pub fn verify_random(spec: RandomSpec, progress: &(dyn Fn(u64) + Sync)) -> RunResults {
    let size = (MAX_SIDE as u32, MAX_SIDE as u32);
    par_run(GAME, &spec.rule(), &[size], spec.count, 4, progress, |indices, part| {
        let mut solver = Solver::new(MAX_SIDE, MAX_SIDE, spec.policy);
        for index in indices {
            check(&mut solver, &spec.position(index), part);
        }
    })
}

/// Recomputes one summary row (shape `rows`×`cols`) of a committed run named `rule`
/// (`exhaustive` or `random:seed=S:count=N`, optionally `:claim=NAME`), for the `check` command.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let policy = policy_of(fields.get("claim").copied())?;
    match kind {
        EXHAUSTIVE => verify_shape(rows as usize, cols as usize, policy, &|_| {}),
        "random" if (rows, cols) == (MAX_SIDE as u32, MAX_SIDE as u32) => {
            let spec = RandomSpec { seed: rule_number(rule, &fields, "seed")?, count: rule_number(rule, &fields, "count")?, policy };
            Ok(verify_random(spec, &|_| {}))
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

/// Writes outcomes.csv into `dir`; returns its name (for the manifest).
pub fn write_outcomes(dir: &Path, results: &RunResults) -> Result<&'static str> {
    write_csv(&dir.join(OUTCOMES), &outcome_rows(results))?;
    Ok(OUTCOMES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_shapes_agree_and_count_pairs() {
        let r = verify_shape(2, 3, Policy::LoseSlow, &|_| {}).unwrap();
        assert!(r.all_agree(), "{:?}", r.mismatches);
        // Σ_k C(n, k) k² = n(n + 1) 2^(n − 2) ordered start pairs over all boards of n cells.
        assert_eq!(r.sizes[&(2, 3)].patterns, 6 * 7 * 16);
        // Winner A ⇔ odd number of moves.
        assert!(r.sizes[&(2, 3)].distribution.keys().all(|&(moves, a_wins)| a_wins == moves % 2));
    }

    #[test]
    fn lose_fast_is_caught() {
        let r = verify_shape(3, 3, Policy::LoseFast, &|_| {}).unwrap();
        assert!(!r.all_agree());
        assert_eq!(r.rule, "exhaustive:claim=lose-fast");
    }

    #[test]
    fn random_positions_repeat() {
        let spec = RandomSpec { seed: 5, count: 3, policy: Policy::LoseSlow };
        assert_eq!(spec.position(2), spec.position(2));
        assert_eq!(recompute_size(&spec.rule(), 5, 5).unwrap().sizes[&(5, 5)].patterns, 3);
    }
}
