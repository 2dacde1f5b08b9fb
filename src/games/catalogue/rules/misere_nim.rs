//! Misère Nim's move rule: Nim's moves, and the player left without a move wins.

use super::piles::{PileGame, Piles};
use crate::impartial::{Convention, Impartial};

/// Misère Nim: Nim moves, the player left without a move wins.
pub struct MisereNim;

impl Impartial for MisereNim {
    type Position = Piles;
    fn moves(&self, p: &Piles) -> Vec<Piles> {
        PileGame { heap_moves: |n| (0..n).collect(), convention: Convention::Misere }.moves(p)
    }
    fn convention(&self) -> Convention {
        Convention::Misere
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::BruteForce;

    #[test]
    fn misere_outcomes() {
        let mut brute = BruteForce::new(&MisereNim);
        assert!(brute.first_player_wins(&vec![]), "no stones left: the previous player took the last");
        assert!(!brute.first_player_wins(&vec![1, 1, 1]));
    }
}
