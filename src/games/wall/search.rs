//! Searching for boards of large Grundy value: seeded simulated annealing over X cells, each
//! candidate evaluated with the rectangle DP. Best boards found are kept in
//! results/wall/search/best.csv with the seed and evaluation count that found them.

use super::board::{Board, Shape};
use super::dp::RectDp;
use super::generate::random_board;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A search: board shape, seed and how many boards to evaluate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    pub shape: Shape,
    pub seed: u64,
    pub evaluations: u64,
    /// Temperature at the start and at the end (Grundy units), lowered geometrically.
    pub temperature: (f64, f64),
}

impl SearchParams {
    pub fn new(shape: Shape, seed: u64, evaluations: u64) -> Self {
        SearchParams { shape, seed, evaluations, temperature: (3.0, 0.3) }
    }
}

/// The best board of a search and when it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    pub board: Board,
    pub grundy: u32,
    /// Evaluations done when this board was first reached.
    pub at_evaluation: u64,
}

/// Simulated annealing maximizing the Grundy value of a whole board: from a random board of
/// density 0.3, flip one or two cells at a time; a worse board is kept with probability
/// e^(Δ/T). Deterministic for given parameters. `on_best` sees each new best board.
pub fn maximize_grundy(params: &SearchParams, mut on_best: impl FnMut(&Best)) -> Best {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let shape = params.shape;
    let mut current = random_board(&mut rng, shape, 0.3);
    let mut value = RectDp::new(&current).grundy();
    let mut best = Best { board: current.clone(), grundy: value, at_evaluation: 1 };
    on_best(&best);
    let (t0, t1) = params.temperature;
    let steps = params.evaluations.max(2);
    for step in 1..steps {
        let t = t0 * (t1 / t0).powf(step as f64 / steps as f64);
        let mut next = current.clone();
        for _ in 0..rng.random_range(1..=2) {
            let (r, c) = (rng.random_range(0..shape.rows), rng.random_range(0..shape.cols));
            next.set_x(r, c, !next.is_x(r, c));
        }
        let next_value = RectDp::new(&next).grundy();
        let delta = next_value as f64 - value as f64;
        if delta >= 0.0 || rng.random::<f64>() < (delta / t).exp() {
            current = next;
            value = next_value;
            if value > best.grundy {
                best = Best { board: current.clone(), grundy: value, at_evaluation: step + 1 };
                on_best(&best);
            }
        }
    }
    best
}

/// One row of results/wall/search/best.csv: the best board found per size and its search.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BestRow {
    pub rows: usize,
    pub cols: usize,
    pub grundy: u32,
    pub seed: u64,
    pub evaluations: u64,
    /// Rows joined by '/'.
    pub board: String,
}

impl crate::output::csv::CsvRecord for BestRow {
    const HEADER: &'static [&'static str] = &["rows", "cols", "grundy", "seed", "evaluations", "board"];
}

/// The committed best boards (results/wall/search/best.csv), checked when read.
pub fn best_known_rows() -> Vec<BestRow> {
    let text = include_str!("../../../results/wall/search/best.csv");
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
    }

    #[test]
    fn committed_best_boards_have_their_values() {
        for row in best_known_rows() {
            let board = Board::from_slashed(&row.board).unwrap();
            assert_eq!((board.rows(), board.cols()), (row.rows, row.cols));
            assert_eq!(RectDp::new(&board).grundy(), row.grundy, "{}", row.board);
        }
    }
}
