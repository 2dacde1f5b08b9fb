//! One-heap values g(0), g(1), … of a take-and-break code, by two exact methods.
//!
//! * Plain mex: every option of every heap (O(n²) for codes that split).
//! * Sparse space (Berlekamp; Flammenkamp): a bit mask splits values into *rare* ones
//!   (parity(v & mask) even) and *common* ones. Since parity is linear under XOR, a split
//!   into two heaps has a common value exactly when one part is rare, so every common option
//!   comes from the short list of rare heaps; the smallest common value missing from those is
//!   the answer unless some smaller rare value is missing too, which a scan of the pairs
//!   settles (it usually stops after a few pairs). The mask only decides the speed: every
//!   value is exact whatever the mask, and the mask is re-chosen when rare values stop being
//!   rare ([`super::split`]).

use super::code::{Code, NONE, ONE, THREE, TWO};
use super::split::Split;
use crate::error::{Error, Result};

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
    two: Vec<usize>,
    three: Vec<usize>,
    unequal: bool,
    method: Method,
    g: Vec<u16>,
    split: Split,
    /// `seen[v] == stamp`: v is an option of the heap being computed.
    seen: Vec<u32>,
    /// `wanted[v] == stamp`: rare v below the common candidate, not yet seen.
    wanted: Vec<u32>,
    stamp: u32,
}

impl Engine {
    /// An engine for `code`; `Method::Sparse` falls back to plain mex where it does not apply
    /// (codes that never split in two, three-heap moves).
    pub fn new(code: &Code, method: Method) -> Engine {
        let (two, three) = (code.takes(TWO), code.takes(THREE));
        let method = if two.is_empty() || !three.is_empty() { Method::Plain } else { method };
        Engine {
            none: code.takes(NONE).into_iter().filter(|&k| k > 0).collect(),
            one: code.takes(ONE).into_iter().filter(|&k| k > 0).collect(),
            two,
            three,
            unequal: code.unequal,
            method,
            g: Vec::new(),
            split: Split::default(),
            seen: vec![0; MAX_VALUE + 2],
            wanted: vec![0; MAX_VALUE + 2],
            stamp: 0,
        }
    }

    /// The method in use.
    pub fn method(&self) -> Method {
        self.method
    }

    /// g(0..len) computed so far.
    pub fn values(&self) -> &[u16] {
        &self.g
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
            let value = match self.method {
                Method::Sparse if self.split.ready(n) => self.sparse(n),
                _ => self.plain(n),
            };
            if value > MAX_VALUE {
                return Err(Error::Usage(format!("g({n}) = {value} does not fit in 16 bits; values stop at {MAX_VALUE}")));
            }
            self.g.push(value as u16);
            if self.method == Method::Sparse {
                self.split.record(&self.g);
            }
            if n % 65_536 == 65_535 {
                tick(65_536);
            }
        }
        Ok(())
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.wanted.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Marks the options that leave fewer than two heaps.
    fn mark_small(&mut self, n: usize, stamp: u32) {
        if self.none.contains(&n) {
            self.seen[0] = stamp;
        }
        for &k in self.one.iter().filter(|&&k| k < n) {
            self.seen[usize::from(self.g[n - k])] = stamp;
        }
    }

    /// The splits of `m` tokens into two heaps (a, m − a) with a ≤ m − a.
    fn pairs(&self, m: usize) -> std::ops::RangeInclusive<usize> {
        let top = if self.unequal && m.is_multiple_of(2) { m / 2 - 1 } else { m / 2 };
        1..=top
    }

    fn mex(&self, stamp: u32) -> usize {
        self.seen.iter().position(|&s| s != stamp).expect("at most 2^16 distinct options")
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
        let (g, rare) = (&self.g, self.split.rare());
        // Every split with a rare part: all the common options, and some rare ones.
        for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
            let m = n - k;
            for &r in rare.iter().take_while(|&&r| r < m).filter(|&&r| r >= 1) {
                if !(self.unequal && 2 * r == m) {
                    self.seen[usize::from(g[r] ^ g[m - r])] = stamp;
                }
            }
        }
        // Past 65535 no common value is left: the caller refuses the value.
        let common = (0..=MAX_VALUE).find(|&v| self.split.is_common(v) && self.seen[v] != stamp).unwrap_or(MAX_VALUE + 1);
        // Rare values below it that no split with a rare part gave: look for two common parts.
        let mut missing = 0;
        for v in (0..common).filter(|&v| !self.split.is_common(v) && self.seen[v] != stamp) {
            self.wanted[v] = stamp;
            missing += 1;
        }
        if missing == 0 {
            return common;
        }
        'scan: for &k in self.two.iter().filter(|&&k| k + 2 <= n) {
            for a in self.pairs(n - k) {
                let v = usize::from(g[a] ^ g[n - k - a]);
                if self.wanted[v] == stamp {
                    self.wanted[v] = 0;
                    missing -= 1;
                    if missing == 0 {
                        break 'scan;
                    }
                }
            }
        }
        (0..common).find(|&v| self.wanted[v] == stamp).unwrap_or(common)
    }
}

/// g(0..=max) of `code` by `method`.
pub fn values(code: &Code, max: usize, method: Method) -> Result<Vec<u16>> {
    let mut engine = Engine::new(code, method);
    engine.extend_to(max, &mut |_| {})?;
    Ok(engine.g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(code: &str, max: usize) -> Vec<u16> {
        let code = Code::parse(code).unwrap();
        let plain = values(&code, max, Method::Plain).unwrap();
        assert_eq!(values(&code, max, Method::Sparse).unwrap(), plain, "{code}");
        plain
    }

    #[test]
    fn known_sequences() {
        // OEIS A002186 (Kayles, 0.77), first 40 terms.
        let kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3];
        assert_eq!(both("0.77", 39), kayles);
        // OEIS A002187 (Dawson's chess, 0.137), first 40 terms; 0.07 has values a(n − 1).
        let chess = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3];
        assert_eq!(both("0.137", 39), chess);
        assert_eq!(both("0.07", 40)[1..], chess);
        // OEIS A002188 (Grundy's game), first 34 terms.
        let grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4];
        assert_eq!(both("grundy", 33), grundy);
        assert_eq!(both("{1,3,4}", 13), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    }

    #[test]
    fn sparse_and_plain_agree_on_many_codes() {
        for code in ["0.6", "0.4", "0.007", "0.16", "0.26", "0.56", "4.07", "0.777", "0x0.3f", "0x0.f8", "0x4.4"] {
            both(code, 700);
        }
        let officers = values(&Code::parse("0.6").unwrap(), 3000, Method::Sparse).unwrap();
        assert_eq!(officers, values(&Code::parse("0.6").unwrap(), 3000, Method::Plain).unwrap());
    }

    #[test]
    fn sparse_and_plain_agree_on_every_three_digit_code() {
        for digits in 0..512 {
            let code = format!("0.{}{}{}", digits >> 6, digits >> 3 & 7, digits & 7);
            both(&code, 1000);
        }
    }

    #[test]
    fn the_engine_extends_where_it_stopped() {
        let code = Code::parse("0.6").unwrap();
        let mut engine = Engine::new(&code, Method::Sparse);
        engine.extend_to(500, &mut |_| {}).unwrap();
        engine.extend_to(1500, &mut |_| {}).unwrap();
        assert_eq!(engine.values(), values(&code, 1500, Method::Plain).unwrap());
        assert_eq!(engine.method(), Method::Sparse);
        assert_eq!(Engine::new(&Code::parse("{1,2}").unwrap(), Method::Sparse).method(), Method::Plain);
    }
}
