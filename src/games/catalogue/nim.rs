//! Nim and Nim move counting: first player wins iff the XOR of the piles ≠ 0 (Bouton, 1901).

use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
use super::piles::{self, read_piles, winner_word, Piles};
pub use super::rules::nim::{brute_winning_moves, Nim, NimCount};
use crate::error::Result;

/// Largest N and pile in the contest input.
pub const MAX_PILES: u32 = 100;
pub const MAX_PILE: u32 = 1_000_000_000;

/// The claim: the XOR of the piles (Grundy value of the sum).
pub fn xor(piles: &[u32]) -> u32 {
    piles.iter().fold(0, |x, &p| x ^ p)
}

/// The claimed number of winning first moves: piles P with (X ^ P) < P.
pub fn claimed_winning_moves(piles: &[u32]) -> u64 {
    let x = xor(piles);
    piles.iter().filter(|&&p| (x ^ p) < p).count() as u64
}

/// `solve nim`: koosaga / cubelover.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let piles = read_piles(source_name, text, MAX_PILES, MAX_PILE)?;
    Ok(winner_word(xor(&piles) != 0).to_string())
}

/// `solve nim-count`: the number of winning first moves.
pub fn solve_count(source_name: &str, text: &str) -> Result<String> {
    let piles = read_piles(source_name, text, MAX_PILES, MAX_PILE)?;
    Ok(claimed_winning_moves(&piles).to_string())
}

impl Claimed for Nim {
    piles::pile_claim_common!("nim", "standard", has_heaps: true, heap_moves: f64::from);
    type Shared = ();
    fn prepare(&self, _: u32, _: u32) {}
    fn check(&self, _: &(), brute: &mut BruteForce<Self>, piles: &Piles) -> Checked {
        piles::check_grundy(brute, piles, xor(piles))
    }
}

impl Claimed for NimCount {
    piles::pile_claim_common!("nim-count", "standard", has_heaps: false, heap_moves: f64::from);
    type Shared = ();
    fn prepare(&self, _: u32, _: u32) {}
    fn check(&self, _: &(), brute: &mut BruteForce<Self>, piles: &Piles) -> Checked {
        let claimed = claimed_winning_moves(piles) as u32;
        let counted = brute_winning_moves(brute, piles) as u32;
        let (rows, cols, xs) = piles::labels(piles);
        Checked {
            rows,
            cols,
            xs,
            claimed,
            naive_value: Some(counted),
            naive_first_wins: brute.first_player_wins(piles),
            agrees: claimed == counted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_answers() {
        assert_eq!(solve("t", "2\n1 1\n").unwrap(), "cubelover");
        assert_eq!(solve("t", "3\n1 2 4\n").unwrap(), "koosaga");
        // X = 7: only the 4 has (X ^ P) < P (reduce it to 3).
        assert_eq!(solve_count("t", "3\n1 2 4\n").unwrap(), "1");
        assert_eq!(solve_count("t", "2\n5 5\n").unwrap(), "0");
    }

    #[test]
    fn claim_counts_equal_piles_separately() {
        // 1 3 3 (X = 1): remove the 1, or take one stone from either 3 (rules::nim's brute count: 3).
        assert_eq!(claimed_winning_moves(&[1, 3, 3]), 3);
        // 2 2 3 (X = 3): take one from either 2, or the whole 3.
        assert_eq!(claimed_winning_moves(&[2, 2, 3]), 3);
        let mut brute = BruteForce::new(&NimCount);
        assert_eq!(brute_winning_moves(&mut brute, &[2, 2, 3]), claimed_winning_moves(&[2, 2, 3]));
    }
}
