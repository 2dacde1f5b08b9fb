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

/// Exact mex: mark the option values in a table and scan.
pub fn mex_exact(values: &mut [u32]) -> u32 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values.iter() {
        if let Some(s) = seen.get_mut(v as usize) {
            *s = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(values.len()) as u32
}

/// The rectangle recursion without a memo: g(rect) = mex over free cells of the XOR of the
/// four quadrants, every quadrant recomputed each time (exponential).
pub fn grundy_unmemoized(board: &[Vec<bool>], r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
    if r0 >= r1 || c0 >= c1 {
        return 0;
    }
    let mut options = Vec::new();
    for i in r0..r1 {
        for j in c0..c1 {
            if !board[i][j] {
                let g = |a, b, c, d| grundy_unmemoized(board, a, b, c, d);
                options.push(g(r0, i, c0, j) ^ g(r0, i, j + 1, c1) ^ g(i + 1, r1, c0, j) ^ g(i + 1, r1, j + 1, c1));
            }
        }
    }
    mex_exact(&mut options)
}

/// Memo slot in a 21⁴ table (every rectangle of a board up to 20×20).
pub fn slot21(r0: usize, r1: usize, c0: usize, c1: usize) -> usize {
    ((r0 * 21 + r1) * 21 + c0) * 21 + c1
}

/// The rectangle DP bottom-up (smaller rectangles first) with the given memo slots and mex.
pub fn grundy_table(board: &[Vec<bool>], slot: fn(usize, usize, usize, usize) -> usize, memo_len: usize, mex: fn(&mut [u32]) -> u32) -> u32 {
    let (h, w) = (board.len(), board[0].len());
    rect_values(board, slot, memo_len, mex)[slot(0, h, 0, w)]
}

/// The moves of the whole board (row, column, 0-based) with the Grundy value each leaves,
/// row-major, by the exact DP.
pub fn moves(board: &[Vec<bool>]) -> Vec<(usize, usize, u32)> {
    let (h, w) = (board.len(), board[0].len());
    let memo = rect_values(board, slot21, 21usize.pow(4), mex_exact);
    let g = |r0: usize, r1: usize, c0: usize, c1: usize| if r0 >= r1 || c0 >= c1 { 0 } else { memo[slot21(r0, r1, c0, c1)] };
    let free = (0..h).flat_map(|i| (0..w).map(move |j| (i, j))).filter(|&(i, j)| !board[i][j]);
    free.map(|(i, j)| (i, j, g(0, i, 0, j) ^ g(0, i, j + 1, w) ^ g(i + 1, h, 0, j) ^ g(i + 1, h, j + 1, w))).collect()
}

/// Prints a move 1-based as `r c`, or `Second` for none (`--answer move`).
pub fn print_move(cell: Option<(usize, usize)>) {
    match cell {
        Some((r, c)) => println!("{} {}", r + 1, c + 1),
        None => println!("Second"),
    }
}

/// The values of every rectangle, in the given memo slots.
fn rect_values(board: &[Vec<bool>], slot: fn(usize, usize, usize, usize) -> usize, memo_len: usize, mex: fn(&mut [u32]) -> u32) -> Vec<u32> {
    let (h, w) = (board.len(), board[0].len());
    let mut memo = vec![0u32; memo_len];
    let mut options = Vec::new();
    let g = |memo: &[u32], r0: usize, r1: usize, c0: usize, c1: usize| if r0 >= r1 || c0 >= c1 { 0 } else { memo[slot(r0, r1, c0, c1)] };
    for (rh, rw) in (1..=h).flat_map(|a| (1..=w).map(move |b| (a, b))) {
        for (r0, c0) in (0..=h - rh).flat_map(|a| (0..=w - rw).map(move |b| (a, b))) {
            let (r1, c1) = (r0 + rh, c0 + rw);
            options.clear();
            for (i, j) in (r0..r1).flat_map(|i| (c0..c1).map(move |j| (i, j))).filter(|&(i, j)| !board[i][j]) {
                options.push(g(&memo, r0, i, c0, j) ^ g(&memo, r0, i, j + 1, c1) ^ g(&memo, i + 1, r1, c0, j) ^ g(&memo, i + 1, r1, j + 1, c1));
            }
            memo[slot(r0, r1, c0, c1)] = mex(&mut options);
        }
    }
    memo
}

/// Solves the board on stdin with the given memo slots and mex, and prints the winner.
pub fn solve_stdin(slot: fn(usize, usize, usize, usize) -> usize, memo_len: usize, mex: fn(&mut [u32]) -> u32) {
    let board = read_board();
    print_winner(grundy_table(&board, slot, memo_len, mex));
}
