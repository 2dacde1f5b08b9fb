//! What `sprague serve` shows of the Nim family (nim, nim-count, misère Nim, odd-even Nim,
//! Pimber): a row of piles in the contest format, every move on every pile.

use super::nim::{MAX_PILE, MAX_PILES};
use super::piles::read_piles_from;
use super::{misere_nim, odd_even_nim, pimber};
use crate::error::Result;
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analyse_heaps, counted_heaps, xor_of, Eval, HeapMove, HeapRules, SOURCE};

/// Which pile game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Nim,
    Misere,
    OddEven,
    Pimber,
}

/// A pile game's explorer.
struct Piles {
    name: &'static str,
    title: &'static str,
    kind: Kind,
}

pub fn nim() -> Box<dyn Explore> {
    Box::new(Piles { name: "nim", title: "Nim", kind: Kind::Nim })
}

pub fn nim_count() -> Box<dyn Explore> {
    Box::new(Piles { name: "nim-count", title: "Nim (counting winning moves)", kind: Kind::Nim })
}

pub fn misere_nim() -> Box<dyn Explore> {
    Box::new(Piles { name: "misere-nim", title: "Misère Nim (the last stone loses)", kind: Kind::Misere })
}

pub fn odd_even_nim() -> Box<dyn Explore> {
    Box::new(Piles { name: "odd-even-nim", title: "Odd-even Nim", kind: Kind::OddEven })
}

pub fn pimber() -> Box<dyn Explore> {
    Box::new(Piles { name: "pimber", title: "Pimber (take a Fibonacci number)", kind: Kind::Pimber })
}

impl Piles {
    /// Most piles and stones in one pile the contest (and the explorer) allows.
    fn limits(&self) -> (u32, u32) {
        match self.kind {
            Kind::Pimber => (pimber::MAX_PILES, pimber::MAX_PILE),
            _ => (MAX_PILES, MAX_PILE),
        }
    }

    /// The sizes a pile of `n` can become.
    fn after(&self, n: u64) -> Vec<u64> {
        match self.kind {
            Kind::Nim | Kind::Misere => (0..n).rev().collect(),
            Kind::OddEven => odd_even_nim::heap_moves(n as u32).into_iter().rev().map(u64::from).collect(),
            Kind::Pimber => pimber::fibonacci_up_to(n as u32).into_iter().map(|f| n - u64::from(f)).collect(),
        }
    }
}

impl HeapRules for Piles {
    fn game(&self) -> &str {
        self.name
    }

    fn count(&self, n: u64) -> u64 {
        match self.kind {
            Kind::Nim | Kind::Misere => n,
            Kind::OddEven => n.saturating_sub(1) / 2 + n % 2,
            Kind::Pimber => pimber::fibonacci_up_to(n as u32).len() as u64,
        }
    }

    fn moves(&self, n: u64) -> Vec<HeapMove> {
        self.after(n).into_iter().map(|m| HeapMove { name: format!("take {}", n - m), parts: vec![m] }).collect()
    }

    fn eval(&self, heaps: &[u64]) -> Eval {
        match self.kind {
            Kind::Nim => xor_of(heaps, |n| n),
            Kind::Misere => Eval::outcome(misere_nim::claimed_first_wins(&heaps.iter().map(|&n| n as u32).collect::<Vec<_>>())),
            Kind::OddEven => xor_of(heaps, |n| u64::from(odd_even_nim::claimed_grundy(n as u32))),
            Kind::Pimber => xor_of(heaps, pimber::heap_value),
        }
    }

    fn text(&self, heaps: &[u64]) -> String {
        counted_heaps(heaps)
    }
}

impl Explore for Piles {
    fn info(&self) -> GameInfo {
        let (piles, stones) = self.limits();
        GameInfo {
            name: self.name,
            title: self.title.to_string(),
            view: View::Heaps,
            format: format!(
                "The contest input: N (0 to {piles}; 0 once every pile is gone), then N piles of 1 to {stones} stones. A move's name is `heap I: take K`."
            ),
            example: "3\n3 4 5\n".to_string(),
            grundy: self.kind != Kind::Misere,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let (piles, stones) = self.limits();
        let heaps: Vec<u64> = read_piles_from(SOURCE, position, 0, piles, stones)?.into_iter().map(u64::from).collect();
        analyse_heaps(self, &heaps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    #[test]
    fn the_moves_of_each_pile_game() {
        let names = |e: Box<dyn Explore>, text: &str| -> Vec<String> { e.analyse(text).unwrap().moves.into_iter().map(|m| m.name).collect() };
        assert_eq!(names(odd_even_nim(), "1\n5\n"), ["heap 1: take 2", "heap 1: take 4", "heap 1: take 5"]);
        assert_eq!(names(pimber(), "1\n4\n"), ["heap 1: take 1", "heap 1: take 2", "heap 1: take 3"]);
        assert_eq!(names(nim(), "2\n1 1\n"), ["heap 1: take 1", "heap 2: take 1"]);
    }

    /// The heap games' listing ([`analyse_heaps`]: also Grundy's game and octal) stops once the
    /// client has left.
    #[test]
    fn a_client_that_left_cancels_the_listing() {
        crate::game::explore::assert_cancellable(&*nim(), "3\n3 4 5\n");
        crate::game::explore::assert_cancellable(&*pimber(), "1\n4\n");
    }

    #[test]
    fn misere_nim_has_only_winners() {
        let analysis = misere_nim().analyse("2\n1 1\n").unwrap();
        assert_eq!((analysis.value, analysis.winner), (None, Winner::First));
        assert!(analysis.moves.iter().all(|m| m.winning && m.value.is_none()));
        assert_eq!(misere_nim().analyse("0\n").unwrap().winner, Winner::First, "the opponent took the last stone");
    }
}
