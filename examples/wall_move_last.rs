//! Test program for `sprague stress wall --answer move`: RIGHT — prints the last winning move
//! in row-major order (sprague's answer files hold the first), or `Second` when there is none.
mod common;

fn main() {
    let board = common::read_board();
    let last = common::moves(&board).into_iter().rev().find(|&(_, _, g)| g == 0);
    common::print_move(last.map(|(r, c, _)| (r, c)));
}
