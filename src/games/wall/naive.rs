//! Naive oracle: whole-board search memoized on the exact wall mask; never splits a board.
//!
//! It knows only the move rule ([`super::rules::apply_move`]): no rectangles, no XOR.

use super::board::Board;
use super::rules::{apply_move, bits, legal_cells, Rule};
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
}

impl Search<'_> {
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
    let x_mask = board.x_mask().ok_or_else(|| too_large(board))?;
    let mut search = Search { board, rule, x_mask, grundy: FxHashMap::default(), wins: FxHashMap::default() };
    let grundy = search.grundy(0) as u32;
    let first_player_wins = search.wins(0);
    Ok(NaiveVerdict { grundy, first_player_wins })
}

/// Every legal first move (row, column), row-major, with the Grundy value of the position it
/// leaves, found by whole-board search.
pub fn move_values(board: &Board, rule: Rule) -> Result<Vec<((usize, usize), u32)>> {
    let x_mask = board.x_mask().ok_or_else(|| too_large(board))?;
    let mut search = Search { board, rule, x_mask, grundy: FxHashMap::default(), wins: FxHashMap::default() };
    let cols = board.cols();
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
    let x_mask = board.x_mask().ok_or_else(|| too_large(board))?;
    let mut search = Search { board, rule, x_mask, grundy: FxHashMap::default(), wins: FxHashMap::default() };
    let cols = board.cols();
    let moves = bits(legal_cells(board.shape(), x_mask, 0))
        .filter(|&cell| !search.wins(apply_move(board.shape(), rule, x_mask, 0, cell)))
        .map(|cell| (cell / cols, cell % cols))
        .collect();
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
    fn refuses_large_boards() {
        let err = solve(&Board::empty(Shape::new(9, 8)), Rule::Standard).unwrap_err();
        assert!(err.to_string().contains("at most 64 cells"), "{err}");
    }
}
