//! The Wall Making Game (BOJ 11717, JAG Spring Contest 2015).
//!
//! An H×W board of '.' and 'X' cells; a move picks a cell that is neither wall nor X and walls
//! it together with every cell in the four directions up to the first wall or the edge. The
//! claim under test: a move splits its rectangle into four independent rectangles, so a
//! rectangle DP with XOR gives the Grundy value. The functions below are the library's front
//! door; the rooms hold the rest, each depending only on those below it (docs/architecture.md):
//! board, claim, naive, census, empty, verify, search, report, commands.

pub mod board;
pub mod census;
pub mod census_command;
pub mod claim;
pub mod commands;
pub mod empty;
pub mod explore;
pub mod naive;
pub mod report;
pub mod search;
pub mod sizes;
pub mod verify;

pub use board::{Board, Shape};
pub use commands::GAME;
pub use board::rules::Rule;
pub use claim::dp::Solution;

use crate::error::{Error, Result};
use crate::runner::directory::{verify_into, DirRun, Finished, Report};
use crate::runner::Silent;
use std::path::Path;

/// Reads one board in the contest format (`H W`, then H rows of '.'/'X').
///
/// ```
/// let board = sprague::games::wall::parse_board("2 3\n.X.\n...\n")?;
/// assert_eq!((board.rows(), board.cols()), (2, 3));
/// assert!(sprague::games::wall::parse_board("2 3\n.X.\n").is_err());
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn parse_board(text: &str) -> Result<Board> {
    let mut boards = Board::parse_input("<text>", text, false)?;
    Ok(boards.pop().expect("one board without --batch"))
}

/// The Grundy value of `board` by the rectangle DP, and the moves that leave value 0.
///
/// ```
/// use sprague::games::wall::{parse_board, solve};
/// // BOJ 11717's first sample: the first player wins.
/// let solution = solve(&parse_board("4 5\nX....\n...X.\n.....\n.....\n")?);
/// assert_ne!(solution.grundy, 0);
/// assert_eq!(solve(&parse_board("2 2\n..\n..\n")?).grundy, 0);
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn solve(board: &Board) -> Solution {
    claim::dp::solve(board)
}

/// Checks the claim under `rule` on every X-pattern of every size up to `max` (each pattern
/// evaluated by the rectangle DP and the naive oracle) and writes summary.csv,
/// distribution.csv, mismatches.csv and manifest.json into `dir`.
///
/// ```
/// use sprague::games::wall::{verify_up_to, Rule, Shape};
/// let dir = tempfile::tempdir().unwrap();
/// let report = verify_up_to(dir.path(), Shape::new(3, 3), Rule::Standard)?;
/// assert!(report.all_agree());
/// assert_eq!(report.results.sizes[&(3, 3)].patterns, 512);
/// assert!(dir.path().join("distribution.csv").exists());
/// // A rule variant whose claim is false is caught.
/// let misere = verify_up_to(&dir.path().join("misere"), Shape::new(2, 2), Rule::Misere)?;
/// assert!(!misere.all_agree());
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn verify_up_to(dir: &Path, max: Shape, rule: Rule) -> Result<Report> {
    let run = verify::WallRun::verify(board::dims::sizes_up_to(max), rule, format!("max {max}"))?;
    finished(verify_into(&run, &DirRun::new(dir), &clock(), &Silent)?)
}

/// The claimed values of every X-pattern of `size` (no oracle), written into `dir`.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let size = sprague::games::wall::Shape::new(3, 4);
/// let report = sprague::games::wall::census(dir.path(), size)?;
/// assert_eq!(report.results.sizes[&(3, 4)].patterns, 1 << 12);
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn census(dir: &Path, size: Shape) -> Result<Report> {
    let run = verify::WallRun::census(vec![size], size.to_string())?;
    finished(verify_into(&run, &DirRun::new(dir), &clock(), &Silent)?)
}

fn clock() -> crate::output::manifest::RunClock {
    crate::output::manifest::RunClock::start(vec!["sprague (library)".into()], rayon::current_num_threads())
}

fn finished(outcome: Finished) -> Result<Report> {
    match outcome {
        Finished::Done(report) => Ok(*report),
        Finished::Stopped => Err(Error::Usage("the run stopped before the end".into())),
    }
}
