//! One-heap values g(0), g(1), … of a take-and-break code, by two exact methods.
//!
//! * Plain mex: every option of every heap (O(n²) for codes that split).
//! * Sparse space (Berlekamp; Flammenkamp): a bit mask splits heaps into *rare* ones
//!   (parity(g(n) & mask) even; for the domain type, equal to parity(n − t)) and *common*
//!   ones ([`super::split::Rule`]). Since parity is linear under XOR, a split of heap n into
//!   two heaps has a value of n's *common class* exactly when one part is rare, so every such
//!   option comes from the short list of rare heaps; the smallest common-class value missing
//!   from those is the answer unless some smaller value of the other class is missing too,
//!   which a scan of the pairs settles (it usually stops after a few pairs). The rule only
//!   decides the speed: every value is exact whatever the mask, and the rule is re-chosen
//!   when rare heaps stop being rare ([`super::split`]).

use super::code::{Code, NONE, ONE, THREE, TWO};
use super::fast::{new_marks, rare_parts, scan_pairs, Cursors, Heads, Kernel, Marks};
use super::pipeline::{Balance, Shape};
use super::split::{Rule, Split};
use crate::error::{Error, Result};
use std::ops::Range;

/// Values are u16; a larger one is refused, never wrapped.
pub const MAX_VALUE: usize = u16::MAX as usize;

/// Which method computes the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Plain,
    Sparse,
}

/// The values of one code, extended on demand.
pub struct Engine {
    none: Vec<usize>,
    one: Vec<usize>,
    pub(super) two: Vec<usize>,
    three: Vec<usize>,
    pub(super) unequal: bool,
    method: Method,
    pub(super) g: Vec<u16>,
    pub(super) split: Split,
    /// `seen[v] == stamp`: v is an option of the heap being computed.
    pub(super) seen: Box<Marks>,
    /// Rare values below the common candidate not yet seen.
    wanted: Vec<u16>,
    stamp: u32,
    pub(super) kernel: Kernel,
    threads: usize,
    pub(super) shape: Shape,
    /// Where the two threads divide the rare heaps, adjusted after each segment.
    pub(super) balance: Balance,
    largest: u16,
}

impl Engine {
    /// An engine for `code`; `Method::Sparse` falls back to plain mex where it does not apply
    /// (codes that never split in two, three-heap moves). One thread; see [`Engine::set_threads`].
    pub fn new(code: &Code, method: Method) -> Engine {
        let (two, three) = (code.takes(TWO), code.takes(THREE));
        let method = if two.is_empty() || !three.is_empty() { Method::Plain } else { method };
        let split = Split::new(domain_parity(code));
        Engine {
            none: code.takes(NONE).into_iter().filter(|&k| k > 0).collect(),
            one: code.takes(ONE).into_iter().filter(|&k| k > 0).collect(),
            two,
            three,
            unequal: code.unequal,
            method,
            g: Vec::new(),
            split,
            seen: new_marks(),
            wanted: Vec::new(),
            stamp: 0,
            kernel: Kernel::detect(),
            threads: 1,
            shape: Shape::DEFAULT,
            balance: Balance::default(),
            largest: 0,
        }
    }

    /// An engine that continues from values `g` computed before, with the sparse method's
    /// rule and next review ([`Split::rule`], [`Split::review_at`]) as they were; `None` when
    /// the rule is of the domain type and the code's splits do not allow it.
    pub fn resume(code: &Code, method: Method, g: Vec<u16>, rule: Rule, review_at: usize) -> Option<Engine> {
        let mut engine = Engine::new(code, method);
        let parity = domain_parity(code);
        if rule.domain.is_some() && rule.domain != parity {
            return None;
        }
        if engine.method == Method::Sparse {
            engine.split = Split::restore(&g, parity, rule, review_at);
        }
        engine.largest = g.iter().copied().max().unwrap_or(0);
        engine.g = g;
        Some(engine)
    }

    /// Uses `kernel` for the sparse method's inner loop (tests compare them).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    /// Runs the sparse method on `threads` threads (two do the work: [`super::pipeline`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Divides the work of two threads as `shape` says (tests use a short lag).
    pub fn set_shape(&mut self, shape: Shape) {
        assert!(shape.lag >= 1 && shape.pairs >= 1);
        self.shape = shape;
    }

    /// Starts the two threads' division of the rare heaps at `balance` (tests).
    #[cfg(test)]
    pub(super) fn set_balance(&mut self, balance: Balance) {
        self.balance = balance;
    }

    /// The method in use.
    pub fn method(&self) -> Method {
        self.method
    }

    /// g(0..len) computed so far.
    pub fn values(&self) -> &[u16] {
        &self.g
    }

    /// The largest value computed so far.
    pub fn largest(&self) -> u16 {
        self.largest
    }

    /// The current split (mask and rare heaps) of the sparse method.
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// Computes values up to heap `max` (inclusive), calling `tick` every 2^16 heaps.
    pub fn extend_to(&mut self, max: usize, tick: &mut dyn FnMut(u64)) -> Result<()> {
        self.g.reserve((max + 1).saturating_sub(self.g.len()));
        while self.g.len() <= max {
            let n = self.g.len();
            if self.threads > 1 && self.method == Method::Sparse && self.split.ready(n) {
                if let Some(end) = super::pipeline::segment_end(self, max + 1) {
                    super::pipeline::run(self, end, tick)?;
                    continue;
                }
            }
            let sparse = self.method == Method::Sparse && self.split.ready(n);
            // Stopped work ([`crate::impartial::stoppable`]: an analysis whose client left) ends
            // here, looked at before every plain mex and every 4096 heaps of the sparse method.
            if (!sparse || n.is_multiple_of(4096)) && crate::impartial::stopped() {
                return Err(Error::Usage(format!("the values were stopped at heap {n}")));
            }
            let value = match self.method {
                Method::Sparse if sparse => self.sparse(n),
                _ => self.plain(n),
            };
            self.push(n, value, tick)?;
        }
        Ok(())
    }

    /// Appends g(n) = `value` (refused above 65535), keeps the split up to date, ticks.
    pub(super) fn push(&mut self, n: usize, value: usize, tick: &mut dyn FnMut(u64)) -> Result<()> {
        let value = u16::try_from(value).map_err(|_| Error::Usage(format!("g({n}) = {value} does not fit in 16 bits; values stop at {MAX_VALUE}")))?;
        self.g.push(value);
        self.largest = self.largest.max(value);
        if self.method == Method::Sparse {
            self.split.record(&self.g);
        }
        if n % 65_536 == 65_535 {
            tick(65_536);
        }
        Ok(())
    }

    pub(super) fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Marks the options that leave fewer than two heaps.
    pub(super) fn mark_small(&mut self, n: usize, stamp: u32) {
        if self.none.contains(&n) {
            self.seen[0] = stamp;
        }
        for &k in self.one.iter().filter(|&&k| k < n) {
            self.seen[usize::from(self.g[n - k])] = stamp;
        }
    }

    /// The splits of `m` tokens into two heaps (a, m − a) with a ≤ m − a.
    fn pairs(&self, m: usize) -> std::ops::RangeInclusive<usize> {
        1..=pair_top(m, self.unequal)
    }

    /// The smallest value not marked (65536 when every u16 is: the caller refuses it).
    fn mex(&self, stamp: u32) -> usize {
        self.seen.iter().position(|&s| s != stamp).unwrap_or(MAX_VALUE + 1)
    }

    /// g(n) by plain mex over every option.
    fn plain(&mut self, n: usize) -> usize {
        let stamp = self.next_stamp();
        self.mark_small(n, stamp);
        let g = &self.g;
        for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
            for a in self.pairs(n - k) {
                self.seen[usize::from(g[a] ^ g[n - k - a])] = stamp;
            }
        }
        for &k in self.three.iter().filter(|&&k| k + 3 <= n) {
            let m = n - k;
            for a in 1..=m / 3 {
                for b in a..=(m - a) / 2 {
                    self.seen[usize::from(g[a] ^ g[b] ^ g[m - a - b])] = stamp;
                }
            }
        }
        self.mex(stamp)
    }

    /// g(n) by the sparse-space method (two-heap splits only; exact for any mask).
    fn sparse(&mut self, n: usize) -> usize {
        let stamp = self.next_stamp();
        self.mark_small(n, stamp);
        let all = 0..self.split.rare().len();
        self.mark_rare(n, stamp, [all.clone(), all.end..all.end]);
        self.settle(n, stamp, Heads::default())
    }

    /// Marks every split of heap n with a rare part among the rare heaps at indices `parts`
    /// (all the common options when every rare heap is included, and some rare ones).
    pub(super) fn mark_rare(&mut self, n: usize, stamp: u32, parts: [Range<usize>; 2]) {
        let (heaps, values) = self.split.rare_pairs();
        for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
            let m = n - k;
            for part in &parts {
                let (heaps, values) = (&heaps[part.clone()], &values[part.clone()]);
                for range in rare_parts(heaps, m, self.unequal) {
                    self.kernel.mark(&self.g, &heaps[range.clone()], &values[range], m, &mut self.seen, stamp);
                }
            }
        }
    }

    /// The value of heap n once every split with a rare part is marked (and the `heads` of the
    /// scan's cursors): the smallest common value not marked, unless a smaller rare value is
    /// missing too, which a scan of the other splits settles (it stops as soon as every such
    /// rare value is seen).
    pub(super) fn settle(&mut self, n: usize, stamp: u32, heads: Heads) -> usize {
        let common = self.split.common_table(n);
        let mut candidate = MAX_VALUE + 1;
        self.wanted.clear();
        for (v, &common) in common.iter().enumerate() {
            if self.seen[v] == stamp {
                continue;
            }
            if common {
                candidate = v;
                break;
            }
            self.wanted.push(v as u16);
        }
        for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
            let cursors = Cursors::new(n - k, pair_top(n - k, self.unequal), heads);
            scan_pairs(&self.g, n - k, cursors, &mut self.seen, stamp, &mut self.wanted);
        }
        self.wanted.first().map_or(candidate, |&v| usize::from(v))
    }
}

/// The parity of the tokens every two-heap split of `code` removes, when they all remove a
/// number of one parity (the domain type of sparse space applies), else `None`.
pub fn domain_parity(code: &Code) -> Option<u8> {
    let two = code.takes(TWO);
    let parity = (*two.first()? % 2) as u8;
    two.iter().all(|&k| (k % 2) as u8 == parity).then_some(parity)
}

/// The largest a of a split of m tokens into (a, m − a) with a ≤ m − a (and a ≠ m − a when the
/// parts must differ); 0 when there is none.
pub fn pair_top(m: usize, unequal: bool) -> usize {
    if unequal && m.is_multiple_of(2) {
        (m / 2).saturating_sub(1)
    } else {
        m / 2
    }
}

/// g(0..=max) of `code` by `method`.
pub fn values(code: &Code, max: usize, method: Method) -> Result<Vec<u16>> {
    let mut engine = Engine::new(code, method);
    engine.extend_to(max, &mut |_| {})?;
    Ok(engine.g)
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
