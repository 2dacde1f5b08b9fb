//! The catalogue games as contest problems for `stress`: pile games (`N`, then N piles) and
//! one-number games (polygon, cross, divisor). The trusted answer is the game's own `solve`
//! (the claim its `verify` checks) on the very input text the program reads.

use super::commands::CatalogueGame;
use crate::output::text::counted;
use crate::stress::numbers::{compositions, draw, lower, lowered, random_list, scale, shorter, zero_sum_list};
use crate::stress::order::{list_key, lists_by_size};
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A catalogue game's input family, and what its adversarial generator needs.
#[derive(Clone, Copy)]
pub enum Family {
    /// `N` (1..=max_piles), then N piles of 1..=max_pile stones. `heap_value` is one pile's
    /// Grundy value under the claim; `with_value` finds a pile of a given value, if any.
    Piles { max_piles: u64, max_pile: u64, heap_value: fn(u64) -> u64, with_value: fn(u64) -> Option<u64> },
    /// One number in min..=max; `vertices`: optionally followed by that many points (polygon).
    /// `special` lists numbers known to break solutions (largest primes, semiprimes, …).
    Number { min: u64, max: u64, vertices: bool, special: fn() -> Vec<u64> },
}

/// One test input of a catalogue game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Case {
    Piles(Vec<u64>),
    Number { n: u64, vertices: bool },
}

/// A catalogue game's contest side; `exhaustive_max` bounds the exhaustive generator (total
/// stones of pile games, N of one-number games).
pub struct CatalogueContest {
    pub game: CatalogueGame,
    pub exhaustive_max: u64,
}

impl CatalogueContest {
    /// The answer word of a second-player win (`0` for a count of winning moves).
    fn losing(&self) -> &'static str {
        self.game.answers.get(1).copied().unwrap_or("0")
    }
}

impl Contest for CatalogueContest {
    type Case = Case;
    type Answer = String;

    fn write_input(&self, case: &Case, out: &mut Vec<u8>) {
        match case {
            Case::Piles(piles) => {
                let line: Vec<String> = piles.iter().map(u64::to_string).collect();
                out.extend_from_slice(format!("{}\n{}\n", piles.len(), line.join(" ")).as_bytes());
            }
            Case::Number { n, vertices } => {
                out.extend_from_slice(format!("{n}\n").as_bytes());
                if *vertices {
                    // A convex polygon: points on a parabola, in order.
                    let half = *n as i64 / 2;
                    (0..*n as i64).for_each(|i| out.extend_from_slice(format!("{} {}\n", i - half, (i - half) * (i - half)).as_bytes()));
                }
            }
        }
    }

    fn answer(&self, case: &Case) -> String {
        let text = String::from_utf8(self.input_text(case)).expect("generated inputs are text");
        (self.game.solve)("<stress>", &text).unwrap_or_else(|e| panic!("generated {} input refused: {e}", self.game.name))
    }

    fn parse_output(&self, _case: &Case, stdout: &str) -> Result<String, String> {
        match self.game.answers {
            [] => answer::number(stdout).map(|n| n.to_string()),
            words => answer::one_of(stdout, words),
        }
    }

    fn describe(&self, case: &Case) -> String {
        match case {
            Case::Piles(piles) => format!("{}, largest {}", counted(piles.len() as u64, "pile"), piles.iter().max().unwrap_or(&0)),
            Case::Number { n, vertices: true } => format!("N = {n} with vertices"),
            Case::Number { n, vertices: false } => format!("N = {n}"),
        }
    }

    fn shrink_candidates(&self, case: &Case) -> Vec<Case> {
        match case {
            Case::Piles(piles) => shorter(piles, 1).into_iter().chain(lowered(piles, 1)).map(Case::Piles).collect(),
            &Case::Number { n, vertices } => {
                let min = match self.game.family {
                    Family::Number { min, .. } => min,
                    Family::Piles { .. } => 1,
                };
                let plain = vertices.then_some(Case::Number { n, vertices: false });
                plain.into_iter().chain(lower(n, min).into_iter().map(|m| Case::Number { n: m, vertices })).collect()
            }
        }
    }

    /// Pile games: the total, the number of piles, then the piles sorted; one-number games:
    /// N, then without vertices before with them.
    fn size_key(&self, case: &Case) -> Option<Vec<u64>> {
        Some(match case {
            Case::Piles(piles) => list_key(piles),
            &Case::Number { n, vertices } => vec![n, u64::from(vertices)],
        })
    }
}

impl Generator for CatalogueContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Case> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match (self.game.family, source) {
            (Family::Piles { max_piles, .. }, Source::Exhaustive) => {
                Box::new(compositions(1, self.exhaustive_max, max_piles as usize).map(Case::Piles))
            }
            (Family::Piles { max_piles, max_pile, .. }, Source::Random) => {
                Box::new((0u64..).map(move |i| Case::Piles(random_list(&mut rng, i, (1, max_piles), (1, max_pile)))))
            }
            (family @ Family::Piles { .. }, Source::Adversarial) => Box::new(adversarial_piles(family, rng)),
            (Family::Number { min, vertices, .. }, Source::Exhaustive) => Box::new(numbers(min, self.exhaustive_max, vertices)),
            (Family::Number { min, max, vertices, .. }, Source::Random) => Box::new((0u64..).map(move |i| {
                let n = if rng.random_range(0..4) == 0 { max } else { draw(&mut rng, min, (min + scale(i, max)).min(max)) };
                Case::Number { n, vertices: vertices && rng.random_bool(0.5) }
            })),
            (family @ Family::Number { .. }, Source::Adversarial) => self.adversarial_numbers(family, rng),
        }
    }

    fn by_size(&self, _case: &Case) -> Cases<'_, Case> {
        match self.game.family {
            Family::Piles { max_piles, max_pile, .. } => Box::new(lists_by_size(1, max_pile, max_piles as usize).map(Case::Piles)),
            Family::Number { min, max, vertices, .. } => Box::new(numbers(min, max, vertices)),
        }
    }
}

/// Every one-number input from `min` to `max`, each N plain, then with vertices (when the
/// game has them).
fn numbers(min: u64, max: u64, vertices: bool) -> impl Iterator<Item = Case> + Send {
    let forms: &[bool] = if vertices { &[false, true] } else { &[false] };
    (min..=max).flat_map(move |n| forms.iter().map(move |&v| Case::Number { n, vertices: v }))
}

/// The largest and smallest pile positions, then forever second-player wins (claimed values
/// XOR to zero) made of piles next to powers of two.
fn adversarial_piles(family: Family, mut rng: ChaCha8Rng) -> impl Iterator<Item = Case> + Send {
    let Family::Piles { max_piles, max_pile, heap_value, with_value } = family else { unreachable!("pile families only") };
    let fixed = [vec![max_pile; max_piles as usize], vec![1; max_piles as usize], vec![max_pile], vec![1], vec![1, 1], vec![max_pile, max_pile]];
    let zero_sums = std::iter::repeat_with(move || zero_sum_list(&mut rng, max_piles, (1, max_pile), heap_value, with_value));
    fixed.into_iter().chain(zero_sums).map(Case::Piles)
}

impl CatalogueContest {
    /// The extremes and the game's special numbers, the losing numbers just below the largest,
    /// then forever random losing numbers (a few draws each; the last draw when none loses).
    fn adversarial_numbers(&self, family: Family, mut rng: ChaCha8Rng) -> Cases<'_, Case> {
        let Family::Number { min, max, vertices, special } = family else { unreachable!("number families only") };
        let mut fixed: Vec<u64> = vec![max, min, max - 1];
        fixed.extend(special());
        let case = move |n: u64| Case::Number { n, vertices };
        let losing = move |n: u64| self.answer(&Case::Number { n, vertices: false }) == self.losing();
        let top = (max.saturating_sub(40).max(min)..=max).rev().filter(move |&n| losing(n));
        let random = std::iter::repeat_with(move || {
            let mut n = max;
            for _ in 0..16 {
                n = draw(&mut rng, min, max);
                if losing(n) {
                    break;
                }
            }
            n
        });
        Box::new(fixed.into_iter().chain(top).chain(random).map(case))
    }
}

/// `with_value` of Nim-like piles: a pile is its own value.
pub fn pile_of(value: u64) -> Option<u64> {
    (1..=u64::from(super::nim::MAX_PILE)).contains(&value).then_some(value)
}

/// Special numbers of the divisor game: the largest prime below 10^18, products of two primes
/// near 10^9 (slow for trial division), a prime's square, 2^59 and 3^37 (many factors).
pub fn divisor_special() -> Vec<u64> {
    let (p, q) = (999_999_937u64, 999_999_929u64);
    vec![999_999_999_999_999_989, p * q, p * p, 2 * p, 1 << 59, 3u64.pow(37), 2, 4]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue::divisor;
    use crate::games::catalogue::entries::{DIVISOR, NIM, POLYGON};

    #[test]
    fn size_orders_list_every_input_in_order() {
        use crate::stress::order::check_by_size;
        let nim = CatalogueContest { game: NIM, exhaustive_max: 6 };
        let total = |c: &Case| matches!(c, Case::Piles(p) if p.iter().sum::<u64>() <= 6);
        assert_eq!(check_by_size(&nim, &Case::Piles(vec![9]), total), (1 << 6) - 1);
        assert_eq!(nim.size_key(&Case::Piles(vec![3, 1])), Some(vec![4, 2, 1, 3]));
        let polygon = CatalogueContest { game: POLYGON, exhaustive_max: 8 };
        let small = |c: &Case| matches!(c, Case::Number { n, .. } if *n <= 8);
        assert_eq!(check_by_size(&polygon, &Case::Number { n: 9, vertices: false }, small), 2 * 6);
    }

    #[test]
    fn inputs_answers_and_shrinking() {
        let nim = CatalogueContest { game: NIM, exhaustive_max: 4 };
        let case = Case::Piles(vec![1, 2, 3]);
        assert_eq!(nim.input_text(&case), b"3\n1 2 3\n");
        assert_eq!(nim.answer(&case), "cubelover");
        assert_eq!(nim.parse_output(&case, "koosaga\n"), Ok("koosaga".into()));
        assert!(nim.parse_output(&case, "First").is_err());
        assert!(nim.shrink_candidates(&case).contains(&Case::Piles(vec![1, 2, 2])));
        let all: Vec<Case> = nim.cases(Source::Exhaustive, 0).collect();
        assert_eq!(all.len(), 15);
        let polygon = CatalogueContest { game: POLYGON, exhaustive_max: 4 };
        let text = String::from_utf8(polygon.input_text(&Case::Number { n: 5, vertices: true })).unwrap();
        assert_eq!(text, "5\n-2 4\n-1 1\n0 0\n1 1\n2 4\n");
        assert_eq!(polygon.shrink_candidates(&Case::Number { n: 5, vertices: true })[0], Case::Number { n: 5, vertices: false });
    }

    #[test]
    fn adversarial_piles_are_second_player_wins() {
        let nim = CatalogueContest { game: NIM, exhaustive_max: 4 };
        for case in nim.cases(Source::Adversarial, 3).skip(6).take(50) {
            let Case::Piles(piles) = &case else { panic!() };
            assert_eq!(piles.iter().fold(0, |x, p| x ^ p), 0, "{piles:?}");
            assert_eq!(nim.answer(&case), "cubelover");
        }
    }

    #[test]
    fn divisor_specials_are_what_they_say() {
        let special = divisor_special();
        assert!(divisor::is_prime(special[0]) && divisor::is_prime(999_999_937) && divisor::is_prime(999_999_929));
        assert!(special.iter().all(|&n| (1..=divisor::MAX_N).contains(&n)));
        let game = CatalogueContest { game: DIVISOR, exhaustive_max: 10 };
        let losing: Vec<Case> = game.cases(Source::Adversarial, 1).skip(3 + special.len()).take(5).collect();
        assert!(losing.iter().all(|c| game.answer(c) == "cubelover"), "{losing:?}");
    }
}
