//! The claimed rule: Nim on one heap per bridge.

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
