//! The octal family as a contest problem for `stress`: the code, `n`, then n heaps; First or
//! Second. Codes come from a pool of well-known games and random codes 0.d1d2d3; the trusted
//! answer is the XOR of the one-heap values (the sparse-space method, checked against plain
//! mex by the tests and against whole positions by `verify octal`).

use super::code::Code;
use super::values::{values, Method};
use super::{MAX_HEAP, MAX_HEAPS};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand};
use crate::output::text::counted;
use crate::stress::numbers::{compositions, lowered, random_list, shorter, zero_sum_list};
use crate::stress::order::{list_key, lists_by_size};
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// `sprague stress octal`.
pub static STRESS: StressCommand = StressCommand {
    name: "octal",
    about: "Take-and-break games: the code, `n`, then n heaps (≤ 10^4) to the program, First or Second expected.",
    max: OptSpec::value("max", "N", "The exhaustive generator's bound: every list of heaps with at most N stones in all, under each code of the pool (at most 40).").default("10"),
    build: |args| {
        let contest = OctalContest { exhaustive_max: max_in(args, "octal", 1..=40)? };
        crate::game::stress::side_with_moves(contest, args)
    },
    examples: &["sprague stress octal --cmd ./a.out", "sprague stress octal --cmd ./a.out --generator adversarial --budget 30"],
};

/// Well-known codes the generators use besides random ones.
pub const POOL: &[&str] = &["0.77", "0.07", "0.137", "0.6", "0.007", "4.07", "{1,3,4}", "grundy", "0.51", "0.165"];

/// The contest side; `exhaustive_max` bounds the total of exhaustive inputs.
pub struct OctalContest {
    pub exhaustive_max: u64,
}

/// A case: the code as written and the heaps.
pub type Case = (String, Vec<u64>);

/// The one-heap values of every legal heap under `code` (computed once per code).
pub(super) fn heap_values(code: &str) -> Arc<Vec<u16>> {
    static TABLES: OnceLock<Mutex<HashMap<String, Arc<Vec<u16>>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(known) = tables.lock().expect("no panics while held").get(code) {
        return Arc::clone(known);
    }
    let parsed = Code::parse(code).expect("generated codes are valid");
    let table = Arc::new(values(&parsed, MAX_HEAP, Method::Sparse).expect("values of the pool fit in 16 bits"));
    tables.lock().expect("no panics while held").insert(code.to_string(), Arc::clone(&table));
    table
}

/// A code for a random case: one of the pool, or 0.d1d2d3 at random.
fn random_code(rng: &mut impl Rng) -> String {
    if rng.random_bool(0.5) {
        return POOL[rng.random_range(0..POOL.len())].to_string();
    }
    let digits: String = (0..3).map(|_| char::from(b'0' + rng.random_range(0..8u8))).collect();
    format!("0.{digits}")
}

impl Contest for OctalContest {
    type Case = Case;
    type Answer = String;

    fn write_input(&self, (code, heaps): &Case, out: &mut Vec<u8>) {
        let line: Vec<String> = heaps.iter().map(u64::to_string).collect();
        out.extend_from_slice(format!("{code}\n{}\n{}\n", heaps.len(), line.join(" ")).as_bytes());
    }

    fn answer(&self, (code, heaps): &Case) -> String {
        let g = heap_values(code);
        let xor = heaps.iter().fold(0, |x, &h| x ^ g[h as usize]);
        if xor != 0 { "First" } else { "Second" }.to_string()
    }

    fn parse_output(&self, _case: &Case, stdout: &str) -> Result<String, String> {
        answer::one_of(stdout, &["First", "Second"])
    }

    fn describe(&self, (code, heaps): &Case) -> String {
        format!("{code}: {}, largest {}", counted(heaps.len() as u64, "heap"), heaps.iter().max().unwrap_or(&0))
    }

    fn shrink_candidates(&self, (code, heaps): &Case) -> Vec<Case> {
        shorter(heaps, 1).into_iter().chain(lowered(heaps, 1)).map(|h| (code.clone(), h)).collect()
    }

    /// Within the case's code: the total, the number of heaps, then the heaps sorted.
    fn size_key(&self, (_code, heaps): &Case) -> Option<Vec<u64>> {
        Some(list_key(heaps))
    }
}

impl Generator for OctalContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Case> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (max_heaps, max_heap) = (MAX_HEAPS as u64, MAX_HEAP as u64);
        match source {
            Source::Exhaustive => {
                let all = compositions(1, self.exhaustive_max, MAX_HEAPS);
                Box::new(all.flat_map(|heaps| POOL.iter().map(move |code| (code.to_string(), heaps.clone()))))
            }
            Source::Random => Box::new((0u64..).map(move |i| (random_code(&mut rng), random_list(&mut rng, i, (1, max_heaps), (1, max_heap))))),
            Source::Adversarial => {
                // The largest input, then second-player wins made of heaps of large values.
                let fixed = [("0.77".to_string(), vec![max_heap; MAX_HEAPS]), ("grundy".to_string(), vec![1, 2])];
                let zero = std::iter::repeat_with(move || {
                    let code = random_code(&mut rng);
                    let g = heap_values(&code);
                    let value_of = |h: u64| u64::from(g[h as usize]);
                    let inverse = |v: u64| g.iter().rposition(|&x| u64::from(x) == v).filter(|&n| n >= 1).map(|n| n as u64);
                    (code.clone(), zero_sum_list(&mut rng, max_heaps, (1, max_heap), value_of, inverse))
                });
                Box::new(fixed.into_iter().chain(zero))
            }
        }
    }

    /// The heaps of every legal size under the case's code (the code stays: it is the game).
    fn by_size(&self, (code, _heaps): &Case) -> Cases<'_, Case> {
        let largest = super::largest_heap(&Code::parse(code).expect("generated codes are valid")) as u64;
        let code = code.clone();
        Box::new(lists_by_size(1, largest, MAX_HEAPS).map(move |heaps| (code.clone(), heaps)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::brute::{self, WholePositions};
    use crate::impartial::BruteForce;

    #[test]
    fn size_order_keeps_the_code_and_lists_every_input_in_order() {
        let game = OctalContest { exhaustive_max: 5 };
        let case = ("0.77".to_string(), vec![9]);
        let within = |(code, h): &Case| code == "0.77" && h.iter().sum::<u64>() <= 5;
        assert_eq!(crate::stress::order::check_by_size(&game, &case, within), (1 << 5) - 1);
    }

    #[test]
    fn answers_agree_with_whole_positions_and_adversarial_inputs_lose() {
        let game = OctalContest { exhaustive_max: 6 };
        assert_eq!(game.input_text(&("0.07".to_string(), vec![3, 5])), b"0.07\n2\n3 5\n");
        for (code, heaps) in game.cases(Source::Exhaustive, 0) {
            let parsed = Code::parse(&code).unwrap();
            let small: Vec<usize> = heaps.iter().map(|&h| h as usize).collect();
            let truth = brute::solve(&mut BruteForce::new(&WholePositions(&parsed)), &small).1;
            assert_eq!(game.answer(&(code.clone(), heaps.clone())), if truth { "First" } else { "Second" }, "{code} {heaps:?}");
        }
        for case in game.cases(Source::Adversarial, 4).skip(2).take(20) {
            assert_eq!(game.answer(&case), "Second", "{case:?}");
            assert!(case.1.len() <= MAX_HEAPS && case.1.iter().all(|&h| (1..=MAX_HEAP as u64).contains(&h)));
        }
    }
}
