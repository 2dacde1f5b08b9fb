//! Deterministic slices of a pattern range for `--shard K/N`.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Shard K of N (1 ≤ K ≤ N): the K-th of N contiguous, near-equal slices of every range.
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
        let bound = |k: u64| ((total as u128 * k as u128) / self.count as u128) as u64;
        bound(self.index - 1)..bound(self.index)
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

    #[test]
    fn parses() {
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { index: 2, count: 8 });
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
