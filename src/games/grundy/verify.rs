//! Verification: every multiset of heaps with total at most T, XOR of heap values vs whole-position search.
//!
//! Result files: one size per total, `rows` = 1, `cols` = total stones; `xs` = number of heaps,
//! `grundy` = claimed value; `board` (mismatches) = the heaps separated by spaces
//! ([`crate::games::octal::totals`], as for every take-and-break code).
//! sequence.csv: the whole-position value of every single heap 0..=T (OEIS A002188).

use super::claim::Claim;
use crate::error::{Error, Result};
use crate::games::octal::brute::{self, WholePositions};
use crate::games::octal::totals;
use crate::impartial::BruteForce;
use crate::output::csv::write_csv;
use crate::output::records::SequenceRow;
use crate::runner::rule::{rule_fields, Claims};
use crate::runner::verification::BASE_PEAK_BYTES;
use crate::runner::{run_in_memory, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

pub const GAME: &str = "grundy";
/// Largest total the exhaustive run accepts (p(60) ≈ 10^6 positions in the last job).
pub const MAX_TOTAL: u16 = 60;
/// Bytes one brute-force memo keeps per partition of the job's total, measured with the
/// manifest's peak_memory_bytes on 2 threads (both chunks of the last job at once): totals 40,
/// 45 and 50 (37,338, 89,134 and 204,226 partitions) peaked at 84, 245 and 553 MiB, i.e.
/// 1,000–1,360 bytes a partition a memo; rounded up. The time stays under an hour up to
/// MAX_TOTAL (total 50 took 3.2 min on 2 busy cores, growing about threefold per 5 stones),
/// so no rate is given.
pub const BRUTE_BYTES_PER_PARTITION: f64 = 1400.0;
/// The single-heap file.
pub const SEQUENCE: &str = "sequence.csv";

/// Every position with total 1..=max_total (or exactly `only`), claim vs oracle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrundyRun {
    pub max_total: u16,
    pub claim: Claim,
    pub only: Option<u16>,
}

impl GrundyRun {
    pub fn new(max_total: u16, claim: Claim) -> Result<GrundyRun> {
        if !(1..=MAX_TOTAL).contains(&max_total) {
            return Err(Error::Usage(format!("--max (total stones) must be between 1 and {MAX_TOTAL}, not {max_total}")));
        }
        Ok(GrundyRun { max_total, claim, only: None })
    }

    fn totals(&self) -> Vec<u16> {
        self.only.map_or_else(|| (1..=self.max_total).collect(), |t| vec![t])
    }
}

impl Verification for GrundyRun {
    fn game(&self) -> &str {
        GAME
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::commands::COLUMNS
    }

    fn rule(&self) -> String {
        CLAIMS.rule("exhaustive", self.claim)
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(self.totals().into_iter().map(totals::job).collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let total = self.totals()[index];
        let g = self.claim.heap_values(total);
        let claimed = move |heaps: &[u16]| u32::from(heaps.iter().fold(0, |x, &h| x ^ g[usize::from(h)]));
        Ok(totals::evaluate(super::code(), total, claimed))
    }

    /// A job's two chunks (half its positions each) may run at once, each with its memo.
    fn peak_bytes(&self, index: usize, threads: usize) -> u64 {
        let partitions = totals::partition_count(self.totals()[index]) as f64;
        let memos = threads.clamp(1, 2) as f64;
        BASE_PEAK_BYTES + (memos * BRUTE_BYTES_PER_PARTITION * partitions) as u64
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::from([("max_total".to_string(), self.max_total.into())])
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        vec![
            "rows = 1, cols = total stones, xs = number of heaps, grundy = XOR of one-heap values (claimed)".to_string(),
            "oracle: mex over whole positions (every split of every heap), no XOR; sequence.csv = one heap, OEIS A002188".to_string(),
        ]
    }

    fn write_extra(&self, dir: &Path, _: &RunResults) -> Result<Vec<&'static str>> {
        write_csv(&dir.join(SEQUENCE), &sequence(self.max_total))?;
        Ok(vec![SEQUENCE])
    }
}

/// The whole-position value of every single heap 0..=max.
pub fn sequence(max: u16) -> Vec<SequenceRow> {
    let code = super::code();
    let game = WholePositions(&code);
    let mut brute = BruteForce::new(&game);
    (0..=max)
        .map(|n| SequenceRow { game: GAME.into(), n: n.into(), grundy: brute::solve(&mut brute, &[usize::from(n)]).0 })
        .collect()
}

/// The claims `verify grundy` can test.
pub const CLAIMS: Claims<Claim> = Claims { game: GAME, variants: &[("xor", Claim::Xor), ("equal-splits", Claim::EqualSplits)] };

/// Recomputes one summary row (`rows` = 1, total `cols`) of a run named `rule`, for `check`.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let (kind, fields) = rule_fields(rule)?;
    let total = u16::try_from(cols).ok().filter(|t| (1..=MAX_TOTAL).contains(t));
    let total = total.ok_or_else(|| Error::Usage(format!("grundy has no total {cols}")))?;
    if kind != "exhaustive" || rows != 1 {
        return Err(Error::Usage(format!("grundy has no size {rows}x{cols} under rule {rule:?}")));
    }
    let run = GrundyRun { max_total: total, claim: CLAIMS.of(fields.get("claim").copied())?, only: Some(total) };
    run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_grows_with_the_partitions_of_the_total() {
        assert_eq!((1..=20).map(totals::partition_count).collect::<Vec<_>>(), (1..=20).map(|t| totals::partitions(t).len() as u64).collect::<Vec<_>>());
        let run = GrundyRun::new(MAX_TOTAL, Claim::Xor).unwrap();
        let last = usize::from(MAX_TOTAL) - 1;
        // p(60) = 966,467 partitions, two memos: about 2.6 GiB.
        assert_eq!(run.peak_bytes(last, 8), BASE_PEAK_BYTES + (2.0 * BRUTE_BYTES_PER_PARTITION * 966_467.0) as u64);
        assert!(run.peak_bytes(last, 1) < run.peak_bytes(last, 2));
        assert!(crate::runner::cost::check(&Plan::new(&run, Shard::ALL).unwrap(), Some(1 << 30), false, 2).is_err());
    }

    #[test]
    fn small_totals_agree() {
        let results = run_in_memory(&Plan::new(&GrundyRun::new(14, Claim::Xor).unwrap(), Shard::ALL).unwrap(), &Silent).unwrap();
        assert!(results.all_agree(), "{:?}", results.mismatches);
        assert_eq!(results.sizes.values().map(|t| t.patterns).sum::<u64>(), (1..=14).map(|t| totals::partitions(t).len() as u64).sum::<u64>());
        assert_eq!(recompute_size("exhaustive", 1, 9).unwrap().sizes[&(1, 9)], results.sizes[&(1, 9)]);
        assert!(recompute_size("exhaustive", 2, 9).is_err());
        let wrong = run_in_memory(&Plan::new(&GrundyRun::new(6, Claim::EqualSplits).unwrap(), Shard::ALL).unwrap(), &Silent);
        let wrong = wrong.unwrap();
        assert_eq!(wrong.rule, "exhaustive:claim=equal-splits");
        assert!(wrong.mismatches.iter().any(|m| m.board == "2" && m.dp_grundy == 1 && m.naive_grundy == Some(0)));
        assert_eq!(results.sizes[&(1, 6)].distribution[&(2, 0)], 2, "2 + 4 (0 ^ 0) and 3 + 3 (1 ^ 1)");
    }
}
