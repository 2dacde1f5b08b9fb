//! Exact values kept between jobs (one table, written only between jobs) and the layer one chunk adds.

use crate::impartial::Memo;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// The values of finished jobs.
pub struct Known<P>(FxHashMap<P, u32>);

impl<P: Eq + Hash> Known<P> {
    pub fn new() -> Self {
        Known(FxHashMap::default())
    }

    pub fn get(&self, position: &P) -> Option<u32> {
        self.0.get(position).copied()
    }

    /// Adds the values the chunks of one job found.
    pub fn add(&mut self, found: Vec<FxHashMap<P, u32>>) {
        self.0.reserve(found.iter().map(FxHashMap::len).sum());
        found.into_iter().for_each(|values| self.0.extend(values));
    }
}

/// What the brute force of one chunk looks up: the values of finished jobs, then the values
/// this chunk found (where it stores its own).
pub struct Layered<'a, P> {
    pub known: &'a Known<P>,
    pub found: &'a mut FxHashMap<P, u32>,
}

impl<P: Eq + Hash> Memo<P, u32> for Layered<'_, P> {
    fn known(&self, position: &P) -> Option<u32> {
        self.known.get(position).or_else(|| self.found.get(position).copied())
    }
    fn store(&mut self, position: P, value: u32) {
        self.found.insert(position, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_finished_jobs_and_of_this_chunk_are_found() {
        let mut known = Known::new();
        for job in 0..20u32 {
            known.add(vec![FxHashMap::from_iter([(job, job + 100)]), FxHashMap::from_iter([(job + 1000, job)])]);
        }
        assert!((0..20).all(|job| known.get(&job) == Some(job + 100) && known.get(&(job + 1000)) == Some(job)));
        assert_eq!(known.get(&999), None);
        let mut found = FxHashMap::default();
        let mut memo = Layered { known: &known, found: &mut found };
        memo.store(999, 7);
        assert_eq!((memo.known(&999), memo.known(&3)), (Some(7), Some(103)));
    }
}
