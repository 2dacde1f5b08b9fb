//! The oracle: whole positions (sorted heap lists), mex over every move of the code on every
//! heap ([`Code::options`], the move rule); never XORs one-heap values.

use super::code::Code;
use crate::impartial::{BruteForce, Impartial};

/// A take-and-break game on whole positions.
pub struct WholePositions<'c>(pub &'c Code);

impl Impartial for WholePositions<'_> {
    type Position = Vec<usize>;

    fn moves(&self, heaps: &Vec<usize>) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == n {
                continue;
            }
            for left in self.0.options(n) {
                let mut next = heaps.clone();
                next.remove(i);
                for part in left {
                    next.insert(next.partition_point(|&h| h < part), part);
                }
                out.push(next);
            }
        }
        out
    }
}

/// The value of `heaps` (any order) by search over whole positions, and whether the player to
/// move wins (minimax, apart from the value).
pub fn solve(brute: &mut BruteForce<WholePositions>, heaps: &[usize]) -> (u32, bool) {
    let mut position = heaps.to_vec();
    position.sort_unstable();
    (brute.grundy(&position), brute.first_player_wins(&position))
}
