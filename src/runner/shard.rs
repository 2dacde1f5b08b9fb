//! Deterministic slices of a pattern range for `--shard K/N`.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Shard K of N (1 ≤ K ≤ N): the K-th of N contiguous, near-equal slices of a range (of a run's
/// positions, its jobs laid end to end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole range (shard 1/1).
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The slice of `0..total` this shard owns.
    pub fn slice(self, total: u64) -> Range<u64> {
        self.part(u128::from(total), 0, total)
    }

    /// This shard's slice of `0..all` (the positions of every job laid end to end), as
    /// positions `0..total` of the job whose positions start at `start`: N shards of many
    /// small jobs share them out (a job of fewer than N positions is not left whole to one).
    pub fn part(self, all: u128, start: u128, total: u64) -> Range<u64> {
        let n = u128::from(self.count);
        // ⌊all·k/n⌋ without the product: all·k may pass 2^128, (all mod n)·k does not.
        let bound = |k: u64| (all / n) * u128::from(k) + (all % n) * u128::from(k) / n;
        let within = |at: u128| (at.clamp(start, start + u128::from(total)) - start) as u64;
        within(bound(self.index - 1))..within(bound(self.index))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("invalid shard {s:?}: expected K/N with 1 ≤ K ≤ N, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_partition_the_range() {
        for total in [0u64, 1, 7, 1 << 20] {
            let mut next = 0;
            for k in 1..=3 {
                let r = Shard { index: k, count: 3 }.slice(total);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, total);
        }
    }

    /// The jobs' positions laid end to end are partitioned: each position once, each shard's
    /// share within one of the fair one (a run of one-position jobs is spread, not left to the
    /// last shard), and one job's slices are [`Shard::slice`]'s.
    #[test]
    fn parts_partition_the_jobs_laid_end_to_end() {
        for totals in [vec![1u64; 9], vec![0, 3, 1, 0, 7], vec![1 << 40, 5, u64::MAX]] {
            let all: u128 = totals.iter().map(|&t| u128::from(t)).sum();
            for count in [1u64, 2, 3, 8, u64::MAX] {
                let mut nexts = vec![0u64; totals.len()];
                for index in (1..=count).take(9).chain(count.saturating_sub(8).max(10)..=count) {
                    let shard = Shard { index, count };
                    let mut start = 0u128;
                    let mut share = 0u128;
                    for (job, &total) in totals.iter().enumerate() {
                        let r = shard.part(all, start, total);
                        assert!(r.start <= r.end && r.end <= total, "{totals:?} {shard} job {job}: {r:?}");
                        if count <= 9 {
                            assert_eq!(r.start, nexts[job], "{totals:?} {shard} job {job}");
                            nexts[job] = r.end;
                        }
                        share += u128::from(r.end - r.start);
                        start += u128::from(total);
                    }
                    assert!(share.abs_diff(all / u128::from(count)) <= 1, "{totals:?} {shard}: {share}");
                }
                if count <= 9 {
                    assert_eq!(nexts, totals, "{count} shards cover every job");
                }
            }
        }
        assert_eq!((1..=3).map(|k| Shard { index: k, count: 3 }.part(9, 4, 1)).collect::<Vec<_>>(), [0..0, 0..1, 1..1]);
        assert_eq!(Shard { index: 2, count: 5 }.part(1 << 20, 0, 1 << 20), Shard { index: 2, count: 5 }.slice(1 << 20));
    }

    #[test]
    fn parses() {
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { index: 2, count: 8 });
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
