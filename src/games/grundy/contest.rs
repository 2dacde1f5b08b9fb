//! Grundy's game as a contest problem for `stress`: `n` then n heaps, First or Second; the
//! trusted answer is the claim `verify grundy` checks (XOR of the one-heap recurrence).

use super::{claim, MAX_HEAP, MAX_HEAPS};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand};
use crate::output::text::counted;
use crate::stress::numbers::{compositions, lowered, random_list, shorter, zero_sum_list};
use crate::stress::order::{list_key, lists_by_size};
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// `sprague stress grundy`.
pub static STRESS: StressCommand = StressCommand {
    name: "grundy",
    about: "Grundy's game: `n` then n heaps (≤ 10^4) to the program, First or Second expected (--answer move: `i a b`, heap i split into a and b stones, or Second).",
    max: OptSpec::value("max", "N", "The exhaustive generator's bound: every list of heaps with at most N stones in all (at most 40).").default("14"),
    build: |args| {
        let contest = GrundyContest { exhaustive_max: max_in(args, "grundy", 1..=40)? };
        crate::game::stress::side_with_moves(contest, args)
    },
    examples: &["sprague stress grundy --cmd ./a.out", "sprague stress grundy --cmd ./a.out --generator adversarial --budget 30"],
};

/// Grundy's game's contest side; `exhaustive_max` bounds the total of exhaustive inputs.
pub struct GrundyContest {
    pub exhaustive_max: u64,
}

/// The one-heap values of every legal heap (computed once).
pub(super) fn heap_values() -> &'static [u16] {
    static VALUES: OnceLock<Vec<u16>> = OnceLock::new();
    VALUES.get_or_init(|| claim::heap_values(MAX_HEAP))
}

/// The largest heap whose one-heap value is `value`.
fn heap_with_value(value: u64) -> Option<u64> {
    heap_values().iter().rposition(|&g| u64::from(g) == value).filter(|&n| n >= 1).map(|n| n as u64)
}

impl Contest for GrundyContest {
    type Case = Vec<u64>;
    type Answer = String;

    fn write_input(&self, heaps: &Vec<u64>, out: &mut Vec<u8>) {
        let line: Vec<String> = heaps.iter().map(u64::to_string).collect();
        out.extend_from_slice(format!("{}\n{}\n", heaps.len(), line.join(" ")).as_bytes());
    }

    /// The claim's XOR of one-heap values, read from the table of every legal heap (the
    /// recurrence up to a heap is a prefix of it), so that no run waits for the table.
    fn answer(&self, heaps: &Vec<u64>) -> String {
        let xor = heaps.iter().fold(0, |x, &h| x ^ heap_values()[h as usize]);
        if xor != 0 { "First" } else { "Second" }.to_string()
    }

    fn parse_output(&self, _heaps: &Vec<u64>, stdout: &str) -> Result<String, String> {
        answer::one_of(stdout, &["First", "Second"])
    }

    fn describe(&self, heaps: &Vec<u64>) -> String {
        format!("{}, largest {}", counted(heaps.len() as u64, "heap"), heaps.iter().max().unwrap_or(&0))
    }

    fn shrink_candidates(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        shorter(heaps, 1).into_iter().chain(lowered(heaps, 1)).collect()
    }

    /// The total, the number of heaps, then the heaps sorted.
    fn size_key(&self, heaps: &Vec<u64>) -> Option<Vec<u64>> {
        Some(list_key(heaps))
    }
}

impl Generator for GrundyContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Vec<u64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (max_heaps, max_heap) = (MAX_HEAPS as u64, u64::from(MAX_HEAP));
        match source {
            Source::Exhaustive => Box::new(compositions(1, self.exhaustive_max, MAX_HEAPS)),
            Source::Random => Box::new((0u64..).map(move |i| random_list(&mut rng, i, (1, max_heaps), (1, max_heap)))),
            Source::Adversarial => {
                // The largest inputs, the heaps that cannot move, then second-player wins made
                // of heaps of large values.
                let fixed = [vec![max_heap; MAX_HEAPS], vec![max_heap], vec![1; MAX_HEAPS], vec![2; MAX_HEAPS], vec![1, 2]];
                let value_of = |h: u64| u64::from(heap_values()[h as usize]);
                let zero = std::iter::repeat_with(move || zero_sum_list(&mut rng, max_heaps, (1, max_heap), value_of, heap_with_value));
                Box::new(fixed.into_iter().chain(zero))
            }
        }
    }

    fn by_size(&self, _heaps: &Vec<u64>) -> Cases<'_, Vec<u64>> {
        Box::new(lists_by_size(1, u64::from(MAX_HEAP), MAX_HEAPS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_order_lists_every_input_in_order() {
        let game = GrundyContest { exhaustive_max: 6 };
        let listed = crate::stress::order::check_by_size(&game, &vec![7], |h| h.iter().sum::<u64>() <= 6);
        assert_eq!(listed, (1 << 6) - 1);
    }

    #[test]
    fn answers_match_solve_and_adversarial_inputs_lose() {
        let game = GrundyContest { exhaustive_max: 5 };
        assert_eq!(game.input_text(&vec![3, 5]), b"2\n3 5\n");
        assert_eq!((game.answer(&vec![3, 5]), game.answer(&vec![3, 6])), ("First".to_string(), "Second".to_string()));
        for heaps in game.cases(Source::Adversarial, 4).skip(5).take(40) {
            assert_eq!(game.answer(&heaps), "Second", "{heaps:?}");
            assert!(heaps.len() <= MAX_HEAPS && heaps.iter().all(|&h| (1..=u64::from(MAX_HEAP)).contains(&h)));
        }
        assert_eq!(game.cases(Source::Exhaustive, 0).count(), 31);
        for heaps in game.cases(Source::Random, 1).take(300) {
            let small: Vec<u16> = heaps.iter().map(|&h| h as u16).collect();
            let claimed = if claim::grundy(&small) != 0 { "First" } else { "Second" };
            assert_eq!(game.answer(&heaps), claimed, "{heaps:?}");
        }
    }
}
