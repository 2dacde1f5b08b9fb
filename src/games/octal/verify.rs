//! `verify octal CODE`: every multiset of heaps with total at most T, the XOR of one-heap values
//! (the sparse-space method) vs whole-position search ([`super::totals`], [`super::brute`]).
//!
//! Result files as for Grundy's game: one size per total (`rows` = 1, `cols` = total stones),
//! `xs` = number of heaps, `grundy` = claimed value, `board` (mismatches) = the heaps.

use super::code::Code;
use super::totals;
use super::values::{values, Method};
use crate::error::{Error, Result};
use crate::output::records::Columns;
use crate::runner::rule::Claims;
use crate::runner::{Evaluate, Job, RunResults, Verification};
use serde_json::Value;
use std::collections::BTreeMap;

pub const GAME: &str = "octal";
/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["totals", "stones"], key: "heaps", position: "heap_sizes", answer: false };
/// Largest total the exhaustive run accepts.
pub const MAX_TOTAL: u16 = 40;

/// What the position's value is claimed to be, from the one-heap values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Their XOR (the Sprague–Grundy theorem; the claim under test).
    Xor,
    /// Their ordinary sum — a misreading, to show the check can fail.
    Sum,
}

/// The claims `verify octal` can test.
pub const CLAIMS: Claims<Claim> = Claims { game: GAME, variants: &[("xor", Claim::Xor), ("sum", Claim::Sum)] };

/// Every position of `code` with total 1..=max_total, claim vs oracle.
#[derive(Debug, Clone)]
pub struct OctalRun {
    pub code: Code,
    pub max_total: u16,
    pub claim: Claim,
    /// g(0..=max_total) by the sparse-space method.
    heap_values: Vec<u16>,
}

impl OctalRun {
    pub fn new(code: Code, max_total: u64, claim: Claim) -> Result<OctalRun> {
        let Some(max_total) = u16::try_from(max_total).ok().filter(|m| (1..=MAX_TOTAL).contains(m)) else {
            return Err(Error::Usage(format!("--max (total stones) must be between 1 and {MAX_TOTAL}, not {max_total}")));
        };
        let heap_values = values(&code, usize::from(max_total), Method::Sparse)?;
        Ok(OctalRun { code, max_total, claim, heap_values })
    }

    /// The claimed value of `heaps`.
    pub fn claimed(&self, heaps: &[u16]) -> u32 {
        let g = heaps.iter().map(|&h| u32::from(self.heap_values[usize::from(h)]));
        match self.claim {
            Claim::Xor => g.fold(0, |x, v| x ^ v),
            Claim::Sum => g.sum(),
        }
    }
}

impl Verification for OctalRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> Columns {
        COLUMNS
    }

    fn rule(&self) -> String {
        CLAIMS.rule(&format!("exhaustive:code={}", self.code), self.claim)
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok((1..=self.max_total).map(totals::job).collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        Ok(totals::evaluate(self.code.clone(), index as u16 + 1, |heaps| self.claimed(heaps)))
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::from([("max_total".to_string(), self.max_total.into()), ("code".to_string(), self.code.to_string().into())])
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows = 1, cols = total stones, xs = number of heaps, grundy = XOR of one-heap values (claimed, sparse-space method)".to_string(),
            "oracle: mex over whole positions (every move of the code on every heap), no XOR".to_string(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{run_in_memory, Plan, Shard, Silent};

    fn run(code: &str, max: u16, claim: Claim) -> RunResults {
        let run = OctalRun::new(Code::parse(code).unwrap(), u64::from(max), claim).unwrap();
        run_in_memory(&Plan::new(&run, Shard::ALL).unwrap(), &Silent).unwrap()
    }

    #[test]
    fn the_xor_holds_and_the_sum_is_caught() {
        for code in ["0.77", "0.137", "4.07", "grundy", "{1,3,4}", "0x0.8"] {
            let results = run(code, 12, Claim::Xor);
            assert!(results.all_agree(), "{code}: {:?}", results.mismatches);
        }
        let wrong = run("0.77", 4, Claim::Sum);
        assert_eq!(wrong.rule, "exhaustive:code=0.77:claim=sum");
        assert!(wrong.mismatches.iter().any(|m| m.board == "1 1" && m.dp_grundy == 2 && m.naive_grundy == Some(0)));
        assert!(OctalRun::new(Code::parse("0.6").unwrap(), 41, Claim::Xor).is_err());
    }
}
