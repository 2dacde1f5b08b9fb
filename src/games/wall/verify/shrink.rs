//! Counterexample shrinking for the wall game: reduce a failing board to a locally minimal one.
//!
//! Boards are ordered by cells, then X count (then rows, then their slashed text, so the order
//! is total). From a failing board the shrinker moves to the smallest still-failing neighbour
//! that is smaller in this order, until none is left (a fixpoint). The neighbours of a board:
//! it with one cell flipped (X ↔ '.'), it with one whole row or column dropped, and a dropped
//! board with one cell flipped (so '.' → X can pay off when it comes with a drop). Every step
//! goes down a well-founded order, so shrinking ends; it is deterministic.

use crate::runner::tally::RunResults;
use super::engine::claim_holds;
use crate::error::{Error, Result};
use crate::games::wall::{claim, naive, board::{Board, Shape, rules::Rule}};
use crate::output::csv::write_csv;
use crate::output::records::{outcome_name, CounterexampleRow};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the shrunk counterexamples in a run directory.
pub const COUNTEREXAMPLES: &str = "counterexamples.csv";

/// The shrinking order: cells, X count, rows, then the cells row-major with '.' before X
/// (the order of the slashed text), as the bit-reversed X mask.
pub type SizeKey = (usize, u32, usize, u64);

/// A board's place in the shrinking order (boards of at most 64 cells).
pub fn size_key(board: &Board) -> SizeKey {
    Compact::of(board).key()
}

/// True when the claim under `rule` fails on `board` (at most 64 cells).
pub fn claim_fails(board: &Board, rule: Rule) -> Result<bool> {
    let truth = naive::solve(board, rule)?;
    Ok(!claim_holds(rule, claim::claimed_grundy(board, rule), truth))
}

/// A board of at most 64 cells as its shape and X mask (cheap to copy, hash and reshape).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Compact {
    shape: Shape,
    x: u64,
}

impl Compact {
    fn of(board: &Board) -> Self {
        let x = board.x_mask().expect("boards to shrink have at most 64 cells");
        Compact { shape: board.shape(), x }
    }

    fn board(self) -> Board {
        Board::from_mask(self.shape, self.x)
    }

    fn key(self) -> SizeKey {
        let cells = self.shape.cells();
        // Cell 0 becomes the most significant bit, so a '.' earlier in the text sorts first.
        (cells, self.x.count_ones(), self.shape.rows, self.x.reverse_bits() >> (64 - cells))
    }

    /// The board without one row, for every row, then without one column, for every column.
    fn dropped_lines(self) -> Vec<Compact> {
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let row_drops = (0..rows).filter(|_| rows > 1).map(move |skip| {
            let below = self.x >> ((skip + 1) * cols);
            let above = self.x & ((1u64 << (skip * cols)) - 1);
            Compact { shape: Shape::new(rows - 1, cols), x: above | below << (skip * cols) }
        });
        let col_drops = (0..cols).filter(|_| cols > 1).map(move |skip| {
            let x = (0..rows).fold(0u64, |acc, r| {
                let row = self.x >> (r * cols) & ((1u64 << cols) - 1);
                let kept = row & ((1u64 << skip) - 1) | (row >> (skip + 1)) << skip;
                acc | kept << (r * (cols - 1))
            });
            Compact { shape: Shape::new(rows, cols - 1), x }
        });
        row_drops.chain(col_drops).collect()
    }

    /// The board with one cell flipped, for every cell.
    fn single_flips(self) -> impl Iterator<Item = Compact> {
        (0..self.shape.cells()).map(move |i| Compact { shape: self.shape, x: self.x ^ 1 << i })
    }

    /// Neighbours smaller in the shrinking order, smallest first.
    fn smaller_neighbours(self) -> Vec<Compact> {
        let dropped = self.dropped_lines();
        let mut out: Vec<Compact> = dropped.iter().flat_map(|d| d.single_flips()).collect();
        out.extend(dropped);
        out.extend(self.single_flips());
        let key = self.key();
        out.retain(|n| n.key() < key);
        out.sort_by_key(|n| n.key());
        out.dedup();
        out
    }
}

/// Shrinks boards under one rule, remembering verdicts and results across calls.
pub struct Shrinker {
    rule: Rule,
    fails: FxHashMap<Compact, bool>,
    minimal: FxHashMap<Compact, Compact>,
}

impl Shrinker {
    pub fn new(rule: Rule) -> Self {
        Shrinker { rule, fails: FxHashMap::default(), minimal: FxHashMap::default() }
    }

    fn fails(&mut self, board: Compact) -> bool {
        let rule = self.rule;
        *self.fails.entry(board).or_insert_with(|| {
            claim_fails(&board.board(), rule).expect("boards of at most 64 cells fit the naive oracle")
        })
    }

    /// The locally minimal failing board reached from `board`, which must fail.
    pub fn shrink(&mut self, board: &Board) -> Result<Board> {
        if !board.shape().fits_mask() || !claim_fails(board, self.rule)? {
            return Err(not_a_counterexample(board, self.rule));
        }
        Ok(self.descend(Compact::of(board)).board())
    }

    /// Walks down to the smallest failing neighbour until none is left; remembers the path.
    fn descend(&mut self, start: Compact) -> Compact {
        let mut path = Vec::new();
        let mut current = start;
        let result = loop {
            if let Some(&known) = self.minimal.get(&current) {
                break known;
            }
            path.push(current);
            match current.smaller_neighbours().into_iter().find(|&n| self.fails(n)) {
                Some(n) => current = n,
                None => break current,
            }
        };
        for visited in path {
            self.minimal.insert(visited, result);
        }
        result
    }
}

fn not_a_counterexample(board: &Board, rule: Rule) -> Error {
    Error::Usage(format!(
        "board {} is not a counterexample under rule {rule} (of at most 64 cells)",
        board.to_slashed()
    ))
}

/// The distinct minimal boards the failing `boards` shrink to, in shrinking order. The
/// boards are checked in parallel, then shrunk smallest first with shared memory.
pub fn minimal_counterexamples(boards: &[Board], rule: Rule) -> Result<Vec<Board>> {
    let mut sorted: Vec<&Board> = boards.iter().collect();
    sorted.sort_by_cached_key(|b| size_key(b));
    let verdicts: Vec<bool> = sorted
        .par_iter()
        .map(|b| if b.shape().fits_mask() { claim_fails(b, rule) } else { Ok(false) })
        .collect::<Result<_>>()?;
    if let Some(i) = verdicts.iter().position(|&f| !f) {
        return Err(not_a_counterexample(sorted[i], rule));
    }
    let starts: Vec<Compact> = sorted.into_iter().map(Compact::of).collect();
    let mut shrinker = Shrinker::new(rule);
    shrinker.fails.extend(starts.iter().map(|&c| (c, true)));
    let distinct: BTreeMap<SizeKey, Compact> =
        starts.into_iter().map(|c| shrinker.descend(c)).map(|m| (m.key(), m)).collect();
    Ok(distinct.into_values().map(Compact::board).collect())
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

/// Neighbours of `board` (at most 64 cells) smaller in the shrinking order, smallest first:
/// one cell flipped, one row or column dropped, or a drop and a flip.
pub fn smaller_neighbours(board: &Board) -> Vec<Board> {
    Compact::of(board).smaller_neighbours().into_iter().map(Compact::board).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_slashed(text).unwrap()
    }

    #[test]
    fn key_orders_like_cells_then_xs_then_text() {
        let texts = ["XX/..", "X./..", ".X/..", "../X.", "../.X", "../..", ".X.", "./X/.", "XXX"];
        let boards: Vec<Board> = texts.iter().map(|t| board(t)).collect();
        let mut by_key = boards.clone();
        by_key.sort_by_key(size_key);
        let mut by_text = boards;
        by_text.sort_by_key(|b| (b.shape().cells(), b.x_count(), b.rows(), b.to_slashed()));
        assert_eq!(by_key, by_text);
        assert_eq!(by_key[0].to_slashed(), ".X.");
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
        let dropped = |text: &str| -> Vec<String> {
            Compact::of(&board(text)).dropped_lines().into_iter().map(|c| c.board().to_slashed()).collect()
        };
        assert_eq!(dropped("X./.X/.."), [".X/..", "X./..", "X./.X", "./X/.", "X/./."]);
        assert_eq!(dropped("X.X/.XX"), [".XX", "X.X", ".X/XX", "XX/.X", "X./.X"]);
        assert!(dropped(".").is_empty());
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
