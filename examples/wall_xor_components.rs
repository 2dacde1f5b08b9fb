//! Test program for `sprague stress wall`: WRONG IDEA — the first player wins iff the XOR of
//! the sizes of the connected regions of '.' cells is non-zero (as if each region were a
//! Nim heap of its size).
mod common;

fn main() {
    let board = common::read_board();
    let (h, w) = (board.len(), board[0].len());
    let mut seen = vec![vec![false; w]; h];
    let mut xor = 0u32;
    for (r, c) in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
        if board[r][c] || seen[r][c] {
            continue;
        }
        let (mut stack, mut size) = (vec![(r, c)], 0u32);
        seen[r][c] = true;
        while let Some((i, j)) = stack.pop() {
            size += 1;
            let next = [(i.wrapping_sub(1), j), (i + 1, j), (i, j.wrapping_sub(1)), (i, j + 1)];
            for (a, b) in next {
                if a < h && b < w && !board[a][b] && !seen[a][b] {
                    seen[a][b] = true;
                    stack.push((a, b));
                }
            }
        }
        xor ^= size;
    }
    common::print_winner(xor);
}
