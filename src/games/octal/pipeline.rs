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
//!
//! The threads tell each other their progress through two counters on cache lines of their
//! own, and read the other's counter only when the last value read is used up; the main thread
//! publishes its values in batches. Read and written for every heap, the counters cost more
//! than the helper saved (two threads were 1.6× slower than one on this machine).

use super::fast::{cursor_ranges, mark_pairs, new_marks, rare_parts, Heads, Kernel};
use super::values::{pair_top, Engine};
use crate::error::Result;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

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
    fn reach(&self, counter: &AtomicUsize, known: &mut usize, need: usize) -> Option<usize> {
        if *known < need {
            self.wait(|| counter.load(Ordering::Acquire) >= need)?;
            *known = counter.load(Ordering::Acquire);
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
    fn run(&self, ring: &Ring, g: Values, heaps: std::ops::Range<usize>) {
        let mut seen = new_marks();
        let (mut known, batch, end) = (heaps.start, batch(ring.shape.lag), heaps.end);
        for (stamp, n) in (1u32..).zip(heaps) {
            let (lag, heads) = (ring.shape.lag, ring.shape.heads());
            let Some(published) = ring.reach(&ring.published.0, &mut known, (n + 1).saturating_sub(lag)) else {
                return;
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
    }
}

/// Computes heaps up to `end` (exclusive) on two threads, or fewer when a value needs a wider
/// slot (the caller goes on from there).
pub fn run(engine: &mut Engine, end: usize, tick: &mut dyn FnMut(u64)) -> Result<()> {
    let start = engine.values().len();
    let (shape, words) = (engine.shape, width(engine) / 64);
    let (heaps, values) = engine.split().rare_pairs();
    let (low, snapshot) = (heaps.partition_point(|&r| (r as usize) < shape.lag), heaps.len());
    let helper = Helper { heaps: heaps[low..].to_vec(), values: values[low..].to_vec(), two: engine.two.clone(), unequal: engine.unequal, kernel: engine.kernel };
    let ring = Ring { shape, words, slots: (0..shape.slots() * words).map(|_| AtomicU64::new(0)).collect(), ready: Line(AtomicUsize::new(start)), published: Line(AtomicUsize::new(start)), stop: Line(AtomicBool::new(false)) };
    engine.g.reserve(end - start);
    let (buffer, capacity) = (Values(engine.g.as_ptr()), engine.g.capacity());
    std::thread::scope(|scope| {
        let (shared, helper) = (&ring, &helper);
        scope.spawn(move || {
            let _stop = StopOnDrop(shared);
            helper.run(shared, buffer, start..end);
        });
        let result = main(engine, &ring, start..end, [0..low, snapshot..snapshot], tick);
        ring.stop.0.store(true, Ordering::Relaxed);
        assert_eq!(engine.g.capacity(), capacity, "the values moved while the helper read them");
        result
    })
}

/// The main thread's part of a segment.
fn main(engine: &mut Engine, ring: &Ring, heaps: std::ops::Range<usize>, rare: [std::ops::Range<usize>; 2], tick: &mut dyn FnMut(u64)) -> Result<()> {
    let (bits, lag, heads) = (64 * ring.words, ring.shape.lag, ring.shape.heads());
    let batch = batch(lag);
    let mut ready = heaps.start;
    for n in heaps {
        let stamp = engine.next_stamp();
        engine.mark_small(n, stamp);
        // Rare heaps below lag, and those found since the segment started.
        let found = rare[1].start..engine.split().rare().len();
        engine.mark_rare(n, stamp, [rare[0].clone(), found]);
        if ring.reach(&ring.ready.0, &mut ready, n + 1).is_none() {
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
