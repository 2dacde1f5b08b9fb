//! The wall game as a contest problem for `stress`: BOJ 11717 input, First/Second answers,
//! generators, and shrink candidates (the boards' smaller neighbours, as `verify --shrink` tries them).

use crate::games::wall::board::{Board, Shape, MAX_SIDE};
use crate::games::wall::board::dims::parse_dims;
use crate::games::wall::board::smaller::smaller_neighbours;
use crate::games::wall::claim::dp::RectDp;
use super::{generate, smallest};
use crate::error::Error;
use crate::game::{OptSpec, StressCommand};
use crate::stress::{Cases, Contest, Generator, Source};
use std::fmt;

/// `sprague stress wall`.
pub static STRESS: StressCommand = StressCommand {
    name: "wall",
    about: "Wall Making Game (BOJ 11717): boards `H W` + rows of '.'/'X' to the program, First or Second expected.",
    max: OptSpec::value("max", "HxW", "The exhaustive generator's largest board: every X-pattern of every shape up to HxW (shapes under 64 cells).")
        .default("6x6")
        .validate(|s| parse_dims(s).map(|_| ())),
    build: |args| {
        let text = args.text("max").unwrap_or("6x6");
        let max = parse_dims(text).map_err(|e| Error::Usage(format!("--max: {e}")))?;
        if max.rows > MAX_SIDE || max.cols > MAX_SIDE {
            return Err(Error::Usage(format!("--max {max}: boards have at most {MAX_SIDE} rows and columns")));
        }
        let contest = WallContest { exhaustive_max: max };
        crate::game::stress::side_with_moves(contest, args)
    },
    examples: &["sprague stress wall --cmd ./a.out", "sprague stress wall --cmd ./a.out --answer move", "sprague stress wall --cmd 'python3 sol.py' --generator random,adversarial --seed 7 --budget 30"],
};

/// The answer of BOJ 11717: who wins with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    First,
    Second,
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Winner::First => "First",
            Winner::Second => "Second",
        })
    }
}

/// The wall game's contest side; `exhaustive_max` bounds the exhaustive generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallContest {
    pub exhaustive_max: Shape,
}

impl Default for WallContest {
    fn default() -> Self {
        WallContest { exhaustive_max: Shape::new(4, 4) }
    }
}

impl Contest for WallContest {
    type Case = Board;
    type Answer = Winner;

    fn write_input(&self, board: &Board, out: &mut Vec<u8>) {
        out.extend_from_slice(board.to_string().as_bytes());
    }

    fn answer(&self, board: &Board) -> Winner {
        if RectDp::new(board).grundy() != 0 {
            Winner::First
        } else {
            Winner::Second
        }
    }

    fn parse_output(&self, _board: &Board, stdout: &str) -> Result<Winner, String> {
        let word = crate::stress::answer::one_of(stdout, &["First", "Second"])?;
        Ok(if word == "First" { Winner::First } else { Winner::Second })
    }

    fn describe(&self, board: &Board) -> String {
        format!("{}, {} X", board.shape(), board.x_count())
    }

    fn shrink_candidates(&self, board: &Board) -> Vec<Board> {
        smaller_neighbours(board).collect()
    }

    fn shrinks_from_the_first(&self) -> bool {
        true
    }

    fn size_key(&self, board: &Board) -> Option<Vec<u64>> {
        Some(smallest::size_key(board))
    }

    fn parts(&self, board: &Board) -> crate::stress::Parts<Board> {
        smallest::sub_rectangles(board)
    }

    fn parts_name(&self) -> &'static str {
        "sub-rectangles"
    }
}

impl Generator for WallContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Board> {
        match source {
            Source::Exhaustive => Box::new(generate::exhaustive(self.exhaustive_max)),
            Source::Random => Box::new(generate::random(seed, MAX_SIDE)),
            Source::Adversarial => Box::new(generate::adversarial(seed)),
        }
    }

    fn by_size(&self, _board: &Board) -> Cases<'_, Board> {
        Box::new(smallest::by_size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_slashed(text).unwrap()
    }

    #[test]
    fn input_answer_and_output_format() {
        let game = WallContest::default();
        let b = board("X./..");
        assert_eq!(game.input_text(&b), b"2 2\nX.\n..\n");
        assert_eq!(game.answer(&b), Winner::First);
        assert_eq!(game.answer(&board("../..")), Winner::Second);
        assert_eq!(game.parse_output(&b, "Second \r\n"), Ok(Winner::Second));
        assert!(game.parse_output(&b, "first").unwrap_err().contains("expected First or Second"));
        assert!(game.parse_output(&b, "").unwrap_err().contains("empty output"));
        assert_eq!(game.describe(&b), "2x2, 1 X");
        assert!(game.shrinks_from_the_first());
        assert!(game.shrink_candidates(&b).into_iter().eq(smaller_neighbours(&b)), "the boards' smaller neighbours");
    }
}
