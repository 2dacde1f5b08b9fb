//! The catalogue games with move answers (`stress GAME --answer move`): pile games print `i k`
//! (take k stones from pile i, 1-based), the divisor game `d` (the divisor written in place of
//! N), the polygon `a b` (the chord between vertices a and b, 1-based in input order); the
//! lost word is the game's own (`cubelover`, `2`). nim-count answers a count and cross needs
//! play on a written strip, so they have none ([`MoveRule`] per entry).

use super::contest::{CatalogueContest, Case, Family};
use super::{divisor, misere_nim, polygon};
use crate::stress::moves::{numbers, Moves};
use std::fmt;

/// How a catalogue game's moves are printed and judged.
#[derive(Clone, Copy)]
pub enum MoveRule {
    /// `i k`: take k stones from pile i. `why_not(p, k)` says why k stones cannot be taken
    /// from a pile of p; `targets(p, want)` lists every pile size q reachable from p whose
    /// value is `want` (normal play: the claimed values of the game's [`Family::Piles`]).
    Take { why_not: fn(u64, u64) -> Option<String>, targets: fn(u64, u64) -> Vec<u64> },
    /// Nim's moves under misère play (Bouton's misère rule decides who wins).
    MisereTake,
    /// `d`: replace N by its divisor d, 1 < d < N.
    Divisor,
    /// `a b`: draw the chord between vertices a and b of the empty N-gon.
    Chord,
}

/// A move of a catalogue game, displayed as the program prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Take { pile: usize, take: u64 },
    Divisor(u64),
    Chord(u64, u64),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take { pile, take } => write!(f, "{pile} {take}"),
            Move::Divisor(d) => write!(f, "{d}"),
            Move::Chord(a, b) => write!(f, "{a} {b}"),
        }
    }
}

/// Nim's rule: any number of stones from 1 to the whole pile.
pub fn nim_why_not(p: u64, k: u64) -> Option<String> {
    (k > p).then(|| format!("the pile has only {p} stones, not {k}"))
}

/// Nim's targets: the pile of the wanted value itself, when it is smaller.
pub fn nim_targets(p: u64, want: u64) -> Vec<u64> {
    if want < p { vec![want] } else { vec![] }
}

impl CatalogueContest {
    fn rule(&self) -> MoveRule {
        self.game.moves.expect("move answers are offered only for games with a move rule")
    }

    /// Every winning `i k` of a pile game (piles in input order, smaller remainders first).
    fn winning_takes(&self, piles: &[u64]) -> Vec<Move> {
        let Family::Piles { heap_value, .. } = self.game.family else { return Vec::new() };
        let mut out = Vec::new();
        let nim_sum = piles.iter().fold(0, |x, &p| x ^ p);
        let value_sum = piles.iter().fold(0, |x, &p| x ^ heap_value(p));
        for (i, &p) in piles.iter().enumerate() {
            let mut to: Vec<u64> = match self.rule() {
                MoveRule::Take { why_not, targets } => {
                    targets(p, value_sum ^ heap_value(p)).into_iter().filter(|&q| q < p && why_not(p, p - q).is_none()).collect()
                }
                MoveRule::MisereTake => [nim_sum ^ p, 0, 1].into_iter().filter(|&q| q < p && misere_lost_after(piles, i, q)).collect(),
                _ => Vec::new(),
            };
            to.sort_unstable_by(|a, b| b.cmp(a));
            to.dedup();
            out.extend(to.into_iter().map(|q| Move::Take { pile: i + 1, take: p - q }));
        }
        out
    }
}

/// True when pile `i` of `piles` left with `q` stones is a lost position under misère play.
fn misere_lost_after(piles: &[u64], i: usize, q: u64) -> bool {
    let after: Vec<u32> = piles.iter().enumerate().map(|(j, &p)| if j == i { q } else { p } as u32).collect();
    !misere_nim::claimed_first_wins(&after)
}

/// The divisor game's winning moves from N: its prime divisors below N (Ω(d) − 1 = 0).
fn winning_divisors(n: u64) -> Vec<Move> {
    let mut primes = divisor::prime_factors(n);
    primes.dedup();
    primes.into_iter().filter(|&p| p < n).map(Move::Divisor).collect()
}

/// The polygon's winning chords on the empty N-gon: those leaving j and N − 2 − j free
/// vertices on their two sides with g(j) ^ g(N − 2 − j) = 0 (the 0.07 values of the claim).
fn winning_chords(n: u64) -> Vec<Move> {
    let g = polygon::claimed_table(n as u32);
    let pairs = (1..=n).flat_map(|a| (a + 1..=n).map(move |b| (a, b)));
    pairs.filter(|&(a, b)| g[(b - a - 1) as usize] == g[(n - 1 - (b - a)) as usize]).map(|(a, b)| Move::Chord(a, b)).collect()
}

impl Moves for CatalogueContest {
    type Move = Move;

    fn lost_word(&self, _case: &Case) -> &'static str {
        self.game.answers[1]
    }

    fn winning_moves(&self, case: &Case) -> Vec<Move> {
        match (self.rule(), case) {
            (MoveRule::Divisor, &Case::Number { n, .. }) => winning_divisors(n),
            (MoveRule::Chord, &Case::Number { n, .. }) => winning_chords(n),
            (_, Case::Piles(piles)) => self.winning_takes(piles),
            _ => Vec::new(),
        }
    }

    fn parse_move(&self, _case: &Case, text: &str) -> Result<Move, String> {
        match self.rule() {
            MoveRule::Take { .. } | MoveRule::MisereTake => {
                let read = numbers(text, 2, "i k")?;
                Ok(Move::Take { pile: read[0] as usize, take: read[1] })
            }
            MoveRule::Divisor => Ok(Move::Divisor(numbers(text, 1, "d")?[0])),
            MoveRule::Chord => {
                let read = numbers(text, 2, "a b")?;
                Ok(Move::Chord(read[0].min(read[1]), read[0].max(read[1])))
            }
        }
    }

    fn illegal(&self, case: &Case, mv: &Move) -> Option<String> {
        match (case, *mv) {
            (Case::Piles(piles), Move::Take { pile, take }) => match piles.get(pile - 1) {
                None => Some(format!("there is no pile {pile} (of {})", piles.len())),
                Some(&p) => match self.rule() {
                    MoveRule::Take { why_not, .. } => why_not(p, take),
                    _ => nim_why_not(p, take),
                }
                .map(|why| format!("pile {pile}: {why}")),
            },
            (&Case::Number { n, .. }, Move::Divisor(d)) => {
                (d < 2 || d >= n || !n.is_multiple_of(d)).then(|| format!("{d} is not a divisor of {n} other than 1 and {n}"))
            }
            (&Case::Number { n, .. }, Move::Chord(_, b)) if b > n => Some(format!("there is no vertex {b} (of {n})")),
            (Case::Number { .. }, Move::Chord(a, b)) => (a == b).then(|| format!("a chord joins two vertices, not vertex {a} to itself")),
            _ => Some("not a move of this game".into()),
        }
    }
}

#[cfg(test)]
mod tests;
