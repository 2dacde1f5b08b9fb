//! Verification: enumerate positions, evaluate claim and naive search in parallel, tally.

pub mod tally;

pub use tally::{RunResults, SizeTally};
