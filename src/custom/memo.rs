//! Exact values kept between jobs (one table, written only between jobs), the layer one chunk
//! adds, and the flat array of an indexed game's positions (shared by every chunk).

use super::layout::Layout;
use super::CustomGame;
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

/// What the brute force of one chunk looks up: an indexed position in the layout's array (where
/// it also stores it), any other in the values of finished jobs, then in the values this chunk
/// found (where it stores its own).
pub struct Layered<'a, G: CustomGame> {
    pub game: &'a G,
    pub layout: &'a Layout,
    pub known: &'a Known<G::Position>,
    pub found: &'a mut FxHashMap<G::Position, u32>,
}

impl<G: CustomGame> Memo<G::Position, u32> for Layered<'_, G> {
    fn known(&self, position: &G::Position) -> Option<u32> {
        match self.game.index(position).and_then(|at| self.layout.get(at)) {
            Some(value) => value,
            None => self.known.get(position).or_else(|| self.found.get(position).copied()),
        }
    }
    fn store(&mut self, position: G::Position, value: u32) {
        if !self.game.index(&position).is_some_and(|at| self.layout.set(at, value)) {
            self.found.insert(position, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of size n: (n, 0) and (n, 1); only the first is indexed.
    struct Pairs;

    impl CustomGame for Pairs {
        type Position = (u32, u32);
        fn positions(&self, size: u32) -> Vec<(u32, u32)> {
            vec![(size, 0), (size, 1)]
        }
        fn moves(&self, _: &(u32, u32)) -> Vec<(u32, u32)> {
            Vec::new()
        }
        fn index(&self, &(n, k): &(u32, u32)) -> Option<(u32, usize)> {
            (k == 0).then_some((n, 0))
        }
    }

    #[test]
    fn values_of_finished_jobs_of_this_chunk_and_of_the_array_are_found() {
        let mut known = Known::new();
        for job in 0..20u32 {
            known.add(vec![FxHashMap::from_iter([((job, 1), job + 100)]), FxHashMap::from_iter([((job + 1000, 1), job)])]);
        }
        assert!((0..20).all(|job| known.get(&(job, 1)) == Some(job + 100) && known.get(&(job + 1000, 1)) == Some(job)));
        assert_eq!(known.get(&(999, 1)), None);
        let (mut found, layout) = (FxHashMap::default(), Layout::of(&Pairs, 5).unwrap());
        let mut memo = Layered { game: &Pairs, layout: &layout, known: &known, found: &mut found };
        memo.store((999, 1), 7);
        memo.store((4, 0), 8);
        memo.store((9, 0), 9);
        assert_eq!((memo.known(&(999, 1)), memo.known(&(3, 1)), memo.known(&(3, 0))), (Some(7), Some(103), None));
        assert_eq!((memo.known(&(4, 0)), layout.get((4, 0)), layout.get((9, 0))), (Some(8), Some(Some(8)), None));
        assert_eq!((found.len(), found.get(&(9, 0))), (2, Some(&9)), "size 9 is past the run: kept in the chunk's table");
    }
}
