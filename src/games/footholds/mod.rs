//! Disappearing footholds: two pieces on a ≤ 5×5 board of footholds that vanish behind them (minimax).
//!
//! Rules: A moves first; a move steps the mover's piece to an orthogonally adjacent foothold and
//! the cell left loses its foothold. The player to move loses when he cannot move or stands on a
//! vanished foothold (the opponent stepped off their shared cell). A winner wins as fast as
//! possible, a loser survives as long as possible; the answer is the total number of moves.
//! Since the loser is always the player to move at the end, A wins exactly when that total is odd.
//!
//! - [`Position::parse_input`]: the contest format (`R C`, R rows of 0/1, `ar ac br bc`).
//! - [`claim`]: memoized negamax over (board, mover, other) with a "win fast, lose slow" score.
//! - [`brute`]: plain full-tree DFS on a mutable board, no memo, (win, moves) pairs.

use crate::error::{Error, Result};
use crate::input::Scanner;

/// Largest side the contest allows.
pub const MAX_SIDE: usize = 5;

/// A board (bit r·cols + c set = foothold) with the two pieces; A moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub rows: u8,
    pub cols: u8,
    pub board: u32,
    /// Cell index of A (r·cols + c).
    pub a: u8,
    /// Cell index of B.
    pub b: u8,
}

/// The result of optimal play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    /// True when A (the first player) wins.
    pub first_wins: bool,
    /// Total moves made by both players.
    pub moves: u32,
}

/// Board row `r` of `rows`: `cols` cells (0 or 1) on a line of their own (blank lines skipped),
/// as bits; a row of another length is named with its cell count.
fn board_row(s: &mut Scanner<'_>, r: usize, rows: usize, cols: usize) -> Result<u32> {
    let (line, text) = loop {
        match s.line() {
            Some((_, text)) if crate::input::is_blank(text) => continue,
            Some(found) => break found,
            None => {
                let (line, _) = s.position();
                return Err(s.error_at(line + 1, 1, format!("missing board row {} of {rows}", r + 1)));
            }
        }
    };
    let count = text.split_whitespace().count();
    let mut row = Scanner::new(s.source_name(), text).starting_at_line(line);
    let mut bits = 0u32;
    for c in 0..cols.min(count) {
        bits |= row.number::<u32>(&format!("cell ({r}, {c}) (row, column; 0-based) of the board (0 or 1)"), 0, 1)? << c;
    }
    if count != cols {
        let col = if count < cols { text.chars().count() + 1 } else { row.token("a cell")?.col };
        return Err(row.error_at(1, col, format!("board row {} has {count} cells, expected {cols}", r + 1)));
    }
    Ok(bits)
}

impl Position {
    /// A position; panics when a piece is off the board or not on a foothold.
    pub fn new(rows: usize, cols: usize, board: u32, a: usize, b: usize) -> Position {
        assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols), "board {rows}x{cols}");
        assert!(board >> a & 1 == 1 && board >> b & 1 == 1, "pieces must stand on footholds");
        Position { rows: rows as u8, cols: cols as u8, board, a: a as u8, b: b as u8 }
    }

    /// Parses the contest input, reporting line:col on any error.
    pub fn parse_input(source_name: &str, text: &str) -> Result<Position> {
        Self::parse_position(source_name, text, false)
    }

    /// [`Position::parse_input`]; with `vanished_under_a`, A (to move) may stand on a cell
    /// without a foothold: B has just stepped off their shared cell, and A has lost.
    pub fn parse_position(source_name: &str, text: &str, vanished_under_a: bool) -> Result<Position> {
        let mut s = Scanner::new(source_name, text);
        if s.at_end() {
            return Err(s.error_at(1, 1, "empty input: expected a line `R C`"));
        }
        let rows: usize = s.number("R (number of rows)", 1, MAX_SIDE)?;
        let cols: usize = s.number("C (number of columns)", 1, MAX_SIDE)?;
        s.finish_line()?;
        let mut board = 0u32;
        for r in 0..rows {
            board |= board_row(&mut s, r, rows, cols)? << (r * cols);
        }
        s.skip_blank();
        let a_line = s.position().0;
        let mut piece = |who: &str, may_vanish: bool| -> Result<usize> {
            s.skip_blank();
            let (line, col) = s.position();
            let r: usize = s.number(&format!("row of {who} (0-based)"), 0, rows - 1)?;
            let c: usize = s.number(&format!("column of {who} (0-based)"), 0, cols - 1)?;
            if board >> (r * cols + c) & 1 == 0 && !may_vanish {
                return Err(s.error_at(line, col, format!("{who} stands on ({r}, {c}) (0-based), which has no foothold")));
            }
            Ok(r * cols + c)
        };
        let a = piece("A", vanished_under_a)?;
        let b = piece("B", false)?;
        s.expect_end().map_err(|e| match e {
            // A board row too many is read as the pieces, and the real pieces, on a line of
            // their own after it, are left over.
            Error::Input { source_name, line, col, message } if line > a_line => {
                Error::Input { source_name, line, col, message: format!("{message} after the positions of A and B (a board row too many? R is {rows})") }
            }
            other => other,
        })?;
        Ok(Position { rows: rows as u8, cols: cols as u8, board, a: a as u8, b: b as u8 })
    }

    /// One line: `RxC|rows joined by '/'|ar,ac,br,bc`, e.g. `1x3|111|0,0,0,2`.
    pub fn to_compact(&self) -> String {
        let cols = self.cols as usize;
        let lines: Vec<String> = (0..self.rows as usize)
            .map(|r| (0..cols).map(|c| if self.board >> (r * cols + c) & 1 == 1 { '1' } else { '0' }).collect())
            .collect();
        let (a, b) = (self.a as usize, self.b as usize);
        format!("{}x{}|{}|{},{},{},{}", self.rows, cols, lines.join("/"), a / cols, a % cols, b / cols, b % cols)
    }

    /// Reads the form written by [`Position::to_compact`].
    pub fn from_compact(text: &str) -> Result<Position> {
        let bad = |why: &str| Error::Usage(format!("invalid footholds position {text:?}: {why}"));
        let parts: Vec<&str> = text.trim().split('|').collect();
        let [shape, board, pieces] = parts[..] else { return Err(bad("expected RxC|board|ar,ac,br,bc")) };
        let (r, c) = shape.split_once('x').ok_or_else(|| bad("shape RxC"))?;
        let side = |v: &str| v.parse::<usize>().ok().filter(|n| (1..=MAX_SIDE).contains(n)).ok_or_else(|| bad("side"));
        let (rows, cols) = (side(r)?, side(c)?);
        let cells: Vec<char> = board.chars().filter(|&ch| ch != '/').collect();
        if cells.len() != rows * cols || cells.iter().any(|&ch| ch != '0' && ch != '1') {
            return Err(bad("board must hold R·C digits 0/1"));
        }
        let mask = cells.iter().enumerate().fold(0u32, |m, (i, &ch)| m | u32::from(ch == '1') << i);
        let at: Vec<usize> = pieces.split(',').map(|v| v.parse().map_err(|_| bad("piece coordinate"))).collect::<Result<_>>()?;
        let [ar, ac, br, bc] = at[..] else { return Err(bad("expected four coordinates")) };
        if ar >= rows || br >= rows || ac >= cols || bc >= cols {
            return Err(bad("piece off the board"));
        }
        let (a, b) = (ar * cols + ac, br * cols + bc);
        if mask >> a & 1 == 0 || mask >> b & 1 == 0 {
            return Err(bad("piece not on a foothold"));
        }
        Ok(Position::new(rows, cols, mask, a, b))
    }
}

/// The orthogonal neighbours of every cell of one shape, as bit masks.
#[derive(Debug, Clone)]
pub struct Geometry {
    neighbours: Vec<u32>,
}

impl Geometry {
    pub fn new(rows: usize, cols: usize) -> Geometry {
        let neighbours = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut m = 0u32;
                if r > 0 { m |= 1 << (i - cols); }
                if r + 1 < rows { m |= 1 << (i + cols); }
                if c > 0 { m |= 1 << (i - 1); }
                if c + 1 < cols { m |= 1 << (i + 1); }
                m
            })
            .collect();
        Geometry { neighbours }
    }

    /// Cells a piece on `cell` may step to on `board`.
    pub fn steps(&self, board: u32, cell: u8) -> impl Iterator<Item = u8> {
        let mut m = self.neighbours[cell as usize] & board;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let next = m.trailing_zeros() as u8;
                m &= m - 1;
                next
            })
        })
    }
}

pub mod claim;
pub mod commands;
pub mod contest;
pub mod explore;
pub mod verify;

pub mod brute;

pub use commands::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    fn both(text: &str) -> (Outcome, Outcome) {
        let pos = Position::parse_input("t", text).unwrap();
        (claim::solve(&pos), brute::solve(&pos))
    }

    #[test]
    fn issue_examples() {
        for (text, moves) in [
            ("3 3\n1 1 1\n1 1 1\n1 1 1\n1 0 1 2\n", 5),
            ("3 3\n1 1 1\n1 0 1\n1 1 1\n1 0 1 2\n", 4),
            ("1 5\n1 1 1 1 1\n0 0 0 4\n", 4),
            ("1 1\n1\n0 0 0 0\n", 0),
        ] {
            let (c, b) = both(text);
            assert_eq!((c.moves, b.moves), (moves, moves), "{text}");
            assert_eq!(c, b);
            assert_eq!(c.first_wins, moves % 2 == 1);
        }
    }

    #[test]
    fn compact_round_trips() {
        let pos = Position::parse_input("t", "2 3\n1 0 1\n1 1 1\n0 2 1 0\n").unwrap();
        assert_eq!(pos.to_compact(), "2x3|101/111|0,2,1,0");
        assert_eq!(Position::from_compact(&pos.to_compact()).unwrap(), pos);
    }

    #[test]
    fn errors_name_position() {
        let err = |t: &str| Position::parse_input("in", t).unwrap_err().to_string();
        assert_eq!(err("6 1\n"), "in:1:1: R (number of rows) must be between 1 and 5, found 6");
        assert_eq!(err("1 2\n1 2\n0 0 0 0\n"), "in:2:3: cell (0, 1) (row, column; 0-based) of the board (0 or 1) must be between 0 and 1, found 2");
        assert_eq!(err("1 2\n1 0\n0 0 0 1\n"), "in:3:5: B stands on (0, 1) (0-based), which has no foothold");
        assert_eq!(err("1 2\n1 1\n0 0 0\n"), "in:3:6: expected column of B (0-based), found end of input");
        assert_eq!(err("1 1\n1\n0 0 0 0 9\n"), "in:3:9: unexpected extra input \"9\"");
        assert_eq!(err("2 2\n1 1\n1 1\n1 1\n0 0 0 0\n"), "in:5:5: unexpected extra input \"0\" after the positions of A and B (a board row too many? R is 2)");
        assert_eq!(err("1 5\n1 1 1 1\n0 0 0 4\n"), "in:2:8: board row 1 has 4 cells, expected 5");
        assert_eq!(err("1 2\n1 1 1\n0 0 0 1\n"), "in:2:5: board row 1 has 3 cells, expected 2");
        assert_eq!(err("2 1\n1\n"), "in:3:1: missing board row 2 of 2");
    }
}
