//! Test program for `sprague stress wall`: WRONG — the mex is kept in a 32-bit mask, and
//! `1 << v` wraps for v ≥ 32 (as x86 does in C), so option values of 32 and more pose as
//! small ones. Right on every board whose rectangles stay below 32.
mod common;

fn mex_mask32(values: &mut [u32]) -> u32 {
    let mask = values.iter().fold(0u32, |m, &v| m | 1u32.wrapping_shl(v));
    mask.trailing_ones()
}

fn main() {
    common::solve_stdin(common::slot21, 21 * 21 * 21 * 21, mex_mask32);
}
