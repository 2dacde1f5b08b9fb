//! The process pool: `jobs` workers, each with its own [`Runner`], judging a stream of cases.
//!
//! Cases are handed out in stream order. When `max_failures` failures are known, no case
//! after the last of them is handed out, and the cases before it still finish, so the
//! failures reported are the first ones of the stream, whatever the timing (for a program
//! that behaves the same on the same input).

use super::command::CommandLine;
use super::contest::{Cases, Contest};
use super::outcome::{classify, FailureKind, Fault, Verdict};
use super::process::{Limits, Runner};
use super::start::not_started;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// When a stream run stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Stop handing out cases after this long.
    pub budget: Option<Duration>,
    /// Stop after this many failures (at least 1).
    pub max_failures: usize,
    /// Stop after this many runs.
    pub max_runs: Option<u64>,
}

/// A failing case of a stream: its place in the stream, the trusted answer and the fault.
#[derive(Debug, Clone)]
pub struct Found<C> {
    pub index: u64,
    pub case: C,
    pub expected: String,
    pub fault: Fault,
    pub seconds: f64,
}

/// What a stream run did.
#[derive(Debug)]
pub struct StreamReport<C> {
    pub runs: u64,
    /// The first failures of the stream, in stream order.
    pub found: Vec<Found<C>>,
    pub elapsed: Duration,
    /// True when the stream ended before any limit did.
    pub exhausted: bool,
    /// Runs whose program under test a signal that stopped the stream found running: it was
    /// killed, and they were not judged (a run whose program had ended is judged, its trusted
    /// `--checker` let finish).
    pub unjudged: u64,
}

/// Counters shown while a stream runs.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub runs: u64,
    pub failures: usize,
    pub elapsed: Duration,
}

/// The verdict on one case and the trusted answer.
#[derive(Debug, Clone)]
pub struct Judged {
    pub verdict: Verdict,
    pub expected: String,
    /// CPU seconds of the program (and its children) on the case.
    pub seconds: f64,
    /// Set when the run shows the command never started its program ([`not_started`]).
    pub not_started: Option<String>,
    /// A signal cut the run short (its kill may have ended the program, or it came before the
    /// second run that confirms a time limit): `verdict` means nothing.
    pub cut_by_signal: bool,
}

/// `jobs` runners of one command.
pub struct Pool {
    runners: Vec<Runner>,
}

/// State shared by the workers of a stream run.
struct Dispatch<'a, C> {
    cases: Cases<'a, C>,
    next: u64,
    /// No case with a larger index is handed out.
    cutoff: u64,
    found: Vec<Found<C>>,
    error: Option<Error>,
    exhausted: bool,
}

impl Pool {
    /// A pool of `jobs` (at least 1) runners, each in its own private directory.
    pub fn new(command: &CommandLine, limits: Limits, jobs: usize) -> Result<Self> {
        let runners = (0..jobs.max(1)).map(|_| Runner::new(command.clone(), limits)).collect::<Result<_>>()?;
        Ok(Pool { runners })
    }

    pub fn jobs(&self) -> usize {
        self.runners.len()
    }

    /// Judges the cases of `cases` in parallel until the stream ends or `plan` says stop.
    /// `progress` is called about ten times a second from the calling thread.
    pub fn run_stream<G: Contest + ?Sized>(
        &mut self,
        game: &G,
        cases: Cases<'_, G::Case>,
        plan: &Plan,
        progress: &dyn Fn(&Progress),
    ) -> Result<StreamReport<G::Case>> {
        let started = Instant::now();
        let deadline = plan.budget.map(|b| started + b);
        let state = Mutex::new(Dispatch { cases, next: 0, cutoff: u64::MAX, found: Vec::new(), error: None, exhausted: false });
        let (runs, unjudged) = (AtomicU64::new(0), AtomicU64::new(0));
        let (tick, ticks) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            for runner in &mut self.runners {
                let (state, counts, tick) = (&state, (&runs, &unjudged), tick.clone());
                scope.spawn(move || {
                    worker(runner, game, state, counts, plan, deadline);
                    drop(tick);
                });
            }
            drop(tick);
            while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(Duration::from_millis(100)) {
                let failures = state.lock().map_or(0, |s| s.found.len());
                progress(&Progress { runs: runs.load(Ordering::Relaxed), failures, elapsed: started.elapsed() });
            }
        });
        let state = state.into_inner().map_err(|_| Error::Usage("a stress worker panicked".into()))?;
        // A failing trusted side ends its stream early: that is its error, not an exhausted stream.
        if let Some(e) = state.error {
            return Err(e);
        }
        if let Some(e) = game.take_failure() {
            return Err(super::run::judged_before(e, runs.into_inner(), state.found.len()));
        }
        let mut found = state.found;
        found.sort_by_key(|f| f.index);
        found.truncate(plan.max_failures.max(1));
        Ok(StreamReport { runs: runs.into_inner(), found, elapsed: started.elapsed(), exhausted: state.exhausted, unjudged: unjudged.into_inner() })
    }

    /// Judges the cases of `cases` in parallel; the verdicts in the order of `cases`. After a
    /// signal ([`crate::interrupt::stopping`]) no case starts: the verdicts of those started
    /// only, a prefix of `cases`.
    pub fn judge_all<G: Contest + ?Sized>(&mut self, game: &G, cases: &[G::Case]) -> Result<Vec<Judged>> {
        let results = in_order(&mut self.runners, cases, |runner, case, buf| judge(runner, game, case, buf));
        results.into_iter().collect()
    }
}

/// Runs `work` on each item of `items` with `runners`, each taking the next item in order,
/// until a signal ([`crate::interrupt::stopping`]) stops the handing out; the results of the
/// items started (a prefix of `items`), in order.
pub fn in_order<I: Sync, T: Send>(runners: &mut [Runner], items: &[I], work: impl Fn(&mut Runner, &I, &mut Vec<u8>) -> T + Sync) -> Vec<T> {
    hand_out(runners, items, crate::interrupt::stopping, work)
}

/// [`in_order`] with `workers` of any kind, the handing out ending once `stopped` is true.
fn hand_out<R: Send, I: Sync, T: Send>(workers: &mut [R], items: &[I], stopped: impl Fn() -> bool + Sync, work: impl Fn(&mut R, &I, &mut Vec<u8>) -> T + Sync) -> Vec<T> {
    let next = AtomicU64::new(0);
    let results: Vec<Mutex<Option<T>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for runner in workers.iter_mut().take(items.len()) {
            let (next, results, work, stopped) = (&next, &results, &work, &stopped);
            scope.spawn(move || {
                let mut buf = Vec::new();
                // An item is taken only before the signal, so those started are a prefix.
                while !stopped() {
                    let index = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(item) = items.get(index) else { break };
                    *results[index].lock().expect("no panics while holding") = Some(work(runner, item, &mut buf));
                }
            });
        }
    });
    results.into_iter().map_while(|m| m.into_inner().expect("no panics")).collect()
}

/// Judges one case: writes its input, runs the program, computes the trusted answer while
/// the program runs, and classifies the run. A time limit is confirmed by a second run (the
/// second verdict stands), so a case saved as too slow is too slow twice, on whatever load.
pub fn judge<G: Contest + ?Sized>(runner: &mut Runner, game: &G, case: &G::Case, buf: &mut Vec<u8>) -> Result<Judged> {
    let first = judge_once(runner, game, case, buf)?;
    match &first.verdict {
        // No run starts after a signal: the time limit stays unconfirmed, the case not judged.
        Verdict::Fail(f) if f.kind == FailureKind::TimeLimit && crate::interrupt::stopping() => Ok(Judged { cut_by_signal: true, ..first }),
        Verdict::Fail(f) if f.kind == FailureKind::TimeLimit => judge_once(runner, game, case, buf),
        _ => Ok(first),
    }
}

fn judge_once<G: Contest + ?Sized>(runner: &mut Runner, game: &G, case: &G::Case, buf: &mut Vec<u8>) -> Result<Judged> {
    buf.clear();
    game.write_input(case, buf);
    let via_shell = runner.command().via_shell();
    let (run, expected) = runner.run(buf, || game.answer(case))?;
    // A run the signal's kill may have ended is not judged (no checker is run on it).
    let verdict = if game.judges(&expected) && !run.cut_by_signal { classify(game, case, &expected, &run) } else { Verdict::Pass };
    let not_started = if verdict == Verdict::Pass { None } else { not_started(via_shell, &run) };
    let cut_by_signal = run.cut_by_signal;
    Ok(Judged { verdict, expected: expected.to_string(), seconds: run.cpu.as_secs_f64(), not_started, cut_by_signal })
}

/// One worker of a stream run: takes cases in order until told to stop; counts its runs
/// judged and the one a signal cut short (`counts`); a run whose program ended before the
/// signal is judged, with the verdict of the checker that was let finish after it.
fn worker<G: Contest + ?Sized>(
    runner: &mut Runner,
    game: &G,
    state: &Mutex<Dispatch<'_, G::Case>>,
    (runs, unjudged): (&AtomicU64, &AtomicU64),
    plan: &Plan,
    deadline: Option<Instant>,
) {
    let mut buf = Vec::new();
    loop {
        let (index, case) = {
            let mut s = state.lock().expect("workers do not panic while holding the lock");
            let out_of_time = deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::stopping();
            let out_of_runs = plan.max_runs.is_some_and(|m| s.next >= m);
            if s.next > s.cutoff || out_of_time || out_of_runs || s.exhausted {
                return;
            }
            let Some(case) = s.cases.next() else {
                s.exhausted = true;
                return;
            };
            s.next += 1;
            // A signal while the generator made the case (a trusted program, left to finish):
            // the case is not run.
            if crate::interrupt::stopping() {
                return;
            }
            (s.next - 1, case)
        };
        let judged = judge(runner, game, &case, &mut buf);
        // A run the kill of Ctrl-C may have ended is not judged, only counted (an error then
        // is taken for one).
        if judged.as_ref().map_or_else(|_| crate::interrupt::stopping(), |j| j.cut_by_signal) {
            unjudged.fetch_add(1, Ordering::Relaxed);
            return;
        }
        runs.fetch_add(1, Ordering::Relaxed);
        let mut s = state.lock().expect("workers do not panic while holding the lock");
        let judged = judged.and_then(|j| match j.not_started {
            // The first run decides whether the command starts at all.
            Some(why) if index == 0 => Err(Error::Usage(format!("--cmd {:?}: the program did not start: {why}", runner.command().display()))),
            _ => Ok(j),
        });
        match judged {
            Err(e) => {
                s.error.get_or_insert(e);
                s.cutoff = 0;
            }
            Ok(Judged { verdict: Verdict::Fail(fault), expected, seconds, .. }) => {
                s.found.push(Found { index, case, expected, fault, seconds });
                if s.found.len() >= plan.max_failures.max(1) {
                    let mut indices: Vec<u64> = s.found.iter().map(|f| f.index).collect();
                    indices.sort_unstable();
                    s.cutoff = s.cutoff.min(indices[plan.max_failures.max(1) - 1]);
                }
            }
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// [`hand_out`] of `items` to `workers` workers, stopped by `signal`; the results and the
    /// items started, in the order started. `work` runs first on each item taken.
    fn handed_out(workers: usize, items: &[u64], signal: &AtomicBool, work: impl Fn(u64) + Sync) -> (Vec<u64>, Vec<u64>) {
        let started = Mutex::new(Vec::new());
        let results = hand_out(&mut vec![(); workers], items, || signal.load(Ordering::SeqCst), |_, &i, _| {
            started.lock().unwrap().push(i);
            work(i);
            i * 10
        });
        (results, started.into_inner().unwrap())
    }

    #[test]
    fn no_item_starts_once_the_signal_came() {
        let (results, started) = handed_out(2, &[0, 1, 2], &AtomicBool::new(true), |_| {});
        assert!(results.is_empty() && started.is_empty(), "{results:?} {started:?}");
    }

    #[test]
    fn the_item_in_flight_at_the_signal_finishes_and_no_later_one_starts() {
        let signal = AtomicBool::new(false);
        let (results, started) = handed_out(1, &[0, 1, 2, 3, 4], &signal, |i| signal.store(i == 2, Ordering::SeqCst));
        assert_eq!((results, started), (vec![0, 10, 20], vec![0, 1, 2]));
    }

    #[test]
    fn with_two_workers_the_items_started_before_the_signal_are_the_prefix_returned() {
        // The worker on item 0 waits for the signal, which the other gives on item 1: both
        // finish, and item 2 is never taken.
        let signal = AtomicBool::new(false);
        let (results, mut started) = handed_out(2, &[0, 1, 2, 3], &signal, |i| match i {
            0 => while !signal.load(Ordering::SeqCst) {
                std::thread::yield_now()
            },
            _ => signal.store(true, Ordering::SeqCst),
        });
        started.sort_unstable();
        assert_eq!((results, started), (vec![0, 10], vec![0, 1]));
    }
}
