//! Verification of the card-game claim (interval DP = plain minimax recursion) on every short row and random rows.
//!
//! Result files: `rows` = row length, `cols` = largest card value allowed; distribution key
//! (`xs`, `grundy`) = (1, 0) tie, (0, 1) first player gets more, (0, 0) first player gets less
//! (so `p_positions` counts rows the first player does not win outright); `board` (mismatches) =
//! the cards separated by spaces, `dp_grundy`/`naive_grundy` = the claimed/naive first total.

use super::claim::Claim;
use super::{brute, MAX_VALUE};
use crate::error::{Error, Result};
use crate::output::records::outcome_name;
use crate::runner::random::{below, stream};
use crate::runner::rule::{rule_fields, rule_number, Claims};
use crate::runner::{run_in_memory, Disagreement, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;

pub const GAME: &str = "cards";
pub const EXHAUSTIVE: &str = "exhaustive";
/// Longest row the brute force accepts (2^len recursion).
pub const MAX_BRUTE_LEN: usize = 22;
/// Most rows an exhaustive run checks (values^length).
pub const MAX_EXHAUSTIVE_ROWS: u64 = 1 << 32;

/// The claims `verify cards` can test.
pub const CLAIMS: Claims<Claim> = Claims { game: GAME, variants: &[("dp", Claim::Dp), ("greedy", Claim::Greedy)] };

/// Claim vs brute force on one row, tallied under (length, max_value).
fn check(claim: Claim, cards: &[u32], max_value: u32, results: &mut RunResults) {
    let claimed = claim.first_total(cards);
    let (first, second) = brute::totals(cards);
    let key = match first.cmp(&second) {
        std::cmp::Ordering::Less => (0, 0),
        std::cmp::Ordering::Equal => (1, 0),
        std::cmp::Ordering::Greater => (0, 1),
    };
    let failed = (claimed != first).then(|| Disagreement {
        position: cards.iter().map(u32::to_string).collect::<Vec<_>>().join(" "),
        claimed: claimed as u32,
        naive_value: Some(first as u32),
        naive_outcome: outcome_name(first > second),
        answer: None,
    });
    results.check((cards.len() as u32, max_value), key, failed);
}

/// Refuses lengths and values out of range (given as they were typed, before any narrowing).
pub fn check_len(len: u64, max_value: u64) -> Result<()> {
    if !(1..=MAX_BRUTE_LEN as u64).contains(&len) || !(1..=u64::from(MAX_VALUE)).contains(&max_value) {
        return Err(Error::Usage(format!(
            "card rows take lengths 1 to {MAX_BRUTE_LEN} and values 1 to {MAX_VALUE}, not {len} and {max_value}"
        )));
    }
    Ok(())
}

/// `count` random rows: row i from stream i of `seed`, length uniform in 1..=max_len, values
/// uniform in 1..=max_value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    pub max_value: u32,
}

impl RandomSpec {
    /// The rule name, e.g. `random:seed=1:count=100:max_len=16:max_value=10000`.
    fn base_rule(&self) -> String {
        format!("random:seed={}:count={}:max_len={}:max_value={}", self.seed, self.count, self.max_len, self.max_value)
    }

    /// Row number `index`.
    pub fn row(&self, index: u64) -> Vec<u32> {
        let mut rng = stream(self.seed, index);
        let len = 1 + below(&mut rng, self.max_len as u64);
        (0..len).map(|_| 1 + below(&mut rng, u64::from(self.max_value)) as u32).collect()
    }
}

/// Which rows a run checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Every row of each length in `lengths` with values 1..=max_value.
    Exhaustive { lengths: (usize, usize), max_value: u32 },
    /// Random rows; `only_len` keeps the rows of one length.
    Random { spec: RandomSpec, only_len: Option<usize> },
}

/// A cards verification: rows and the claim under test.
///
/// ```
/// use sprague::games::cards::{claim::Claim, verify::CardsRun};
/// use sprague::runner::{run_in_memory, Plan, Shard, Silent};
/// // Every row of up to 6 cards valued 1..=3, against the deliberately wrong greedy claim.
/// let run = CardsRun::exhaustive(6, 3, Claim::Greedy)?;
/// let results = run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)?;
/// assert_eq!(results.sizes[&(6, 3)].patterns, 729);
/// assert!(!results.all_agree());
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardsRun {
    pub rows: Rows,
    pub claim: Claim,
}

impl CardsRun {
    /// Every row of length 1..=max_len (or exactly `max_len` with `only`), checked.
    pub fn exhaustive(max_len: usize, max_value: u32, claim: Claim) -> Result<CardsRun> {
        check_len(max_len as u64, u64::from(max_value))?;
        let rows = |len: usize| u64::from(max_value).checked_pow(len as u32).filter(|&n| n <= MAX_EXHAUSTIVE_ROWS);
        if rows(max_len).is_none() {
            let longest = (1..max_len).rev().find(|&len| rows(len).is_some()).unwrap_or(0);
            return Err(Error::Usage(format!(
                "--max {max_len}x{max_value} is {max_value}^{max_len} rows, more than an exhaustive run checks (2^32 = {MAX_EXHAUSTIVE_ROWS}): with values 1 to {max_value} the largest is --max {longest}x{max_value} (or use --random COUNT)"
            )));
        }
        Ok(CardsRun { rows: Rows::Exhaustive { lengths: (1, max_len), max_value }, claim })
    }

    pub fn random(spec: RandomSpec, claim: Claim) -> Result<CardsRun> {
        check_len(spec.max_len as u64, u64::from(spec.max_value))?;
        Ok(CardsRun { rows: Rows::Random { spec, only_len: None }, claim })
    }
}

/// Core-seconds per random row (2,000 in 0.04 s on one core; docs/minimax.md's 0.8 s for
/// 20,000 includes writing the files), for the estimate.
pub const RANDOM_SECONDS_PER_ROW: f64 = 2e-5;

impl Verification for CardsRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::commands::COLUMNS
    }

    fn rule(&self) -> String {
        let base = match self.rows {
            Rows::Exhaustive { .. } => EXHAUSTIVE.to_string(),
            Rows::Random { spec, .. } => spec.base_rule(),
        };
        CLAIMS.rule(&base, self.claim)
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(match self.rows {
            Rows::Exhaustive { lengths: (from, to), max_value } => (from..=to)
                .map(|len| Job::new(format!("N={len}"), vec![(len as u32, max_value)], u64::from(max_value).pow(len as u32), 4096).one_pattern_each())
                .collect(),
            Rows::Random { spec, only_len } => {
                let sizes = only_len.map(|l| (l as u32, spec.max_value)).into_iter().collect();
                vec![Job::new("random", sizes, spec.count, 64)]
            }
        })
    }

    fn seconds_per_position(&self, _index: usize) -> Option<f64> {
        matches!(self.rows, Rows::Random { .. }).then_some(RANDOM_SECONDS_PER_ROW)
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let claim = self.claim;
        Ok(match self.rows {
            Rows::Exhaustive { lengths, max_value } => {
                let len = lengths.0 + index;
                Box::new(move |indices: Range<u64>, part: &mut RunResults| {
                    let mut cards = vec![0u32; len];
                    for mut index in indices {
                        for card in cards.iter_mut() {
                            *card = 1 + (index % u64::from(max_value)) as u32;
                            index /= u64::from(max_value);
                        }
                        check(claim, &cards, max_value, part);
                    }
                })
            }
            Rows::Random { spec, only_len } => Box::new(move |indices: Range<u64>, part: &mut RunResults| {
                for index in indices {
                    let row = spec.row(index);
                    if only_len.is_none_or(|l| l == row.len()) {
                        check(claim, &row, spec.max_value, part);
                    }
                }
            }),
        })
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        let (max_len, max_value, random) = match self.rows {
            Rows::Exhaustive { lengths, max_value } => (lengths.1, max_value, None),
            Rows::Random { spec, .. } => (spec.max_len, spec.max_value, Some(spec)),
        };
        let mut parameters =
            BTreeMap::from([("max_len".to_string(), max_len.into()), ("max_value".to_string(), max_value.into())]);
        if let Some(spec) = random {
            parameters.insert("random".into(), spec.count.into());
            parameters.insert("seed".into(), spec.seed.into());
        }
        parameters
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows = row length, cols = largest value; (xs, grundy) = (1, 0) tie, (0, 1) first gets more, (0, 0) first gets less".to_string(),
            "brute force: plain minimax recursion over (l, r), no table; dp_grundy/naive_grundy = first player's total".to_string(),
        ]
    }
}

/// Every row of `len` cards with values 1..=max_value, checked in this process.
pub fn verify_length(len: usize, max_value: u32, claim: Claim) -> Result<RunResults> {
    let mut run = CardsRun::exhaustive(len, max_value, claim)?;
    run.rows = Rows::Exhaustive { lengths: (len, len), max_value };
    run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
}

/// Recomputes one summary row (`rows` = length, `cols` = largest value) of a committed run named
/// `rule` (`exhaustive` or a random rule name, optionally `:claim=NAME`), for `check`.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let claim = CLAIMS.of(fields.get("claim").copied())?;
    match kind {
        EXHAUSTIVE => verify_length(rows as usize, cols, claim),
        "random" => {
            let spec = RandomSpec {
                seed: rule_number(rule, &fields, "seed")?,
                count: rule_number(rule, &fields, "count")?,
                max_len: rule_number(rule, &fields, "max_len")?,
                max_value: rule_number(rule, &fields, "max_value")?,
            };
            if spec.max_value != cols {
                return Err(Error::Usage(format!("rule {rule:?} has no size with largest value {cols}")));
            }
            let mut run = CardsRun::random(spec, claim)?;
            run.rows = Rows::Random { spec, only_len: Some(rows as usize) };
            run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
        }
        _ => Err(Error::Usage(format!("cards has no rule {rule:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_rows_agree_and_greedy_fails() {
        let r = verify_length(6, 3, Claim::Dp).unwrap();
        assert!(r.all_agree(), "{:?}", r.mismatches);
        assert_eq!(r.sizes[&(6, 3)].patterns, 729);
        let g = verify_length(4, 4, Claim::Greedy).unwrap();
        assert!(g.mismatches.iter().any(|m| m.board == "1 4 2 1"), "{:?}", g.mismatches);
        assert_eq!(g.rule, "exhaustive:claim=greedy");
    }

    #[test]
    fn too_many_rows_name_the_largest_size() {
        let refused = |len, value| CardsRun::exhaustive(len, value, Claim::Dp).unwrap_err().to_string();
        assert_eq!(
            refused(22, 4),
            "--max 22x4 is 4^22 rows, more than an exhaustive run checks (2^32 = 4294967296): with values 1 to 4 the largest is --max 16x4 (or use --random COUNT)"
        );
        assert!(refused(3, 10000).ends_with("the largest is --max 2x10000 (or use --random COUNT)"));
        assert!(CardsRun::exhaustive(16, 4, Claim::Dp).is_ok());
    }

    #[test]
    fn random_rows_split_by_length() {
        let spec = RandomSpec { seed: 2, count: 200, max_len: 8, max_value: 50 };
        let run = CardsRun::random(spec, Claim::Dp).unwrap();
        let all = run_in_memory(&Plan::new(&run, Shard::ALL).unwrap(), &Silent).unwrap();
        assert!(all.all_agree());
        let three = recompute_size(&run.rule(), 3, 50).unwrap();
        assert_eq!(three.sizes[&(3, 50)], all.sizes[&(3, 50)]);
    }
}
