//! Nim's move rule (take any number of stones from one pile) and the brute-force count of winning first moves.

use super::piles::{PileGame, Piles};
use crate::impartial::{BruteForce, Convention, Impartial};

/// Nim: a move takes any positive number of stones from one pile.
pub struct Nim;

/// Nim with the claim about the number of winning first moves.
pub struct NimCount;

fn nim_moves(piles: &Piles) -> Vec<Piles> {
    PileGame { heap_moves: |n| (0..n).collect(), convention: Convention::Normal }.moves(piles)
}

impl Impartial for Nim {
    type Position = Piles;
    fn moves(&self, p: &Piles) -> Vec<Piles> {
        nim_moves(p)
    }
}

impl Impartial for NimCount {
    type Position = Piles;
    fn moves(&self, p: &Piles) -> Vec<Piles> {
        nim_moves(p)
    }
}

/// Winning first moves counted by brute force: every (pile, stones taken) after which the player
/// to move loses, piles counted separately even when equal.
pub fn brute_winning_moves<G: Impartial<Position = Piles>>(brute: &mut BruteForce<G>, piles: &[u32]) -> u64 {
    let mut count = 0;
    for (i, &p) in piles.iter().enumerate() {
        for after in 0..p {
            let mut next: Piles = piles.to_vec();
            next.remove(i);
            if after > 0 {
                next.insert(next.partition_point(|&q| q < after), after);
            }
            count += u64::from(!brute.first_player_wins(&next));
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_counts_equal_piles_separately() {
        let mut brute = BruteForce::new(&NimCount);
        // 1 3 3: remove the 1, or take one stone from either 3.
        assert_eq!(brute_winning_moves(&mut brute, &[1, 3, 3]), 3);
        // 2 2 3: take one from either 2, or the whole 3.
        assert_eq!(brute_winning_moves(&mut brute, &[2, 2, 3]), 3);
    }
}
