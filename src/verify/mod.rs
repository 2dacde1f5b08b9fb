//! Verification: enumerate positions, evaluate claim and naive search in parallel, tally.

pub mod checkpoint;
pub mod merge;
pub mod run;
pub mod shard;
pub mod shrink;
pub mod tally;
pub mod wall;

pub use shard::Shard;
pub use tally::{RunResults, SizeTally};
pub mod catalogue;
pub mod check;
pub mod census;
pub mod dagame;
pub mod engine;
pub mod cards;
pub mod footholds;
pub mod kings;
pub mod minimax;
