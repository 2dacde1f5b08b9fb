//! Positions made of several heaps (Nim family): input, enumeration by size, the claims' XOR and checks (the move rule is rules::piles).

use crate::impartial::{BruteForce, Impartial};
use super::claimed::Checked;
pub use super::rules::piles::{PileGame, Piles};
use crate::error::Result;
use crate::input::Scanner;

/// Reads `N` (1 ≤ N ≤ max_n) then N piles of 1..=max_pile stones, and nothing else.
pub fn read_piles(source_name: &str, text: &str, max_n: u32, max_pile: u32) -> Result<Vec<u32>> {
    read_piles_from(source_name, text, 1, max_n, max_pile)
}

/// [`read_piles`] with at least `min_n` piles (0: the position after the last stone is taken).
pub fn read_piles_from(source_name: &str, text: &str, min_n: u32, max_n: u32, max_pile: u32) -> Result<Vec<u32>> {
    let mut s = Scanner::new(source_name, text);
    let n = s.number::<u32>("N (number of piles)", min_n, max_n)?;
    let piles = (0..n).map(|_| s.number::<u32>("pile size", 1, max_pile)).collect::<Result<Vec<u32>>>()?;
    s.expect_end()?;
    Ok(piles)
}

/// Every multiset of exactly `count` piles of 1..=`largest` stones whose largest pile is `largest`
/// (so sizes (count, largest) partition all multisets), each sorted ascending.
pub fn multisets(count: u32, largest: u32) -> Vec<Piles> {
    if count == 0 || largest == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(count as usize);
    extend_multisets(count - 1, 1, largest, &mut current, &mut out);
    for piles in &mut out {
        piles.push(largest);
    }
    out
}

fn extend_multisets(left: u32, min: u32, max: u32, current: &mut Vec<u32>, out: &mut Vec<Piles>) {
    if left == 0 {
        out.push(current.clone());
        return;
    }
    for p in min..=max {
        current.push(p);
        extend_multisets(left - 1, p, max, current, out);
        current.pop();
    }
}

/// Size labels of a pile position: (piles, largest pile, total stones).
pub fn labels(piles: &[u32]) -> (u32, u32, u32) {
    (piles.len() as u32, piles.iter().copied().max().unwrap_or(0), piles.iter().sum())
}

/// Checks a claimed Grundy value of a pile position against the brute force (value and outcome).
pub fn check_grundy<G: Impartial<Position = Piles>>(brute: &mut BruteForce<G>, piles: &Piles, claimed: u32) -> Checked {
    let grundy = brute.grundy(piles);
    let wins = brute.first_player_wins(piles);
    let (rows, cols, xs) = labels(piles);
    Checked {
        rows,
        cols,
        xs,
        claimed,
        naive_value: Some(grundy),
        naive_first_wins: wins,
        agrees: claimed == grundy && (claimed != 0) == wins,
    }
}

/// XOR of per-heap values `g` over the piles (the Sprague–Grundy sum).
pub fn xor_of(piles: &[u32], g: impl Fn(u32) -> u32) -> u32 {
    piles.iter().fold(0, |x, &p| x ^ g(p))
}

/// Sizes the pile games' brute force handles: up to 8 piles of up to 32 stones, or one heap of
/// up to 100000 stones.
pub fn size_allowed(rows: u32, cols: u32) -> bool {
    (rows <= 8 && cols <= 32) || (rows == 1 && cols <= 100_000)
}

/// The single-heap position of n stones.
pub fn heap(n: u32) -> Piles {
    if n == 0 {
        vec![]
    } else {
        vec![n]
    }
}

/// The `Claimed` methods every pile game shares: name, rule, multisets, text, heaps, sizes.
macro_rules! pile_claim_common {
    ($game:literal, $rule:literal, has_heaps: $heaps:literal) => {
        fn game(&self) -> &'static str {
            $game
        }
        fn rule(&self) -> &'static str {
            $rule
        }
        fn positions(&self, rows: u32, cols: u32) -> Vec<$crate::games::catalogue::piles::Piles> {
            $crate::games::catalogue::piles::multisets(rows, cols)
        }
        fn show(&self, piles: &$crate::games::catalogue::piles::Piles) -> String {
            $crate::games::catalogue::piles::show(piles)
        }
        fn heap(&self, n: u32) -> Option<$crate::games::catalogue::piles::Piles> {
            $heaps.then(|| $crate::games::catalogue::piles::heap(n))
        }
        fn size_allowed(&self, rows: u32, cols: u32) -> bool {
            $crate::games::catalogue::piles::size_allowed(rows, cols)
        }
    };
}
pub(crate) use pile_claim_common;

/// "koosaga" when the first player wins, else "cubelover" (the answer words).
pub fn winner_word(first_player_wins: bool) -> &'static str {
    if first_player_wins {
        "koosaga"
    } else {
        "cubelover"
    }
}

/// The position as text: piles joined by spaces.
pub fn show(piles: &[u32]) -> String {
    piles.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_partition_by_largest_pile() {
        // Multisets of 3 piles from 1..=4: C(6,3) = 20, split by the largest pile.
        let total: usize = (1..=4).map(|m| multisets(3, m).len()).sum();
        assert_eq!(total, 20);
        assert_eq!(multisets(2, 2), vec![vec![1, 2], vec![2, 2]]);
        assert!(multisets(2, 3).iter().all(|p| p.windows(2).all(|w| w[0] <= w[1]) && p[1] == 3));
    }

    #[test]
    fn input_errors_name_line_and_column() {
        let err = read_piles("t", "2\n3 0\n", 100, 1_000_000_000).unwrap_err().to_string();
        assert_eq!(err, "t:2:3: pile size must be between 1 and 1000000000, found 0");
        let err = read_piles("t", "2\n3\n", 100, 9).unwrap_err().to_string();
        assert_eq!(err, "t:2:2: expected pile size, found end of input");
        let err = read_piles("t", "1 3 4", 100, 9).unwrap_err().to_string();
        assert_eq!(err, "t:1:5: unexpected extra input \"4\"");
    }
}
