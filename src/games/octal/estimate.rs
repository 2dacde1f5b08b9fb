//! How long a run to heap N would take, from a probe that computes the first values: the
//! refusal of runs estimated at more than an hour.

use super::code::Code;
use super::values::{Engine, Method};
use crate::error::{Error, Result};
use crate::runner::cost::format_duration;
use crate::runner::progress::Progress;
use std::time::{Duration, Instant};

/// The probe computes at least this many values and doubles them while it stays below a
/// sixteenth of the run and [`PROBE_MOST`], and would end within [`PROBE_SECONDS`] or (while
/// the estimate is over the hour, which the rare heaps' trend may bring down: 0.007's thin out
/// only from 2^17) within [`PROBE_LONG`].
pub const PROBE: usize = 1 << 15;
const PROBE_SECONDS: f64 = 1.0;
const PROBE_LONG: f64 = 20.0;
const PROBE_MOST: usize = 1 << 20;
/// Seconds a run may be estimated to take without --force or --budget.
const MAX_SECONDS: f64 = 3600.0;

/// What the probe measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Probe {
    /// Values computed: g(0..len).
    pub len: usize,
    /// Seconds the whole probe took, and the newest doubling step (len/2..len; all of it when
    /// the probe did not double).
    pub seconds: f64,
    pub step_seconds: f64,
    pub step_values: usize,
    /// Plain mex (every value scans every split).
    pub plain: bool,
    /// Rare heaps below len, in the newer half and in the quarter before it.
    pub rare: usize,
    pub newer: usize,
    pub older: usize,
}

/// The estimate of a run to `max` and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub seconds: f64,
    pub why: String,
}

impl Probe {
    /// Computes the first values of `engine`'s code as [`PROBE`] says, and what it saw.
    pub fn run(engine: &mut Engine, max: usize, progress: &dyn Progress) -> Result<Probe> {
        let start = Instant::now();
        let mut len = PROBE;
        progress.start("timing the first values", None, 0);
        loop {
            let (before, from) = (start.elapsed(), engine.values().len());
            engine.extend_to(len - 1, &mut |_| {})?;
            progress.message(&format!("g(0..{len}) in {:.1} s", start.elapsed().as_secs_f64()));
            let probe = Probe::of(engine, start.elapsed(), start.elapsed() - before, len - from);
            // The next doubling costs about three times the last one (twice the values, dearer).
            let after_next = probe.seconds + 3.0 * probe.step_seconds;
            let limit = if probe.estimate(max).seconds > MAX_SECONDS { PROBE_LONG } else { PROBE_SECONDS };
            if after_next > limit || 16 * len > max || 2 * len > PROBE_MOST {
                progress.finish();
                return Ok(probe);
            }
            len *= 2;
        }
    }

    /// What `engine` shows after `elapsed` in all, the last `step_values` of its values taking `step`.
    pub fn of(engine: &Engine, elapsed: Duration, step: Duration, step_values: usize) -> Probe {
        let len = engine.values().len();
        let rare = if engine.method() == Method::Sparse { engine.split().rare() } else { &[] };
        let below = |n: usize| rare.partition_point(|&r| r < n);
        Probe {
            len,
            seconds: elapsed.as_secs_f64().max(1e-3),
            step_seconds: step.as_secs_f64().max(1e-3),
            step_values,
            plain: engine.method() == Method::Plain,
            rare: rare.len(),
            newer: rare.len() - below(len / 2),
            older: below(len / 2) - below(len / 4),
        }
    }

    /// Seconds to compute every value up to `max`. Plain mex: n² from the probe's time. The
    /// sparse method: each value costs about as many steps as there are rare heaps, so the
    /// newest values' cost is scaled by how the rare heaps grow, which the probe's last two
    /// doublings say: the newer half had `newer` rare heaps against `older` in the quarter
    /// before, and each later doubling is taken to bring that ratio times as many again (0.6:
    /// none after heap 20,627, so linear; Treblecross 0.007's thin out, so they converge;
    /// 0.064's keep growing; a steady density, ratio 2, gives n²).
    pub fn estimate(&self, max: usize) -> Estimate {
        let growth = max as f64 / self.len as f64;
        if self.plain {
            let why = format!("plain mex: every value scans every split, n² in all; the first {} values took {:.2} s", self.len, self.seconds);
            return Estimate { seconds: self.seconds * growth * growth, why };
        }
        let ratio = match (self.newer, self.older) {
            (0, _) => 0.0,
            (_, 0) => 2.0,
            (newer, older) => newer as f64 / older as f64,
        };
        let per_value = self.step_seconds / self.step_values as f64;
        let now = self.rare.max(1) as f64;
        let (mut seconds, mut from, mut rare, mut added) = (0.0, self.len as f64, now, self.newer as f64);
        while from <= max as f64 {
            let to = (2.0 * from).min(max as f64 + 1.0);
            added *= ratio;
            rare += added;
            seconds += per_value * (rare / now) * (to - from);
            from = to;
        }
        let trend = match ratio {
            0.0 => "none in the newer half".to_string(),
            r if r < 1.0 => format!("{} in the newer half against {} in the quarter before: thinning out, about {:.0} by the end if they go on so", self.newer, self.older, rare),
            _ => format!("{} in the newer half against {} in the quarter before: about {:.1e} by the end if they go on so, each value costing about as many steps as there are rare heaps", self.newer, self.older, rare),
        };
        let why = format!(
            "{} rare heaps among the first {} ({trend}); the last {} values took {:.2} µs each",
            self.rare,
            self.len,
            self.step_values,
            per_value * 1e6
        );
        Estimate { seconds, why }
    }

    /// Refuses a run to `max` estimated at more than an hour with the `spent` seconds before
    /// it, with the estimate.
    pub fn check(&self, code: &Code, max: usize, spent: f64) -> Result<()> {
        let mut estimate = self.estimate(max);
        estimate.seconds += spent;
        if estimate.seconds <= MAX_SECONDS {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "{code} up to {max}: estimated {} ({}); add --budget SECONDS to compute part of it (resumable with --out and --resume), or --force to run it all",
            format_duration(estimate.seconds),
            estimate.why
        )))
    }
}

/// Refuses, with the estimate, a run of `engine`'s code to `max` that would take more than an
/// hour ([`Probe::estimate`]): `probe` (an engine with the run's settings) computes the first
/// values, which are then dropped.
pub fn check_time(code: &Code, max: usize, mut probe: Engine, progress: &dyn Progress) -> Result<()> {
    Probe::run(&mut probe, max, progress)?.check(code, max, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(rare: usize, newer: usize, older: usize) -> Probe {
        Probe { len: 1 << 17, seconds: 2.0, step_seconds: 1.0, step_values: 1 << 16, plain: false, rare, newer, older }
    }

    #[test]
    fn no_new_rare_heaps_cost_what_the_last_values_did() {
        let e = probe(1584, 0, 0).estimate((1 << 27) - 1);
        let linear = ((1 << 27) - (1 << 17)) as f64 / (1 << 16) as f64;
        assert!((e.seconds - linear).abs() < 1e-6 * linear, "{e:?}");
        assert!(e.why.contains("1584 rare heaps among the first 131072 (none in the newer half)") && e.why.contains("15.26 µs"), "{e:?}");
    }

    #[test]
    fn thinning_rare_heaps_converge_and_steady_ones_grow_as_n_squared() {
        let max = (1 << 30) - 1;
        let thinning = probe(10_000, 1000, 4000).estimate(max);
        // 1000 · (1/4 + 1/16 + …) = 333 more rare heaps at most: at most 3.4 % dearer than linear.
        let linear = probe(10_000, 0, 0).estimate(max).seconds;
        assert!(thinning.seconds > linear && thinning.seconds < 1.034 * linear, "{thinning:?} against {linear}");
        assert!(thinning.why.contains("thinning out, about 10333 by the end"), "{thinning:?}");
        // As many in each half as in the quarter before it: the density holds, the rare heaps
        // double with each doubling, and the cost grows as n² (within the steps' coarseness).
        let steady = probe(20_000, 10_000, 5_000).estimate(max);
        let squared = linear * (max as f64 / (1 << 17) as f64) / 2.0;
        assert!(steady.seconds > 0.5 * squared && steady.seconds < 4.0 * squared, "{steady:?} against {squared}");
        assert!(steady.why.contains("each value costing about as many steps"), "{steady:?}");
    }

    #[test]
    fn plain_mex_grows_as_n_squared() {
        let e = Probe { plain: true, ..probe(0, 0, 0) }.estimate((1 << 18) - 1);
        assert!((e.seconds - 2.0 * 4.0).abs() < 0.01 && e.why.starts_with("plain mex"), "{e:?}");
    }
}
