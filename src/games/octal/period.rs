//! Periodicity, found in computed values and proved by the periodicity theorem.
//!
//! Theorem (Guy & Smith 1956; Winning Ways, ch. 4, "the periodicity theorem" for octal
//! games): let t be the most tokens a move removes. If g(n + p) = g(n) for every n with
//! n0 ≤ n < 2·n0 + p + t, then g(n + p) = g(n) for every n ≥ n0. The induction maps each
//! split of n + p to one of n by taking p from the larger part (at least n0 + p when
//! n ≥ 2·n0 + p + t); it needs n0 ≥ 1, so that the part left is a heap.
//!
//! The same induction gives the bound for the other kinds of codes (docs/octal.md):
//! codes that never split (subtraction games among them): n0 ≤ n < n0 + t, a window of t
//! values repeated; hexadecimal codes with three-heap moves: n0 ≤ n < 3·n0 + 2·p + t (the
//! largest of three parts is at least n0 + p when n ≥ 3·n0 + 2·p + t). Grundy's game (two
//! *unequal* heaps) has no such theorem: taking p from the larger part may leave equal ones.

use super::code::{Code, THREE};

/// Which bound applies to a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No move splits a heap: a repeated window of t values.
    Window,
    /// Two-heap splits: n < 2·n0 + p + t.
    TwoHeaps,
    /// Three-heap splits: n < 3·n0 + 2·p + t.
    ThreeHeaps,
}

impl Bound {
    /// The bound for `code`, or why none is proved.
    pub fn of(code: &Code) -> Result<Bound, &'static str> {
        if code.unequal {
            Err("no periodicity theorem covers splits into unequal heaps (Grundy's game)")
        } else if code.digits.iter().any(|d| d & THREE != 0) {
            Ok(Bound::ThreeHeaps)
        } else if code.splits() {
            Ok(Bound::TwoHeaps)
        } else {
            Ok(Bound::Window)
        }
    }

    /// The end (exclusive) of the range of n on which g(n + p) = g(n) must be checked.
    pub fn end(self, n0: usize, p: usize, t: usize) -> usize {
        match self {
            Bound::Window => n0 + t,
            Bound::TwoHeaps => 2 * n0 + p + t,
            Bound::ThreeHeaps => 3 * n0 + 2 * p + t,
        }
    }

    /// The statement checked, e.g. `2·n0 + p + t = 2·71 + 12 + 2 = 156`.
    pub fn formula(self, n0: usize, p: usize, t: usize) -> String {
        let end = self.end(n0, p, t);
        match self {
            Bound::Window => format!("n0 + t = {n0} + {t} = {end}"),
            Bound::TwoHeaps => format!("2·n0 + p + t = 2·{n0} + {p} + {t} = {end}"),
            Bound::ThreeHeaps => format!("3·n0 + 2·p + t = 3·{n0} + 2·{p} + {t} = {end}"),
        }
    }
}

/// A proved period: g(n + period) = g(n) for every n ≥ preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodicity {
    /// n0 ≥ 1: the first heap of the periodic part (n0 − 1 is the last exception, if any).
    pub preperiod: usize,
    pub period: usize,
    /// The values the proof reads: g(0..values).
    pub values: usize,
}

/// The smallest period p, with the smallest preperiod n0 ≥ 1 for it, that `bound` proves from
/// `g`, if any. Periods of an ultimately periodic sequence are the multiples of the least one
/// and share its preperiod, so the first p that proves is the least period.
pub fn prove(g: &[u16], bound: Bound, t: usize) -> Option<Periodicity> {
    let room = |p: usize| bound.end(1, p, t) + p <= g.len();
    (1..g.len()).take_while(|&p| room(p)).find_map(|p| {
        let n0 = crate::impartial::preperiod(g, p).max(1);
        let values = bound.end(n0, p, t).max(n0) + p;
        (values <= g.len()).then_some(Periodicity { preperiod: n0, period: p, values })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::values::{values, Method};

    fn proof(code: &str, max: usize) -> Option<Periodicity> {
        let code = Code::parse(code).unwrap();
        prove(&values(&code, max, Method::Sparse).unwrap(), Bound::of(&code).unwrap(), code.max_take())
    }

    #[test]
    fn known_periods() {
        // Kayles: period 12, last exception at 70 (A002186); 2·71 + 12 + 2 = 156, + 12 values.
        assert_eq!(proof("0.77", 400), Some(Periodicity { preperiod: 71, period: 12, values: 168 }));
        // Dawson's chess: period 34, last exception at 51 (A002187); 0.07 one heap later.
        assert_eq!(proof("0.137", 400).map(|p| (p.preperiod, p.period)), Some((52, 34)));
        assert_eq!(proof("0.07", 400).map(|p| (p.preperiod, p.period)), Some((53, 34)));
        // 0.177 (A071435): period 20, last exception at 496.
        assert_eq!(proof("0.177", 2000).map(|p| (p.preperiod, p.period)), Some((497, 20)));
        // Not enough values yet: 2·497 + 20 + 3 + 20 > 1000.
        assert_eq!(proof("0.177", 1000), None);
        // {1,3,4}: 0 1 0 1 2 3 2, period 7 from the start (n0 = 1 by convention).
        assert_eq!(proof("{1,3,4}", 30), Some(Periodicity { preperiod: 1, period: 7, values: 12 }));
    }

    #[test]
    fn bounds_by_kind_of_code() {
        assert_eq!(Bound::of(&Code::parse("0x0.8").unwrap()), Ok(Bound::ThreeHeaps));
        assert_eq!(Bound::of(&Code::parse("4.07").unwrap()), Ok(Bound::TwoHeaps));
        assert_eq!(Bound::of(&Code::parse("0.33").unwrap()), Ok(Bound::Window));
        assert!(Bound::of(&Code::parse("grundy").unwrap()).is_err());
        assert_eq!(Bound::TwoHeaps.formula(71, 12, 2), "2·n0 + p + t = 2·71 + 12 + 2 = 156");
    }
}
