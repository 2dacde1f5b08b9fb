//! Test program for `sprague stress wall`: RIGHT but slowish — the right solution after
//! spending 0.2 s of CPU time first (its own clock, so the same work on any machine), well
//! inside a 1 s limit; on a loaded machine it takes longer by the clock on the wall.
mod common;

fn main() {
    let spent = || {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes only into `t`.
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    };
    let mut x = 0u64;
    while spent() < 0.2 {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
    }
    std::hint::black_box(x);
    common::solve_stdin(common::slot21, 21 * 21 * 21 * 21, common::mex_exact);
}
