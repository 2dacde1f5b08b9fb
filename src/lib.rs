//! sprague: a parallel exhaustive verifier and research tool for Sprague–Grundy claims.
//!
//! Data flow: `input` → `games/<game>` (rules, claimed solver, naive oracle, verification
//! driver) → `runner` (enumerate, evaluate in parallel, tally, shard, checkpoint) → `output`
//! (CSV, manifest); `check` recomputes committed results from the game registry.

pub mod bits;
pub mod check;
pub mod custom;
pub mod error;
pub mod game;
pub mod games;
pub mod impartial;
pub mod input;
pub mod interrupt;
pub mod output;
pub mod runner;
pub mod serve;
pub mod stress;
pub mod sys;

pub use error::{Error, Result};
