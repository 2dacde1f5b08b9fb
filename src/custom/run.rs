//! The verification of a custom game: one job per size, exact values shared between chunks, claim and components checked.
//!
//! Result files: `rows` = 1, `size` = the size; `parts` = number of components (0 without a
//! split), `grundy` = the claimed value (the claim, else the XOR of the parts, else the exact
//! value); `position` (mismatches) = the position as `{:?}`, `answer` = `claim` or `components`
//! (one row per wrong answer).

use super::layout::Layout;
use super::memo::{Known, Layered};
use super::{CustomGame, Verdict};
use crate::error::Result;
use crate::impartial::{grundy_with, mex_bits, Convention, Memo};
use crate::output::records::Columns;
use crate::runner::{Evaluate, Job, RunResults, Verification};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::{Range, RangeInclusive};
use std::sync::{Mutex, OnceLock, PoisonError, RwLock};

/// The columns of a custom game's files.
pub const COLUMNS: Columns = Columns { size: ["rows", "size"], key: "parts", position: "position", answer: true };

/// Every position of sizes 0..=max_size of a [`CustomGame`], with the exact values of the
/// jobs before this one (read by every chunk, never written during a job) and those the chunks
/// of this job found (added to the others when the next job is prepared); the values of
/// indexed positions are in the layout's array instead.
pub struct CustomRun<'g, G: CustomGame> {
    game: &'g G,
    max_size: u32,
    layout: OnceLock<Layout>,
    known: RwLock<Known<G::Position>>,
    found: Mutex<Vec<FxHashMap<G::Position, u32>>>,
}

/// The buffers one chunk reuses for moves and components.
struct Scratch<P> {
    moves: Vec<P>,
    parts: Vec<P>,
}

impl<'g, G: CustomGame> CustomRun<'g, G> {
    pub fn new(game: &'g G, max_size: u32) -> Self {
        CustomRun { game, max_size, layout: OnceLock::new(), known: RwLock::new(Known::new()), found: Mutex::new(Vec::new()) }
    }

    /// The sizes' counts, jobs and array (made once; an index that is not the positions' own
    /// place is an error).
    fn layout(&self) -> Result<&Layout> {
        if let Some(layout) = self.layout.get() {
            return Ok(layout);
        }
        let layout = Layout::of(self.game, self.max_size)?;
        Ok(self.layout.get_or_init(|| layout))
    }

    /// Adds the values the chunks found to the known ones (between jobs).
    fn publish(&self) {
        let found = std::mem::take(&mut *self.found.lock().unwrap_or_else(PoisonError::into_inner));
        self.known.write().unwrap_or_else(PoisonError::into_inner).add(found);
    }

    /// Checks the positions of one chunk (each with its size), then hands over the values it
    /// found outside the layout's array.
    fn evaluate(&self, layout: &Layout, positions: &[(u32, G::Position)], results: &mut RunResults) {
        let capacity = if layout.indexed() { 0 } else { positions.len() };
        let mut found = FxHashMap::with_capacity_and_hasher(capacity, Default::default());
        let mut counts = FxHashMap::default();
        {
            let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
            let mut memo = Layered { game: self.game, layout, known: &known, found: &mut found };
            let mut scratch = Scratch { moves: Vec::new(), parts: Vec::new() };
            for (size, position) in positions {
                let verdict = check(self.game, position, &mut memo, &mut scratch);
                *counts.entry((*size, verdict.key())).or_insert(0u64) += 1;
                if verdict.fails(Convention::Normal) {
                    results.fail((1, *size), verdict.disagreements(&format!("{position:?}"), Convention::Normal));
                }
            }
        }
        self.found.lock().unwrap_or_else(PoisonError::into_inner).push(found);
        for ((size, (parts, value)), count) in counts {
            results.count((1, size), parts, value, count);
        }
    }
}

/// The exact value of `position` by brute force (moves only): straight from its moves' values
/// when all are known and below 64 (the usual case: no search stack), else by the search.
fn exact<G: CustomGame>(game: &G, position: &G::Position, memo: &mut impl Memo<G::Position, u32>, moves: &mut Vec<G::Position>) -> u32 {
    if let Some(value) = memo.known(position) {
        return value;
    }
    moves.clear();
    game.moves_into(position, moves);
    let seen = moves.iter().try_fold(0u64, |seen, next| memo.known(next).filter(|&v| v < 64).map(|v| seen | 1 << v));
    match seen {
        Some(seen) => {
            let value = mex_bits(seen);
            memo.store(position.clone(), value);
            value
        }
        None => grundy_with(position, memo, |q| game.moves(q)),
    }
}

/// The exact value of `position`, its claim and the XOR of its parts' exact values.
fn check<G: CustomGame>(game: &G, position: &G::Position, memo: &mut impl Memo<G::Position, u32>, scratch: &mut Scratch<G::Position>) -> Verdict {
    let exact_value = exact(game, position, memo, &mut scratch.moves);
    scratch.parts.clear();
    let split = game.components_into(position, &mut scratch.parts).then(|| {
        scratch.parts.iter().fold(0, |x, part| x ^ exact(game, part, memo, &mut scratch.moves))
    });
    let parts = scratch.parts.len() as u32;
    Verdict { exact: exact_value, claim: game.claim(position), split: split.map(|xor| (parts, xor)) }
}

impl<G: CustomGame> Verification for CustomRun<'_, G> {
    fn game(&self) -> &str {
        self.game.name()
    }

    fn rule(&self) -> String {
        "exhaustive".into()
    }

    fn columns(&self) -> Columns {
        COLUMNS
    }

    /// One job per size, or several small sizes together as one chunk (their positions depend
    /// on each other: chunks of them would each redo the ones before).
    fn jobs(&self) -> Result<Vec<Job>> {
        let layout = self.layout()?;
        let parts = 4 * rayon::current_num_threads() as u64;
        let job = |(index, sizes): (usize, &RangeInclusive<u32>)| {
            let (first, last, count) = (*sizes.start(), *sizes.end(), layout.job_count(index));
            let label = if first == last { format!("size={first}") } else { format!("sizes={first}..={last}") };
            let chunk = if first == last { count.div_ceil(parts) } else { count };
            Job::new(label, sizes.clone().map(|size| (1, size)).collect(), count, chunk).one_pattern_each()
        };
        Ok(layout.jobs.iter().enumerate().map(job).collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        self.publish();
        let layout = self.layout()?;
        let sizes = layout.jobs[index].clone();
        let positions: Vec<(u32, G::Position)> = sizes.flat_map(|size| self.game.positions(size).into_iter().map(move |p| (size, p))).collect();
        Ok(Box::new(move |range: Range<u64>, part: &mut RunResults| {
            self.evaluate(layout, positions.get(range.start as usize..range.end as usize).unwrap_or_default(), part);
        }))
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::from([("max_size".to_string(), self.max_size.into())])
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows = 1, size = the game's size, parts = number of components, grundy = claimed value".into(),
            "oracle: mex over the game's moves, memoized; it never calls the claim or the components".into(),
        ]
    }
}
