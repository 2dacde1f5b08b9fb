//! Kings' bridge as a contest problem for `stress`: N, the bridge lengths and who moves first;
//! the winner's name expected. The trusted answer is the claim `verify kings` checks (Nim on
//! A_i − 2).

use super::{claim, Game, Side, MAX_BRIDGES, MAX_LENGTH, NAMES};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand};
use crate::output::text::counted;
use crate::stress::numbers::{compositions, lowered, random_list, shorter, zero_sum_list};
use crate::stress::order::{list_key, multisets, orders};
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `sprague stress kings`.
pub static STRESS: StressCommand = StressCommand {
    name: "kings",
    about: "Kings' bridge: N, A_1 … A_N, Whiteking|Blackking to the program, the winner expected.",
    max: OptSpec::value("max", "N", "The exhaustive generator's bound: every list of bridges with at most N cells in all (at most 40), either side first.").default("16"),
    build: |args| crate::game::stress::side_with_moves(KingsContest { exhaustive_max: max_in(args, "kings", 2..=40)? }, args),
    examples: &["sprague stress kings --cmd ./a.out", "sprague stress kings --cmd ./a.out --failures 5 --out out/kings"],
};

/// The kings' contest side; `exhaustive_max` bounds the total length of exhaustive inputs.
pub struct KingsContest {
    pub exhaustive_max: u64,
}

const SIDES: [Side; 2] = [Side::White, Side::Black];

impl Contest for KingsContest {
    type Case = Game;
    type Answer = String;

    fn write_input(&self, game: &Game, out: &mut Vec<u8>) {
        let line: Vec<String> = game.lengths.iter().map(u64::to_string).collect();
        out.extend_from_slice(format!("{}\n{}\n{}\n", game.lengths.len(), line.join(" "), game.first.name()).as_bytes());
    }

    fn answer(&self, game: &Game) -> String {
        claim::winner(game).name().to_string()
    }

    fn parse_output(&self, _game: &Game, stdout: &str) -> Result<String, String> {
        answer::one_of(stdout, &NAMES)
    }

    fn describe(&self, game: &Game) -> String {
        format!("{}, longest {}", counted(game.lengths.len() as u64, "bridge"), game.lengths.iter().max().unwrap_or(&0))
    }

    fn shrink_candidates(&self, game: &Game) -> Vec<Game> {
        let lists = shorter(&game.lengths, 1).into_iter().chain(lowered(&game.lengths, 2));
        lists.map(|lengths| Game { lengths, first: game.first }).collect()
    }

    /// The total length, the number of bridges, the lengths sorted, then who moves first
    /// (white before black).
    fn size_key(&self, game: &Game) -> Option<Vec<u64>> {
        let side = SIDES.iter().position(|&s| s == game.first).expect("a side") as u64;
        Some(list_key(&game.lengths).into_iter().chain([side]).collect())
    }
}

impl Generator for KingsContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Game> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (most, longest) = (MAX_BRIDGES as u64, MAX_LENGTH);
        match source {
            Source::Exhaustive => Box::new(
                compositions(2, self.exhaustive_max, MAX_BRIDGES).flat_map(|lengths| SIDES.map(|first| Game { lengths: lengths.clone(), first })),
            ),
            Source::Random => Box::new((0u64..).map(move |i| {
                let lengths = random_list(&mut rng, i, (1, most), (2, longest));
                Game { lengths, first: SIDES[rng.random_range(0..2)] }
            })),
            Source::Adversarial => {
                // The largest inputs and bridges without a free cell, then second-player wins
                // (the heaps A_i − 2 XOR to zero) of bridges next to powers of two.
                let fixed = [vec![longest; MAX_BRIDGES], vec![2; MAX_BRIDGES], vec![longest], vec![2], vec![longest, longest]];
                let fixed = fixed.into_iter().flat_map(|lengths| SIDES.map(|first| Game { lengths: lengths.clone(), first }));
                let zero = std::iter::repeat_with(move || {
                    let lengths = zero_sum_list(&mut rng, most, (2, longest), |a| a - 2, |x| (x <= longest - 2).then_some(x + 2));
                    Game { lengths, first: SIDES[rng.random_range(0..2)] }
                });
                Box::new(fixed.chain(zero))
            }
        }
    }

    /// Each multiset of lengths, then each side, then the multiset's orders.
    fn by_size(&self, _game: &Game) -> Cases<'_, Game> {
        let sides = |sorted: Vec<u64>| SIDES.into_iter().flat_map(move |first| orders(sorted.clone()).map(move |lengths| Game { lengths, first }));
        Box::new(multisets(2, MAX_LENGTH, MAX_BRIDGES).flat_map(sides))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_order_lists_every_input_in_order() {
        let game = KingsContest { exhaustive_max: 8 };
        let case = Game { lengths: vec![9], first: Side::Black };
        let listed = crate::stress::order::check_by_size(&game, &case, |g| g.lengths.iter().sum::<u64>() <= 8);
        assert_eq!(listed, game.cases(Source::Exhaustive, 0).count());
        assert_eq!(game.by_size(&case).nth(1).map(|g| g.first), Some(Side::Black), "each length list for both sides");
    }

    #[test]
    fn inputs_answers_and_second_player_wins() {
        let contest = KingsContest { exhaustive_max: 6 };
        let game = Game { lengths: vec![3, 3], first: Side::Black };
        assert_eq!(contest.input_text(&game), b"2\n3 3\nBlackking\n");
        assert_eq!(contest.answer(&game), "Whiteking");
        for game in contest.cases(Source::Adversarial, 2).skip(10).take(40) {
            assert_eq!(contest.answer(&game), game.first.other().name(), "{game:?}");
        }
        // Bridges of 2..=6 cells in all: [2], [3], [4], [2, 2], [5], [2, 3], [3, 2], [6], [2, 4], [3, 3], [4, 2], [2, 2, 2].
        assert_eq!(contest.cases(Source::Exhaustive, 0).count(), 2 * 12);
    }
}
