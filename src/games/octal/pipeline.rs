//! The sparse method on two threads. A split of heap n that reads only values at least
//! `lag` heaps old ([`Shape`]) — a rare heap r ≥ lag, or a pair (a, m − a) with lag ≤ a < lag + pairs —
//! can be marked before g(n − 1) is known. So a helper thread runs up to lag heaps ahead and
//! hands each heap's partial option set (a small bitset: every value below the width) through a
//! ring of slots; the main thread marks the rest (the one-heap options, rare heaps below lag,
//! rare heaps found during the segment), merges the slot and settles the value exactly as one
//! thread does ([`Engine::settle`], skipping the pairs the helper marked).
//!
//! A segment ends at the next mask review, after 2^16 heaps, or after a value that needs a
//! wider bitset; the next one starts from the new split. Values are exact whatever the timing.

use super::fast::{mark_pairs, new_marks, rare_parts, Kernel};
use super::values::{pair_top, Engine};
use crate::error::Result;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// How the work is divided between the threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// How far behind the newest value the helper reads.
    pub lag: usize,
    /// Pairs (a, m − a), lag ≤ a < lag + pairs, the helper marks for every heap.
    pub pairs: usize,
}

impl Shape {
    /// Measured on 0.6 and Grundy's game (docs/octal.md).
    pub const DEFAULT: Shape = Shape { lag: 1024, pairs: 512 };

    fn slots(self) -> usize {
        2 * self.lag
    }
}
/// Heaps per segment at most.
const SEGMENT: usize = 1 << 16;
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

/// What the two threads share.
struct Ring {
    shape: Shape,
    words: usize,
    slots: Vec<AtomicU64>,
    /// Heaps below it have their slot filled (helper → main).
    ready: AtomicUsize,
    /// g(0..published) is final (main → helper).
    published: AtomicUsize,
    stop: AtomicBool,
}

impl Ring {
    /// Waits until `done` holds; false when told to stop first.
    fn wait(&self, done: impl Fn() -> bool) -> bool {
        let mut spins = 0u32;
        while !done() {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        true
    }
}

/// Tells the other thread to stop when the helper ends, however it ends.
struct StopOnDrop<'a>(&'a Ring);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
}

/// The helper's view of g: the start of the engine's buffer, read only below `published`.
#[derive(Clone, Copy)]
struct Values(*const u16);
// SAFETY: the helper reads only g(0..published), which the main thread no longer writes, and the
// buffer is not reallocated during the segment (capacity reserved, checked in `run`).
unsafe impl Send for Values {}

/// What the helper marks: rare heaps ≥ lag (a copy of the list as the segment starts) and the
/// pairs of [lag, lag + pairs).
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
        for (stamp, n) in (1u32..).zip(heaps) {
            let Shape { lag, pairs } = ring.shape;
            let need = (n + 1).saturating_sub(lag);
            if !ring.wait(|| ring.published.load(Ordering::Acquire) >= need) {
                return;
            }
            let published = ring.published.load(Ordering::Acquire);
            // SAFETY: see `Values`; g(0..published) is written and stays as it is.
            let g = unsafe { std::slice::from_raw_parts(g.0, published) };
            for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
                let m = n - k;
                for range in rare_parts(&self.heaps, m, self.unequal) {
                    self.kernel.mark(g, &self.heaps[range.clone()], &self.values[range], m, &mut seen, stamp);
                }
                mark_pairs(g, m, lag, pair_top(m, self.unequal).min(lag + pairs - 1), &mut seen, stamp);
            }
            let slot = &ring.slots[(n % ring.shape.slots()) * ring.words..][..ring.words];
            for (w, cell) in slot.iter().enumerate() {
                let word = seen[64 * w..64 * w + 64].iter().enumerate().fold(0u64, |word, (b, &s)| word | (u64::from(s == stamp) << b));
                cell.store(word, Ordering::Relaxed);
            }
            ring.ready.store(n + 1, Ordering::Release);
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
    let ring = Ring { shape, words, slots: (0..shape.slots() * words).map(|_| AtomicU64::new(0)).collect(), ready: AtomicUsize::new(start), published: AtomicUsize::new(start), stop: AtomicBool::new(false) };
    engine.g.reserve(end - start);
    let (buffer, capacity) = (Values(engine.g.as_ptr()), engine.g.capacity());
    std::thread::scope(|scope| {
        let (shared, helper) = (&ring, &helper);
        scope.spawn(move || {
            let _stop = StopOnDrop(shared);
            helper.run(shared, buffer, start..end);
        });
        let result = main(engine, &ring, start..end, [0..low, snapshot..snapshot], tick);
        ring.stop.store(true, Ordering::Relaxed);
        assert_eq!(engine.g.capacity(), capacity, "the values moved while the helper read them");
        result
    })
}

/// The main thread's part of a segment.
fn main(engine: &mut Engine, ring: &Ring, heaps: std::ops::Range<usize>, rare: [std::ops::Range<usize>; 2], tick: &mut dyn FnMut(u64)) -> Result<()> {
    let (bits, Shape { lag, pairs }) = (64 * ring.words, ring.shape);
    for n in heaps {
        let stamp = engine.next_stamp();
        engine.mark_small(n, stamp);
        // Rare heaps below lag, and those found since the segment started.
        let found = rare[1].start..engine.split().rare().len();
        engine.mark_rare(n, stamp, [rare[0].clone(), found]);
        if !ring.wait(|| ring.ready.load(Ordering::Acquire) > n) {
            break; // the helper stopped (it panicked: the scope passes the panic on)
        }
        for (w, cell) in ring.slots[(n % ring.shape.slots()) * ring.words..][..ring.words].iter().enumerate() {
            let mut word = cell.load(Ordering::Relaxed);
            while word != 0 {
                engine.seen[64 * w + word.trailing_zeros() as usize] = stamp;
                word &= word - 1;
            }
        }
        let value = engine.settle(n, stamp, lag..lag + pairs);
        engine.push(n, value, tick)?;
        ring.published.store(n + 1, Ordering::Release);
        if value >= bits {
            break;
        }
    }
    Ok(())
}
