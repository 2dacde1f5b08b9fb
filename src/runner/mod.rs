//! Generic verification machinery: parallel evaluation, tallies, shards, checkpoints, resume, merge.

pub mod checkpoint;
pub mod cost;
pub mod directory;
pub mod files;
pub mod merge;
pub mod parallel;
pub mod progress;
pub mod random;
pub mod resumable;
pub mod rule;
pub mod shard;
pub mod tally;
pub mod verification;

#[cfg(test)]
mod tests;

pub use progress::{Progress, Silent};
pub use resumable::{run_in_memory, Plan};
pub use shard::Shard;
pub use tally::{Disagreement, RunResults, SizeTally};
pub use verification::{Evaluate, Job, Verification};
