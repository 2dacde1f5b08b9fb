//! A game given as a program in any language: the line protocol, a pool of persistent processes, and the exact values built on their answers.
//!
//! docs/custom-programs.md describes the protocol. [`pool::GameProgram`] runs the program;
//! [`graph::Explorer`] explores positions through any [`Ask`] and solves them by brute force.

pub mod contest;
pub mod graph;
pub mod judge;
pub mod limits;
pub mod pool;
pub mod process;
pub mod protocol;
pub mod run;
pub mod split;
pub mod table;
#[cfg(test)]
pub mod fake;

pub use graph::{Explorer, GraphLimits};
pub use pool::{GameProgram, ProgramLimits};
pub use protocol::{Verb, Verbs};
pub use limits::{advice, kept_bytes, SMALLER};
pub use run::{ProgramRun, Start};

use crate::error::Result;
use std::time::Instant;

/// What the engines ask a game: one answer line per argument, in order.
pub trait Ask: Send + Sync {
    /// The requests the game answers.
    fn verbs(&self) -> Verbs;
    /// The answer lines to `verb ARG` for every `args` (positions, or sizes for `positions`).
    fn ask(&self, verb: Verb, args: &[&str]) -> Result<Vec<String>>;

    /// [`Ask::ask`], given up once `deadline` passes with answers still awaited: then an error,
    /// and a game that runs a program stops it (it answers nothing more). By default the
    /// deadline is not looked at (a game that answers at once).
    fn ask_until(&self, verb: Verb, args: &[&str], deadline: Option<Instant>) -> Result<Vec<String>> {
        let _ = deadline;
        self.ask(verb, args)
    }
}
