//! Test program for `sprague stress wall`: TOO SLOW — the right recursion without a memo, so
//! every rectangle is recomputed each time it is reached (exponential). Right, given time.
mod common;

fn main() {
    common::solve_stdin(|_, _, _, _| None, 0, common::mex_exact);
}
