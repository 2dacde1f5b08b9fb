//! After shrinking: the smallest failing input there is, and where the program first goes wrong.
//!
//! Shrinking stops at a locally minimal case (no candidate of the game fails), which need not
//! be the smallest failing input: a board found large may shrink to 2×2 while `.X.` fails too.
//! [`smallest`] judges every input before the shrunk one in the game's size order
//! ([`Generator::by_size`], [`Contest::size_key`]), in batches through the pool, and keeps the
//! first that fails the same way; [`cause`] asks the program about the parts the trusted answer
//! is built from ([`Contest::parts`]), smallest first.

use super::contest::{Contest, Generator, Parts};
use super::outcome::{FailureKind, Fault, Verdict};
use super::pool::{Judged, Pool};
use crate::error::Result;
use crate::output::text::counted;
use std::time::{Duration, Instant};

/// What the search below a shrunk case found.
#[derive(Debug, Clone)]
pub struct Search<C> {
    /// The first input of the size order that fails the same way, when it comes before the
    /// shrunk case, with its verdict.
    pub found: Option<(C, Judged)>,
    /// True when every input before the result in the size order was judged and passed.
    pub smallest: bool,
    /// Program runs spent.
    pub runs: usize,
    /// The last input judged (for people, when the search was cut short).
    pub reached: Option<String>,
    /// True when the deadline (or Ctrl-C) stopped the search.
    pub timed_out: bool,
}

impl<C> Search<C> {
    /// The search for people (failures.csv's `searched`): `shrunk` is the shrunk case's size.
    pub fn text(&self, shrunk: &str) -> String {
        let runs = counted(self.runs as u64, "run");
        let reached = self.reached.as_deref().map(|r| format!(", up to {r}")).unwrap_or_default();
        match (&self.found, self.smallest, self.timed_out) {
            (Some(_), _, _) => format!("smallest: found by the search below {shrunk}; every input before it passed ({runs})"),
            (None, true, _) => format!("smallest: every smaller input passed ({runs})"),
            (None, false, true) if crate::interrupt::stopping() => format!("locally minimal: the search was interrupted after {runs}{reached}"),
            (None, false, true) => format!("locally minimal: time ran out after {runs}{reached}"),
            (None, false, false) if self.runs == 0 => "locally minimal: no search below it (these inputs have no size order to list them by)".to_string(),
            (None, false, false) => format!("locally minimal: the game lists no more inputs ({runs}{reached})"),
        }
    }
}

/// Batch sizes between deadline checks: `jobs` at first, doubled while batches take under a
/// tenth of a second (up to 64 per job), halved when one takes over half a second, so a fast
/// program runs in large batches and a slow one cannot overrun the deadline by much.
struct Batches {
    size: usize,
    jobs: usize,
}

impl Batches {
    fn new(jobs: usize) -> Self {
        Batches { size: jobs, jobs }
    }

    fn adapt(&mut self, took: Duration) {
        if took < Duration::from_millis(100) {
            self.size = (self.size * 2).min(64 * self.jobs);
        } else if took > Duration::from_millis(500) {
            self.size = (self.size / 2).max(self.jobs);
        }
    }
}

/// Judges `cases` in parallel; the index of the first whose verdict `fails`, with it.
fn first_failing<G: Contest + ?Sized>(pool: &mut Pool, game: &G, cases: &[G::Case], fails: impl Fn(&Fault) -> bool) -> Result<Option<(usize, Judged)>> {
    let judged = pool.judge_all(game, cases)?;
    Ok(judged.into_iter().enumerate().find(|(_, j)| matches!(&j.verdict, Verdict::Fail(f) if fails(f))))
}

/// Judges the inputs before `case` in `game`'s size order until one fails the same way
/// (`kind`), the stream reaches `case`'s size, or `deadline`.
pub fn smallest<G: Generator + ?Sized>(pool: &mut Pool, game: &G, case: &G::Case, kind: FailureKind, deadline: Instant) -> Result<Search<G::Case>> {
    let mut search = Search { found: None, smallest: false, runs: 0, reached: None, timed_out: false };
    // Without a size order there is no "below": a shrunk case need not be in the stream at all
    // (a custom game's `smaller` positions), and the stream would run on to larger inputs.
    let Some(key) = game.size_key(case) else {
        return Ok(search);
    };
    let before = |c: &G::Case| game.size_key(c).is_some_and(|ck| ck < key);
    let mut stream = game.by_size(case);
    let mut batches = Batches::new(pool.jobs());
    while Instant::now() < deadline && !crate::interrupt::stopping() {
        let mut batch = Vec::with_capacity(batches.size);
        let mut reached_case = false;
        while batch.len() < batches.size {
            match stream.next() {
                Some(c) if before(&c) => batch.push(c),
                next => {
                    reached_case = next.is_some();
                    break;
                }
            }
        }
        let started = Instant::now();
        let failing = first_failing(pool, game, &batch, |f| f.kind == kind)?;
        if crate::interrupt::stopping() {
            break;
        }
        search.runs += batch.len();
        if let Some((i, judged)) = failing {
            search.found = Some((batch.swap_remove(i), judged));
            search.smallest = true;
            return Ok(search);
        }
        search.reached = batch.last().map(|c| game.describe(c)).or(search.reached);
        if batch.len() < batches.size {
            search.smallest = reached_case;
            return Ok(search);
        }
        batches.adapt(started.elapsed());
    }
    search.timed_out = true;
    Ok(search)
}

/// Where the program's answer first goes wrong: the first of `case`'s parts (in the game's
/// order: those the case combines directly first) on which it fails, with the trusted answer
/// and what it printed; or that it gets the parts right (for a wrong answer (`kind`) the fault
/// is then in combining them, and the first direct part, the largest, is named). Empty when
/// the game names no parts.
pub fn cause<G: Contest + ?Sized>(pool: &mut Pool, game: &G, case: &G::Case, kind: FailureKind, deadline: Instant) -> Result<String> {
    let Parts { list, direct } = game.parts(case);
    if list.is_empty() {
        return Ok(String::new());
    }
    let (cases, names): (Vec<G::Case>, Vec<String>) = list.into_iter().unzip();
    let (mut at, mut batches) = (0, Batches::new(pool.jobs()));
    while at < cases.len() {
        if Instant::now() >= deadline {
            return Ok(all_right(game.parts_name(), &names, direct, at, kind));
        }
        let end = (at + batches.size).min(cases.len());
        let started = Instant::now();
        let failing = first_failing(pool, game, &cases[at..end], |_| true)?;
        if crate::interrupt::stopping() {
            return Ok(String::new());
        }
        if let Some((i, judged)) = failing {
            let Verdict::Fail(fault) = &judged.verdict else { unreachable!("a failing verdict") };
            return Ok(format!("first wrong on {}: expected {}, got {}", names[at + i], judged.expected, got(fault)));
        }
        at = end;
        batches.adapt(started.elapsed());
    }
    Ok(all_right(game.parts_name(), &names, direct, at, kind))
}

/// The parts the program answered right, `at` of `names` (the first `direct` combined directly).
fn all_right(name: &str, names: &[String], direct: usize, at: usize, kind: FailureKind) -> String {
    let total = names.len();
    let combining = |largest: &str| match (kind == FailureKind::WrongAnswer, largest.is_empty()) {
        (false, _) => String::new(),
        (true, true) => " (the fault is in combining them)".to_string(),
        (true, false) => format!(" (the fault is in combining them; the largest: {largest})"),
    };
    let largest = if direct > 0 { names[0].as_str() } else { "" };
    match at {
        _ if at == total => format!("the program answers all {total} {name} right{}", combining(largest)),
        0 => format!("time ran out before the first of {total} {name}"),
        _ if direct > 0 && at >= direct => format!(
            "the program answers the {direct} {name} it combines directly right{}, and the first {} of the {} others (up to {}; time ran out)",
            combining(largest),
            at - direct,
            total - direct,
            names[at - 1]
        ),
        _ => format!("the program answers the first {at} of {total} {name} right (up to {}; time ran out)", names[at - 1]),
    }
}

/// What a failing program gave, for people: its answer, or how it failed.
fn got(fault: &Fault) -> String {
    match fault.kind {
        FailureKind::WrongAnswer => fault.got.clone(),
        kind if fault.got.is_empty() => format!("{kind} ({})", fault.exit),
        kind => format!("{kind} ({})", fault.got),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_grow_while_quick_and_shrink_when_slow() {
        let mut b = Batches::new(2);
        (0..10).for_each(|_| b.adapt(Duration::from_millis(1)));
        assert_eq!(b.size, 128);
        b.adapt(Duration::from_secs(1));
        assert_eq!(b.size, 64);
        (0..10).for_each(|_| b.adapt(Duration::from_secs(1)));
        assert_eq!(b.size, 2);
    }
}
