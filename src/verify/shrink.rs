//! Counterexample shrinking for the wall game: reduce a failing board to a locally minimal one.
//!
//! Boards are ordered by cells, then X count (then rows, then their slashed text, so the order
//! is total). From a failing board the shrinker moves to the smallest still-failing neighbour
//! that is smaller in this order, until none is left (a fixpoint). The neighbours of a board:
//! it with one cell flipped (X ↔ '.'), it with one whole row or column dropped, and a dropped
//! board with one cell flipped (so '.' → X can pay off when it comes with a drop). Every step
//! goes down a well-founded order, so shrinking ends; it is deterministic.

use super::tally::RunResults;
use super::wall::claim_holds;
use crate::error::{Error, Result};
use crate::games::wall::{claim, naive, Board, Rule, Shape};
use crate::output::csv::write_csv;
use crate::output::records::{outcome_name, CounterexampleRow};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the shrunk counterexamples in a run directory.
pub const COUNTEREXAMPLES: &str = "counterexamples.csv";

/// The shrinking order: cells, X count, rows, slashed text.
pub type SizeKey = (usize, usize, usize, String);

/// A board's place in the shrinking order.
pub fn size_key(board: &Board) -> SizeKey {
    (board.shape().cells(), board.x_count(), board.rows(), board.to_slashed())
}

/// True when the claim under `rule` fails on `board` (at most 64 cells).
pub fn claim_fails(board: &Board, rule: Rule) -> Result<bool> {
    let truth = naive::solve(board, rule)?;
    Ok(!claim_holds(rule, claim::claimed_grundy(board, rule), truth))
}

/// Shrinks boards under one rule, remembering verdicts and results across calls.
pub struct Shrinker {
    rule: Rule,
    fails: FxHashMap<Board, bool>,
    minimal: FxHashMap<Board, Board>,
}

impl Shrinker {
    pub fn new(rule: Rule) -> Self {
        Shrinker { rule, fails: FxHashMap::default(), minimal: FxHashMap::default() }
    }

    fn fails(&mut self, board: &Board) -> bool {
        if let Some(&f) = self.fails.get(board) {
            return f;
        }
        // Neighbours are never larger than a board the caller checked, so they fit the oracle.
        let f = claim_fails(board, self.rule).expect("shrunk boards fit the naive oracle");
        self.fails.insert(board.clone(), f);
        f
    }

    /// The locally minimal failing board reached from `board`, which must fail.
    pub fn shrink(&mut self, board: &Board) -> Result<Board> {
        if !claim_fails(board, self.rule)? {
            return Err(Error::Usage(format!(
                "board {} is not a counterexample under rule {}",
                board.to_slashed(),
                self.rule
            )));
        }
        let mut path = Vec::new();
        let mut current = board.clone();
        let result = loop {
            if let Some(known) = self.minimal.get(&current) {
                break known.clone();
            }
            let next = smaller_neighbours(&current).into_iter().find(|n| self.fails(n));
            path.push(current);
            match next {
                Some(n) => current = n,
                None => break path.last().expect("just pushed").clone(),
            }
        };
        for visited in path {
            self.minimal.insert(visited, result.clone());
        }
        Ok(result)
    }
}

/// The distinct minimal boards the failing `boards` shrink to, in shrinking order.
pub fn minimal_counterexamples(boards: &[Board], rule: Rule) -> Result<Vec<Board>> {
    let mut sorted: Vec<&Board> = boards.iter().collect();
    sorted.sort_by_cached_key(|b| size_key(b));
    let shrunk: Vec<Board> = sorted
        .par_chunks(256)
        .map_init(|| Shrinker::new(rule), |s, chunk| chunk.iter().map(|b| s.shrink(b)).collect::<Result<Vec<_>>>())
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let distinct: BTreeMap<SizeKey, Board> = shrunk.into_iter().map(|b| (size_key(&b), b)).collect();
    Ok(distinct.into_values().collect())
}

/// counterexamples.csv rows for the mismatches of a wall run: its distinct minimal boards.
pub fn counterexample_rows(results: &RunResults) -> Result<Vec<CounterexampleRow>> {
    let rule: Rule = results.rule.parse().map_err(Error::Usage)?;
    let boards = results.mismatch_rows().iter().map(|m| Board::from_slashed(&m.board)).collect::<Result<Vec<_>>>()?;
    minimal_counterexamples(&boards, rule)?
        .into_iter()
        .map(|board| {
            let (claimed, actual) = claim_and_truth(&board, rule)?;
            Ok(CounterexampleRow {
                game: results.game.clone(),
                rule: rule.name().into(),
                rows: board.rows() as u32,
                cols: board.cols() as u32,
                board: board.to_slashed(),
                claimed,
                actual,
            })
        })
        .collect()
}

/// Shrinks the run's mismatches and writes counterexamples.csv into `dir`; returns the rows.
pub fn write_counterexamples(dir: &Path, results: &RunResults) -> Result<Vec<CounterexampleRow>> {
    let rows = counterexample_rows(results)?;
    write_csv(&dir.join(COUNTEREXAMPLES), &rows)?;
    Ok(rows)
}

/// What the claim says and what search finds, in the claim's terms: Grundy values, or for
/// misère (whose claim is only about the winner) the winners.
fn claim_and_truth(board: &Board, rule: Rule) -> Result<(String, String)> {
    let claimed = claim::claimed_grundy(board, rule);
    let truth = naive::solve(board, rule)?;
    Ok(match rule {
        Rule::Misere => (outcome_name(claimed != 0).into(), outcome_name(truth.first_player_wins).into()),
        Rule::Standard | Rule::XBlocks | Rule::TSplit => (claimed.to_string(), truth.grundy.to_string()),
    })
}

/// Neighbours of `board` smaller in the shrinking order, smallest first.
fn smaller_neighbours(board: &Board) -> Vec<Board> {
    let dropped = dropped_lines(board);
    let mut out: Vec<Board> = dropped.iter().flat_map(single_flips).collect();
    out.extend(dropped);
    out.extend(single_flips(board));
    let key = size_key(board);
    let mut keyed: Vec<(SizeKey, Board)> =
        out.into_iter().map(|b| (size_key(&b), b)).filter(|(k, _)| *k < key).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    keyed.into_iter().map(|(_, b)| b).collect()
}

/// The board without one row, for every row, then without one column, for every column.
fn dropped_lines(board: &Board) -> Vec<Board> {
    let (rows, cols) = (board.rows(), board.cols());
    let without_row = (0..rows).filter(|_| rows > 1).map(|skip| {
        rebuilt(Shape::new(rows - 1, cols), |r, c| board.is_x(if r < skip { r } else { r + 1 }, c))
    });
    let without_col = (0..cols).filter(|_| cols > 1).map(|skip| {
        rebuilt(Shape::new(rows, cols - 1), |r, c| board.is_x(r, if c < skip { c } else { c + 1 }))
    });
    without_row.chain(without_col).collect()
}

/// The board with one cell flipped, for every cell.
fn single_flips(board: &Board) -> Vec<Board> {
    let (rows, cols) = (board.rows(), board.cols());
    (0..rows * cols)
        .map(|i| {
            let mut flipped = board.clone();
            flipped.set_x(i / cols, i % cols, !board.is_x(i / cols, i % cols));
            flipped
        })
        .collect()
}

fn rebuilt(shape: Shape, is_x: impl Fn(usize, usize) -> bool) -> Board {
    let mut board = Board::empty(shape);
    for r in 0..shape.rows {
        for c in 0..shape.cols {
            board.set_x(r, c, is_x(r, c));
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_slashed(text).unwrap()
    }

    #[test]
    fn neighbours_are_smaller_and_sorted() {
        let b = board("X./..");
        let n = smaller_neighbours(&b);
        let keys: Vec<SizeKey> = n.iter().map(size_key).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(keys.iter().all(|k| *k < size_key(&b)));
        // Smallest: a 2-cell board without X; the X→'.' flip is there, a '.'→X flip is not.
        assert_eq!(n[0].to_slashed(), "..");
        assert!(n.iter().any(|x| x.to_slashed() == "../.."));
        assert!(!n.iter().any(|x| x.to_slashed() == "XX/.."));
    }

    #[test]
    fn drops_rows_and_columns() {
        let d: Vec<String> = dropped_lines(&board("X./.X/..")).iter().map(Board::to_slashed).collect();
        assert_eq!(d, [".X/..", "X./..", "X./.X", "./X/.", "X/./."]);
        assert!(dropped_lines(&board(".")).is_empty());
    }

    #[test]
    fn misere_shrinks_to_one_free_cell() {
        let mut s = Shrinker::new(Rule::Misere);
        assert_eq!(s.shrink(&board("X")).unwrap().to_slashed(), ".");
        assert_eq!(s.shrink(&board("../..")).unwrap().to_slashed(), ".");
    }

    #[test]
    fn refuses_a_board_where_the_claim_holds() {
        let err = Shrinker::new(Rule::Standard).shrink(&board("../..")).unwrap_err();
        assert!(err.to_string().contains("not a counterexample under rule standard"), "{err}");
    }
}
