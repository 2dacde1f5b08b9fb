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

use crate::error::{Error, Result};
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
    if s.at_end() {
        return Err(s.error_at(1, 1, "empty input: expected N (number of bridges)"));
    }
    let n: usize = s.number("N (number of bridges)", 1, MAX_BRIDGES)?;
    let lengths = (1..=n).map(|i| s.number(&format!("length A_{i} of bridge {i}"), 2, MAX_LENGTH)).collect::<Result<_>>()?;
    let first = if s.word("the first player", &NAMES)?.text == NAMES[0] { Side::White } else { Side::Black };
    s.expect_end()?;
    Ok(Game { lengths, first })
}

/// The claimed rule: Nim on one heap per bridge.
pub mod claim {
    use super::{Game, Side};

    /// Heap size per bridge: `A_i − offset`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Claim {
        /// Nim on A_i − 2, the free cells between the kings (the claim under test).
        NimMinus2,
        /// Nim on A_i − 1 — deliberately wrong.
        NimMinus1,
    }

    impl Claim {
        /// The XOR of the heaps.
        pub fn nim_sum(self, lengths: &[u64]) -> u64 {
            let offset = match self {
                Claim::NimMinus2 => 2,
                Claim::NimMinus1 => 1,
            };
            lengths.iter().fold(0, |x, &a| x ^ (a - offset))
        }

        /// The claimed winner: the first player when the XOR is non-zero.
        pub fn winner(self, game: &Game) -> Side {
            if self.nim_sum(&game.lengths) != 0 {
                game.first
            } else {
                game.first.other()
            }
        }
    }

    /// The claimed winner under Nim on A_i − 2.
    pub fn winner(game: &Game) -> Side {
        Claim::NimMinus2.winner(game)
    }
}

/// Retrograde analysis of the position graph of small bridges.
pub mod retro {
    use super::*;

    /// Most positions (kings' cells on every bridge × side to move) the analysis accepts.
    pub const MAX_STATES: usize = 20_000_000;

    /// The value of a position for the side to move.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Value {
        Win,
        Loss,
        Draw,
    }

    /// Every position of one set of bridges, solved.
    pub struct Analysis {
        /// Per bridge: its length and the (white, black) cell pairs w < b (0-based) in index order.
        pairs: Vec<Vec<(u8, u8)>>,
        /// Indexed by configuration · 2 + side (0 White, 1 Black to move).
        values: Vec<Value>,
    }

    impl Analysis {
        /// Builds and solves the graph; a usage error when it has more than [`MAX_STATES`].
        pub fn new(lengths: &[u64]) -> Result<Analysis> {
            let too_big = || Error::Usage(format!("bridges {lengths:?} have more than {MAX_STATES} positions for the retrograde analysis"));
            let mut states = 2usize;
            for &a in lengths {
                let pairs = usize::try_from(a * (a - 1) / 2).map_err(|_| too_big())?;
                states = states.checked_mul(pairs).filter(|&n| n <= MAX_STATES).ok_or_else(too_big)?;
            }
            let pairs: Vec<Vec<(u8, u8)>> = lengths
                .iter()
                .map(|&a| (0..a as u8).flat_map(|w| (w + 1..a as u8).map(move |b| (w, b))).collect())
                .collect();
            let mut analysis = Analysis { pairs, values: vec![Value::Draw; states] };
            analysis.solve();
            Ok(analysis)
        }

        /// The value of the start position with `first` to move.
        pub fn start(&self, first: Side) -> Value {
            let config = self.pairs.iter().rev().fold(0usize, |c, p| {
                let last = p.iter().map(|&(_, b)| b).max().expect("bridge has cells");
                let start = p.iter().position(|&(w, b)| w == 0 && b == last).expect("start pair");
                c * p.len() + start
            });
            self.values[config * 2 + first as usize]
        }

        /// Positions by value: (wins, losses, draws) for the side to move, over all positions.
        pub fn counts(&self) -> (u64, u64, u64) {
            let count = |v: Value| self.values.iter().filter(|&&x| x == v).count() as u64;
            (count(Value::Win), count(Value::Loss), count(Value::Draw))
        }

        /// Every configuration reached when `side` moves one king from `config`. The graph of
        /// one side's moves is symmetric (a step back is again a legal move), so this also lists
        /// the predecessors of `config` with the other side to move.
        fn moves(&self, config: usize, side: Side, out: &mut Vec<usize>) {
            out.clear();
            let (mut rest, mut stride) = (config, 1usize);
            for pairs in &self.pairs {
                let here = rest % pairs.len();
                rest /= pairs.len();
                let (w, b) = pairs[here];
                for (i, &(w2, b2)) in pairs.iter().enumerate() {
                    let legal = match side {
                        Side::White => b2 == b && w2 != w,
                        Side::Black => w2 == w && b2 != b,
                    };
                    if legal {
                        out.push(config - here * stride + i * stride);
                    }
                }
                stride *= pairs.len();
            }
        }

        /// Standard retrograde propagation: no move ⇒ loss; a move to a loss ⇒ win; all moves to
        /// wins ⇒ loss; whatever is never settled is a draw.
        fn solve(&mut self) {
            let states = self.values.len();
            let side_of = |s: usize| if s % 2 == 0 { Side::White } else { Side::Black };
            let mut unresolved = vec![0u32; states];
            let mut settled = vec![false; states];
            let mut queue = Vec::new();
            let mut buf = Vec::new();
            for s in 0..states {
                self.moves(s / 2, side_of(s), &mut buf);
                unresolved[s] = buf.len() as u32;
                if buf.is_empty() {
                    self.values[s] = Value::Loss;
                    settled[s] = true;
                    queue.push(s);
                }
            }
            while let Some(s) = queue.pop() {
                let mover = side_of(s).other();
                self.moves(s / 2, mover, &mut buf);
                for &config in &buf {
                    let p = config * 2 + mover as usize;
                    if settled[p] {
                        continue;
                    }
                    unresolved[p] -= 1;
                    if self.values[s] == Value::Loss || unresolved[p] == 0 {
                        self.values[p] = if self.values[s] == Value::Loss { Value::Win } else { Value::Loss };
                        settled[p] = true;
                        queue.push(p);
                    }
                }
            }
        }
    }

    /// The value of `game`'s start for its first player.
    pub fn start_value(game: &Game) -> Result<Value> {
        Ok(Analysis::new(&game.lengths)?.start(game.first))
    }
}

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
