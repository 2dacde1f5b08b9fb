//! Misère Nim: the player who takes the last stone loses (Bouton, 1901; Winning Ways ch. 13).

use crate::impartial::BruteForce;
use super::claimed::{Checked, Claimed};
use super::nim::{xor, MAX_PILE, MAX_PILES};
use super::piles::{self, read_piles, winner_word, Piles};
pub use super::rules::misere_nim::MisereNim;
use crate::error::Result;

/// The claim: with every pile ≤ 1, first wins iff the number of non-empty piles is even;
/// otherwise iff the XOR ≠ 0.
pub fn claimed_first_wins(piles: &[u32]) -> bool {
    if piles.iter().all(|&p| p <= 1) {
        piles.iter().filter(|&&p| p == 1).count() % 2 == 0
    } else {
        xor(piles) != 0
    }
}

/// `solve misere-nim`: koosaga / cubelover.
pub fn solve(source_name: &str, text: &str) -> Result<String> {
    let piles = read_piles(source_name, text, MAX_PILES, MAX_PILE)?;
    Ok(winner_word(claimed_first_wins(&piles)).to_string())
}

impl Claimed for MisereNim {
    piles::pile_claim_common!("misere-nim", "misere", has_heaps: false, heap_moves: f64::from);
    type Shared = ();
    fn prepare(&self, _: u32, _: u32) {}
    /// An outcome claim: claimed and naive values are 1 (first wins) or 0.
    fn check(&self, _: &(), brute: &mut BruteForce<Self>, piles: &Piles) -> Checked {
        let claimed = claimed_first_wins(piles);
        let wins = brute.first_player_wins(piles);
        let (rows, cols, xs) = piles::labels(piles);
        Checked { rows, cols, xs, claimed: claimed.into(), naive_value: None, naive_first_wins: wins, agrees: claimed == wins }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        assert_eq!(solve("t", "1\n1\n").unwrap(), "cubelover");
        assert_eq!(solve("t", "2\n1 1\n").unwrap(), "koosaga");
        assert_eq!(solve("t", "1\n5\n").unwrap(), "koosaga");
        assert_eq!(solve("t", "2\n3 3\n").unwrap(), "cubelover");
        let mut brute = BruteForce::new(&MisereNim);
        assert!(brute.first_player_wins(&vec![]), "no stones left: the previous player took the last");
        assert!(!brute.first_player_wins(&vec![1, 1, 1]));
    }
}
