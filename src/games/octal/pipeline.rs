//! The sparse method on two threads. A split of heap n that reads only values at least
//! `lag` heaps old ([`Shape`]) — a rare heap r ≥ lag, or a pair (a, m − a) with a ≥ lag, such as
//! the first `pairs` of each scan cursor that starts at lag or later ([`Heads`]) — can be marked
//! before g(n − 1) is known. So a helper thread runs up to lag heaps ahead and
//! hands each heap's partial option set (a small bitset: every value below the width) through a
//! ring of slots; the main thread marks the rest (the one-heap options, rare heaps below lag,
//! rare heaps found during the segment), merges the slot and settles the value exactly as one
//! thread does ([`Engine::settle`], skipping the pairs the helper marked).
//!
//! A segment ends at the next mask review, after 2^16 heaps, or after a value that needs a
//! wider bitset; the next one starts from the new split. Values are exact whatever the timing.
//! Codes with many rare heaps (0.007: 22,000, 20,000 of them beyond the lag) would leave the
//! main thread waiting for the helper, so after each segment the time each thread waited moves
//! rare heaps beyond the lag to the main thread, or back ([`Balance`]).
//!
//! The threads tell each other their progress through two counters on cache lines of their
//! own, and read the other's counter only when the last value read is used up; the main thread
//! publishes its values in batches. Read and written for every heap, the counters cost more
//! than the helper saved (two threads were 1.6× slower than one on this machine).

use super::fast::{cursor_ranges, mark_pairs, new_marks, rare_parts, Heads, Kernel};
use super::values::{pair_top, Engine};
use crate::error::Result;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How the work is divided between the threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// How far behind the newest value the helper reads.
    pub lag: usize,
    /// Pairs (a, m − a) the helper marks for every heap at the head of each scan cursor that
    /// starts at lag or later.
    pub pairs: usize,
}

impl Shape {
    /// Measured on 0.6 and Grundy's game (docs/octal.md): with a lag of 1024 the helper read
    /// values up to 20,627 heaps old (0.6's farthest rare heap), more than its L1 cache held,
    /// and two threads were slower than one; 8192 was best while the main thread scanned from
    /// a = 1 alone, 4096 (and 256 pairs at each cursor's head) once it scanned from five cursors.
    pub const DEFAULT: Shape = Shape { lag: 4096, pairs: 256 };

    fn slots(self) -> usize {
        2 * self.lag
    }

    /// The splits the helper marks besides the rare heaps.
    fn heads(self) -> Heads {
        Heads { from: self.lag, pairs: self.pairs }
    }
}
/// Which rare heaps the main thread marks besides those below the lag: the ones below
/// `main_below`. Adjusted after each segment by the time each thread waited for the other.
///
/// The default: none besides those below the lag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Balance {
    main_below: usize,
}

impl Balance {
    /// The main thread marks the rare heaps below `heap` as well as those below the lag.
    pub fn main_below(heap: usize) -> Balance {
        Balance { main_below: heap }
    }

    /// The index in the ascending `heaps` from which the helper marks.
    fn helper_from(self, heaps: &[u32], lag: usize) -> usize {
        heaps.partition_point(|&r| (r as usize) < lag.max(self.main_below))
    }

    /// Moves rare heaps towards the thread that waited: the helper's share shrinks by the
    /// fraction of its busy time the main thread did not match (half of it, to meet in the
    /// middle; three quarters of that, so that noise does not swing it), counted in the
    /// splits it marks (its rare heaps and `heads` pairs), and never below the lag.
    fn adjust(self, heaps: &[u32], lag: usize, heads: usize, times: Times) -> Balance {
        let from = self.helper_from(heaps, lag);
        let (busy_main, busy_helper) = (times.wall.saturating_sub(times.main_waited), times.wall.saturating_sub(times.helper_waited));
        if times.wall < Duration::from_millis(50) || busy_helper.is_zero() {
            return self;
        }
        let share = (heaps.len() - from + heads) as f64;
        let excess = (busy_helper.as_secs_f64() - busy_main.as_secs_f64()) / busy_helper.as_secs_f64();
        let shift = (0.375 * share * excess) as isize;
        let to = from.saturating_add_signed(shift).clamp(Balance::default().helper_from(heaps, lag), heaps.len());
        Balance { main_below: heaps.get(to).map_or(usize::MAX, |&r| r as usize) }
    }
}

/// A segment's wall time and how long each thread waited for the other.
#[derive(Debug, Clone, Copy)]
struct Times {
    wall: Duration,
    main_waited: Duration,
    helper_waited: Duration,
}

/// Heaps per segment at most.
const SEGMENT: usize = 1 << 16;
/// Each thread tells its progress this many heaps at a time (fewer when the lag is short).
const BATCH: usize = 64;

/// The batch for a lag: the helper waits for g(0..n + 1 − lag) to mark heap n, and the main
/// thread for heap n's slot, so two batches must fit in the lag (one heap at lag 1).
fn batch(lag: usize) -> usize {
    lag.div_ceil(2).clamp(1, BATCH)
}
/// Widest option set handed over, in bits.
const MOST_WIDTH: usize = 1 << 12;

/// Where a segment from `engine`'s next heap would end (below `limit`), or None when one
/// thread is better (a short stretch, values too wide for the slots).
pub fn segment_end(engine: &Engine, limit: usize) -> Option<usize> {
    let start = engine.values().len();
    let review = engine.split().review_at();
    let end = limit.min(start + SEGMENT).min(if review > start { review } else { limit });
    (end >= start + 2 * engine.shape.lag && width(engine) <= MOST_WIDTH).then_some(end)
}

/// Bits in a slot: a power of two above every value so far (hence above every XOR of two).
fn width(engine: &Engine) -> usize {
    (usize::from(engine.largest()) + 1).next_power_of_two().max(64)
}

/// A value alone on its cache line (and the next: adjacent lines are fetched in pairs), so
/// that one thread's writes do not evict what the other reads.
#[repr(align(128))]
struct Line<T>(T);

/// What the two threads share.
struct Ring {
    shape: Shape,
    words: usize,
    slots: Vec<AtomicU64>,
    /// Heaps below it have their slot filled (helper → main).
    ready: Line<AtomicUsize>,
    /// g(0..published) is final (main → helper).
    published: Line<AtomicUsize>,
    stop: Line<AtomicBool>,
}

impl Ring {
    /// The value of `counter` once it is at least `need` (`known`: the last value read, used
    /// without a read while it suffices); None when told to stop first.
    /// The time spent waiting is added to `waited`.
    fn reach(&self, counter: &AtomicUsize, known: &mut usize, need: usize, waited: &mut Duration) -> Option<usize> {
        if *known < need {
            *known = counter.load(Ordering::Acquire);
            if *known < need {
                let since = Instant::now();
                self.wait(|| counter.load(Ordering::Acquire) >= need)?;
                *waited += since.elapsed();
                *known = counter.load(Ordering::Acquire);
            }
        }
        Some(*known)
    }

    /// Waits until `done` holds; None when told to stop first.
    fn wait(&self, done: impl Fn() -> bool) -> Option<()> {
        let mut spins = 0u32;
        while !done() {
            if self.stop.0.load(Ordering::Relaxed) {
                return None;
            }
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        Some(())
    }
}

/// Tells the other thread to stop when the helper ends, however it ends.
struct StopOnDrop<'a>(&'a Ring);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop.0.store(true, Ordering::Relaxed);
    }
}

/// The helper's view of g: the start of the engine's buffer, read only below `published`.
#[derive(Clone, Copy)]
struct Values(*const u16);
// SAFETY: the helper reads only g(0..published), which the main thread no longer writes, and the
// buffer is not reallocated during the segment (capacity reserved, checked in `run`).
unsafe impl Send for Values {}

/// What the helper marks: rare heaps ≥ lag (a copy of the list as the segment starts) and the
/// cursors' heads ([`Shape::heads`]).
struct Helper {
    heaps: Vec<u32>,
    values: Vec<u16>,
    two: Vec<usize>,
    unequal: bool,
    kernel: Kernel,
}

impl Helper {
    /// Marks its splits of `heaps`; returns how long it waited for the main thread.
    fn run(&self, ring: &Ring, g: Values, heaps: std::ops::Range<usize>) -> Duration {
        let mut waited = Duration::ZERO;
        let mut seen = new_marks();
        let (mut known, batch, end) = (heaps.start, batch(ring.shape.lag), heaps.end);
        for (stamp, n) in (1u32..).zip(heaps) {
            let (lag, heads) = (ring.shape.lag, ring.shape.heads());
            let Some(published) = ring.reach(&ring.published.0, &mut known, (n + 1).saturating_sub(lag), &mut waited) else {
                return waited;
            };
            // SAFETY: see `Values`; g(0..published) is written and stays as it is.
            let g = unsafe { std::slice::from_raw_parts(g.0, published) };
            for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
                let m = n - k;
                for range in rare_parts(&self.heaps, m, self.unequal) {
                    self.kernel.mark(g, &self.heaps[range.clone()], &self.values[range], m, &mut seen, stamp);
                }
                for range in cursor_ranges(m, pair_top(m, self.unequal)) {
                    let head = heads.of(&range);
                    if !head.is_empty() {
                        mark_pairs(g, m, head.start, head.end - 1, &mut seen, stamp);
                    }
                }
            }
            let slot = &ring.slots[(n % ring.shape.slots()) * ring.words..][..ring.words];
            for (w, cell) in slot.iter().enumerate() {
                let word = seen[64 * w..64 * w + 64].iter().enumerate().fold(0u64, |word, (b, &s)| word | (u64::from(s == stamp) << b));
                cell.store(word, Ordering::Relaxed);
            }
            if (n + 1) % batch == 0 || n + 1 == end {
                ring.ready.0.store(n + 1, Ordering::Release);
            }
        }
        waited
    }
}

/// Computes heaps up to `end` (exclusive) on two threads, or fewer when a value needs a wider
/// slot (the caller goes on from there).
pub fn run(engine: &mut Engine, end: usize, tick: &mut dyn FnMut(u64)) -> Result<()> {
    let start = engine.values().len();
    let (shape, words) = (engine.shape, width(engine) / 64);
    let (heaps, values) = engine.split().rare_pairs();
    let (low, snapshot) = (engine.balance.helper_from(heaps, shape.lag), heaps.len());
    let helper = Helper { heaps: heaps[low..].to_vec(), values: values[low..].to_vec(), two: engine.two.clone(), unequal: engine.unequal, kernel: engine.kernel };
    let ring = Ring { shape, words, slots: (0..shape.slots() * words).map(|_| AtomicU64::new(0)).collect(), ready: Line(AtomicUsize::new(start)), published: Line(AtomicUsize::new(start)), stop: Line(AtomicBool::new(false)) };
    engine.g.reserve(end - start);
    let (buffer, capacity) = (Values(engine.g.as_ptr()), engine.g.capacity());
    let began = Instant::now();
    let mut main_waited = Duration::ZERO;
    let (result, helper_waited) = std::thread::scope(|scope| {
        let (shared, helper) = (&ring, &helper);
        let helping = scope.spawn(move || {
            let _stop = StopOnDrop(shared);
            helper.run(shared, buffer, start..end)
        });
        let result = main(engine, &ring, start..end, [0..low, snapshot..snapshot], &mut main_waited, tick);
        ring.stop.0.store(true, Ordering::Relaxed);
        assert_eq!(engine.g.capacity(), capacity, "the values moved while the helper read them");
        (result, helping.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    let times = Times { wall: began.elapsed(), main_waited, helper_waited };
    let heads = cursor_ranges(end, pair_top(end, engine.unequal)).map(|r| shape.heads().of(&r).len()).sum();
    let (heaps, _) = engine.split().rare_pairs();
    engine.balance = engine.balance.adjust(&heaps[..snapshot.min(heaps.len())], shape.lag, heads, times);
    result
}

/// The main thread's part of a segment.
fn main(engine: &mut Engine, ring: &Ring, heaps: std::ops::Range<usize>, rare: [std::ops::Range<usize>; 2], waited: &mut Duration, tick: &mut dyn FnMut(u64)) -> Result<()> {
    let (bits, lag, heads) = (64 * ring.words, ring.shape.lag, ring.shape.heads());
    let batch = batch(lag);
    let mut ready = heaps.start;
    for n in heaps {
        let stamp = engine.next_stamp();
        engine.mark_small(n, stamp);
        // Rare heaps below lag (and the balance's), and those found since the segment started.
        let found = rare[1].start..engine.split().rare().len();
        engine.mark_rare(n, stamp, [rare[0].clone(), found]);
        if ring.reach(&ring.ready.0, &mut ready, n + 1, waited).is_none() {
            break; // the helper stopped (it panicked: the scope passes the panic on)
        }
        for (w, cell) in ring.slots[(n % ring.shape.slots()) * ring.words..][..ring.words].iter().enumerate() {
            let mut word = cell.load(Ordering::Relaxed);
            while word != 0 {
                engine.seen[64 * w + word.trailing_zeros() as usize] = stamp;
                word &= word - 1;
            }
        }
        let value = engine.settle(n, stamp, heads);
        engine.push(n, value, tick)?;
        if (n + 1) % batch == 0 {
            ring.published.0.store(n + 1, Ordering::Release);
        }
        if value >= bits {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAPS: [u32; 10] = [1, 5, 100, 4096, 5000, 6000, 7000, 8000, 9000, 10000];

    fn times(wall: u64, main_waited: u64, helper_waited: u64) -> Times {
        let ms = Duration::from_millis;
        Times { wall: ms(wall), main_waited: ms(main_waited), helper_waited: ms(helper_waited) }
    }

    #[test]
    fn rare_heaps_move_to_the_thread_that_did_not_wait() {
        let start = Balance::default();
        assert_eq!(start.helper_from(&HEAPS, 4096), 3, "the lag at first");
        // The main thread waited half the time: the helper's 7 rare heaps and 1 pair were
        // twice the main thread's work, so 0.375 · 8 · 0.5 = 1.5 → 1 rare heap moves.
        let moved = start.adjust(&HEAPS, 4096, 1, times(1000, 500, 0));
        assert_eq!((moved, moved.helper_from(&HEAPS, 4096)), (Balance::main_below(5000), 4));
        let most = start.adjust(&HEAPS, 4096, 0, times(1000, 999, 0));
        assert_eq!(most.helper_from(&HEAPS, 4096), 5, "0.375 · 7 · 0.999 = 2.6");
        // The helper waited: back towards the lag, never below it.
        let back = Balance::main_below(9000).adjust(&HEAPS, 4096, 0, times(1000, 0, 900));
        assert_eq!(back, Balance::main_below(4096), "0.375 · 2 · (100 − 1000)/100 = −6.75: from index 8 to 2, clamped to the lag's 3");
    }

    #[test]
    fn short_or_idle_segments_change_nothing() {
        let at = Balance::main_below(6000);
        assert_eq!(at.adjust(&HEAPS, 4096, 0, times(10, 9, 0)), at, "under 50 ms");
        assert_eq!(at.adjust(&HEAPS, 4096, 0, times(1000, 0, 1000)), at, "the helper never busy");
        assert_eq!(Balance::main_below(usize::MAX).adjust(&HEAPS, 4096, 0, times(1000, 900, 0)).helper_from(&HEAPS, 4096), 10, "all moved already");
    }
}
