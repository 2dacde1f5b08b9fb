//! The oracle: whole positions (sorted heap lists), mex over every split of every heap; never XORs.

use super::splits;
use crate::impartial::{BruteForce, Impartial};

/// Grundy's game on whole positions.
pub struct WholePositions;

impl Impartial for WholePositions {
    type Position = Vec<u16>;

    fn moves(&self, heaps: &Vec<u16>) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == n {
                continue;
            }
            for (a, b) in splits(n) {
                let mut next = heaps.clone();
                next.remove(i);
                for part in [a, b] {
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
pub fn solve(brute: &mut BruteForce<WholePositions>, heaps: &[u16]) -> (u32, bool) {
    let mut position = heaps.to_vec();
    position.sort_unstable();
    (brute.grundy(&position), brute.first_player_wins(&position))
}
