//! What a run will cost before it starts: time from the game's measured per-position rates and
//! peak memory, and the refusal of a run that will not fit in memory or would take over a day.

use super::resumable::Plan;
use crate::error::{Error, Result};
use crate::output::text::format_bytes;
use crate::sys;

/// A day: longer runs need `--force`.
pub const DAY_SECONDS: f64 = 86_400.0;

/// Work per parallel chunk the runner aims at, so that progress moves several times a second.
pub const CHUNK_SECONDS: f64 = 0.05;

/// Bytes the results of one size take while a run holds them: its tallies in the run's
/// results, a chunk's and the checkpoint's copy (measured: `verify pimber --heaps 100000`, a
/// size per heap, 75 MB of tallies for 100,000 sizes).
pub const SIZE_RESULT_BYTES: u64 = 800;

/// The estimate of one run (this shard of it) on a number of threads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Wall seconds, when the game has an estimate for every job (with only its extra work known:
    /// that, a lower bound).
    pub seconds: Option<f64>,
    /// Peak bytes: the hungriest job's and the results of every size ([`SIZE_RESULT_BYTES`]);
    /// and that job's index.
    pub peak_bytes: u64,
    pub hungriest: usize,
}

/// Estimates `plan` on `threads` threads. A job's core-seconds divide among the threads, but
/// its wall time is never shorter than its longest chunk, which one thread evaluates alone.
pub fn estimate(plan: &Plan, threads: usize) -> Estimate {
    let verification = plan.verification;
    let wall_seconds = |i: usize| {
        let sharing = if verification.uses_host_threads(i) { threads.max(1) } else { 1 };
        let (range, chunk) = (plan.range(i), plan.jobs[i].chunk);
        let seconds = verification.job_seconds(i, range.clone(), chunk)?;
        Some((seconds / sharing as f64).max(longest_chunk(plan, i, range, chunk)))
    };
    let jobs: Option<f64> = (0..plan.jobs.len()).map(wall_seconds).sum();
    let extra = verification.extra_seconds();
    let seconds = match jobs {
        Some(jobs) => Some(jobs + extra),
        None => (extra > 0.0).then_some(extra),
    };
    let (job_bytes, hungriest) = (0..plan.jobs.len()).map(|i| (verification.peak_bytes(i, threads), i)).max().unwrap_or((0, 0));
    let sizes = plan.jobs.iter().map(|job| job.sizes.len() as u64).sum::<u64>();
    Estimate { seconds, peak_bytes: job_bytes.saturating_add(sizes.saturating_mul(SIZE_RESULT_BYTES)), hungriest }
}

/// Estimated seconds of the longest chunk of `positions` of job `index` in chunks of `chunk`
/// (as [`super::parallel`] cuts them): the longer of the first and the last, since where a
/// job's positions differ in cost they grow along it (larger sizes come later); 0 when unknown.
fn longest_chunk(plan: &Plan, index: usize, positions: std::ops::Range<u64>, chunk: u64) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let chunk = chunk.max(1);
    let last = positions.start + (positions.end - 1 - positions.start) / chunk * chunk;
    let first = positions.start..positions.start.saturating_add(chunk).min(positions.end);
    [first, last..positions.end].into_iter().filter_map(|range| plan.verification.job_seconds(index, range, chunk)).fold(0.0, f64::max)
}

/// Refuses `plan` when its hungriest job needs more than `memory` bytes (default: what the
/// system makes available, the job's cgroup limit included; no check when unknown) or, unless
/// `force`, when it would take more than a day on `threads` threads. Returns the estimate.
/// A run whose jobs hold no position at all (every shard of it) is refused: it would report
/// success having checked nothing.
pub fn check(plan: &Plan, memory: Option<u64>, force: bool, threads: usize) -> Result<Estimate> {
    if plan.jobs.iter().all(|job| job.total == 0) {
        return Err(Error::Usage(
            "this run has no position to check (its sizes or counts are all empty), so it would verify nothing; \
             give a larger --max, more piles or a positive --random count"
                .into(),
        ));
    }
    let estimate = estimate(plan, threads);
    if let Some(available) = memory.or_else(sys::available_memory_bytes).filter(|&m| estimate.peak_bytes > m) {
        return Err(Error::Usage(format!(
            "{} needs an estimated {} of memory on {} but only {} is available; \
             run smaller sizes, fewer --threads or on a bigger machine",
            hungriest_name(plan, estimate.hungriest),
            format_bytes(estimate.peak_bytes),
            threads_phrase(threads),
            format_bytes(available)
        )));
    }
    if let Some(seconds) = estimate.seconds.filter(|&s| s > DAY_SECONDS && !force) {
        let on_device = (0..plan.jobs.len()).all(|i| !plan.verification.uses_host_threads(i));
        let on = if on_device { "one device".to_string() } else { threads_phrase(threads) };
        return Err(Error::Usage(format!(
            "this run would take an estimated {} on {on}; run smaller sizes, split it into shards \
             (--shard K/N on several machines, then merge: docs/cluster.md), or pass --force to start it anyway",
            format_duration(seconds)
        )));
    }
    Ok(estimate)
}

/// `1 thread`, `2 threads`: what a refusal says a run was estimated on.
pub fn threads_phrase(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// What the memory refusal calls job `index`: the game's noun and the job's label (`size 6x6`,
/// `job piles=4`), but `this run` for the only job of a game without a noun of its own (its
/// label, such as `sizes`, names no part of the run).
fn hungriest_name(plan: &Plan, index: usize) -> String {
    let noun = plan.verification.job_noun();
    match (plan.jobs.len(), noun) {
        (1, "job") => "this run".to_string(),
        _ => format!("{noun} {}", plan.jobs[index].label),
    }
}

/// Refuses, unless `force`, one computation (`what`: "the whole-position search of this
/// instance") estimated to take more than a day; `advice` says what to do instead.
pub fn refuse_over_a_day(what: &str, seconds: f64, force: bool, advice: &str) -> Result<()> {
    if seconds > DAY_SECONDS && !force {
        return Err(Error::Usage(format!(
            "{what} would take an estimated {}; {advice}, or pass --force to run it anyway",
            format_duration(seconds)
        )));
    }
    Ok(())
}

/// Refuses a one-off search of `what` (a `--engine naive` answer) estimated at `bytes` of memory
/// and `seconds`: past the memory available (`memory`; `None`: unknown) or a day, unless
/// `force`. Returns how many entries of `bytes_per_entry` its memo may keep: the memory
/// available over that (no limit where unknown), so that a forced search stops cleanly.
pub fn search_memo_cap(what: &str, seconds: f64, bytes: f64, bytes_per_entry: f64, memory: Option<u64>, force: bool, advice: &str) -> Result<usize> {
    if let Some(available) = memory.filter(|&m| bytes > m as f64 && !force) {
        return Err(Error::Usage(format!(
            "{what} needs an estimated {} of memory but only {} is available; {advice}, or pass --force to try \
             (the search stops cleanly when the memory is used up)",
            format_bytes(bytes as u64),
            format_bytes(available)
        )));
    }
    refuse_over_a_day(what, seconds, force, advice)?;
    let cap = memory.map_or(f64::MAX, |m| m as f64 / bytes_per_entry);
    Ok(cap.min(usize::MAX as f64) as usize)
}

/// Positions per parallel chunk for a job evaluated at `seconds_per_position`: about
/// [`CHUNK_SECONDS`] of work, at least one position and at most `largest`.
pub fn chunk_for(seconds_per_position: Option<f64>, largest: u64) -> u64 {
    match seconds_per_position.filter(|&r| r > 0.0) {
        Some(rate) => ((CHUNK_SECONDS / rate) as u64).clamp(1, largest.max(1)),
        None => largest.max(1),
    }
}

/// A duration for people: `42 s`, `3.5 min`, `2.1 h`, `4.0 days`, `3.2e9 years`.
pub fn format_duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * DAY_SECONDS;
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.1} min", s / 60.0),
        s if s < 2.0 * DAY_SECONDS => format!("{:.1} h", s / 3600.0),
        s if s < YEAR => format!("{:.1} days", s / DAY_SECONDS),
        s if s < 1e4 * YEAR => format!("{:.0} years", s / YEAR),
        s => format!("{:.1e} years", s / YEAR),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(42.2), "42 s");
        assert_eq!(format_duration(210.0), "3.5 min");
        assert_eq!(format_duration(7560.0), "2.1 h");
        assert_eq!(format_duration(4.0 * DAY_SECONDS), "4.0 days");
        assert_eq!(format_duration(3.0e9 * 365.25 * DAY_SECONDS), "3.0e9 years");
    }

    #[test]
    fn chunks_aim_at_a_twentieth_of_a_second() {
        assert_eq!(chunk_for(Some(1e-3), 1 << 16), 50);
        assert_eq!(chunk_for(Some(1e-9), 1 << 16), 1 << 16);
        assert_eq!(chunk_for(Some(10.0), 1 << 16), 1);
        assert_eq!(chunk_for(None, 4096), 4096);
    }
}
