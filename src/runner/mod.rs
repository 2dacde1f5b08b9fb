//! Generic verification machinery: parallel evaluation, tallies, shards, checkpoints, resume, merge.

pub mod checkpoint;
pub mod merge;
pub mod parallel;
pub mod resumable;
pub mod shard;
pub mod tally;

pub use shard::Shard;
pub use tally::{RunResults, SizeTally};
