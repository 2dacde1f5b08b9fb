//! DAGame with move answers (`stress dagame --answer move`): the program prints a winning move
//! as `k q` — token k (1-based, in input order) slides along an edge to node q (1-based); a
//! stacked pair moves together, named by either token — or `Cheol` when the player to move
//! loses. Winning moves are those the claim values at 0 (the XOR over colours).

use super::contest::DagameContest;
use super::explore::{claimed_values, moves_of};
use super::Instance;
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// A slide: token `token` (1-based; the first of a stacked pair) to node `to` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    pub token: usize,
    pub to: usize,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.token, self.to)
    }
}

/// The first token of `token`'s stack (itself when it is alone), 0-based.
fn first_of_stack(instance: &Instance, token: usize) -> usize {
    instance.tokens.iter().position(|&t| t == instance.tokens[token]).expect("the token itself")
}

impl Moves for DagameContest {
    type Move = Slide;

    fn lost_word(&self, _instance: &Instance) -> &'static str {
        super::winner_name(0)
    }

    fn winning_moves(&self, instance: &Instance) -> Vec<Slide> {
        let values = claimed_values(instance).expect("never stopped: only serve's analyses are");
        let moves = moves_of(instance).into_iter().filter(|(movers, to)| {
            let mut tokens = instance.tokens.clone();
            movers.iter().for_each(|&i| tokens[i].0 = *to);
            values.of(&tokens) == 0
        });
        moves.map(|(movers, to)| Slide { token: movers[0] + 1, to: usize::from(to) + 1 }).collect()
    }

    fn parse_move(&self, instance: &Instance, text: &str) -> Result<Slide, String> {
        let read = numbers(text, 2, "k q")?;
        let (token, to) = (read[0] as usize, read[1] as usize);
        // A stacked pair is named by its first token, whichever the program printed.
        let token = if token <= instance.tokens.len() { first_of_stack(instance, token - 1) + 1 } else { token };
        Ok(Slide { token, to })
    }

    fn illegal(&self, instance: &Instance, mv: &Slide) -> Option<String> {
        let Some(&(from, _)) = instance.tokens.get(mv.token - 1) else {
            return Some(format!("there is no token {} (of {})", mv.token, instance.tokens.len()));
        };
        let edge = instance.dag.out(usize::from(from)).iter().any(|&w| usize::from(w) + 1 == mv.to);
        (!edge).then(|| format!("no edge from node {} (token {}'s) to node {}", from + 1, mv.token, mv.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dagame::brute;
    use crate::games::dagame::contest::DagameContest;
    use crate::stress::moves::{ByMove, MoveAnswer};
    use crate::stress::{Contest, Generator, Source};

    #[test]
    fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
        let game = ByMove(DagameContest { exhaustive_max: 4 });
        // Chain 1 → 2 → 3 with one token on node 1: g(1) = 0 after two moves… g(node 1) = 0?
        // Node values on the chain: g(3) = 0, g(2) = 1, g(1) = 0. One token on 2: move it to 3.
        let case = Instance::parse_input("t", "3 2\n1 2\n2 3\n1\n2 1\n").unwrap();
        let expected = game.answer(&case);
        assert_eq!(expected, MoveAnswer::Moves(vec![Slide { token: 1, to: 3 }]));
        let judge = |out: &str| game.judge(&case, out);
        assert!(judge("1 3").unwrap().0);
        assert_eq!(judge("1 1").unwrap().1, "illegal move: no edge from node 2 (token 1's) to node 1");
        assert_eq!(judge("2 3").unwrap().1, "illegal move: there is no token 2 (of 1)");
        assert_eq!(judge("Cheol").unwrap().1, "the position is won (1 winning move)");
        let lost = Instance::parse_input("t", "3 2\n1 2\n2 3\n1\n1 1\n").unwrap();
        assert_eq!(game.answer(&lost), MoveAnswer::Lost("Cheol"));
        // A stacked pair on node 1 of 1 → 2: one move, named by either token.
        let stacked = Instance::parse_input("t", "2 1\n1 2\n2\n1 1\n1 1\n").unwrap();
        assert_eq!(game.parse_output(&stacked, "2 2").unwrap(), MoveAnswer::Moves(vec![Slide { token: 1, to: 2 }]));
    }

    /// On every small generated instance, the winning moves are exactly the moves after which
    /// whole-position search (never split by colour) finds the position lost.
    #[test]
    fn winning_moves_are_those_of_whole_position_search() {
        let side = DagameContest { exhaustive_max: 5 };
        let cases = side.cases(Source::Exhaustive, 1).take(3000).chain(side.cases(Source::Random, 7).filter(|i| i.dag.nodes() <= 12 && i.tokens.len() <= 5).take(200));
        let mut won = 0;
        for instance in cases {
            let mut expected = Vec::new();
            for (movers, to) in moves_of(&instance) {
                let mut after = instance.clone();
                movers.iter().for_each(|&i| after.tokens[i].0 = to);
                if brute::solve(&after).unwrap() == 0 {
                    expected.push(Slide { token: movers[0] + 1, to: usize::from(to) + 1 });
                }
            }
            won += usize::from(!expected.is_empty());
            assert_eq!(side.winning_moves(&instance), expected, "{}", instance.to_input());
        }
        assert!(won > 100, "{won} won instances");
    }
}
