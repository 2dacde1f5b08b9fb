//! Shared parts of the wall-game test programs (examples/wall_*.rs): reading BOJ 11717 input
//! and the rectangle recursion a contestant writes, with the mex and the memo pluggable so
//! that each wrong program differs from the right one in exactly one place.
#![allow(dead_code)]

use std::io::Read;

/// The board from stdin: `H W`, then H rows; `true` marks an X cell.
pub fn read_board() -> Vec<Vec<bool>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace();
    let h: usize = words.next().expect("H").parse().expect("H");
    let w: usize = words.next().expect("W").parse().expect("W");
    (0..h).map(|_| words.next().expect("row").bytes().take(w).map(|b| b == b'X').collect()).collect()
}

/// Prints the contest answer for a Grundy value.
pub fn print_winner(grundy: u32) {
    println!("{}", if grundy != 0 { "First" } else { "Second" });
}

/// Exact mex: sort the option values and scan.
pub fn mex_exact(values: &mut Vec<u32>) -> u32 {
    values.sort_unstable();
    values.dedup();
    values.iter().enumerate().find(|&(k, &v)| v != k as u32).map_or(values.len() as u32, |(k, _)| k as u32)
}

/// The rectangle recursion: g(rect) = mex over free cells of the XOR of the four quadrants.
pub struct Rects<'b> {
    pub board: &'b [Vec<bool>],
    /// Memo slot of a rectangle (None: no memo); u32::MAX marks "not computed".
    pub slot: fn(usize, usize, usize, usize) -> Option<usize>,
    pub memo: Vec<u32>,
    pub mex: fn(&mut Vec<u32>) -> u32,
}

impl Rects<'_> {
    pub fn grundy(&mut self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        if r0 >= r1 || c0 >= c1 {
            return 0;
        }
        let slot = (self.slot)(r0, r1, c0, c1);
        if let Some(v) = slot.map(|s| self.memo[s]).filter(|&v| v != u32::MAX) {
            return v;
        }
        let mut options = Vec::new();
        for i in r0..r1 {
            for j in c0..c1 {
                if !self.board[i][j] {
                    options.push(
                        self.grundy(r0, i, c0, j) ^ self.grundy(r0, i, j + 1, c1)
                            ^ self.grundy(i + 1, r1, c0, j) ^ self.grundy(i + 1, r1, j + 1, c1),
                    );
                }
            }
        }
        let value = (self.mex)(&mut options);
        if let Some(s) = slot {
            self.memo[s] = value;
        }
        value
    }
}

/// Memo slot in a 21⁴ table (every rectangle of a board up to 20×20).
pub fn slot21(r0: usize, r1: usize, c0: usize, c1: usize) -> Option<usize> {
    Some(((r0 * 21 + r1) * 21 + c0) * 21 + c1)
}

/// Solves the board on stdin with the given memo slots and mex, and prints the winner.
pub fn solve_stdin(slot: fn(usize, usize, usize, usize) -> Option<usize>, memo_len: usize, mex: fn(&mut Vec<u32>) -> u32) {
    let board = read_board();
    let (h, w) = (board.len(), board.first().map_or(0, Vec::len));
    let mut rects = Rects { board: &board, slot, memo: vec![u32::MAX; memo_len], mex };
    print_winner(rects.grundy(0, h, 0, w));
}
