//! Card game: players alternately take the leftmost or rightmost card, each maximizing his own total.
//!
//! - [`parse_input`]: the contest format (T, then per case N and N values).
//! - [`claim`]: the O(N²) interval DP (one rolling row), and a deliberately wrong greedy.
//! - [`brute`]: plain minimax recursion over (l, r), no table.

use crate::input::Scanner;
use crate::error::Result;

/// Largest row the contest allows.
pub const MAX_CARDS: usize = 1000;
/// Largest card value.
pub const MAX_VALUE: u32 = 10_000;
/// Most test cases accepted in one input.
pub const MAX_CASES: usize = 100_000;

/// Parses the contest input: T, then T cases of `N` and N values; line:col on any error.
pub fn parse_input(source_name: &str, text: &str) -> Result<Vec<Vec<u32>>> {
    parse_rows(source_name, text, 1)
}

/// [`parse_input`] with rows of at least `min_cards` cards (0: every card is taken).
pub fn parse_rows(source_name: &str, text: &str, min_cards: usize) -> Result<Vec<Vec<u32>>> {
    let mut s = Scanner::new(source_name, text);
    if s.at_end() {
        return Err(s.error_at(1, 1, "empty input: expected T (number of test cases)"));
    }
    let cases: usize = s.number("T (number of test cases)", 1, MAX_CASES)?;
    let mut rows = Vec::with_capacity(cases.min(1024));
    for case in 1..=cases {
        let n: usize = s.number(&format!("N (number of cards) of case {case}"), min_cards, MAX_CARDS)?;
        let row = (1..=n)
            .map(|i| s.number(&format!("card {i} of case {case}"), 1, MAX_VALUE))
            .collect::<Result<Vec<u32>>>()?;
        rows.push(row);
    }
    s.expect_end()?;
    Ok(rows)
}

pub mod claim;
pub mod commands;
pub mod contest;
pub mod explore;
pub mod verify;

pub mod brute;

pub use commands::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_rows() {
        // BOJ 11062 sample: 4 cards 1 2 5 2 → 6; 9 cards 1 1 1 1 2 2 2 2 2 → 8.
        for (row, want) in [(vec![1, 2, 5, 2], 6), (vec![1, 1, 1, 1, 2, 2, 2, 2, 2], 8), (vec![7], 7)] {
            assert_eq!(claim::first_total(&row), want);
            assert_eq!(brute::first_total(&row), want);
        }
        // Greedy takes 2 and leaves the 10: 2 + 1 = 3 against the optimal 1 + 10 = 11.
        assert_eq!(claim::greedy_total(&[1, 10, 2, 1]), 3);
        assert_eq!(claim::first_total(&[1, 10, 2, 1]), 11);
    }

    #[test]
    fn errors_name_position() {
        let err = |t: &str| parse_input("in", t).unwrap_err().to_string();
        assert_eq!(err("1\n2\n3 0\n"), "in:3:3: card 2 of case 1 must be between 1 and 10000, found 0");
        assert_eq!(err("2\n1\n5\n"), "in:3:2: expected N (number of cards) of case 2, found end of input");
        assert_eq!(err("1\n1001\n"), "in:2:1: N (number of cards) of case 1 must be between 1 and 1000, found 1001");
    }
}
