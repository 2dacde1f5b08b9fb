//! A catalogue verification run: the sizes of one game as jobs, sequence.csv, manifest notes; `check`'s recomputation.

use super::entries::entry;
use super::verify::{check_request, default_rule, size_groups, verifier, Layout, SizeGroups, Verifier, SEQUENCE};
use crate::output::records::SequenceRow;
use crate::error::{Error, Result};
use crate::output::csv::write_csv;
use crate::runner::verification::BASE_PEAK_BYTES;
use crate::runner::{run_in_memory, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Largest single heap written to sequence.csv by default (divisor: 10^4 numbers).
pub const SEQUENCE_CAP: u64 = 10_000;
/// sequence.csv up to heap N costs about this many seconds times N² (heap n has n moves;
/// nim to 10^4 took 4 s), for the estimate a run is refused on.
pub const SEQUENCE_SECONDS_PER_HEAP_SQUARED: f64 = 4e-8;

/// The options of a catalogue run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueOptions {
    pub game: String,
    /// Claim variant (default: the game's own).
    pub rule: Option<String>,
    pub piles: u32,
    pub max: u64,
    pub heaps: u64,
    /// sequence.csv up to this heap (default: the largest heap checked, at most 10,000).
    pub sequence: Option<u64>,
}

/// Every position of every size of one catalogue game, claim vs brute force.
pub struct CatalogueRun {
    options: CatalogueOptions,
    rule: String,
    verifier: Box<dyn Verifier>,
    groups: SizeGroups,
    /// sequence.csv's last heap, and its rows once needed (brute force: only when files are written).
    sequence_max: u32,
    sequence: std::sync::OnceLock<Vec<SequenceRow>>,
}

impl CatalogueRun {
    pub fn new(options: CatalogueOptions) -> Result<CatalogueRun> {
        let rule = options.rule.clone().unwrap_or_else(|| default_rule(&options.game).to_string());
        check_request(&*verifier(&options.game, &rule)?, options.piles, options.max, options.heaps)?;
        let groups = size_groups(&options.game, options.piles, options.max, options.heaps)?;
        let mut run = CatalogueRun::with_groups(&options.game, &rule, groups)?;
        run.sequence = std::sync::OnceLock::new();
        // Single heaps beyond --max (--heaps) exist in pile layouts only.
        let heap_max = match entry(&options.game)?.layout {
            Layout::Piles => options.max.max(options.heaps),
            Layout::Line { .. } | Layout::Decades { .. } => options.max,
        };
        let wanted = options.sequence.unwrap_or(heap_max.min(SEQUENCE_CAP));
        let sequence_max = u32::try_from(wanted)
            .map_err(|_| Error::Usage(format!("--sequence {wanted} is too large (at most {})", u32::MAX)))?;
        run.sequence_max = sequence_max;
        run.options = options;
        Ok(run)
    }

    fn with_groups(game: &str, rule: &str, groups: SizeGroups) -> Result<CatalogueRun> {
        let verifier = verifier(game, rule)?;
        if let Some(&(rows, cols)) = groups.iter().flat_map(|(_, s)| s).find(|&&(r, c)| !verifier.size_allowed(r, c)) {
            return Err(Error::Usage(format!("{game} size {rows}x{cols} is beyond what the brute force handles")));
        }
        let options = CatalogueOptions { game: game.into(), rule: Some(rule.into()), piles: 0, max: 0, heaps: 0, sequence: None };
        let sequence = std::sync::OnceLock::from(Vec::new());
        Ok(CatalogueRun { options, rule: rule.to_string(), verifier, groups, sequence_max: 0, sequence })
    }

    /// The brute-force values of single heaps for sequence.csv (computed on first use).
    fn sequence(&self) -> &[SequenceRow] {
        self.sequence.get_or_init(|| self.verifier.sequence(self.sequence_max))
    }
}

impl Verification for CatalogueRun {
    fn game(&self) -> &str {
        self.verifier.game()
    }

    fn columns(&self) -> crate::output::records::Columns {
        super::columns(self.verifier.game())
    }

    fn rule(&self) -> String {
        self.rule.clone()
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(self
            .groups
            .iter()
            .map(|(label, sizes)| {
                let count = self.verifier.count(sizes);
                Job::new(label.clone(), sizes.clone(), count, chunk_of(count)).one_pattern_each()
            })
            .collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        Ok(self.verifier.positions_of(&self.groups[index].1).1)
    }

    fn peak_bytes(&self, index: usize, threads: usize) -> u64 {
        let sizes = &self.groups[index].1;
        let memo = self.verifier.memo_peak_bytes(sizes, chunk_of(self.verifier.count(sizes)), threads);
        BASE_PEAK_BYTES.saturating_add(memo.min(u64::MAX as f64) as u64)
    }

    fn job_seconds(&self, index: usize, positions: std::ops::Range<u64>, chunk: u64) -> Option<f64> {
        self.verifier.seconds(&self.groups[index].1, positions, chunk)
    }

    fn extra_seconds(&self) -> f64 {
        SEQUENCE_SECONDS_PER_HEAP_SQUARED * f64::from(self.sequence_max).powi(2)
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        BTreeMap::from([
            ("max".to_string(), self.options.max.into()),
            ("piles".to_string(), self.options.piles.into()),
            ("heaps".to_string(), self.options.heaps.into()),
            ("sequence_rows".to_string(), self.sequence().len().into()),
        ])
    }

    fn notes(&self, results: &RunResults) -> Vec<String> {
        let (game, rule) = (self.verifier.game(), &self.rule);
        let failed: Vec<String> = results.mismatch_rows().iter().map(|m| format!("{} ({}x{})", m.board, m.rows, m.cols)).collect();
        let mut notes = if failed.is_empty() {
            vec![format!("{game} ({rule}): the claim agrees with brute force on every position checked")]
        } else {
            vec![format!("{game} ({rule}): the claim FAILS at {}", failed.join(", "))]
        };
        notes.extend(self.verifier.notes());
        notes
    }

    fn write_extra(&self, dir: &Path, _: &RunResults) -> Result<Vec<&'static str>> {
        if self.sequence().is_empty() {
            return Ok(Vec::new());
        }
        write_csv(&dir.join(SEQUENCE), self.sequence())?;
        Ok(vec![SEQUENCE])
    }
}

/// Positions per parallel chunk of a job of `count` positions: a sixteenth of it.
fn chunk_of(count: u64) -> u64 {
    count.div_ceil(16)
}

/// Recomputes one size of a committed result (for `check`): same positions, same claim.
pub fn recompute_size(game: &str, rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let run = CatalogueRun::with_groups(game, rule, vec![(format!("{rows}x{cols}"), vec![(rows, cols)])])?;
    run_in_memory(&Plan::new(&run, Shard::ALL)?, &Silent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(game: &str, piles: u32, max: u64, heaps: u64) -> CatalogueRun {
        let options = CatalogueOptions { game: game.into(), rule: None, piles, max, heaps, sequence: None };
        CatalogueRun::new(options).unwrap()
    }

    fn estimate(run: &CatalogueRun, threads: usize) -> crate::runner::cost::Estimate {
        crate::runner::cost::estimate(&Plan::new(run, Shard::ALL).unwrap(), threads)
    }

    /// Measured (one thread, /usr/bin/time): `verify nim --piles 1 --max 1 --heaps 5000` 7.0
    /// core-s, `--heaps 100000` 53 core-min; `--piles 6 --max 20` 15 core-s and 79 MiB.
    #[test]
    fn nim_runs_are_estimated_from_their_brute_force() {
        let seconds = |run: &CatalogueRun| estimate(run, 1).seconds.unwrap();
        let heaps = seconds(&plan_of("nim", 1, 1, 5000));
        assert!((3.5..14.0).contains(&heaps), "{heaps} s");
        let heaps = seconds(&plan_of("nim", 1, 1, 100_000));
        assert!((1600.0..6400.0).contains(&heaps), "{heaps} s");
        let piles = estimate(&plan_of("nim", 6, 20, 0), 1);
        assert!((7.5..30.0).contains(&piles.seconds.unwrap()), "{piles:?}");
        let measured = 79.0 * (1 << 20) as f64;
        assert!((measured / 2.0..measured * 2.0).contains(&(piles.peak_bytes as f64)), "{piles:?}");
        // Pimber's heaps have a few moves each, odd-even Nim's half of Nim's.
        assert!(seconds(&plan_of("pimber", 1, 1, 100_000)) < 60.0);
        let odd_even = seconds(&plan_of("odd-even-nim", 1, 1, 100_000));
        assert!((0.3..0.7).contains(&(odd_even / seconds(&plan_of("nim", 1, 1, 100_000)))), "{odd_even}");
    }

    /// Measured (one thread, /usr/bin/time): `verify odd-even-nim --piles 1 --max 1 --heaps
    /// 10000` 35 s and 23 MiB, `verify pimber --piles 1 --max 1 --heaps 100000` 6.8 s and 124
    /// MiB (before their moves were listed smallest first and pimber's claimed table shared:
    /// 1.3 GiB, and 5.0 GiB in 125 s). The estimate may be high, never low.
    #[test]
    fn single_heaps_are_estimated_from_their_brute_force() {
        for (game, heaps, seconds, mib) in [("odd-even-nim", 10_000, 35.0, 23.0), ("pimber", 100_000, 6.8, 124.0)] {
            let estimate = estimate(&plan_of(game, 1, 1, heaps), 1);
            let (estimated, bytes) = (estimate.seconds.unwrap(), estimate.peak_bytes as f64);
            assert!((seconds / 2.0..seconds * 2.0).contains(&estimated), "{game} --heaps {heaps}: {estimated} s");
            let measured = mib * (1 << 20) as f64;
            assert!((measured..measured * 4.0).contains(&bytes), "{game} --heaps {heaps}: {bytes} bytes");
        }
    }

    /// Measured: `verify divisor --max 10000000 --threads 1` peaks at 250 MiB (the positions
    /// listed, 16 bytes each, and the sieves' tables), not the 64 MiB of a run's base.
    #[test]
    fn divisor_runs_count_their_positions_and_tables() {
        let peak = estimate(&plan_of("divisor", 0, 10_000_000, 0), 1).peak_bytes as f64;
        let measured = 250.0 * (1 << 20) as f64;
        assert!((measured / 2.0..measured * 2.0).contains(&peak), "{peak}");
    }

    /// Measured (user + system time, /usr/bin/time, one thread; the rates' own comments say
    /// more): `verify polygon --max 16` 3.6 core-s, `verify cross --max 24` 26.5, `verify
    /// divisor --max 10000000` 27.
    #[test]
    fn polygon_cross_and_divisor_runs_are_estimated() {
        let seconds = |game: &str, max: u64| estimate(&plan_of(game, 0, max, 0), 1).seconds.unwrap();
        for (game, max, measured) in [("polygon", 16, 3.6), ("cross", 24, 26.5), ("divisor", 10_000_000, 27.0)] {
            let estimated = seconds(game, max);
            assert!((measured / 2.0..measured * 2.0).contains(&estimated), "{game} --max {max}: {estimated} s");
        }
        // The largest runs allowed fit in a day on one thread: the brute forces' limits come first.
        for (game, max) in [("polygon", 16), ("cross", 28), ("divisor", 100_000_000)] {
            let run = plan_of(game, 0, max, 0);
            let plan = Plan::new(&run, Shard::ALL).unwrap();
            let estimate = crate::runner::cost::check(&plan, Some(u64::MAX), false, 1).unwrap();
            assert!((1.0..3600.0).contains(&estimate.seconds.unwrap()), "{game} --max {max}: {estimate:?}");
        }
    }

    #[test]
    fn nim_runs_past_the_memory_are_refused() {
        // 8 piles of up to 32 stones: each worker's memo holds the 7.7·10⁷ multisets below.
        let run = plan_of("nim", 8, 32, 0);
        let plan = Plan::new(&run, Shard::ALL).unwrap();
        let err = crate::runner::cost::check(&plan, Some(16 << 30), false, 2).unwrap_err().to_string();
        assert!(err.starts_with("job piles=8 needs an estimated 4") && err.contains("GiB of memory on 2 threads"), "{err}");
        let one = crate::runner::cost::check(&plan, Some(u64::MAX), false, 1).unwrap();
        assert!(one.peak_bytes < 32 << 30 && one.seconds.unwrap() > 3600.0, "{one:?}");
        let heaps = plan_of("nim", 1, 1, 100_000);
        let err = crate::runner::cost::check(&Plan::new(&heaps, Shard::ALL).unwrap(), Some(1 << 20), false, 2).unwrap_err().to_string();
        assert!(err.starts_with("job heaps needs an estimated"), "{err}");
    }

    #[test]
    fn recompute_checks_sizes_and_rules() {
        let r = recompute_size("nim", "standard", 3, 5).unwrap();
        assert_eq!(r.sizes[&(3, 5)].patterns, 15);
        assert!(recompute_size("polygon", "standard", 1, 40).unwrap_err().to_string().contains("beyond"));
        assert!(recompute_size("nim", "misere", 1, 4).is_err());
    }
}
