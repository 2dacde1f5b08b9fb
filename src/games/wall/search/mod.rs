//! Searching for boards of large Grundy value: seeded simulated annealing over X cells, each
//! candidate scored by the largest Grundy value of any rectangle in it (rectangle DP), ties
//! broken towards more rectangles of that value. A rectangle's value is the value of the whole
//! board once every cell outside it is X, so the best rectangle found becomes the board
//! reported. Best boards are kept in results/wall/search/best.csv with the seed and
//! evaluation that found them.

pub mod command;
pub mod contest;
pub mod generate;
pub mod moves;
pub mod smallest;

use crate::games::wall::board::{Board, Shape};
use crate::games::wall::claim::dp::RectDp;
use generate::random_board;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// A search: board shape, seed, the length of the cooling schedule and when to stop early.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    pub shape: Shape,
    pub seed: u64,
    /// Evaluations the temperature schedule is laid out for.
    pub evaluations: u64,
    /// Temperature at the start and at the end (Grundy units), lowered geometrically.
    pub temperature: (f64, f64),
    /// Stop after this many evaluations (to replay a search up to a recorded board).
    pub stop_after: Option<u64>,
    /// Stop at this time (a budget); the boards found up to then are as a full run finds them.
    pub deadline: Option<Instant>,
}

impl SearchParams {
    pub fn new(shape: Shape, seed: u64, evaluations: u64) -> Self {
        SearchParams { shape, seed, evaluations, temperature: (1.0, 0.05), stop_after: None, deadline: None }
    }
}

/// The best board of a search and when it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    /// The whole board: the best rectangle, every cell outside it X.
    pub board: Board,
    pub grundy: u32,
    /// Evaluations done when this board was first reached.
    pub at_evaluation: u64,
}

/// The largest Grundy value of a rectangle of `board`, that rectangle `[r0, r1) × [c0, c1)`
/// (the first in row-major order of corners among equals) and how many rectangles have it.
pub fn best_rectangle(board: &Board) -> (u32, [usize; 4], u32) {
    let dp = RectDp::new(board);
    let (rows, cols) = (board.rows(), board.cols());
    let mut best = (0, [0, rows, 0, cols], 0);
    for (r0, r1) in (0..rows).flat_map(|a| (a + 1..=rows).map(move |b| (a, b))) {
        for (c0, c1) in (0..cols).flat_map(|a| (a + 1..=cols).map(move |b| (a, b))) {
            let g = dp.rect_grundy(r0, r1, c0, c1);
            if g > best.0 {
                best = (g, [r0, r1, c0, c1], 0);
            }
            best.2 += u32::from(g == best.0);
        }
    }
    best
}

/// The annealing score: the largest rectangle value, plus up to 0.9 for the number of
/// rectangles that have it (more of them, more ways to grow).
fn score(value: u32, count: u32) -> f64 {
    value as f64 + (count as f64 / 50.0).min(0.9)
}

/// `board` with every cell outside `[r0, r1) × [c0, c1)` made X (same Grundy value as the rectangle).
pub fn isolate(board: &Board, [r0, r1, c0, c1]: [usize; 4]) -> Board {
    let mut out = board.clone();
    for (r, c) in (0..board.rows()).flat_map(|r| (0..board.cols()).map(move |c| (r, c))) {
        if !(r0..r1).contains(&r) || !(c0..c1).contains(&c) {
            out.set_x(r, c, true);
        }
    }
    out
}

/// Simulated annealing maximizing [`score`]: from a random board of density 0.12, flip one or
/// two cells at a time; a worse board is kept with probability e^(Δ/T). Deterministic for
/// given parameters (a deadline only cuts it short). `on_best` sees each new best board.
pub fn maximize_grundy(params: &SearchParams, on_best: impl FnMut(&Best)) -> Best {
    anneal(params, on_best).0
}

/// [`maximize_grundy`], and whether the deadline cut the schedule short (the best board is
/// then the one of a shorter run, not necessarily the one the full round ends on).
pub fn anneal(params: &SearchParams, mut on_best: impl FnMut(&Best)) -> (Best, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let shape = params.shape;
    let mut current = random_board(&mut rng, shape, 0.12);
    let (value, rect, count) = best_rectangle(&current);
    let mut current_score = score(value, count);
    let mut best = Best { board: isolate(&current, rect), grundy: value, at_evaluation: 1 };
    on_best(&best);
    let (t0, t1) = params.temperature;
    // Exactly `evaluations` boards (the first is the random start), so that no board is found
    // at an evaluation past the round's length.
    let steps = params.evaluations.max(1).min(params.stop_after.unwrap_or(u64::MAX));
    for step in 1..steps {
        if step % 16 == 0 && params.deadline.is_some_and(|d| Instant::now() >= d) {
            return (best, true);
        }
        let t = t0 * (t1 / t0).powf(step as f64 / params.evaluations.max(2) as f64);
        let mut next = current.clone();
        for _ in 0..rng.random_range(1..=2) {
            let (r, c) = (rng.random_range(0..shape.rows), rng.random_range(0..shape.cols));
            next.set_x(r, c, !next.is_x(r, c));
        }
        let (next_value, rect, count) = best_rectangle(&next);
        let next_score = score(next_value, count);
        if next_score >= current_score || rng.random::<f64>() < ((next_score - current_score) / t).exp() {
            if next_value > best.grundy {
                best = Best { board: isolate(&next, rect), grundy: next_value, at_evaluation: step + 1 };
                on_best(&best);
            }
            current = next;
            current_score = next_score;
        }
    }
    (best, false)
}

/// One row of results/wall/search/best.csv: the best board found per size and its search.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BestRow {
    pub rows: usize,
    pub cols: usize,
    pub grundy: u32,
    pub seed: u64,
    /// The schedule length ([`SearchParams::evaluations`]).
    pub evaluations: u64,
    /// The evaluation at which the board was found ([`SearchParams::stop_after`] replays it).
    pub at_evaluation: u64,
    /// Rows joined by '/'.
    pub board: String,
}

impl crate::output::csv::CsvRecord for BestRow {
    const HEADER: &'static [&'static str] = &["rows", "cols", "grundy", "seed", "evaluations", "at_evaluation", "board"];
}

impl BestRow {
    pub fn new(best: &Best, seed: u64, evaluations: u64) -> Self {
        let b = &best.board;
        BestRow { rows: b.rows(), cols: b.cols(), grundy: best.grundy, seed, evaluations, at_evaluation: best.at_evaluation, board: b.to_slashed() }
    }

    /// The search that replays this row: its seed and schedule, stopped where the board was found.
    pub fn replay(&self) -> SearchParams {
        let shape = Shape::new(self.rows, self.cols);
        SearchParams { stop_after: Some(self.at_evaluation), ..SearchParams::new(shape, self.seed, self.evaluations) }
    }
}

/// The committed best boards (results/wall/search/best.csv), checked when read.
pub fn best_known_rows() -> Vec<BestRow> {
    let text = include_str!("../../../../results/wall/search/best.csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader.deserialize().map(|row| row.expect("best.csv is well-formed (checked by tests)")).collect()
}

/// The committed best boards.
pub fn best_known() -> Vec<Board> {
    best_known_rows().iter().map(|r| Board::from_slashed(&r.board).expect("best.csv boards parse")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_is_deterministic_and_improves() {
        let params = SearchParams::new(Shape::new(6, 6), 3, 300);
        let mut seen = Vec::new();
        let best = maximize_grundy(&params, |b| seen.push(b.grundy));
        assert_eq!(best, maximize_grundy(&params, |_| {}));
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(RectDp::new(&best.board).grundy(), best.grundy);
        assert_eq!(*seen.last().unwrap(), best.grundy);
        let row = BestRow::new(&best, 3, 300);
        assert_eq!(maximize_grundy(&row.replay(), |_| {}), best, "a row replays to its board");
    }

    #[test]
    fn an_isolated_rectangle_keeps_its_value() {
        let board = Board::from_slashed("..../..../..X./....").unwrap();
        let (g, rect, count) = best_rectangle(&board);
        assert!(count >= 1);
        let dp = RectDp::new(&board);
        assert_eq!(dp.rect_grundy(rect[0], rect[1], rect[2], rect[3]), g);
        assert!(g >= dp.grundy());
        assert_eq!(RectDp::new(&isolate(&board, rect)).grundy(), g);
        assert_eq!(RectDp::new(&isolate(&board, [1, 3, 0, 2])).grundy(), dp.rect_grundy(1, 3, 0, 2));
    }

    /// Every committed board has its value, and those found early replay from their seed.
    #[test]
    fn committed_best_boards_have_their_values() {
        for row in best_known_rows() {
            let board = Board::from_slashed(&row.board).unwrap();
            assert_eq!((board.rows(), board.cols()), (row.rows, row.cols));
            assert_eq!(RectDp::new(&board).grundy(), row.grundy, "{}", row.board);
            if row.at_evaluation <= 2000 {
                let replayed = maximize_grundy(&row.replay(), |_| {});
                assert_eq!((replayed.board, replayed.grundy), (board, row.grundy), "{}x{} seed {}", row.rows, row.cols, row.seed);
            }
        }
    }
}
