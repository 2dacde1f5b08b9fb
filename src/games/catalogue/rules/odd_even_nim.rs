//! Odd-even Nim's move rule: take an even number of stones leaving at least one, or a whole odd pile.

use super::piles::{PileGame, Piles};
use crate::impartial::{Convention, Impartial};

/// Odd-even Nim under normal play.
pub struct OddEvenNim;

/// Sizes one heap of `n` can become: n − 2k ≥ 1, or 0 when n is odd.
pub fn heap_moves(n: u32) -> Vec<u32> {
    let mut out: Vec<u32> = (1..=n / 2).map(|k| n - 2 * k).filter(|&r| r >= 1).collect();
    if n % 2 == 1 {
        out.push(0);
    }
    out
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
        assert_eq!(heap_moves(5), vec![3, 1, 0]);
        assert_eq!(heap_moves(4), vec![2]);
    }
}
