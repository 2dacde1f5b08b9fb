//! Test program for `sprague stress wall`: CRASHES on the largest boards — its memo is sized
//! 20 per index (`memo[20][20][20][20]` in C) though rectangle ends run up to 20, and writing
//! past it is modelled as the segmentation fault it is in C. Right on boards with both
//! sides below 20.
mod common;

fn slot20(r0: usize, r1: usize, c0: usize, c1: usize) -> usize {
    let at = ((r0 * 20 + r1) * 20 + c0) * 20 + c1;
    if r1 >= 20 || c1 >= 20 {
        // SAFETY: none; this is the bug. A write through a null pointer raises SIGSEGV.
        unsafe { std::ptr::null_mut::<u32>().write_volatile(at as u32) };
    }
    at
}

fn main() {
    common::solve_stdin(slot20, 20 * 20 * 20 * 20, common::mex_exact);
}
