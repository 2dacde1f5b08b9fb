//! Test program for `sprague stress wall`: TOO SLOW — the right recursion without a memo, so
//! every rectangle is recomputed each time it is reached (exponential). Right, given time.
mod common;

fn main() {
    let board = common::read_board();
    common::print_winner(common::grundy_unmemoized(&board, 0, board.len(), 0, board[0].len()));
}
