//! What `check` recomputes: a game's committed results directories and how each is recomputed.

use super::Difference;
use crate::error::Result;
use crate::runner::{RunResults, Shard};
use std::path::Path;

/// How the files of one committed results directory are recomputed by `check`.
#[derive(Clone, Copy)]
pub enum Recompute {
    /// summary/distribution/mismatches, one size at a time, from (game, rule, rows, cols).
    Sizes(fn(&str, &str, u32, u32) -> Result<RunResults>),
    /// One table file, recomputed and compared by the game; `seconds` is its estimated cost.
    Table { file: &'static str, seconds: f64, compare: fn(&Path) -> Result<Vec<Difference>> },
    /// A run committed as the N shards of one `--shard K/N` split (`DIR/shards/K`) and their
    /// merge (DIR; absent while shards are still missing): the merge is compared with the
    /// shards at no cost; shard K is recomputed by `recompute(game, rule, rows, cols, K/N)`
    /// and `merged` (a game's own check of the merged files) runs when the budget allows.
    Sharded { recompute: fn(&str, &str, u32, u32, Shard) -> Result<RunResults>, merged: Option<MergedCheck> },
    /// A table file whose rows are recomputed one at a time: `rows` lists, from the committed
    /// file, each row's key and estimated seconds (one unit each, within the budget);
    /// `compare(file, key)` recomputes that row and compares it.
    Rows { file: &'static str, rows: fn(&Path) -> Result<Vec<RowUnit>>, compare: fn(&Path, &str) -> Result<Vec<Difference>> },
}

/// One row of a [`Recompute::Rows`] table: its key and estimated seconds.
pub type RowUnit = (String, f64);

/// A game's own check of a sharded run's merged files (see [`Recompute::Sharded`]).
#[derive(Clone, Copy)]
pub struct MergedCheck {
    /// What is checked, e.g. `few-X rows`.
    pub label: &'static str,
    /// Estimated seconds.
    pub seconds: f64,
    /// Checks the merged directory and returns the differences.
    pub compare: fn(&Path) -> Result<Vec<Difference>>,
}

/// A committed results directory (relative to results/) and how `check` recomputes it.
#[derive(Clone, Copy)]
pub struct ResultsDir {
    pub dir: &'static str,
    pub recompute: Recompute,
}
