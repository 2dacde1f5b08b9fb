//! The card game as a contest problem for `stress`: T cases of N cards, the first player's
//! total per case expected. The trusted answer is the interval DP `verify cards` checks.

use super::{claim, MAX_CARDS, MAX_CASES, MAX_VALUE};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand, StressSide};
use crate::output::text::counted;
use crate::stress::numbers::{draw, growing, lowered, random_list, shorter};
use crate::stress::order::lists_of;
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// `sprague stress cards`.
pub static STRESS: StressCommand = StressCommand {
    name: "cards",
    about: "Card game (BOJ 11062): T, then per case N and N cards to the program, one total per line expected.",
    max: OptSpec::value("max", "N", "The exhaustive generator's bound: every row of up to N cards valued 1 to 4 (at most 12).").default("7"),
    build: |args| Ok(Box::new(CardsContest { exhaustive_max: max_in(args, "cards", 1..=12)? as usize }) as Box<dyn StressSide>),
    examples: &["sprague stress cards --cmd ./a.out", "sprague stress cards --cmd 'java Main' --timeout 5"],
};

/// Values of the exhaustive rows: 1..=this.
const EXHAUSTIVE_VALUES: u64 = 4;

/// The card game's contest side; `exhaustive_max` is the longest exhaustive row.
pub struct CardsContest {
    pub exhaustive_max: usize,
}

/// The first player's total in each case, one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals(pub Vec<u64>);

impl fmt::Display for Totals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl Contest for CardsContest {
    /// The rows of a test file, one per case.
    type Case = Vec<Vec<u64>>;
    type Answer = Totals;

    fn write_input(&self, rows: &Self::Case, out: &mut Vec<u8>) {
        out.extend_from_slice(format!("{}\n", rows.len()).as_bytes());
        for row in rows {
            let cards: Vec<String> = row.iter().map(u64::to_string).collect();
            out.extend_from_slice(format!("{}\n{}\n", row.len(), cards.join(" ")).as_bytes());
        }
    }

    fn answer(&self, rows: &Self::Case) -> Totals {
        Totals(rows.iter().map(|row| claim::first_total(&row.iter().map(|&c| c as u32).collect::<Vec<u32>>())).collect())
    }

    fn parse_output(&self, rows: &Self::Case, stdout: &str) -> Result<Totals, String> {
        answer::numbers_per_line(stdout, rows.len()).map(Totals)
    }

    fn describe(&self, rows: &Self::Case) -> String {
        format!("{}, longest {}", counted(rows.len() as u64, "case"), counted(rows.iter().map(Vec::len).max().unwrap_or(0) as u64, "card"))
    }

    /// Fewer cases, then one case with fewer or lower cards.
    fn shrink_candidates(&self, rows: &Self::Case) -> Vec<Self::Case> {
        let mut out = shorter(rows, 1);
        for (i, row) in rows.iter().enumerate() {
            for smaller in shorter(row, 1).into_iter().chain(lowered(row, 1)) {
                let mut next = rows.clone();
                next[i] = smaller;
                out.push(next);
            }
        }
        out
    }

    /// The sum of all cards, then the number of cards, then the number of cases.
    fn size_key(&self, rows: &Self::Case) -> Option<Vec<u64>> {
        let cards = rows.iter().map(Vec::len).sum::<usize>() as u64;
        Some(vec![rows.iter().flatten().sum(), cards, rows.len() as u64])
    }
}

impl Generator for CardsContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Vec<Vec<u64>>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (longest, top) = (MAX_CARDS as u64, u64::from(MAX_VALUE));
        match source {
            Source::Exhaustive => Box::new((1..=self.exhaustive_max as u32).flat_map(|n| {
                (0..EXHAUSTIVE_VALUES.pow(n)).map(move |code| {
                    vec![(0..n).map(|k| 1 + code / EXHAUSTIVE_VALUES.pow(k) % EXHAUSTIVE_VALUES).collect()]
                })
            })),
            Source::Random => Box::new((0u64..).map(move |i| {
                let cases = draw(&mut rng, 1, growing(i, 1, 20));
                (0..cases).map(|_| random_list(&mut rng, i, (1, longest), (1, top))).collect()
            })),
            Source::Adversarial => Box::new(adversarial(rng, longest, top)),
        }
    }

    /// By sum, cards and cases: every list of that many cards with that sum, cut into that
    /// many cases in every way.
    fn by_size(&self, _rows: &Self::Case) -> Cases<'_, Self::Case> {
        let (top, longest) = (u64::from(MAX_VALUE), MAX_CARDS as u64);
        let cut = move |cards: Vec<u64>, k: usize| lists_of(cards.len() as u64, k, 1, longest).map(move |lens| cut_into(&cards, &lens));
        let sized = move |(total, n, k): (u64, usize, usize)| lists_of(total, n, 1, top).flat_map(move |cards| cut(cards, k));
        let keys = (1u64..).flat_map(|total| (1..=total as usize).flat_map(move |n| (1..=n.min(MAX_CASES)).map(move |k| (total, n, k))));
        Box::new(keys.flat_map(sized))
    }
}

/// `cards` cut into rows of the lengths `lens` (which add up to the number of cards).
fn cut_into(cards: &[u64], lens: &[u64]) -> Vec<Vec<u64>> {
    let mut rest = cards;
    lens.iter().map(|&n| {
        let (row, after) = rest.split_at(n as usize);
        rest = after;
        row.to_vec()
    }).collect()
}

/// The longest rows (largest values, all ones, ties), rows where taking the larger end loses
/// (small, large, small, … and the larger end guarding a larger card), a hundred longest
/// rows in one file, then forever long random rows of few distinct values.
fn adversarial(mut rng: ChaCha8Rng, longest: u64, top: u64) -> impl Iterator<Item = Vec<Vec<u64>>> + Send {
    let n = longest as usize;
    let alternating: Vec<u64> = (0..n).map(|i| if i % 2 == 0 { 1 } else { top }).collect();
    let guarded: Vec<u64> = (0..n).map(|i| [2, top, 1, 1][i % 4]).collect();
    let fixed = vec![
        vec![vec![top; n]],
        vec![vec![1; n]],
        vec![alternating.clone()],
        vec![guarded],
        vec![vec![1, top, 2, 1]],
        vec![alternating; 100],
    ];
    let random = std::iter::repeat_with(move || {
        let values: Vec<u64> = (0..3).map(|_| draw(&mut rng, 1, top)).collect();
        let len = if rng.random_bool(0.5) { longest } else { draw(&mut rng, 1, longest) };
        vec![(0..len).map(|_| values[rng.random_range(0..3)]).collect()]
    });
    fixed.into_iter().chain(random)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_order_lists_every_input_in_order() {
        let game = CardsContest { exhaustive_max: 2 };
        let listed = crate::stress::order::check_by_size(&game, &vec![vec![9]], |rows| rows.iter().flatten().sum::<u64>() <= 4);
        // Card lists of sum ≤ 4 (compositions: 1 + 2 + 4 + 8), each cut into cases every way.
        assert_eq!(listed, 1 + (1 + 2) + (1 + 2 * 2 + 4) + (1 + 3 * 2 + 3 * 4 + 8));
    }

    #[test]
    fn inputs_answers_and_output_format() {
        let game = CardsContest { exhaustive_max: 2 };
        let rows = vec![vec![1, 2, 5, 2], vec![7]];
        assert_eq!(game.input_text(&rows), b"2\n4\n1 2 5 2\n1\n7\n");
        assert_eq!(game.answer(&rows).to_string(), "6\n7");
        assert_eq!(game.parse_output(&rows, "6\n7\n"), Ok(Totals(vec![6, 7])));
        assert!(game.parse_output(&rows, "6\n").is_err());
        assert_eq!(game.cases(Source::Exhaustive, 0).count(), 4 + 16);
        assert!(game.shrink_candidates(&rows).contains(&vec![vec![1, 2, 5, 2]]));
        // Greedy takes 2 and loses the 10: the adversarial row is there for it.
        let greedy_breaker = game.cases(Source::Adversarial, 0).nth(4).unwrap();
        assert_ne!(claim::greedy_total(&[1, 10_000, 2, 1]), game.answer(&greedy_breaker).0[0]);
    }
}
