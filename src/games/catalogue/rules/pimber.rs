//! Pimber's move rule: remove a Fibonacci number (1, 2, 3, 5, 8, …) of stones from one pile.

use super::piles::{PileGame, Piles};
use crate::impartial::{Convention, Impartial};

/// Pimber under normal play.
pub struct Pimber;

/// The distinct Fibonacci numbers 1, 2, 3, 5, 8, … up to `max`.
pub fn fibonacci_up_to(max: u32) -> Vec<u32> {
    let (mut a, mut b) = (1u64, 2u64);
    let mut out = Vec::new();
    while a <= u64::from(max) {
        out.push(a as u32);
        (a, b) = (b, a + b);
    }
    out
}

impl Impartial for Pimber {
    type Position = Piles;
    fn moves(&self, p: &Piles) -> Vec<Piles> {
        let heap_moves = |n: u32| fibonacci_up_to(n).into_iter().rev().map(|f| n - f).collect();
        PileGame { heap_moves, convention: Convention::Normal }.moves(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fibonacci_moves() {
        assert_eq!(fibonacci_up_to(20), vec![1, 2, 3, 5, 8, 13]);
        assert_eq!(Pimber.moves(&vec![4]), vec![vec![1], vec![2], vec![3]]);
    }
}
