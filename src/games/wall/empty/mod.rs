//! X-free boards of the wall game: the Grundy table to any size, and the proof of every row.
//!
//! For an X-free h×w board g(h×w) = mex over cells (i, j) of g(i×j) ^ g(i×(w−1−j)) ^
//! g((h−1−i)×j) ^ g((h−1−i)×(w−1−j)) with g(0×n) = 0 (docs/empty-board.md). `table` computes
//! every value up to a size, `prove` proves each row constant from some start on.

pub mod check;
pub mod commands;
pub mod compact;
pub mod dp;
pub mod kernel;
pub mod prove;
pub mod simd;
pub mod table;
pub mod verdict;
pub mod files;

pub use prove::{Lemma, Proof, ProvedRow};

/// Estimated seconds of `check` for the whole committed table (704 s CPU measured, 2 cores).
pub const WHOLE_TABLE_SECONDS: f64 = 400.0;
/// Estimated seconds of `check` for the whole committed proof (about 11 min CPU measured, 2 cores).
pub const WHOLE_PROOF_SECONDS: f64 = 400.0;
pub use table::Table;

#[cfg(test)]
mod tests;
