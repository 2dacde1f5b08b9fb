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

/// How many multisets [`multisets`] lists: C(largest + count − 2, count − 1).
pub fn multiset_count(count: u32, largest: u32) -> u64 {
    if count == 0 || largest == 0 {
        return 0;
    }
    let (n, k) = (u64::from(largest + count - 2), u64::from(count - 1));
    // Exact: each partial product is a binomial coefficient.
    (0..k).fold(1u64, |c, i| c.saturating_mul(n - i) / (i + 1))
}

/// The heap block of a list of `piles` piles (glibc: 8 bytes of header, 16-byte steps, 32 at least).
pub fn heap_block_bytes(piles: u32) -> f64 {
    f64::from((4 * piles + 8).div_ceil(16) * 16).max(32.0)
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

/// Core-seconds per position the pile games' brute force keeps, and per move it generates (both
/// memos, grundy and outcome; measured: nim, 4–6 piles and single heaps, 95–122 ns a move).
const SECONDS_PER_POSITION: f64 = 3e-7;
const SECONDS_PER_MOVE: f64 = 1.2e-7;
/// Bytes per position kept (two memo entries, the piles and the tables' slack; measured: 6 piles
/// of up to 20 stones, 230230 positions, 75 MiB).
const BYTES_PER_POSITION: f64 = 300.0;

/// The positions and moves one brute force of a pile game meets checking multisets of `sizes`
/// (a parallel chunk's sizes): every multiset of at most K piles of at most M stones (the
/// largest of `sizes`), an upper bound, each pile of n stones with `heap_moves(n)` moves.
fn brute_work(sizes: &[(u32, u32)], heap_moves: impl Fn(u32) -> f64) -> (f64, f64) {
    let piles = sizes.iter().map(|&(k, _)| k).max().unwrap_or(0);
    let largest = sizes.iter().map(|&(_, m)| m).max().unwrap_or(0);
    // Multisets of at most k piles from 1..=m: C(m + k, k); those holding a given pile: C(m + k − 1, k − 1).
    let choose = |n: u32, k: u32| (0..k).map(|i| f64::from(n - i) / f64::from(i + 1)).product::<f64>();
    let positions = choose(largest + piles, piles);
    let with_pile = if piles == 0 { 0.0 } else { choose(largest + piles - 1, piles - 1) };
    let moves: f64 = (1..=largest).map(&heap_moves).sum::<f64>() * with_pile;
    (positions, moves)
}

/// Estimated core-seconds of one brute force checking multisets of `sizes` ([`brute_work`]).
pub fn brute_seconds(sizes: &[(u32, u32)], heap_moves: impl Fn(u32) -> f64) -> f64 {
    let (positions, moves) = brute_work(sizes, heap_moves);
    positions * SECONDS_PER_POSITION + moves * SECONDS_PER_MOVE
}

/// Estimated peak bytes of one brute force checking multisets of `sizes` ([`brute_work`]).
pub fn brute_bytes(sizes: &[(u32, u32)]) -> f64 {
    brute_work(sizes, |_| 0.0).0 * BYTES_PER_POSITION
}

/// The single-heap position of n stones.
pub fn heap(n: u32) -> Piles {
    if n == 0 {
        vec![]
    } else {
        vec![n]
    }
}

/// The `Claimed` methods every pile game shares: name, rule, multisets, text, heaps, sizes, and
/// the brute force's cost, given how many moves a heap of n stones has (`heap_moves`).
macro_rules! pile_claim_common {
    ($game:literal, $rule:literal, has_heaps: $heaps:literal, heap_moves: $moves:expr) => {
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
        fn position_count(&self, rows: u32, cols: u32) -> u64 {
            $crate::games::catalogue::piles::multiset_count(rows, cols)
        }
        fn position_heap_bytes(&self, rows: u32) -> f64 {
            $crate::games::catalogue::piles::heap_block_bytes(rows)
        }
        fn memo_bytes(&self, sizes: &[(u32, u32)]) -> Option<f64> {
            Some($crate::games::catalogue::piles::brute_bytes(sizes))
        }
        fn memo_seconds(&self, sizes: &[(u32, u32)]) -> Option<f64> {
            Some($crate::games::catalogue::piles::brute_seconds(sizes, $moves))
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
        for (count, largest) in [(0, 3), (1, 0), (1, 9), (3, 4), (5, 7), (8, 6)] {
            assert_eq!(multiset_count(count, largest), multisets(count, largest).len() as u64, "{count}x{largest}");
        }
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
