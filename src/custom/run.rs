//! The verification of a custom game: one job per size, exact values shared between chunks, claim and components checked.
//!
//! Result files: `rows` = 1, `size` = the size; `parts` = number of components (0 without a
//! split), `grundy` = the claimed value (the claim, else the XOR of the parts, else the exact
//! value); `position` (mismatches) = the position as `{:?}`.

use super::memo::{Known, Layered};
use super::CustomGame;
use crate::error::Result;
use crate::impartial::{grundy_with, Memo};
use crate::output::records::{outcome_name, Columns};
use crate::runner::{Disagreement, Evaluate, Job, RunResults, Verification};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Mutex, PoisonError, RwLock};

/// The columns of a custom game's files.
pub const COLUMNS: Columns = Columns { size: ["rows", "size"], key: "parts", position: "position" };

/// Every position of sizes 0..=max_size of a [`CustomGame`], with the exact values of the
/// jobs before this one (read by every chunk, never written during a job) and those the chunks
/// of this job found (added to the others when the next job is prepared).
pub struct CustomRun<'g, G: CustomGame> {
    game: &'g G,
    max_size: u32,
    known: RwLock<Known<G::Position>>,
    found: Mutex<Vec<FxHashMap<G::Position, u32>>>,
}

impl<'g, G: CustomGame> CustomRun<'g, G> {
    pub fn new(game: &'g G, max_size: u32) -> Self {
        CustomRun { game, max_size, known: RwLock::new(Known::new()), found: Mutex::new(Vec::new()) }
    }

    /// Adds the values the chunks found to the known ones (between jobs).
    fn publish(&self) {
        let found = std::mem::take(&mut *self.found.lock().unwrap_or_else(PoisonError::into_inner));
        self.known.write().unwrap_or_else(PoisonError::into_inner).add(found);
    }

    /// Checks the positions of one chunk, then hands over the values it found.
    fn evaluate(&self, positions: &[G::Position], size: u32, results: &mut RunResults) {
        let mut found = FxHashMap::with_capacity_and_hasher(positions.len(), Default::default());
        let mut counts = FxHashMap::default();
        {
            let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
            let mut memo = Layered { known: &known, found: &mut found };
            for position in positions {
                let (key, failed) = check(self.game, position, &mut memo);
                *counts.entry(key).or_insert(0u64) += 1;
                failed.into_iter().for_each(|disagreement| results.mismatch((1, size), disagreement));
            }
        }
        self.found.lock().unwrap_or_else(PoisonError::into_inner).push(found);
        for ((parts, value), count) in counts {
            results.count((1, size), parts, value, count);
        }
    }
}

/// The exact value by brute force (moves only), then the claim and the XOR of the parts against
/// it: the position's distribution key (parts, claimed value) and its disagreement, if any.
fn check<'a, G: CustomGame>(game: &G, position: &G::Position, memo: &mut impl Memo<G::Position, u32>) -> ((u32, u32), Option<Disagreement<'a>>) {
    let exact = grundy_with(position, memo, |q| game.moves(q));
    let parts = game.components(position);
    let split = parts.as_ref().map(|parts| parts.iter().fold(0, |x, part| x ^ grundy_with(part, memo, |q| game.moves(q))));
    let claim = game.claim(position);
    let wrong = claim.filter(|&c| c != exact).or(split.filter(|&s| s != exact));
    let failed = wrong.map(|claimed| Disagreement {
        position: format!("{position:?}"),
        claimed,
        naive_value: Some(exact),
        naive_outcome: outcome_name(exact != 0),
    });
    ((parts.map_or(0, |p| p.len() as u32), claim.or(split).unwrap_or(exact)), failed)
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

    fn jobs(&self) -> Result<Vec<Job>> {
        let parts = 4 * rayon::current_num_threads() as u64;
        let job = |size: u32| {
            let count = self.game.positions(size).len() as u64;
            Job::new(format!("size={size}"), vec![(1, size)], count, count.div_ceil(parts)).one_pattern_each()
        };
        Ok((0..=self.max_size).map(job).collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        self.publish();
        let size = index as u32;
        let positions = self.game.positions(size);
        Ok(Box::new(move |range: Range<u64>, part: &mut RunResults| {
            self.evaluate(positions.get(range.start as usize..range.end as usize).unwrap_or_default(), size, part);
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
