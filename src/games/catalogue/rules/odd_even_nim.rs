//! Odd-even Nim's move rule: take an even number of stones leaving at least one, or a whole odd pile.

use super::piles::{PileGame, Piles};
use crate::impartial::{Convention, Impartial};

/// Odd-even Nim under normal play.
pub struct OddEvenNim;

/// Sizes one heap of `n` can become, smallest first: 0 when n is odd, then n − 2k ≥ 1.
pub fn heap_moves(n: u32) -> Vec<u32> {
    let whole = (n % 2 == 1).then_some(0);
    // n − 2k ≥ 1 has n's parity: 1 or 2, then up by 2 to n − 2.
    whole.into_iter().chain((2 - n % 2..n.saturating_sub(1)).step_by(2)).collect()
}

impl Impartial for OddEvenNim {
    type Position = Piles;
    fn moves(&self, p: &Piles) -> Vec<Piles> {
        PileGame { heap_moves, convention: Convention::Normal }.moves(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_moves_of_odd_and_even_piles() {
        assert_eq!(heap_moves(5), vec![0, 1, 3]);
        assert_eq!(heap_moves(4), vec![2]);
    }
}
