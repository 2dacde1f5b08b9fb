//! A game program as a contest problem for `stress`: one position in, its value (or the winner) out; the trusted answer is the brute force of the program's own moves.
//!
//! Every case carries its exact value, computed by the [`Explorer`] (behind a mutex, shared by
//! the generators and the shrinker) when the case is made, so judging never waits for it. The
//! first failure of the game program ends every stream and is kept for the caller
//! ([`Contest::take_failure`]): a run whose judge failed is an error, not a verdict. Before a
//! failure is reported, the program is asked again about it ([`Contest::confirm`]).

use super::judge::{confirm_moves, order};
use super::table::starting_positions;
use super::{Explorer, Verb};
use crate::error::{Error, Result};
use crate::impartial::Convention;
use crate::output::text::shorten;
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Positions taken from each adversarial list (largest values, P-positions, deepest).
const ADVERSARIAL_EACH: usize = 300;

/// One position and its exact value (Grundy value, or outcome 1/0 under misère play).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub token: Arc<str>,
    pub id: u32,
    pub value: u32,
}

/// An answer: a Grundy value, or the winner (`First`: the player to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Value(u32),
    Winner { first: bool },
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value(v) => write!(f, "{v}"),
            Answer::Winner { first } => f.write_str(if *first { "First" } else { "Second" }),
        }
    }
}

/// The game program's contest side: the explored positions, the starting positions of every
/// size up to the exhaustive bound, and the first failure of the program.
pub struct ProgramContest {
    explorer: Mutex<Explorer>,
    convention: Convention,
    starts: Vec<Vec<u32>>,
    failure: Mutex<Option<Error>>,
}

impl ProgramContest {
    /// The contest of the explorer's program; `max`: the largest size generated.
    pub fn new(mut explorer: Explorer, convention: Convention, max: u32) -> Result<Self> {
        let starts = starting_positions(&mut explorer, max)?;
        Ok(ProgramContest { explorer: Mutex::new(explorer), convention, starts, failure: Mutex::new(None) })
    }

    /// Runs `work` on the explorer; a failure is kept (the first one) and gives `None`, as
    /// does every call after one.
    fn with<T>(&self, work: impl FnOnce(&mut Explorer) -> Result<T>) -> Option<T> {
        let mut failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
        if failure.is_some() {
            return None;
        }
        let result = work(&mut self.explorer.lock().unwrap_or_else(PoisonError::into_inner));
        result.map_err(|e| *failure = Some(e)).ok()
    }

    /// Every starting position of `size`, valued.
    fn starts_of(&self, size: usize) -> Vec<Case> {
        self.with(|e| cases(e, &self.starts[size])).unwrap_or_default()
    }

    /// A random starting position, then up to its size's number of random moves from it.
    fn random_case(&self, rng: &mut ChaCha8Rng, sizes: &[usize]) -> Option<Case> {
        let size = *sizes.get(rng.random_range(0..sizes.len().max(1)))?;
        let starts = &self.starts[size];
        let steps = rng.random_range(0..=size.max(1));
        self.with(|e| {
            let mut id = starts[rng.random_range(0..starts.len())];
            e.values(&[id])?;
            for _ in 0..steps {
                match e.moves(id).unwrap_or_default() {
                    [] => break,
                    moves => id = moves[rng.random_range(0..moves.len())],
                }
            }
            Ok(cases(e, &[id])?.remove(0))
        })
    }

    /// The largest values, the P-positions (deepest first) and the deepest positions of every
    /// position reachable from a starting position, taken in turn, each once.
    fn adversarial(&self) -> Vec<Case> {
        let all: Vec<u32> = self.starts.iter().flatten().copied().collect();
        let picked = self.with(|e| {
            e.values(&all)?;
            let depth = depths(e);
            let mut ids: Vec<u32> = (0..e.len() as u32).filter(|&id| e.value(id).is_some()).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(depth[id as usize]));
            let zeros = ids.iter().copied().filter(|&id| e.value(id) == Some(0));
            let zeros: Vec<u32> = zeros.take(ADVERSARIAL_EACH).collect();
            let deepest: Vec<u32> = ids.iter().copied().take(ADVERSARIAL_EACH).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(e.value(id)));
            let lists = [&ids[..ids.len().min(ADVERSARIAL_EACH)], &zeros, &deepest];
            let mut turns: Vec<u32> = (0..ADVERSARIAL_EACH).flat_map(|i| lists.iter().filter_map(move |l| l.get(i).copied())).collect();
            let mut seen = rustc_hash::FxHashSet::default();
            turns.retain(|&id| seen.insert(id));
            cases(e, &turns)
        });
        picked.unwrap_or_default()
    }

    /// The size of `ids` in the game's order: the program's `size`, else the token's length.
    fn sizes(&self, e: &Explorer, ids: &[u32]) -> Result<Vec<u64>> {
        Ok(order(e, ids)?.into_iter().map(|(size, _)| size).collect())
    }

    /// The program's `smaller` candidates of `case` that are strictly smaller in the shrinking
    /// order ([`order`]), each once, in the program's order: a candidate as large or larger
    /// would grow the input or loop.
    fn smaller(&self, e: &mut Explorer, case: &Case) -> Result<Vec<u32>> {
        let token = case.token.to_string();
        let answer = e.program().ask(Verb::Smaller, &[&token])?.remove(0);
        let ids = e.intern_all(&answer, &super::protocol::request(Verb::Smaller, &token))?;
        let own = order(e, &[case.id])?.remove(0);
        let ranks = order(e, &ids)?;
        let mut seen = rustc_hash::FxHashSet::default();
        Ok(ids.into_iter().zip(ranks).filter(|(id, rank)| *rank < own && seen.insert(*id)).map(|(id, _)| id).collect())
    }

    /// The moves of `case`, smallest first (the program's order among equals), each once.
    fn smallest_moves(&self, e: &mut Explorer, case: &Case) -> Result<Vec<u32>> {
        e.values(&[case.id])?;
        let mut moves = e.moves(case.id).unwrap_or_default().to_vec();
        let sizes = self.sizes(e, &moves)?;
        let mut sized: Vec<(u64, u32)> = sizes.into_iter().zip(moves.drain(..)).collect();
        sized.sort_by_key(|&(size, _)| size);
        let mut seen = rustc_hash::FxHashSet::default();
        Ok(sized.into_iter().map(|(_, id)| id).filter(|&id| seen.insert(id)).collect())
    }
}

/// The cases of `ids`, their values computed.
fn cases(e: &mut Explorer, ids: &[u32]) -> Result<Vec<Case>> {
    let values = e.values(ids)?;
    Ok(ids.iter().zip(values).map(|(&id, value)| Case { token: e.token(id).into(), id, value }).collect())
}

/// The length of the longest play from every position whose moves are known (0: no move).
fn depths(e: &Explorer) -> Vec<u32> {
    let mut depth = vec![u32::MAX; e.len()];
    for root in 0..e.len() as u32 {
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            let moves = e.moves(id).unwrap_or_default();
            if depth[id as usize] != u32::MAX {
                stack.pop();
            } else if let Some(&child) = moves.get(*next) {
                *next += 1;
                stack.push((child, 0));
            } else {
                depth[id as usize] = moves.iter().map(|&c| depth[c as usize] + 1).max().unwrap_or(0);
                stack.pop();
            }
        }
    }
    depth
}

impl Contest for ProgramContest {
    type Case = Case;
    type Answer = Answer;

    fn write_input(&self, case: &Case, out: &mut Vec<u8>) {
        out.extend_from_slice(case.token.as_bytes());
        out.push(b'\n');
    }

    fn answer(&self, case: &Case) -> Answer {
        match self.convention {
            Convention::Normal => Answer::Value(case.value),
            Convention::Misere => Answer::Winner { first: case.value != 0 },
        }
    }

    fn parse_output(&self, _case: &Case, stdout: &str) -> std::result::Result<Answer, String> {
        let expected = match self.convention {
            Convention::Normal => "a number (the Grundy value), First or Second",
            Convention::Misere => "First or Second (misère play: the winner only)",
        };
        let token = answer::single_token(stdout).map_err(|e| format!("{e} (expected {expected})"))?;
        match token {
            "First" | "Second" => Ok(Answer::Winner { first: token == "First" }),
            _ if self.convention == Convention::Misere => Err(format!("expected {expected}, found {:?}", shorten(token))),
            _ => {
                let n = answer::number(token)?;
                u32::try_from(n).map(Answer::Value).map_err(|_| format!("Grundy value {n} is too large"))
            }
        }
    }

    /// A value answers the value; a winner answers whether the value is not 0.
    fn accepts(&self, expected: &Answer, got: &Answer) -> bool {
        match (*expected, *got) {
            (Answer::Value(v), Answer::Winner { first }) => (v != 0) == first,
            _ => expected == got,
        }
    }

    /// The position, and its size when the program answers `size`.
    fn describe(&self, case: &Case) -> String {
        let sized = |e: &mut Explorer| if e.program().verbs().has(Verb::Size) { self.sizes(e, &[case.id]) } else { Ok(Vec::new()) };
        let size = self.with(sized).and_then(|s| s.first().copied());
        let shown = shorten(&case.token);
        match size {
            Some(size) => format!("position {shown} (size {size})"),
            None => format!("position {shown}"),
        }
    }

    /// The program's `smaller` positions when it answers it, in its order (only those strictly
    /// smaller in the game's order); else the moves, smallest first.
    fn shrink_candidates(&self, case: &Case) -> Vec<Case> {
        let found = self.with(|e| {
            let ids = if e.program().verbs().has(Verb::Smaller) { self.smaller(e, case)? } else { self.smallest_moves(e, case)? };
            cases(e, &ids)
        });
        found.unwrap_or_default()
    }

    /// The exploration stops at `deadline` from now on, a failure naming `budget`.
    fn set_deadline(&self, deadline: Option<Instant>, budget: &str) {
        self.explorer.lock().unwrap_or_else(PoisonError::into_inner).set_deadline(deadline, budget);
    }

    /// The first failure of the game program, if there was one (taken: asked once per run).
    fn take_failure(&self) -> Option<Error> {
        self.failure.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Asks the program `moves` again of the position and the positions below it
    /// ([`confirm_moves`], as `verify custom` does before it reports a counterexample); the
    /// program's first failure, this one or an earlier one, is the error.
    fn confirm(&self, case: &Case) -> Result<()> {
        self.with(|e| confirm_moves(e, case.id));
        self.take_failure().map_or(Ok(()), Err)
    }
}

impl Generator for ProgramContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Case> {
        match source {
            Source::Exhaustive => Box::new((0..self.starts.len()).flat_map(move |size| self.starts_of(size))),
            Source::Random => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let sizes: Vec<usize> = (0..self.starts.len()).filter(|&s| !self.starts[s].is_empty()).collect();
                Box::new(std::iter::from_fn(move || self.random_case(&mut rng, &sizes)))
            }
            // Chosen from the whole exploration: made when first asked, within the run's time.
            Source::Adversarial => Box::new(std::iter::once_with(|| self.adversarial()).flatten()),
        }
    }
}

#[cfg(test)]
mod tests;
