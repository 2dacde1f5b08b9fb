//! Test program for `sprague stress wall --answer move`: WRONG — prints the first move that
//! leaves a non-zero Grundy value (a losing move), when there is one; otherwise a winning
//! move, or `Second` on a board without a free cell.
mod common;

fn main() {
    let board = common::read_board();
    let moves = common::moves(&board);
    let pick = moves.iter().find(|&&(_, _, g)| g != 0).or(moves.first());
    common::print_move(pick.map(|&(r, c, _)| (r, c)));
}
