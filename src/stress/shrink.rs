//! Shrinking a failing case: keep replacing it by the first of its game's smaller candidates
//! that still fails the same way, until none does (or the shrinking budget is spent).
//!
//! Candidates are judged `jobs` at a time and the first failing one in order is taken, so the
//! result does not depend on timing; the order starts where the last reduction was found (or,
//! for a game that asks for it, at the first candidate every time).

use super::contest::Contest;
use super::outcome::{Fault, Verdict};
use super::pool::Pool;
use crate::error::Result;
use std::time::Instant;

/// When shrinking gives up early (a time-limit failure costs a full time limit per try).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShrinkLimits {
    pub deadline: Option<Instant>,
    /// Most reductions taken.
    pub max_steps: usize,
}

impl Default for ShrinkLimits {
    fn default() -> Self {
        ShrinkLimits { deadline: None, max_steps: 10_000 }
    }
}

/// The result of shrinking: the smallest failing case reached and how it fails.
#[derive(Debug, Clone)]
pub struct Shrunk<C> {
    pub case: C,
    pub expected: String,
    pub fault: Fault,
    /// Reductions taken.
    pub steps: usize,
    /// Program runs spent on candidates.
    pub tries: usize,
    /// CPU seconds the program used on the final case.
    pub seconds: f64,
    /// False when a limit (or Ctrl-C) stopped shrinking before a fixpoint.
    pub minimal: bool,
}

/// Shrinks `case`, which fails with `fault` after `seconds` (trusted answer `expected`).
pub fn shrink<G: Contest + ?Sized>(
    pool: &mut Pool,
    game: &G,
    case: G::Case,
    expected: String,
    fault: Fault,
    seconds: f64,
    limits: ShrinkLimits,
) -> Result<Shrunk<G::Case>> {
    let mut current = Shrunk { case, expected, fault, steps: 0, tries: 0, seconds, minimal: false };
    // Candidates are tried from where the last accepted one stood (wrapping around): runs of
    // similar reductions (removing one part after another) then cost one try each.
    let mut start = 0;
    let rotate = !game.shrinks_from_the_first();
    'steps: while current.steps < limits.max_steps {
        let mut candidates = game.shrink_candidates(&current.case);
        let first = if rotate { start.min(candidates.len()) } else { 0 };
        candidates.rotate_left(first);
        for (c, chunk) in candidates.chunks(pool.jobs()).enumerate() {
            if limits.deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::stopping() {
                return Ok(current);
            }
            let judged = pool.judge_all(game, chunk)?;
            // Runs ended by Ctrl-C's kill are not judged.
            if crate::interrupt::stopping() {
                return Ok(current);
            }
            current.tries += chunk.len();
            let same_way = |v: &Verdict| matches!(v, Verdict::Fail(f) if f.kind == current.fault.kind);
            if let Some(i) = judged.iter().position(|j| same_way(&j.verdict)) {
                let Verdict::Fail(fault) = judged[i].verdict.clone() else { unreachable!("checked above") };
                current.case = chunk[i].clone();
                current.expected = judged[i].expected.clone();
                current.fault = fault;
                current.seconds = judged[i].seconds;
                current.steps += 1;
                start = (first + c * pool.jobs() + i) % candidates.len();
                continue 'steps;
            }
        }
        current.minimal = true;
        break;
    }
    Ok(current)
}
