//! The wall in `sprague serve`: a position (the contest format, rows that may also hold `#` for
//! walls built by earlier moves) analysed with every legal move's value and the rectangles it
//! splits its region into.
//!
//! A position reached in play is a sum of wall-bounded rectangles, so it is accepted only when
//! every 4-connected region of non-wall cells is a solid rectangle. One run of the claimed
//! rectangle DP ([`RectDp`], a memo over every sub-rectangle of the board) then gives every
//! region's value and every part's value; the position's value is their XOR.

use super::board::{Board, Shape, MAX_SIDE};
use super::claim::dp::RectDp;
use crate::error::{Error, Result};
use crate::game::explore::{Analysis, Explore, GameInfo, MoveInfo, View, Winner};
use crate::input::{describe_char, Scanner};
use serde::Serialize;
use serde_json::json;

/// The wall's explorer (registered in [`super::GAME`]).
pub struct WallExplorer;

/// The explorer as the registry makes it.
pub fn explorer() -> Box<dyn Explore> {
    Box::new(WallExplorer)
}

const SOURCE: &str = "position";
const FREE: u8 = b'.';
const MARKED: u8 = b'X';
const WALL: u8 = b'#';

impl Explore for WallExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "wall",
            title: "Wall Making Game (BOJ 11717)".into(),
            view: View::Board,
            format: format!(
                "`H W` (1 ≤ H, W ≤ {MAX_SIDE}), then H rows of W cells: `.` free, `X` marked (no move there, \
                 but walls run through it), `#` wall built by an earlier move."
            ),
            example: "4 5\nX....\n...X.\n.....\n.....\n".into(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let position = Position::parse(position)?;
        Ok(position.analysis())
    }
}

/// A wall-bounded rectangle of the board with its Grundy value (0-based top-left corner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Region {
    pub top: usize,
    pub left: usize,
    pub rows: usize,
    pub cols: usize,
    pub value: u32,
}

/// A position: its cells (`.`, `X`, `#`), row-major, and its regions (every one a rectangle).
#[derive(Debug, Clone)]
pub struct Position {
    shape: Shape,
    cells: Vec<u8>,
    /// The region of each non-wall cell (index into `regions`).
    region_of: Vec<Option<usize>>,
    regions: Vec<Region>,
}

impl Position {
    /// Reads a position; malformed text is an input error with its line and column, a board
    /// past 20×20 a usage error that says why, a region that is not a rectangle an input error
    /// at the cell that breaks it.
    pub fn parse(text: &str) -> Result<Position> {
        let mut scanner = Scanner::new(SOURCE, text);
        let rows = side(&mut scanner, "H (rows)")?;
        let cols = side(&mut scanner, "W (columns)")?;
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(too_large(rows, cols));
        }
        scanner.finish_line()?;
        let shape = Shape::new(rows, cols);
        let mut cells = Vec::with_capacity(shape.cells());
        for r in 0..rows {
            read_row(&mut scanner, r, shape, &mut cells)?;
        }
        scanner.expect_end()?;
        let mut position = Position { shape, cells, region_of: vec![None; shape.cells()], regions: Vec::new() };
        position.find_regions(&scanner)?;
        Ok(position)
    }

    /// Labels every region by a flood fill from its first cell (row-major, so that cell is the
    /// top-left corner of a rectangle) and checks that it fills its bounding box.
    fn find_regions(&mut self, scanner: &Scanner<'_>) -> Result<()> {
        let cols = self.shape.cols;
        for start in 0..self.cells.len() {
            if self.cells[start] == WALL || self.region_of[start].is_some() {
                continue;
            }
            let id = self.regions.len();
            let (count, bottom, right) = self.fill(start, id);
            let (top, left) = (start / cols, start % cols);
            let (rows, cols_) = (bottom - top + 1, right - left + 1);
            if count != rows * cols_ {
                let hole = (top..=bottom).flat_map(|r| (left..=right).map(move |c| (r, c))).find(|&(r, c)| self.region_of[r * cols + c] != Some(id));
                let (r, c) = hole.expect("a region smaller than its box leaves a cell out");
                let message = format!(
                    "the region of non-wall cells from row {} column {} is not a rectangle (its bounding box, rows {}..{} and columns {}..{}, also holds row {} column {}); a position reached in play splits into rectangles",
                    top + 1, left + 1, top + 1, bottom + 1, left + 1, right + 1, r + 1, c + 1
                );
                return Err(scanner.error_at(r + 2, c + 1, message));
            }
            self.regions.push(Region { top, left, rows, cols: cols_, value: 0 });
        }
        Ok(())
    }

    /// Marks the region of `start` with `id`; its size and its lowest row and rightmost column.
    fn fill(&mut self, start: usize, id: usize) -> (usize, usize, usize) {
        let Shape { rows, cols } = self.shape;
        let (mut stack, mut count, mut bottom, mut right) = (vec![start], 0, 0, 0);
        self.region_of[start] = Some(id);
        while let Some(cell) = stack.pop() {
            let (r, c) = (cell / cols, cell % cols);
            (count, bottom, right) = (count + 1, bottom.max(r), right.max(c));
            let neighbours = [(r > 0).then(|| cell - cols), (r + 1 < rows).then(|| cell + cols), (c > 0).then(|| cell - 1), (c + 1 < cols).then(|| cell + 1)];
            for next in neighbours.into_iter().flatten() {
                if self.cells[next] != WALL && self.region_of[next].is_none() {
                    self.region_of[next] = Some(id);
                    stack.push(next);
                }
            }
        }
        (count, bottom, right)
    }

    /// The board the DP reads: X where a cell is marked or wall (no region holds a wall).
    fn dp_board(&self) -> Board {
        let mut board = Board::empty(self.shape);
        for (i, &cell) in self.cells.iter().enumerate() {
            board.set_x(i / self.shape.cols, i % self.shape.cols, cell != FREE);
        }
        board
    }

    /// The value, the drawing and every legal move (row-major) with its value and parts.
    pub fn analysis(mut self) -> Analysis {
        let dp = RectDp::new(&self.dp_board());
        let value_of = |top: usize, left: usize, rows: usize, cols: usize| Region { top, left, rows, cols, value: dp.rect_grundy(top, top + rows, left, left + cols) };
        for region in &mut self.regions {
            *region = value_of(region.top, region.left, region.rows, region.cols);
        }
        let value = self.regions.iter().fold(0, |x, region| x ^ region.value);
        let moves = (0..self.cells.len()).filter(|&i| self.cells[i] == FREE).map(|i| self.move_at(i, value, &value_of)).collect();
        Analysis {
            position: self.text(&self.cells),
            value: Some(value as u64),
            winner: Winner::of_value(value as u64),
            drawing: json!({ "rows": self.shape.rows, "cols": self.shape.cols, "cells": self.row_strings(&self.cells), "regions": self.regions }),
            moves,
        }
    }

    /// The move at free cell `cell` in a position of value `value`: the cross of walls it
    /// builds across its region, the (non-empty) rectangles left, the value after.
    fn move_at(&self, cell: usize, value: u32, value_of: &impl Fn(usize, usize, usize, usize) -> Region) -> MoveInfo {
        let (r, c) = (cell / self.shape.cols, cell % self.shape.cols);
        let region = self.regions[self.region_of[cell].expect("a free cell lies in a region")];
        let (bottom, right) = (region.top + region.rows, region.left + region.cols);
        let row = (region.left..right).map(|j| (r, j));
        let column = (region.top..bottom).filter(|&i| i != r).map(|i| (i, c));
        let walls: Vec<(usize, usize)> = row.chain(column).collect();
        let corners = [(region.top, r, region.left, c), (region.top, r, c + 1, right), (r + 1, bottom, region.left, c), (r + 1, bottom, c + 1, right)];
        let parts: Vec<Region> = corners.iter().filter(|(r0, r1, c0, c1)| r0 < r1 && c0 < c1).map(|&(r0, r1, c0, c1)| value_of(r0, c0, r1 - r0, c1 - c0)).collect();
        let after = parts.iter().fold(value ^ region.value, |x, part| x ^ part.value);
        let mut cells = self.cells.clone();
        for &(i, j) in &walls {
            cells[i * self.shape.cols + j] = WALL;
        }
        MoveInfo {
            name: format!("{} {}", r + 1, c + 1),
            position: self.text(&cells),
            value: Some(after as u64),
            winning: after == 0,
            detail: json!({ "cell": [r, c], "walls": walls.iter().map(|&(i, j)| [i, j]).collect::<Vec<_>>(), "parts": parts }),
        }
    }

    fn row_strings(&self, cells: &[u8]) -> Vec<String> {
        cells.chunks(self.shape.cols).map(|row| String::from_utf8_lossy(row).into_owned()).collect()
    }

    /// `cells` in the position format (`H W`, then the rows), ending with a line break.
    fn text(&self, cells: &[u8]) -> String {
        let mut out = format!("{} {}\n", self.shape.rows, self.shape.cols);
        for row in self.row_strings(cells) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }
}

/// Reads board row `r` (0-based) into `cells`.
fn read_row(scanner: &mut Scanner<'_>, r: usize, shape: Shape, cells: &mut Vec<u8>) -> Result<()> {
    let Some((line, text)) = scanner.line() else {
        let (line, _) = scanner.position();
        return Err(scanner.error_at(line + 1, 1, format!("missing board row {} of {}", r + 1, shape.rows)));
    };
    let len = text.chars().count();
    if len != shape.cols {
        return Err(scanner.error_at(line, len.min(shape.cols) + 1, format!("board row {} has {len} cells, expected {}", r + 1, shape.cols)));
    }
    for (c, ch) in text.chars().enumerate() {
        match ch {
            '.' => cells.push(FREE),
            'X' => cells.push(MARKED),
            '#' => cells.push(WALL),
            other => return Err(scanner.error_at(line, c + 1, format!("{} is not '.', 'X' or '#'", describe_char(other)))),
        }
    }
    Ok(())
}

/// Why a board past the contest limit is refused (the DP's tables hold sides up to 20).
/// A side of the board: 1 to [`MAX_SIDE`], or a larger whole number (which the caller refuses as
/// too large, with the estimate); anything else is an input error that names the real range.
fn side(scanner: &mut Scanner<'_>, what: &str) -> Result<usize> {
    let mut ahead = scanner.clone();
    match ahead.number::<usize>(what, MAX_SIDE + 1, usize::MAX) {
        Ok(large) => {
            *scanner = ahead;
            Ok(large)
        }
        Err(_) => scanner.number(what, 1, MAX_SIDE),
    }
}

fn too_large(rows: usize, cols: usize) -> Error {
    let pairs = |n: usize| n as f64 * (n as f64 + 1.0) / 2.0;
    let count = pairs(rows) * pairs(cols);
    // Exact while a double holds it exactly, else in scientific notation (sides up to 2^64).
    let rectangles = if count < 2f64.powi(53) { format!("{count}") } else { format!("about {count:.2e}") };
    Error::Usage(format!(
        "a {rows}×{cols} board is past the contest limit of {MAX_SIDE}×{MAX_SIDE}: the rectangle DP's tables hold sides up to {MAX_SIDE} (this board has {rectangles} sub-rectangles to solve)"
    ))
}

#[cfg(test)]
#[path = "explore_tests.rs"]
mod tests;
