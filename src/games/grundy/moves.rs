//! Grundy's game with move answers (`stress grundy --answer move`): the program prints a
//! winning move as `i a b` — heap i (1-based) split into heaps of a and b stones (a + b the
//! heap, a ≠ b, in either order) — or `Second` when the player to move loses.

use super::contest::{heap_values, GrundyContest};
use crate::games::octal::moves::winning_parts;
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// A split: heap `heap` (1-based) into `a` and `b` stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub heap: usize,
    pub a: u64,
    pub b: u64,
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.heap, self.a, self.b)
    }
}

impl Moves for GrundyContest {
    type Move = Split;

    fn lost_word(&self, _heaps: &Vec<u64>) -> &'static str {
        "Second"
    }

    /// Every split (smaller part first) leaving the one-heap values XORing to zero (the
    /// take-and-break engine's winning moves of the game's code).
    fn winning_moves(&self, heaps: &Vec<u64>) -> Vec<Split> {
        let parts = winning_parts(&super::code(), heap_values(), heaps);
        parts.into_iter().map(|(heap, parts)| Split { heap, a: parts[0], b: parts[1] }).collect()
    }

    fn parse_move(&self, _heaps: &Vec<u64>, text: &str) -> Result<Split, String> {
        let read = numbers(text, 3, "i a b")?;
        Ok(Split { heap: read[0] as usize, a: read[1].min(read[2]), b: read[1].max(read[2]) })
    }

    fn illegal(&self, heaps: &Vec<u64>, mv: &Split) -> Option<String> {
        let Some(&h) = mv.heap.checked_sub(1).and_then(|i| heaps.get(i)) else {
            return Some(format!("there is no heap {} (of {})", mv.heap, heaps.len()));
        };
        match (mv.a.checked_add(mv.b) == Some(h), mv.a != mv.b) {
            (false, _) => Some(format!("{} + {} is not heap {}'s {h}", mv.a, mv.b, mv.heap)),
            (true, false) => Some(format!("heap {} splits into two equal heaps", mv.heap)),
            (true, true) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::Contest;

    #[test]
    fn any_winning_split_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(GrundyContest { exhaustive_max: 5 });
        // g(3) = 1, g(5) = 2, g(4) = 0, g(6) = 1: 3 5 is won; 5 → 4 1 leaves 3 4 1 (1^0^0 ≠ 0),
        // 5 → 3 2 leaves 3 3 2 (1^1^0 = 0) wins, 3 → 2 1 leaves 2 1 5 (0^0^2) loses.
        let heaps = vec![3, 5];
        let expected = game.answer(&heaps);
        assert_eq!(expected, MoveAnswer::Moves(vec![Split { heap: 2, a: 2, b: 3 }]));
        let judge = |out: &str| game.judge(&heaps, out);
        assert!(judge("2 3 2").unwrap().0, "either order");
        assert_eq!(judge("1 2 1").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("3 1 1").unwrap().1, "illegal move: there is no heap 3 (of 2)");
        assert_eq!(judge("2 1 3").unwrap().1, "illegal move: 1 + 3 is not heap 2's 5");
        assert_eq!(judge("2 18446744073709551615 6").unwrap().1, "illegal move: 6 + 18446744073709551615 is not heap 2's 5", "no overflow");
        assert!(judge("0 2 3").unwrap_err().contains("from 1"), "heaps count from 1");
        assert!(judge("2 3").unwrap_err().contains("i a b"));
        assert_eq!(game.answer(&vec![3, 6]), MoveAnswer::Lost("Second"));
        assert_eq!(game.answer(&vec![2, 2]).to_string(), "Second", "no heap can split");
        let equal = game.parse_output(&vec![4, 1], "1 2 2").unwrap();
        assert_eq!(game.why_wrong(&vec![4, 1], &game.answer(&vec![4, 1]), &equal), "illegal move: heap 1 splits into two equal heaps");
    }
}
