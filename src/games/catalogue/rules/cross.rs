//! Cross's move rule on a 1×N strip: write an x on a free cell; after three x's in a row the player to move has lost.

use crate::impartial::Impartial;

/// The brute force handles strips up to this many cells (one bit per cell).
pub const MAX_BRUTE_CELLS: u32 = 64;

/// The strip game; `Tag` names the claim a verification checks against it (the move rule
/// ignores it). A position is (N, bit set of x cells).
pub struct Cross<Tag>(pub Tag);

/// (cells, x cells as bits).
pub type Strip = (u32, u64);

/// True when three adjacent cells hold x's (the player who wrote the last x has won).
pub fn has_three(x: u64) -> bool {
    x & (x >> 1) & (x >> 2) != 0
}

impl<Tag> Impartial for Cross<Tag> {
    type Position = Strip;
    /// After three in a row the game is over: the player to move has lost, so no moves.
    fn moves(&self, &(n, x): &Strip) -> Vec<Strip> {
        if has_three(x) {
            return Vec::new();
        }
        (0..n).filter(|&c| x >> c & 1 == 0).map(|c| (n, x | 1 << c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::BruteForce;

    #[test]
    fn real_play_small_strips() {
        let mut brute = BruteForce::new(&Cross(()));
        let wins: Vec<bool> = (1..=6).map(|n| brute.first_player_wins(&(n, 0))).collect();
        // N = 2: x then x fills the strip without three; the first player cannot move.
        assert_eq!(wins, [true, false, true, true, true, false]);
        assert!(Cross(()).moves(&(4, 0b0111)).is_empty(), "three in a row ends the game");
    }
}
