//! The sizes of a custom run: how many positions each has, which sizes run together as one
//! job, and, for a game that indexes its positions, one flat array of their values.

use super::CustomGame;
use crate::error::{Error, Result};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Sizes with fewer positions than this run several to a job (until the job has this many), so
/// that a game of one position per size does not pay a job's overhead for every position.
pub const JOB_POSITIONS: u64 = 1 << 10;

/// A value not found yet in the flat array.
const UNKNOWN: u32 = u32::MAX;

pub struct Layout {
    /// `starts[s]`: the positions of all sizes below `s`; the last entry is the total.
    starts: Vec<u64>,
    /// The sizes of each job, in order.
    pub jobs: Vec<RangeInclusive<u32>>,
    /// `positions(s)[i]`'s value at `starts[s] + i`, when the game indexes its positions.
    values: Option<Box<[AtomicU32]>>,
}

impl Layout {
    /// Counts the positions of sizes 0..=`max_size` and checks the game's index on each: it
    /// must be `None` or the position's own place, `(size, i)` for `positions(size)[i]`.
    pub fn of<G: CustomGame>(game: &G, max_size: u32) -> Result<Layout> {
        let (mut starts, mut indexed) = (vec![0u64], false);
        for size in 0..=max_size {
            let positions = game.positions(size);
            for (i, position) in positions.iter().enumerate() {
                match game.index(position) {
                    None => {}
                    Some(at) if at == (size, i) => indexed = true,
                    Some(at) => {
                        let name = game.name();
                        let message = format!("{name}: index({position:?}) is {at:?}, but that position is positions({size})[{i}]");
                        return Err(Error::Usage(message));
                    }
                }
            }
            starts.push(starts[size as usize] + positions.len() as u64);
        }
        let total = starts[starts.len() - 1];
        let values = indexed.then(|| (0..total).map(|_| AtomicU32::new(UNKNOWN)).collect());
        Ok(Layout { jobs: group(&starts), starts, values })
    }

    /// True when the game indexes its positions (and the array exists).
    pub fn indexed(&self) -> bool {
        self.values.is_some()
    }

    /// Positions of `size`.
    pub fn count(&self, size: u32) -> u64 {
        self.starts[size as usize + 1] - self.starts[size as usize]
    }

    /// Positions of the sizes of job `index`.
    pub fn job_count(&self, index: usize) -> u64 {
        self.jobs[index].clone().map(|size| self.count(size)).sum()
    }

    /// The value of `positions(size)[i]` where the array holds it (`None`: not indexed).
    #[inline]
    pub fn get(&self, at: (u32, usize)) -> Option<Option<u32>> {
        self.slot(at).map(|slot| Some(slot.load(Relaxed)).filter(|&v| v != UNKNOWN))
    }

    /// Stores the value of `positions(size)[i]`; false where the array does not hold it.
    /// Chunks may store one position at once: it is the same exact value either way.
    #[inline]
    pub fn set(&self, at: (u32, usize), value: u32) -> bool {
        self.slot(at).map(|slot| slot.store(value, Relaxed)).is_some()
    }

    #[inline]
    fn slot(&self, (size, i): (u32, usize)) -> Option<&AtomicU32> {
        let values = self.values.as_ref()?;
        let (start, end) = (*self.starts.get(size as usize)?, *self.starts.get(size as usize + 1)?);
        let at = start.checked_add(i as u64).filter(|&at| at < end)?;
        values.get(at as usize)
    }
}

/// The jobs: a size of at least [`JOB_POSITIONS`] positions alone, smaller ones together until
/// a job has that many.
fn group(starts: &[u64]) -> Vec<RangeInclusive<u32>> {
    let sizes = starts.len() - 1;
    let count = |size: usize| starts[size + 1] - starts[size];
    let (mut jobs, mut first) = (Vec::new(), 0);
    for size in 0..sizes {
        let full = starts[size + 1] - starts[first] >= JOB_POSITIONS;
        if full || size + 1 == sizes || count(size + 1) >= JOB_POSITIONS {
            jobs.push(first as u32..=size as u32);
            first = size + 1;
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_sizes_share_a_job_and_large_ones_have_their_own() {
        let mut starts = vec![0];
        for count in [1u64, 1, 1, 2000, 600, 600, 1, 1500, 5] {
            starts.push(starts[starts.len() - 1] + count);
        }
        assert_eq!(group(&starts), [0..=2, 3..=3, 4..=5, 6..=6, 7..=7, 8..=8]);
        assert_eq!(group(&[0, 1, 2]), [0..=1]);
    }
}
