//! Take-and-break games with move answers (`stress octal --answer move`): the program prints a
//! winning move as `i` followed by the heaps heap i leaves (none, one, two or three, in any
//! order; `3 1 2`: heap 3 becomes heaps of 1 and 2), or `Second` when the player to move loses.
//! The tokens removed are implied; the code decides whether the move is legal.

use super::code::Code;
use super::contest::{heap_values, Case, OctalContest};
use crate::stress::moves::Moves;
use std::fmt;

/// A move: heap `heap` (1-based) replaced by `parts` (ascending, each ≥ 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leave {
    pub heap: usize,
    pub parts: Vec<u64>,
}

impl fmt::Display for Leave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.heap)?;
        self.parts.iter().try_for_each(|p| write!(f, " {p}"))
    }
}

fn code_of(code: &str) -> Code {
    Code::parse(code).expect("generated codes are valid")
}

/// The winning moves of `heaps` under `code`, whose one-heap values are `g`: every option of
/// every heap whose parts' values XOR to what the other heaps need, as the heap (1-based) and
/// the parts it leaves, in the order of the heaps and of [`Code::options`]; heaps of one size
/// are looked at once.
pub fn winning_parts(code: &Code, g: &[u16], heaps: &[u64]) -> Vec<(usize, Vec<u64>)> {
    let value = |h: u64| u64::from(g[h as usize]);
    let xor = heaps.iter().fold(0, |x, &h| x ^ value(h));
    let mut by_size: Vec<(u64, Vec<Vec<u64>>)> = Vec::new();
    let mut out = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        if !by_size.iter().any(|(size, _)| *size == h) {
            let want = xor ^ value(h);
            let options = code.options(h as usize).into_iter().map(|parts| parts.into_iter().map(|p| p as u64).collect::<Vec<u64>>());
            by_size.push((h, options.filter(|parts| parts.iter().fold(0, |x, &p| x ^ value(p)) == want).collect()));
        }
        let fits = &by_size.iter().find(|(size, _)| *size == h).expect("just added").1;
        out.extend(fits.iter().map(|parts| (i + 1, parts.clone())));
    }
    out
}

impl Moves for OctalContest {
    type Move = Leave;

    fn lost_word(&self, _case: &Case) -> &'static str {
        "Second"
    }

    fn winning_moves(&self, (code, heaps): &Case) -> Vec<Leave> {
        let parts = winning_parts(&code_of(code), &heap_values(code), heaps);
        parts.into_iter().map(|(heap, parts)| Leave { heap, parts }).collect()
    }

    fn parse_move(&self, _case: &Case, text: &str) -> Result<Leave, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let read: Vec<u64> = words.iter().filter_map(|w| w.parse::<u64>().ok().filter(|&n| n >= 1 && w.bytes().all(|b| b.is_ascii_digit()))).collect();
        if read.len() != words.len() || !(1..=4).contains(&read.len()) {
            let shown = crate::output::text::shorten(text);
            return Err(format!("expected `i` and the heaps heap i leaves (1 to 4 whole numbers, from 1), found {shown:?}"));
        }
        let mut parts = read[1..].to_vec();
        parts.sort_unstable();
        Ok(Leave { heap: read[0] as usize, parts })
    }

    fn illegal(&self, (code, heaps): &Case, mv: &Leave) -> Option<String> {
        let Some(&h) = mv.heap.checked_sub(1).and_then(|i| heaps.get(i)) else {
            return Some(format!("there is no heap {} (of {})", mv.heap, heaps.len()));
        };
        // The program's numbers may be anything: a sum past u64 leaves more than any heap.
        let left = mv.parts.iter().try_fold(0u64, |sum, &part| sum.checked_add(part)).unwrap_or(u64::MAX);
        if left > h {
            return Some(format!("heap {} has {h} tokens, fewer than the {left} it would leave", mv.heap));
        }
        let allowed = code_of(code).options(h as usize).iter().any(|o| o.len() == mv.parts.len() && o.iter().zip(&mv.parts).all(|(&a, &b)| a as u64 == b));
        let leaves = match mv.parts.len() {
            0 => "no heap".to_string(),
            n => crate::output::text::counted(n as u64, "heap"),
        };
        (!allowed).then(|| format!("{code} does not allow taking {} from heap {} ({h}) leaving {leaves}", h - left, mv.heap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::brute::WholePositions;
    use crate::impartial::BruteForce;
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::Contest;

    #[test]
    fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(OctalContest { exhaustive_max: 5 });
        // Kayles 0.77: g(1) = 1, g(2) = 2, g(3) = 3; heaps 1 and 3: XOR 2, so heap 2 must go to
        // value 1: take 1 from its end leaving 2? g(2) = 2 no; take 2 leaving 1 (g 1): yes; take
        // 1 from the middle leaving 1 + 1 (g 0): no.
        let case = ("0.77".to_string(), vec![1, 3]);
        let expected = game.answer(&case);
        assert_eq!(expected, MoveAnswer::Moves(vec![Leave { heap: 2, parts: vec![1] }]));
        assert_eq!(expected.to_string(), "2 1");
        let judge = |out: &str| game.judge(&case, out);
        assert!(judge("2 1\n").unwrap().0);
        assert_eq!(judge("2 1 1").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("1").unwrap().1, "the move leaves the opponent a win");
        assert_eq!(judge("3 1").unwrap().1, "illegal move: there is no heap 3 (of 2)");
        assert_eq!(judge("2 4").unwrap().1, "illegal move: heap 2 has 3 tokens, fewer than the 4 it would leave");
        let huge = judge("2 18446744073709551615 18446744073709551615").unwrap().1;
        assert_eq!(huge, "illegal move: heap 2 has 3 tokens, fewer than the 18446744073709551615 it would leave", "no overflow");
        assert_eq!(judge("2").unwrap().1, "illegal move: 0.77 does not allow taking 3 from heap 2 (3) leaving no heap");
        assert_eq!(judge("Second").unwrap().1, "the position is won (1 winning move)");
        assert!(judge("2 0").unwrap_err().contains("1 to 4 whole numbers") && judge("First").unwrap_err().contains("or Second"));
        assert_eq!(game.answer(&("0.77".to_string(), vec![2, 2])), MoveAnswer::Lost("Second"));
        let grundy = ("grundy".to_string(), vec![4]);
        let equal = game.parse_output(&grundy, "1 2 2").unwrap();
        assert_eq!(game.why_wrong(&grundy, &game.answer(&grundy), &equal), "illegal move: grundy does not allow taking 0 from heap 1 (4) leaving 2 heaps");
    }

    /// Every winning move is one whose position whole-position search finds lost, and back.
    #[test]
    fn winning_moves_are_those_of_whole_position_search() {
        let side = OctalContest { exhaustive_max: 5 };
        for code in ["0.77", "0.07", "0.6", "4.07", "{1,3,4}", "grundy", "0.51", "0.165"] {
            let rule = code_of(code);
            let whole = WholePositions(&rule);
            let mut brute = BruteForce::new(&whole);
            for heaps in crate::stress::numbers::compositions(1, 9, 4) {
                let case = (code.to_string(), heaps.clone());
                let mut expected = Vec::new();
                for (i, &h) in heaps.iter().enumerate() {
                    for parts in rule.options(h as usize) {
                        let mut after: Vec<usize> = heaps.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x as usize).collect();
                        after.extend(parts.iter().copied());
                        after.sort_unstable();
                        if !brute.first_player_wins(&after) {
                            expected.push(Leave { heap: i + 1, parts: parts.iter().map(|&p| p as u64).collect() });
                        }
                        let mv = Leave { heap: i + 1, parts: parts.iter().map(|&p| p as u64).collect() };
                        assert!(side.illegal(&case, &mv).is_none(), "{code} {heaps:?} {mv}");
                    }
                }
                assert_eq!(side.winning_moves(&case), expected, "{code} {heaps:?}");
            }
        }
    }
}
