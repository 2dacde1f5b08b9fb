//! Kings' bridge: a White and a Black king on each of N bridges; a loopy partisan game claimed to be Nim.
//!
//! Rules: bridge i is a row of A_i cells, White starts on its first cell and Black on its last.
//! A move picks one bridge and slides the mover's own king there by one or more cells in either
//! direction, never reaching or passing the other king. No move ⇒ the mover loses. Kings may
//! retreat, so the position graph has cycles and a play need not end.
//!
//! - [`parse_input`]: the contest format (N, A_1 … A_N, `Whiteking` or `Blackking`).
//! - [`claim`]: Nim on heaps A_i − 2 (and a deliberately wrong Nim on A_i − 1).
//! - [`retro`]: retrograde analysis of the real position graph (wins, losses and draws).

use crate::error::Result;
use crate::input::Scanner;

/// Most bridges the contest allows.
pub const MAX_BRIDGES: usize = 100;
/// Longest bridge the contest allows.
pub const MAX_LENGTH: u64 = 1_000_000_000;
/// The two names of the input and the output.
pub const NAMES: [&str; 2] = ["Whiteking", "Blackking"];

/// A side: White or Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// One game: bridge lengths and who moves first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub lengths: Vec<u64>,
    pub first: Side,
}

/// Parses the contest input, reporting line:col on any error.
pub fn parse_input(source_name: &str, text: &str) -> Result<Game> {
    let mut s = Scanner::new(source_name, text);
    let game = read_game(&mut s)?;
    s.expect_end()?;
    Ok(game)
}

/// The contest input's game from `s` (what may follow is the caller's).
pub fn read_game(s: &mut Scanner<'_>) -> Result<Game> {
    if s.at_end() {
        return Err(s.error_at(1, 1, "empty input: expected N (number of bridges)"));
    }
    let n: usize = s.number("N (number of bridges)", 1, MAX_BRIDGES)?;
    let lengths = (1..=n).map(|i| s.number(&format!("length A_{i} of bridge {i}"), 2, MAX_LENGTH)).collect::<Result<_>>()?;
    let first = if s.word("the first player", &NAMES)?.text == NAMES[0] { Side::White } else { Side::Black };
    Ok(Game { lengths, first })
}

pub mod claim;
pub mod commands;
pub mod contest;
pub mod explore;
pub mod moves;
pub mod verify;

pub mod retro;

pub use commands::GAME;

#[cfg(test)]
mod tests {
    use super::retro::{Analysis, Value};
    use super::*;

    #[test]
    fn single_bridges_follow_nim() {
        for a in 2..=9u64 {
            let analysis = Analysis::new(&[a]).unwrap();
            let want = if a == 2 { Value::Loss } else { Value::Win };
            assert_eq!((analysis.start(Side::White), analysis.start(Side::Black)), (want, want), "A = {a}");
        }
    }

    #[test]
    fn parses_and_rejects() {
        let game = parse_input("t", "2\n3 3\nBlackking\n").unwrap();
        assert_eq!(game, Game { lengths: vec![3, 3], first: Side::Black });
        assert_eq!(claim::winner(&game), Side::White);
        let err = parse_input("in", "1\n4\nwhite\n").unwrap_err().to_string();
        assert_eq!(err, "in:3:1: expected the first player (Whiteking or Blackking), found \"white\"");
        let err = parse_input("in", "1\n1\nWhiteking\n").unwrap_err().to_string();
        assert_eq!(err, "in:2:1: length A_1 of bridge 1 must be between 2 and 1000000000, found 1");
    }
}
