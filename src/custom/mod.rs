//! Your own impartial game from Rust: positions by size, moves, an optional claim or components, verified by the runner.
//!
//! Implement [`CustomGame`] and call [`verify`]: every position of every size up to the maximum
//! gets its exact value by brute force (mex over [`CustomGame::moves`], memoized, knowing
//! nothing else of the game), and the claim and the components, where the game gives them, are
//! checked against it on the rayon pool. The run writes the files of every `verify`
//! (summary.csv, distribution.csv, mismatches.csv, manifest.json).

mod layout;
mod memo;
pub mod program;
mod verdict;
mod run;

pub use run::{CustomRun, COLUMNS};
pub use verdict::Verdict;

use crate::error::{Error, Result};
use crate::impartial::grundy_with;
use crate::output::manifest::RunClock;
use crate::runner::directory::{verify_into, DirRun, Finished, Report};
use crate::runner::Silent;
use rustc_hash::FxHashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::path::Path;

/// An impartial game under normal play, as a user's crate describes it.
///
/// ```
/// use sprague::custom::{verify, CustomGame};
///
/// /// One heap; a move takes 1, 3 or 4 stones.
/// struct Subtraction;
///
/// impl CustomGame for Subtraction {
///     type Position = u32;
///     fn positions(&self, size: u32) -> Vec<u32> {
///         vec![size]
///     }
///     fn moves(&self, &n: &u32) -> Vec<u32> {
///         [1, 3, 4].into_iter().filter(|&k| k <= n).map(|k| n - k).collect()
///     }
///     fn claim(&self, &n: &u32) -> Option<u32> {
///         Some([0, 1, 0, 1, 2, 3, 2][n as usize % 7])
///     }
/// }
///
/// let dir = tempfile::tempdir().unwrap();
/// let report = verify(&Subtraction, 100, dir.path()).unwrap();
/// assert!(report.all_agree());
/// assert_eq!(report.results.sizes.values().map(|t| t.patterns).sum::<u64>(), 101);
/// assert!(dir.path().join("summary.csv").exists());
/// ```
pub trait CustomGame: Sync {
    /// A whole position, compared and hashed exactly; mismatches.csv shows it as `{:?}`.
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    /// The game's name in the result files.
    fn name(&self) -> &str {
        "custom"
    }
    /// The starting positions of one size (each size is one job of the run).
    fn positions(&self, size: u32) -> Vec<Self::Position>;
    /// Every position reachable in one move (duplicates allowed); the game must end.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Position>;
    /// The claimed Grundy value, checked against the exact one; `None`: no claim.
    fn claim(&self, _position: &Self::Position) -> Option<u32> {
        None
    }
    /// Independent parts whose exact values should XOR to the position's; `None`: no split.
    fn components(&self, _position: &Self::Position) -> Option<Vec<Self::Position>> {
        None
    }
    /// Optional, for speed: [`moves`](Self::moves) appended to `out` (no vector per call).
    fn moves_into(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        out.extend(self.moves(position));
    }
    /// Optional, for speed: [`components`](Self::components) appended to `out`; false: no split.
    fn components_into(&self, position: &Self::Position, out: &mut Vec<Self::Position>) -> bool {
        self.components(position).map(|parts| out.extend(parts)).is_some()
    }
    /// Optional, for speed: `Some((size, i))` when `position` is `positions(size)[i]`, `None`
    /// otherwise. Indexed values live in one flat array instead of a hash table; `verify`
    /// refuses an index wrong on a listed position (one that places an unlisted position on a
    /// listed one's place cannot be seen, and would mix their values).
    fn index(&self, _position: &Self::Position) -> Option<(u32, usize)> {
        None
    }
}

/// Verifies every position of sizes 0..=`max_size` of `game` on the rayon pool and writes the
/// verify files into `dir` (created when missing). The report says whether all agreed.
pub fn verify<G: CustomGame>(game: &G, max_size: u32, dir: impl AsRef<Path>) -> Result<Report> {
    let run = CustomRun::new(game, max_size);
    let clock = RunClock::start(std::env::args().collect(), rayon::current_num_threads());
    let mut dir_run = DirRun::new(dir.as_ref());
    dir_run.options.save_every_job = false;
    match verify_into(&run, &dir_run, &clock, &Silent)? {
        Finished::Done(report) => Ok(*report),
        Finished::Stopped => Err(Error::Usage(format!("{}: the run stopped before its end", game.name()))),
    }
}

/// The exact Grundy values of `positions` by brute force: the move rule only, never the claim
/// or the components.
pub fn exact_values<G: CustomGame>(game: &G, positions: &[G::Position]) -> Vec<u32> {
    let mut memo = FxHashMap::default();
    positions.iter().map(|p| grundy_with(p, &mut memo, |q| game.moves(q))).collect()
}
