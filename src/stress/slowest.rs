//! `--slowest N`: the inputs on which a program uses the most CPU time, for sizing time limits.
//!
//! Random restarts first: the run's generators hand out inputs (inside the legal range) and
//! each is timed once. With a way to grow an input (a problem's larger texts, kept legal by its
//! validator), the second half of the budget climbs: the slowest input found so far is replaced
//! by each of its larger neighbours, and every neighbour slower than it joins the kept ones,
//! whose own neighbours are tried next. The kept inputs are then timed twice more and ranked
//! by the median of their three CPU times.
//!
//! A run cut short at the time limit (its CPU time, or the wall-clock cap of a program that
//! waits) ranks above every run that finished, whatever CPU time it used: its real time is
//! unknown and past the limit. A Ctrl-C stops the search: the runs it kills are not timed
//! (counted apart), no input starts after it, and the inputs kept are ranked by the times they
//! have.

use super::command::CommandLine;
use super::contest::{Generator, Source};
use super::outcome::exit_text;
use super::pool::{in_order, Progress};
use super::process::{Exit, Runner};
use super::run::StressConfig;
use super::start::not_started;
use crate::error::{Error, Result};
use std::time::{Duration, Instant};

/// One kept input and its timings.
#[derive(Debug, Clone)]
pub struct Slow<C> {
    pub case: C,
    /// `generated` (by a generator) or `climbed` (grown from a kept input).
    pub origin: &'static str,
    /// CPU seconds of each timed run.
    pub times: Vec<f64>,
    /// How the last run ended (`exit 0`, `time limit: …`).
    pub exit: String,
    /// The last run exited 0 within the time limit.
    pub ok: bool,
    /// A run was cut short at the time limit (its CPU time is a lower bound).
    pub timed_out: bool,
    /// Its neighbours were all timed.
    climbed: bool,
}

impl<C> Slow<C> {
    /// The median of the CPU times (the upper one of an even count).
    pub fn seconds(&self) -> f64 {
        let mut sorted = self.times.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
    }

    /// What ranks it ([`slower`]): cut short at the time limit, then its median CPU time.
    fn key(&self) -> (bool, f64) {
        (self.timed_out, self.seconds())
    }
}

/// How `a` ranks against `b`, each (cut short at the time limit, CPU seconds): a run cut short
/// is slower than every run that finished, then the larger time is the slower.
fn slower(a: (bool, f64), b: (bool, f64)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
}

/// What a slowest search found: the kept inputs, slowest first, and the runs it took.
#[derive(Debug, Clone)]
pub struct Slowest<C> {
    pub kept: Vec<Slow<C>>,
    /// Runs timed (those cut short at the time limit included).
    pub runs: u64,
    /// Runs cut short at the time limit.
    pub timed_out: u64,
    /// Runs a signal killed in flight, not timed ([`crate::interrupt::stop_gently`]).
    pub unjudged: u64,
    pub elapsed: Duration,
}

/// Larger legal neighbours of a case (none: no climbing).
pub type Grow<'a, C> = &'a (dyn Fn(&C) -> Vec<C> + Sync);

/// Searches for the `count` inputs on which `command` is slowest within `config.budget`.
/// Without `grow`, the whole budget goes to generated inputs.
pub fn search<G: Generator>(
    game: &G,
    command: &CommandLine,
    config: &StressConfig,
    count: usize,
    grow: Option<Grow<'_, G::Case>>,
    progress: &dyn Fn(&Progress),
) -> Result<Slowest<G::Case>> {
    let started = Instant::now();
    let mut runners = (0..config.jobs.max(1)).map(|_| Runner::new(command.clone(), config.limits)).collect::<Result<Vec<_>>>()?;
    let mut search = Search { game, kept: Vec::new(), count: count.max(1), runs: 0, timed_out: 0, unjudged: 0, first: true };
    let climb_from = started + if grow.is_some() { config.budget / 2 } else { config.budget };
    let sources = if config.sources.is_empty() { Source::ALL.to_vec() } else { config.sources.clone() };
    let mut cases = game.mixed(&sources, config.seed);
    let stopping = crate::interrupt::stopping;
    while Instant::now() < climb_from && !stopping() {
        let batch: Vec<G::Case> = cases.by_ref().take(runners.len()).collect();
        if batch.is_empty() {
            break;
        }
        search.time(&mut runners, batch, "generated")?;
        progress(&Progress { runs: search.runs, failures: 0, elapsed: started.elapsed() });
    }
    let deadline = started + config.budget;
    let grow = grow.unwrap_or(&|_| Vec::new());
    while let Some(at) = search.kept.iter().position(|s| !s.climbed).filter(|_| Instant::now() < deadline && !stopping()) {
        search.kept[at].climbed = true;
        for batch in grow(&search.kept[at].case).chunks(runners.len()) {
            if Instant::now() >= deadline || stopping() || search.time(&mut runners, batch.to_vec(), "climbed")? {
                break;
            }
        }
        progress(&Progress { runs: search.runs, failures: 0, elapsed: started.elapsed() });
    }
    if !stopping() {
        search.confirm(&mut runners)?;
    }
    // The kept inputs' answers are saved as tests: the trusted side is asked again first.
    search.kept.iter().try_for_each(|slow| game.confirm(&slow.case))?;
    Ok(Slowest { kept: search.kept, runs: search.runs, timed_out: search.timed_out, unjudged: search.unjudged, elapsed: started.elapsed() })
}

struct Search<'g, G: Generator> {
    game: &'g G,
    /// The slowest inputs so far, slowest first.
    kept: Vec<Slow<G::Case>>,
    count: usize,
    runs: u64,
    timed_out: u64,
    unjudged: u64,
    /// The next run is the first (it decides whether the command starts at all).
    first: bool,
}

impl<G: Generator> Search<'_, G> {
    /// Times `batch` and keeps what is slower than the kept; true when one of them is slower
    /// than the slowest kept before.
    fn time(&mut self, runners: &mut [Runner], batch: Vec<G::Case>, origin: &'static str) -> Result<bool> {
        let inputs: Vec<Vec<u8>> = batch.iter().map(|c| self.game.input_text(c)).collect();
        let timed = time_all(runners, &inputs, std::mem::take(&mut self.first))?;
        let best = self.kept.first().map(Slow::key);
        let mut faster_than_best = false;
        for (case, timed) in batch.into_iter().zip(timed) {
            let Some(t) = self.count(timed) else { continue };
            faster_than_best |= best.is_some_and(|b| slower((t.timed_out, t.seconds), b).is_gt());
            if self.kept.iter().any(|k| self.game.input_text(&k.case) == self.game.input_text(&case)) {
                continue;
            }
            self.kept.push(Slow { case, origin, times: vec![t.seconds], exit: t.exit, ok: t.ok, timed_out: t.timed_out, climbed: false });
        }
        self.rank();
        Ok(faster_than_best)
    }

    fn rank(&mut self) {
        self.kept.sort_by(|a, b| slower(b.key(), a.key()));
        self.kept.truncate(self.count);
    }

    /// Counts a run: `None` for one a signal killed (not timed).
    fn count(&mut self, timed: Option<Timed>) -> Option<Timed> {
        let Some(t) = timed else {
            self.unjudged += 1;
            return None;
        };
        self.runs += 1;
        self.timed_out += u64::from(t.timed_out);
        Some(t)
    }

    /// Times every kept input twice more (until a signal stops the search) and ranks them by
    /// their median.
    fn confirm(&mut self, runners: &mut [Runner]) -> Result<()> {
        let inputs: Vec<Vec<u8>> = self.kept.iter().map(|k| self.game.input_text(&k.case)).collect();
        for _ in 0..2 {
            if crate::interrupt::stopping() {
                break;
            }
            let timed = time_all(runners, &inputs, false)?;
            for (at, timed) in timed.into_iter().enumerate() {
                let Some(t) = self.count(timed) else { continue };
                let kept = &mut self.kept[at];
                kept.times.push(t.seconds);
                (kept.exit, kept.ok, kept.timed_out) = (t.exit, kept.ok && t.ok, kept.timed_out || t.timed_out);
            }
        }
        self.rank();
        Ok(())
    }
}

/// One timed run.
struct Timed {
    /// CPU seconds.
    seconds: f64,
    /// How it ended.
    exit: String,
    /// Exit 0 within the time limit.
    ok: bool,
    /// Cut short at the time limit.
    timed_out: bool,
}

/// Runs the program on each input, `runners.len()` at a time (`None`: a run a signal killed);
/// after a signal no input starts, and only those started have a result (a prefix). With
/// `first`, a first run that shows the command never started its program is a usage error.
fn time_all(runners: &mut [Runner], inputs: &[Vec<u8>], first: bool) -> Result<Vec<Option<Timed>>> {
    let indexed: Vec<(usize, &[u8])> = inputs.iter().map(Vec::as_slice).enumerate().collect();
    in_order(runners, &indexed, |runner, &(index, input), _| time_one(runner, input, first && index == 0)).into_iter().collect()
}

fn time_one(runner: &mut Runner, input: &[u8], first: bool) -> Result<Option<Timed>> {
    let via_shell = runner.command().via_shell();
    let display = runner.command().display();
    let (run, ()) = runner.run(input, || ())?;
    // A run the kill of Ctrl-C may have ended is not timed.
    if run.cut_by_signal {
        return Ok(None);
    }
    if let Some(why) = not_started(via_shell, &run).filter(|_| first) {
        return Err(Error::Usage(format!("--cmd {display:?}: the program did not start: {why}")));
    }
    let (ok, timed_out) = (run.exit == Exit::Code(0), run.exit == Exit::TimedOut);
    Ok(Some(Timed { seconds: run.cpu.as_secs_f64(), exit: exit_text(&run), ok, timed_out }))
}
