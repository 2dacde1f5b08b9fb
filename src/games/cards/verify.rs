//! Verification of the card-game claim (interval DP = plain minimax recursion) on every short row and random rows.
//!
//! Result files: `rows` = row length, `cols` = largest card value allowed; distribution key
//! (`xs`, `grundy`) = (1, 0) tie, (0, 1) first player gets more, (0, 0) first player gets less
//! (so `p_positions` counts rows the first player does not win outright); `board` (mismatches) =
//! the cards separated by spaces, `dp_grundy`/`naive_grundy` = the claimed/naive first total.

use crate::runner::parallel::{below, par_run, record, rule_fields, rule_name, rule_number, stream};
use crate::runner::tally::RunResults;
use crate::error::{Error, Result};
use crate::games::cards::claim::Claim;
use crate::games::cards::{brute, MAX_VALUE};
use crate::output::records::outcome_name;

pub const GAME: &str = "cards";
pub const EXHAUSTIVE: &str = "exhaustive";
/// Longest row the brute force accepts (2^len recursion).
pub const MAX_BRUTE_LEN: usize = 22;

/// The claim's CLI name.
pub fn claim_name(claim: Claim) -> &'static str {
    match claim {
        Claim::Dp => "dp",
        Claim::Greedy => "greedy",
    }
}

fn claim_of(name: Option<&str>) -> Result<Claim> {
    match name {
        None | Some("dp") => Ok(Claim::Dp),
        Some("greedy") => Ok(Claim::Greedy),
        Some(other) => Err(Error::Usage(format!("cards has no claim {other:?} (dp or greedy)"))),
    }
}

/// Claim vs brute force on one row, tallied under (length, max_value).
fn check(claim: Claim, cards: &[u32], max_value: u32, results: &mut RunResults) {
    let claimed = claim.first_total(cards);
    let (first, second) = brute::totals(cards);
    let key = match first.cmp(&second) {
        std::cmp::Ordering::Less => (0, 0),
        std::cmp::Ordering::Equal => (1, 0),
        std::cmp::Ordering::Greater => (0, 1),
    };
    let mismatch = (claimed != first).then(|| {
        let shown: Vec<String> = cards.iter().map(u32::to_string).collect();
        (shown.join(" "), claimed as u32, Some(first as u32), outcome_name(first > second))
    });
    record(results, (cards.len() as u32, max_value), key, mismatch);
}

fn check_len(len: usize, max_value: u32) -> Result<()> {
    if !(1..=MAX_BRUTE_LEN).contains(&len) || !(1..=MAX_VALUE).contains(&max_value) {
        return Err(Error::Usage(format!(
            "card rows take lengths 1 to {MAX_BRUTE_LEN} and values 1 to {MAX_VALUE}, not {len} and {max_value}"
        )));
    }
    Ok(())
}

/// Every row of `len` cards with values 1..=max_value, in parallel.
pub fn verify_length(len: usize, max_value: u32, claim: Claim, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    check_len(len, max_value)?;
    let total = u64::from(max_value).checked_pow(len as u32).filter(|&n| n <= 1 << 32);
    let total = total.ok_or_else(|| Error::Usage(format!("{max_value}^{len} rows are too many")))?;
    let rule = rule_name(EXHAUSTIVE, claim_name(claim), "dp");
    Ok(par_run(GAME, &rule, &[(len as u32, max_value)], total, 4096, progress, |indices, part| {
        let mut cards = vec![0u32; len];
        for mut index in indices {
            for card in cards.iter_mut() {
                *card = 1 + (index % u64::from(max_value)) as u32;
                index /= u64::from(max_value);
            }
            check(claim, &cards, max_value, part);
        }
    }))
}

/// `count` random rows: row i from stream i of `seed`, length uniform in 1..=max_len, values
/// uniform in 1..=max_value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomSpec {
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    pub max_value: u32,
    pub claim: Claim,
}

impl RandomSpec {
    /// The rule name, e.g. `random:seed=1:count=100:max_len=16:max_value=10000`.
    pub fn rule(&self) -> String {
        let base = format!("random:seed={}:count={}:max_len={}:max_value={}", self.seed, self.count, self.max_len, self.max_value);
        rule_name(&base, claim_name(self.claim), "dp")
    }

    /// Row number `index`.
    pub fn row(&self, index: u64) -> Vec<u32> {
        let mut rng = stream(self.seed, index);
        let len = 1 + below(&mut rng, self.max_len as u64);
        (0..len).map(|_| 1 + below(&mut rng, u64::from(self.max_value)) as u32).collect()
    }
}

/// Random rows, claim vs brute force, in parallel; `only_len` keeps the rows of one length.
pub fn verify_random(spec: RandomSpec, only_len: Option<usize>, progress: &(dyn Fn(u64) + Sync)) -> Result<RunResults> {
    check_len(spec.max_len, spec.max_value)?;
    let sizes: Vec<(u32, u32)> = only_len.map(|l| (l as u32, spec.max_value)).into_iter().collect();
    Ok(par_run(GAME, &spec.rule(), &sizes, spec.count, 64, progress, |indices, part| {
        for index in indices {
            let row = spec.row(index);
            if !only_len.is_some_and(|l| l != row.len()) {
                check(spec.claim, &row, spec.max_value, part);
            }
        }
    }))
}

/// Recomputes one summary row (`rows` = length, `cols` = largest value) of a committed run named
/// `rule` (`exhaustive` or a [`RandomSpec::rule`] name, optionally `:claim=NAME`), for `check`.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let claim = claim_of(fields.get("claim").copied())?;
    match kind {
        EXHAUSTIVE => verify_length(rows as usize, cols, claim, &|_| {}),
        "random" => {
            let number = |key| rule_number(rule, &fields, key);
            let spec = RandomSpec {
                seed: number("seed")?,
                count: number("count")?,
                max_len: number("max_len")? as usize,
                max_value: number("max_value")? as u32,
                claim,
            };
            if spec.max_value != cols {
                return Err(Error::Usage(format!("rule {rule:?} has no size with largest value {cols}")));
            }
            verify_random(spec, Some(rows as usize), &|_| {})
        }
        _ => Err(Error::Usage(format!("cards has no rule {rule:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_rows_agree_and_greedy_fails() {
        let r = verify_length(6, 3, Claim::Dp, &|_| {}).unwrap();
        assert!(r.all_agree(), "{:?}", r.mismatches);
        assert_eq!(r.sizes[&(6, 3)].patterns, 729);
        let g = verify_length(4, 4, Claim::Greedy, &|_| {}).unwrap();
        assert!(g.mismatches.iter().any(|m| m.board == "1 4 2 1"), "{:?}", g.mismatches);
    }

    #[test]
    fn random_rows_split_by_length() {
        let spec = RandomSpec { seed: 2, count: 200, max_len: 8, max_value: 50, claim: Claim::Dp };
        let all = verify_random(spec, None, &|_| {}).unwrap();
        assert!(all.all_agree());
        let three = recompute_size(&spec.rule(), 3, 50).unwrap();
        assert_eq!(three.sizes[&(3, 50)], all.sizes[&(3, 50)]);
    }
}
