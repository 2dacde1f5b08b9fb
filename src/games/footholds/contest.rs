//! Disappearing footholds as a contest problem for `stress`: `R C`, R rows of 0/1, the two
//! pieces; the total number of moves expected. The trusted answer is the memoized negamax
//! `verify footholds` checks.

use super::verify::shapes;
use super::{claim, Position, MAX_SIDE};
use crate::game::stress::max_in;
use crate::game::{OptSpec, StressCommand, StressSide};
use crate::output::text::counted;
use crate::stress::numbers::{draw, growing};
use crate::stress::order::masks;
use crate::stress::{answer, Cases, Contest, Generator, Source};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `sprague stress footholds`.
pub static STRESS: StressCommand = StressCommand {
    name: "footholds",
    about: "Disappearing footholds: `R C`, R rows of 0/1, `ar ac br bc` to the program, the total moves expected.",
    max: OptSpec::value("max", "CELLS", "The exhaustive generator's bound: every board of every shape with at most CELLS cells (at most 25), every start pair.").default("9"),
    build: |args| Ok(Box::new(FootholdsContest { exhaustive_max: max_in(args, "footholds", 1..=(MAX_SIDE * MAX_SIDE) as u64)? as usize }) as Box<dyn StressSide>),
    examples: &["sprague stress footholds --cmd ./a.out", "sprague stress footholds --cmd 'python3 sol.py' --generator random --seed 7"],
};

/// The footholds contest side; `exhaustive_max` bounds the cells of exhaustive boards.
pub struct FootholdsContest {
    pub exhaustive_max: usize,
}

/// Whether cell `i` of `pos` holds a foothold.
fn foothold(pos: &Position, i: usize) -> bool {
    pos.board >> i & 1 == 1
}

/// The position on the rows and columns kept (`None` when a piece stands on a dropped one).
fn select(pos: &Position, keep_rows: &[usize], keep_cols: &[usize]) -> Option<Position> {
    let cols = pos.cols as usize;
    let place = |i: usize| Some(keep_rows.iter().position(|&r| r == i / cols)? * keep_cols.len() + keep_cols.iter().position(|&c| c == i % cols)?);
    let (a, b) = (place(pos.a as usize)?, place(pos.b as usize)?);
    let mut board = 0u32;
    for (r, &row) in keep_rows.iter().enumerate() {
        for (c, &col) in keep_cols.iter().enumerate() {
            board |= u32::from(foothold(pos, row * cols + col)) << (r * keep_cols.len() + c);
        }
    }
    Some(Position::new(keep_rows.len(), keep_cols.len(), board, a, b))
}

impl Contest for FootholdsContest {
    type Case = Position;
    type Answer = u64;

    fn write_input(&self, pos: &Position, out: &mut Vec<u8>) {
        let (rows, cols) = (pos.rows as usize, pos.cols as usize);
        let mut text = format!("{rows} {cols}\n");
        for r in 0..rows {
            let cells: Vec<&str> = (0..cols).map(|c| if foothold(pos, r * cols + c) { "1" } else { "0" }).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        let (a, b) = (pos.a as usize, pos.b as usize);
        text.push_str(&format!("{} {} {} {}\n", a / cols, a % cols, b / cols, b % cols));
        out.extend_from_slice(text.as_bytes());
    }

    fn answer(&self, pos: &Position) -> u64 {
        u64::from(claim::solve(pos).moves)
    }

    fn parse_output(&self, _pos: &Position, stdout: &str) -> Result<u64, String> {
        answer::number(stdout)
    }

    /// Cells, then footholds.
    fn size_key(&self, pos: &Position) -> Option<Vec<u64>> {
        Some(vec![u64::from(pos.rows) * u64::from(pos.cols), u64::from(pos.board.count_ones())])
    }

    fn describe(&self, pos: &Position) -> String {
        format!("{}x{}, {}", pos.rows, pos.cols, counted(u64::from(pos.board.count_ones()), "foothold"))
    }

    /// A row or a column without a piece dropped, then a foothold without a piece cleared.
    fn shrink_candidates(&self, pos: &Position) -> Vec<Position> {
        let (rows, cols) = (pos.rows as usize, pos.cols as usize);
        let all_rows: Vec<usize> = (0..rows).collect();
        let all_cols: Vec<usize> = (0..cols).collect();
        let without = |v: &[usize], skip: usize| v.iter().copied().filter(|&x| x != skip).collect::<Vec<_>>();
        let mut out: Vec<Position> = Vec::new();
        out.extend((0..rows).filter(|_| rows > 1).filter_map(|r| select(pos, &without(&all_rows, r), &all_cols)));
        out.extend((0..cols).filter(|_| cols > 1).filter_map(|c| select(pos, &all_rows, &without(&all_cols, c))));
        for i in (0..rows * cols).filter(|&i| foothold(pos, i) && i != pos.a as usize && i != pos.b as usize) {
            out.push(Position { board: pos.board & !(1 << i), ..*pos });
        }
        out
    }
}

/// Every start pair on the footholds of `board` (a shape `rows`×`cols`), A's cell first.
fn every_start(rows: usize, cols: usize, board: u32) -> impl Iterator<Item = Position> {
    let cells: Vec<usize> = (0..rows * cols).filter(|&i| board >> i & 1 == 1).collect();
    let pairs: Vec<(usize, usize)> = cells.iter().flat_map(|&a| cells.iter().map(move |&b| (a, b))).collect();
    pairs.into_iter().map(move |(a, b)| Position::new(rows, cols, board, a, b))
}

/// A board of `rows`×`cols` whose cells are footholds with probability `density`, the pieces
/// on random cells (made footholds).
fn random_position(rng: &mut ChaCha8Rng, rows: usize, cols: usize, density: f64) -> Position {
    let cells = rows * cols;
    let mut board = (0..cells).fold(0u32, |m, i| m | u32::from(rng.random_bool(density)) << i);
    let (a, b) = (rng.random_range(0..cells), rng.random_range(0..cells));
    board |= 1 << a | 1 << b;
    Position::new(rows, cols, board, a, b)
}

impl Generator for FootholdsContest {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match source {
            Source::Exhaustive => {
                let mut sizes = shapes(self.exhaustive_max);
                sizes.sort_by_key(|&(r, c)| (r * c, r));
                Box::new(sizes.into_iter().flat_map(|(r, c)| (1u32..1 << (r * c)).flat_map(move |board| every_start(r, c, board))))
            }
            Source::Random => Box::new((0u64..).map(move |i| {
                let side = MAX_SIDE as u64;
                let big = rng.random_range(0..4) == 0;
                let dim = |rng: &mut ChaCha8Rng| if big { MAX_SIDE } else { draw(rng, 1, growing(i, 1, side)) as usize };
                let (rows, cols) = (dim(&mut rng), dim(&mut rng));
                let density = rng.random_range(0.3..=1.0);
                random_position(&mut rng, rows, cols, density)
            })),
            Source::Adversarial => {
                // Every start on the full 5×5 board (the longest games), the thinnest boards,
                // then forever dense 5×5 boards.
                let full = (1u32 << (MAX_SIDE * MAX_SIDE)) - 1;
                let thin = [(1, MAX_SIDE), (MAX_SIDE, 1), (1, 1)].map(|(r, c)| Position::new(r, c, (1 << (r * c)) - 1, 0, r * c - 1));
                let dense = std::iter::repeat_with(move || {
                    let density = rng.random_range(0.8..=1.0);
                    random_position(&mut rng, MAX_SIDE, MAX_SIDE, density)
                });
                Box::new(every_start(MAX_SIDE, MAX_SIDE, full).chain(thin).chain(dense))
            }
        }
    }

    /// By cells, then footholds: every shape of that many cells, every board with that many
    /// footholds, every start pair.
    fn by_size(&self, _pos: &Position) -> Cases<'_, Position> {
        let shapes = shapes(MAX_SIDE * MAX_SIDE);
        Box::new((1..=MAX_SIDE * MAX_SIDE).flat_map(move |cells| {
            let fit: Vec<(usize, usize)> = shapes.iter().copied().filter(|&(r, c)| r * c == cells).collect();
            (1..=cells).flat_map(move |k| {
                let fit = fit.clone();
                fit.into_iter().flat_map(move |(r, c)| masks(cells, k).flat_map(move |board| every_start(r, c, board as u32)))
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_order_lists_every_input_in_order() {
        let game = FootholdsContest { exhaustive_max: 4 };
        let case = Position::new(3, 3, 0b111, 0, 1);
        let listed = crate::stress::order::check_by_size(&game, &case, |p| p.rows * p.cols <= 4);
        assert_eq!(listed, game.cases(Source::Exhaustive, 0).count());
    }

    #[test]
    fn inputs_answers_and_shrinking() {
        let game = FootholdsContest { exhaustive_max: 2 };
        let pos = Position::parse_input("t", "2 3\n1 0 1\n1 1 1\n0 2 1 0\n").unwrap();
        assert_eq!(game.input_text(&pos), b"2 3\n1 0 1\n1 1 1\n0 2 1 0\n");
        let issue = Position::parse_input("t", "1 5\n1 1 1 1 1\n0 0 0 4\n").unwrap();
        assert_eq!(game.answer(&issue), 4);
        let smaller = game.shrink_candidates(&pos);
        assert!(smaller.iter().all(|p| p.rows * p.cols < 6 || p.board.count_ones() < 5));
        assert!(smaller.contains(&Position::new(2, 2, 0b1111, 1, 2)), "middle column dropped");
        // 1x1: one board, one start; 1x2 and 2x1: 3 boards with 1, 1 and 4 starts each.
        assert_eq!(game.cases(Source::Exhaustive, 0).count(), 1 + 2 * 6);
    }
}
