//! The move rule of games on several heaps (Nim family): a position is a sorted multiset of piles, a move changes one pile.

use crate::impartial::{Convention, Impartial};

/// A position of heap games: the non-empty piles, sorted ascending (a multiset, compared exactly).
pub type Piles = Vec<u32>;

/// A game on several heaps where a move changes one heap by `heap_moves`.
pub struct PileGame<F: Fn(u32) -> Vec<u32>> {
    /// The sizes one heap of `n` stones can become in one move (0 = the heap is gone),
    /// smallest first: the brute force's depth-first search then meets the small, known heaps
    /// first and stays shallow (largest first, it descends n, n − 1, … holding every move list
    /// on the way: quadratic memory for one heap).
    pub heap_moves: F,
    pub convention: Convention,
}

impl<F: Fn(u32) -> Vec<u32>> Impartial for PileGame<F> {
    type Position = Piles;

    fn moves(&self, piles: &Piles) -> Vec<Piles> {
        let mut out = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            if i > 0 && piles[i - 1] == p {
                continue; // equal piles give the same positions
            }
            for after in (self.heap_moves)(p) {
                let mut next = piles.clone();
                next.remove(i);
                if after > 0 {
                    let at = next.partition_point(|&q| q < after);
                    next.insert(at, after);
                }
                out.push(next);
            }
        }
        out
    }

    fn convention(&self) -> Convention {
        self.convention
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_keep_positions_sorted_and_drop_empty_piles() {
        let nim = PileGame { heap_moves: |n| (0..n).collect(), convention: Convention::Normal };
        let mut moves = nim.moves(&vec![1, 2, 2]);
        moves.sort();
        assert_eq!(moves, vec![vec![1, 1, 2], vec![1, 2], vec![2, 2]]);
    }
}
