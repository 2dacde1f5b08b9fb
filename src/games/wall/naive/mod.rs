//! Naive oracle: whole-board search memoized on the exact wall mask; never splits a board.
//!
//! It knows only the move rule ([`crate::games::wall::board::rules::apply_move`]): no rectangles, no XOR.

pub mod table;

use crate::games::wall::board::Board;
use crate::games::wall::board::rules::{apply_move, bits, legal_cells, Rule};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;

/// What the oracle says about a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NaiveVerdict {
    /// Mex of the Grundy values of the whole-board children.
    pub grundy: u32,
    /// Outcome by plain win/lose minimax under the rule's winning convention.
    pub first_player_wins: bool,
}

/// Memoized search over whole-board positions of one board.
struct Search<'b> {
    board: &'b Board,
    rule: Rule,
    x_mask: u64,
    grundy: FxHashMap<u64, u8>,
    wins: FxHashMap<u64, bool>,
    /// Most positions either map may hold; past it the search gives up (`exhausted`).
    max_positions: usize,
    exhausted: bool,
}

impl<'b> Search<'b> {
    fn new(board: &'b Board, rule: Rule, max_positions: usize) -> Result<Self> {
        let x_mask = board.x_mask().ok_or_else(|| too_large(board))?;
        Ok(Search { board, rule, x_mask, grundy: FxHashMap::default(), wins: FxHashMap::default(), max_positions, exhausted: false })
    }

    /// An error when the search gave up at its limit (its values are then void).
    fn finished(&self, max_positions: usize) -> Result<()> {
        if !self.exhausted {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "the whole-board search of this {} board passed {max_positions} positions, all the memory allowed, \
             without finishing; use the rectangle DP (the default engine)",
            self.board.shape()
        )))
    }

    /// Marks the search exhausted when `len` positions reach the limit (its values are then void).
    fn full(&mut self, len: usize) -> bool {
        self.exhausted |= len >= self.max_positions;
        self.exhausted
    }

    fn children(&self, walls: u64) -> impl Iterator<Item = u64> + '_ {
        let shape = self.board.shape();
        bits(legal_cells(shape, self.x_mask, walls))
            .map(move |cell| apply_move(shape, self.rule, self.x_mask, walls, cell))
    }

    /// Grundy value: mex over children of their Grundy values.
    fn grundy(&mut self, walls: u64) -> u8 {
        if let Some(&g) = self.grundy.get(&walls) {
            return g;
        }
        if self.full(self.grundy.len()) {
            return 0;
        }
        let children: Vec<u64> = self.children(walls).collect();
        let mut seen = 0u128;
        for child in children {
            seen |= 1u128 << self.grundy(child);
        }
        let g = (!seen).trailing_zeros() as u8;
        self.grundy.insert(walls, g);
        g
    }

    /// True when the player to move wins (minimax, no Grundy values involved).
    fn wins(&mut self, walls: u64) -> bool {
        if let Some(&w) = self.wins.get(&walls) {
            return w;
        }
        if self.full(self.wins.len()) {
            return false;
        }
        let children: Vec<u64> = self.children(walls).collect();
        let w = if children.is_empty() {
            self.rule.stuck_player_wins()
        } else {
            children.into_iter().any(|child| !self.wins(child))
        };
        self.wins.insert(walls, w);
        w
    }
}

/// Solves a board of at most 64 cells by whole-board search.
pub fn solve(board: &Board, rule: Rule) -> Result<NaiveVerdict> {
    solve_within(board, rule, usize::MAX)
}

/// [`solve`], giving up with an error once the search holds `max_positions` positions (so that
/// a board too large for the machine ends cleanly instead of exhausting its memory).
pub fn solve_within(board: &Board, rule: Rule, max_positions: usize) -> Result<NaiveVerdict> {
    let mut search = Search::new(board, rule, max_positions)?;
    let grundy = search.grundy(0) as u32;
    let first_player_wins = search.wins(0);
    search.finished(max_positions)?;
    Ok(NaiveVerdict { grundy, first_player_wins })
}

/// How many whole-board positions the Grundy search of `board` visits (for the cost model's tests
/// and measurements).
pub fn positions_visited(board: &Board, rule: Rule) -> Result<usize> {
    let mut search = Search::new(board, rule, usize::MAX)?;
    search.grundy(0);
    Ok(search.grundy.len())
}

/// Every legal first move (row, column), row-major, with the Grundy value of the position it
/// leaves, found by whole-board search.
pub fn move_values(board: &Board, rule: Rule) -> Result<Vec<((usize, usize), u32)>> {
    let mut search = Search::new(board, rule, usize::MAX)?;
    let (cols, x_mask) = (board.cols(), search.x_mask);
    let values = bits(legal_cells(board.shape(), x_mask, 0))
        .map(|cell| {
            let child = apply_move(board.shape(), rule, x_mask, 0, cell);
            ((cell / cols, cell % cols), search.grundy(child) as u32)
        })
        .collect();
    Ok(values)
}

/// Moves of the whole board after which the player to move loses (by minimax, so right under
/// misère play too; under normal play exactly the moves to Grundy value 0), row-major.
pub fn winning_moves(board: &Board, rule: Rule) -> Result<Vec<(usize, usize)>> {
    winning_moves_within(board, rule, usize::MAX)
}

/// [`winning_moves`] within a limit of positions, as [`solve_within`].
pub fn winning_moves_within(board: &Board, rule: Rule, max_positions: usize) -> Result<Vec<(usize, usize)>> {
    let mut search = Search::new(board, rule, max_positions)?;
    let (cols, x_mask) = (board.cols(), search.x_mask);
    let moves = bits(legal_cells(board.shape(), x_mask, 0))
        .filter(|&cell| !search.wins(apply_move(board.shape(), rule, x_mask, 0, cell)))
        .map(|cell| (cell / cols, cell % cols))
        .collect();
    search.finished(max_positions)?;
    Ok(moves)
}

fn too_large(board: &Board) -> Error {
    Error::Usage(format!(
        "the naive engine handles boards of at most 64 cells; this board is {} ({} cells)",
        board.shape(),
        board.shape().cells()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::wall::board::Shape;

    fn verdict(text: &str, rule: Rule) -> NaiveVerdict {
        solve(&Board::from_slashed(text).unwrap(), rule).unwrap()
    }

    #[test]
    fn problem_samples() {
        assert!(!verdict("../..", Rule::Standard).first_player_wins);
        assert!(verdict("X./..", Rule::Standard).first_player_wins);
        assert!(verdict("X..../...X./...../.....", Rule::Standard).first_player_wins);
    }

    #[test]
    fn tiny_boards() {
        assert_eq!(verdict(".", Rule::Standard), NaiveVerdict { grundy: 1, first_player_wins: true });
        assert_eq!(verdict("X", Rule::Standard), NaiveVerdict { grundy: 0, first_player_wins: false });
        // Misère: the player stuck on an all-X board wins.
        assert!(verdict("X", Rule::Misere).first_player_wins);
        assert!(!verdict(".", Rule::Misere).first_player_wins);
    }

    #[test]
    fn a_search_past_its_limit_ends_with_an_error() {
        let board = Board::empty(Shape::new(4, 4));
        assert!(solve_within(&board, Rule::Standard, 1000).is_ok());
        let err = solve_within(&board, Rule::Standard, 100).unwrap_err().to_string();
        assert!(err.contains("passed 100 positions"), "{err}");
    }

    #[test]
    fn refuses_large_boards() {
        let err = solve(&Board::empty(Shape::new(9, 8)), Rule::Standard).unwrap_err();
        assert!(err.to_string().contains("at most 64 cells"), "{err}");
    }
}
