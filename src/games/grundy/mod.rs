//! Grundy's game (OEIS A002188): a move splits one heap into two non-empty heaps of different sizes.
//!
//! The player who cannot move (every heap has 1 or 2 stones) loses. The game is the
//! take-and-break code `grundy`, and takes its move rule, one-heap values and oracle from the
//! take-and-break engine ([`crate::games::octal`]); this folder holds its own contest input
//! and commands. The claim under test: the value of several heaps is the XOR of the one-heap
//! values of the recurrence g(n) = mex { g(a) ^ g(n − a) : 1 ≤ a < n − a } ([`claim`]); the
//! oracle plays whole positions and never splits them into heaps.

pub mod claim;
pub mod commands;
pub mod contest;
pub mod explore;
pub mod moves;
pub mod verify;

pub use commands::GAME;

use crate::error::Result;
use crate::games::octal::code::Code;
use crate::input::Scanner;

/// Most heaps in a contest input.
pub const MAX_HEAPS: usize = 1000;
/// Largest heap in a contest input.
pub const MAX_HEAP: u16 = 10_000;

/// The move rule, as a take-and-break code: a heap splits into two non-empty heaps of
/// different sizes.
pub fn code() -> Code {
    Code::grundy()
}

/// Every split of a heap of `n` (the options of [`code`]), as (smaller, larger).
pub fn splits(n: u16) -> impl Iterator<Item = (u16, u16)> {
    code().options(usize::from(n)).into_iter().map(|parts| (parts[0] as u16, parts[1] as u16))
}

/// Reads the contest input: a line with the heap count n, then n heap sizes; line:col on error.
pub fn parse_input(source_name: &str, text: &str) -> Result<Vec<u16>> {
    let mut s = Scanner::new(source_name, text);
    if s.at_end() {
        return Err(s.error_at(1, 1, "empty input: expected n (number of heaps)"));
    }
    let n: usize = s.number("n (number of heaps)", 1, MAX_HEAPS)?;
    let heaps = (1..=n).map(|i| s.number(&format!("heap {i}"), 1, MAX_HEAP)).collect::<Result<Vec<u16>>>()?;
    s.expect_end()?;
    Ok(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_are_unequal_and_nonempty() {
        assert_eq!(splits(2).count(), 0);
        assert_eq!(splits(6).collect::<Vec<_>>(), [(1, 5), (2, 4)]);
        assert_eq!(splits(7).collect::<Vec<_>>(), [(1, 6), (2, 5), (3, 4)]);
    }

    #[test]
    fn input_errors_name_the_place() {
        assert_eq!(parse_input("in", "2\n3 4\n").unwrap(), [3, 4]);
        let err = |t: &str| parse_input("in", t).unwrap_err().to_string();
        assert_eq!(err("2\n3 0\n"), "in:2:3: heap 2 must be between 1 and 10000, found 0");
        assert_eq!(err("1001\n"), "in:1:1: n (number of heaps) must be between 1 and 1000, found 1001");
        assert_eq!(err("2\n3\n"), "in:2:2: expected heap 2, found end of input");
        assert_eq!(err("1\n3 4\n"), "in:2:3: unexpected extra input \"4\"");
    }
}
