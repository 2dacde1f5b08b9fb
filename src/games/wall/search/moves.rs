//! The wall game with move answers (`stress wall --answer move`): the program prints a
//! winning move as `r c` (row and column, 1-based, of the free cell where it builds), or
//! `Second` when the player to move loses. Any move that leaves Grundy value 0 is right.

use super::contest::WallContest;
use crate::games::wall::board::Board;
use crate::games::wall::claim::dp::RectDp;
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// A move: the cell built on, 1-based as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.row, self.col)
    }
}

impl Moves for WallContest {
    type Move = Cell;

    fn lost_word(&self, _board: &Board) -> &'static str {
        "Second"
    }

    fn winning_moves(&self, board: &Board) -> Vec<Cell> {
        RectDp::new(board).winning_moves().into_iter().map(|(r, c)| Cell { row: r + 1, col: c + 1 }).collect()
    }

    fn parse_move(&self, _board: &Board, text: &str) -> Result<Cell, String> {
        let read = numbers(text, 2, "r c").map_err(|e| format!("{e}: 1-based row and column"))?;
        Ok(Cell { row: read[0] as usize, col: read[1] as usize })
    }

    fn illegal(&self, board: &Board, mv: &Cell) -> Option<String> {
        if mv.row > board.rows() || mv.col > board.cols() {
            return Some(format!("{mv} is outside the {} board", board.shape()));
        }
        board.is_x(mv.row - 1, mv.col - 1).then(|| format!("row {}, column {} is an X cell", mv.row, mv.col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::Contest;

    #[test]
    fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(WallContest::default());
        let board = Board::from_slashed(".X./...").unwrap();
        let expected = game.answer(&board);
        assert_eq!(expected, MoveAnswer::Moves(vec![Cell { row: 2, col: 2 }]), "only the middle of the bottom row wins");
        assert_eq!(expected.to_string(), "2 2");
        let all = game.answer(&Board::from_slashed("...").unwrap());
        assert_eq!(all.to_string(), "1 1", "every move of one row wins; the answer file holds the first");
        let judge = |out: &str| game.judge(&board, out);
        assert!(judge("2 2\n").unwrap().0);
        assert_eq!(judge("1 1").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("3 1").unwrap().1, "illegal move: 3 1 is outside the 2x3 board");
        assert_eq!(judge("1 2").unwrap().1, "illegal move: row 1, column 2 is an X cell");
        assert_eq!(judge("Second").unwrap().1, "the position is won (1 winning move)");
        assert!(judge("0 1").unwrap_err().contains("1-based") && judge("First").unwrap_err().contains("or Second"));
        let lost = Board::from_slashed("../..").unwrap();
        assert_eq!(game.answer(&lost), MoveAnswer::Lost("Second"));
        let got = game.parse_output(&lost, "2 2").unwrap();
        assert_eq!(game.why_wrong(&lost, &game.answer(&lost), &got), "the position is lost: every move leaves the opponent a win");
    }
}
