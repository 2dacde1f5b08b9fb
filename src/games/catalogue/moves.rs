//! Nim with move answers (`stress nim --answer move`): the program prints a winning move as
//! `i k` — take k stones from pile i (1-based) — or `cubelover` when the player to move loses.
//! The other catalogue games keep their own answers (`--answer move` is refused for them: the
//! command offers it for Nim only).

use super::contest::{CatalogueContest, Case};
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// A move: take `take` stones from pile `pile` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub pile: usize,
    pub take: u64,
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.pile, self.take)
    }
}

/// The piles of a Nim case (none for a one-number case, which Nim has not).
fn piles(case: &Case) -> &[u64] {
    match case {
        Case::Piles(piles) => piles,
        Case::Number { .. } => &[],
    }
}

impl Moves for CatalogueContest {
    type Move = Take;

    fn lost_word(&self) -> &'static str {
        "cubelover"
    }

    /// Nim's winning moves: from every pile larger than the XOR of the others, down to it.
    fn winning_moves(&self, case: &Case) -> Vec<Take> {
        let piles = piles(case);
        let xor = piles.iter().fold(0, |x, p| x ^ p);
        let winning = piles.iter().enumerate().filter(|&(_, &p)| xor ^ p < p);
        winning.map(|(i, &p)| Take { pile: i + 1, take: p - (xor ^ p) }).collect()
    }

    fn parse_move(&self, _case: &Case, text: &str) -> Result<Take, String> {
        let read = numbers(text, 2, "i k")?;
        Ok(Take { pile: read[0] as usize, take: read[1] })
    }

    fn illegal(&self, case: &Case, mv: &Take) -> Option<String> {
        let piles = piles(case);
        match piles.get(mv.pile - 1) {
            None => Some(format!("there is no pile {} (of {})", mv.pile, piles.len())),
            Some(&p) if mv.take > p => Some(format!("pile {} has only {p} stones, not {}", mv.pile, mv.take)),
            Some(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue::NIM;
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::Contest;

    #[test]
    fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(CatalogueContest { game: NIM, exhaustive_max: 4 });
        assert_eq!(game.answer(&Case::Piles(vec![3, 5, 6])), MoveAnswer::Lost("cubelover"));
        let case = Case::Piles(vec![1, 4, 6, 2]);
        // XOR 1: pile 1 to 0 (take 1), pile 4 → 5 no, pile 6 → 7 no, pile 2 → 3 no.
        let expected = game.answer(&case);
        assert_eq!(expected, MoveAnswer::Moves(vec![Take { pile: 1, take: 1 }]));
        let judge = |out: &str| game.parse_output(&case, out).map(|got| (game.accepts(&expected, &got), game.why_wrong(&case, &expected, &got)));
        assert!(judge("1 1\n").unwrap().0);
        assert_eq!(judge("3 1").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("2 5").unwrap().1, "illegal move: pile 2 has only 4 stones, not 5");
        assert_eq!(judge("5 1").unwrap().1, "illegal move: there is no pile 5 (of 4)");
        assert_eq!(judge("cubelover").unwrap().1, "the position is won (1 winning move)");
        assert!(judge("1 0").unwrap_err().contains("i k") && judge("koosaga").unwrap_err().contains("or cubelover"));
        let two = game.answer(&Case::Piles(vec![3, 1, 1, 2]));
        let firsts = [1, 2, 3].map(|pile| Take { pile, take: 1 });
        assert_eq!(two, MoveAnswer::Moves(firsts.to_vec()), "any of them is right");
    }
}
