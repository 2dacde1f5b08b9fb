//! sprague: a parallel exhaustive verifier and research tool for Sprague–Grundy claims.
//!
//! Data flow: `input` → `games/*` (rules, claimed engines, naive oracles) → `verify`
//! (enumerate, run in parallel, tally) → `output` (CSV, manifest, report).

pub mod bits;
pub mod error;
pub mod games;
pub mod input;
pub mod output;
pub mod stress;
pub mod sys;
pub mod verify;

pub use error::{Error, Result};
