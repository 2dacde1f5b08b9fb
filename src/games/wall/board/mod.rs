//! Wall Making Game boards (BOJ 11717): parsing, printing, bit-mask views and the shrinking order.

pub mod dims;
pub mod rules;
pub mod smaller;
pub mod symmetry;

use crate::error::{Error, Result};
use crate::input::{LineReader, Scanner};
use std::fmt;
use std::io::BufRead;

/// Largest side the contest allows (BOJ 11717: 1 ≤ H, W ≤ 20).
pub const MAX_SIDE: usize = 20;

/// Board dimensions; cells are numbered row-major, `r * cols + c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

impl Shape {
    pub const fn new(rows: usize, cols: usize) -> Self {
        Shape { rows, cols }
    }

    pub const fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Bit mask with one bit per cell (only for shapes of at most 64 cells).
    pub fn full_mask(self) -> u64 {
        debug_assert!(self.cells() <= 64);
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// True when a board of this shape fits a 64-bit mask.
    pub const fn fits_mask(self) -> bool {
        self.cells() <= 64
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A board: its shape and which cells are marked 'X'.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    marked: Vec<bool>,
}

impl Board {
    /// A board of `shape` with no X cells.
    pub fn empty(shape: Shape) -> Self {
        Board { shape, marked: vec![false; shape.cells()] }
    }

    /// A board from its X mask (bit `r * cols + c` set for an X); shapes of at most 64 cells.
    pub fn from_mask(shape: Shape, x_mask: u64) -> Self {
        assert!(shape.fits_mask(), "{shape} does not fit a 64-bit mask");
        let marked = (0..shape.cells()).map(|i| x_mask >> i & 1 == 1).collect();
        Board { shape, marked }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn rows(&self) -> usize {
        self.shape.rows
    }

    pub fn cols(&self) -> usize {
        self.shape.cols
    }

    /// True when cell (r, c) is marked 'X'.
    pub fn is_x(&self, r: usize, c: usize) -> bool {
        self.marked[r * self.shape.cols + c]
    }

    /// Marks or clears cell (r, c).
    pub fn set_x(&mut self, r: usize, c: usize, x: bool) {
        self.marked[r * self.shape.cols + c] = x;
    }

    /// Number of X cells.
    pub fn x_count(&self) -> usize {
        self.marked.iter().filter(|&&x| x).count()
    }

    /// The X cells as a bit mask, when the board has at most 64 cells.
    pub fn x_mask(&self) -> Option<u64> {
        self.shape.fits_mask().then(|| {
            self.marked.iter().enumerate().fold(0u64, |m, (i, &x)| m | (x as u64) << i)
        })
    }

    /// The board made of the given rows and columns (in the order given).
    pub fn select(&self, rows: &[usize], cols: &[usize]) -> Board {
        let mut out = Board::empty(Shape::new(rows.len(), cols.len()));
        for (i, &r) in rows.iter().enumerate() {
            for (j, &c) in cols.iter().enumerate() {
                out.set_x(i, j, self.is_x(r, c));
            }
        }
        out
    }

    /// The board as its rows joined by '/', e.g. `X../.../..X` (the CSV form).
    pub fn to_slashed(&self) -> String {
        self.row_strings().collect::<Vec<_>>().join("/")
    }

    /// Parses the slashed form written by [`Board::to_slashed`].
    pub fn from_slashed(text: &str) -> Result<Self> {
        let rows: Vec<&str> = text.split('/').collect();
        let cols = rows[0].chars().count();
        let bad = |m: String| Error::Usage(format!("board {}: {m}", crate::input::quoted(text)));
        if rows.len() > MAX_SIDE || cols == 0 || cols > MAX_SIDE {
            return Err(bad(format!("must be 1..{MAX_SIDE} rows of 1..{MAX_SIDE} cells")));
        }
        let mut board = Board::empty(Shape::new(rows.len(), cols));
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != cols {
                return Err(bad(format!("row {} has {} cells, expected {cols}", r + 1, row.chars().count())));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => {}
                    'X' => board.set_x(r, c, true),
                    other => return Err(bad(format!("row {} column {} (1-based): {} is not '.' or 'X'", r + 1, c + 1, crate::input::describe_char(other)))),
                }
            }
        }
        Ok(board)
    }

    fn row_strings(&self) -> impl Iterator<Item = String> + '_ {
        self.marked
            .chunks(self.shape.cols)
            .map(|row| row.iter().map(|&x| if x { 'X' } else { '.' }).collect())
    }

    /// Reads one board in BOJ 11717 format: a line `H W`, then H rows of '.' and 'X'.
    pub fn parse_one(scanner: &mut Scanner<'_>) -> Result<Board> {
        let side = MAX_SIDE as u32;
        let rows = scanner.number::<u32>("H (rows)", 1, side)? as usize;
        let cols = scanner.number::<u32>("W (columns)", 1, side)? as usize;
        scanner.finish_line()?;
        let mut board = Board::empty(Shape::new(rows, cols));
        for r in 0..rows {
            let Some((line, text)) = scanner.line() else {
                let (line, _) = scanner.position();
                return Err(scanner.error_at(line + 1, 1, format!("missing board row {} of {rows}", r + 1)));
            };
            // A bad character (a space or NUL inside the row too) is named before the length.
            if let Some((c, other)) = text.chars().enumerate().find(|&(_, ch)| ch != '.' && ch != 'X') {
                return Err(scanner.error_at(line, c + 1, format!("{} is not '.' or 'X'", crate::input::describe_char(other))));
            }
            let len = text.chars().count();
            if len != cols {
                return Err(scanner.error_at(
                    line,
                    len.min(cols) + 1,
                    format!("board row {} has {len} cells, expected {cols}", r + 1),
                ));
            }
            for (c, ch) in text.chars().enumerate() {
                board.set_x(r, c, ch == 'X');
            }
        }
        Ok(board)
    }

    /// Reads boards one after another from `reader` and hands each to `each` as soon as its last
    /// row is read (answers stream); stops at the first malformed board with its line and
    /// column in the whole input, after every earlier board was handed on.
    pub fn read_batch(source_name: &str, reader: &mut dyn BufRead, mut each: impl FnMut(Board) -> Result<()>) -> Result<()> {
        let mut lines = LineReader::new(source_name, reader);
        let mut boards = 0;
        while let Some((first, header)) = lines.next_non_blank()? {
            let rows = header.split_whitespace().next().and_then(|t| t.parse::<usize>().ok()).unwrap_or(0);
            let mut piece = header;
            for _ in 0..rows.min(MAX_SIDE) {
                match lines.next_line()? {
                    Some(row) => piece.push_str(&row),
                    None => break,
                }
            }
            let mut scanner = Scanner::new(source_name, &piece).starting_at_line(first);
            each(Board::parse_one(&mut scanner)?)?;
            boards += 1;
        }
        if boards == 0 {
            return Err(Scanner::new(source_name, "").error_at(1, 1, "empty input: expected a line `H W`"));
        }
        Ok(())
    }

    /// Reads a whole input: exactly one board, or with `batch` one or more boards in a row.
    pub fn parse_input(source_name: &str, text: &str, batch: bool) -> Result<Vec<Board>> {
        let mut scanner = Scanner::new(source_name, text);
        if scanner.at_end() {
            return Err(scanner.error_at(1, 1, "empty input: expected a line `H W`"));
        }
        let mut boards = vec![Board::parse_one(&mut scanner)?];
        while batch && !scanner.at_end() {
            boards.push(Board::parse_one(&mut scanner)?);
        }
        if !batch && !scanner.at_end() {
            let (line, col) = scanner.position();
            return Err(scanner.error_at(
                line,
                col,
                "extra input after the board (a row too many? use --batch for several boards)",
            ));
        }
        Ok(boards)
    }
}

impl fmt::Display for Board {
    /// BOJ 11717 format: `H W` then the rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.shape.rows, self.shape.cols)?;
        for row in self.row_strings() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Board::parse_input("in", text, false).unwrap_err().to_string()
    }

    #[test]
    fn parses_sample_and_round_trips() {
        let boards = Board::parse_input("in", "4 5\r\nX....  \r\n...X.\n.....\n.....\n", false).unwrap();
        let b = &boards[0];
        assert_eq!(b.to_slashed(), "X..../...X./...../.....");
        assert_eq!(Board::from_slashed(&b.to_slashed()).unwrap(), *b);
        assert_eq!(b.x_mask(), Some(1 | 1 << 8));
        assert_eq!(Board::from_mask(b.shape(), 1 | 1 << 8), *b);
        assert_eq!(b.x_count(), 2);
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(err(""), "in:1:1: empty input: expected a line `H W`");
        assert_eq!(err("2 a\n"), "in:1:3: expected W (columns) (a number), found \"a\"");
        assert_eq!(err("0 2\n"), "in:1:1: H (rows) must be between 1 and 20, found 0");
        assert_eq!(err("2 21\n"), "in:1:3: W (columns) must be between 1 and 20, found 21");
        assert_eq!(err("2 2\n..\n"), "in:3:1: missing board row 2 of 2");
        assert_eq!(err("2 2\n..\n...\n"), "in:3:3: board row 2 has 3 cells, expected 2");
        assert_eq!(err("2 2\n..\n.\n"), "in:3:2: board row 2 has 1 cells, expected 2");
        assert_eq!(err("2 2\n.o\n..\n"), "in:2:2: 'o' is not '.' or 'X'");
        assert!(err("1 1\n.\n.\n").starts_with("in:3:1: extra input after the board"));
        assert_eq!(err("1 1 1\n.\n"), "in:1:5: unexpected \"1\"");
    }

    #[test]
    fn batch_reads_several() {
        let boards = Board::parse_input("in", "1 1\n.\n\n2 1\nX\n.\n", true).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[1].to_slashed(), "X/.");
    }
}
