//! A game program played in-process for tests: answers from a Rust closure, every request counted.

use super::{Ask, Verb, Verbs};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Answers `verb arg` with `answer(verb, arg)`; `None` is a program that failed on it.
pub struct Fake<F> {
    pub verbs: Verbs,
    pub answer: F,
    pub asked: AtomicUsize,
}

impl<F: Fn(Verb, &str) -> Option<String> + Sync> Fake<F> {
    pub fn new(verbs: &str, answer: F) -> Self {
        Fake { verbs: Verbs::parse(verbs).expect("valid verbs"), answer, asked: AtomicUsize::new(0) }
    }
}

impl<F: Fn(Verb, &str) -> Option<String> + Send + Sync> Ask for Fake<F> {
    fn verbs(&self) -> Verbs {
        self.verbs
    }

    fn ask(&self, verb: Verb, args: &[&str]) -> Result<Vec<String>> {
        self.asked.fetch_add(args.len(), Ordering::Relaxed);
        args.iter().map(|a| (self.answer)(verb, a).ok_or_else(|| Error::Usage(format!("fake: no answer to `{verb} {a}`")))).collect()
    }
}

/// Subtraction {1, 3, 4} on one heap, positions = the heap size as text.
pub fn subtraction(verb: Verb, arg: &str) -> Option<String> {
    let n: u32 = arg.parse().ok()?;
    match verb {
        Verb::Positions => Some(arg.to_string()),
        Verb::Moves => Some([1, 3, 4].iter().filter(|&&k| k <= n).map(|k| (n - k).to_string()).collect::<Vec<_>>().join(" ")),
        Verb::Claim => Some([0, 1, 0, 1, 2, 3, 2][n as usize % 7].to_string()),
        _ => None,
    }
}
