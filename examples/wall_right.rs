//! Test program for `sprague stress wall`: a RIGHT solution of BOJ 11717 (memoized rectangle
//! recursion, exact mex).
mod common;

fn main() {
    common::solve_stdin(common::slot21, 21 * 21 * 21 * 21, common::mex_exact);
}
