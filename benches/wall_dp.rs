//! Solving 20×20 Wall Making Game boards: the bottom-up band DP against the seed algorithm
//! (plain top-down memoized recursion collecting option values in a fresh vector per call).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprague::games::wall::{claim::dp, Board, Shape};

/// A 20×20 board with each cell X with probability `density`, from a fixed seed.
fn random_board(rng: &mut ChaCha8Rng, density: f64) -> Board {
    let shape = Shape::new(20, 20);
    let mut board = Board::empty(shape);
    for r in 0..20 {
        for c in 0..20 {
            board.set_x(r, c, rng.random_bool(density));
        }
    }
    board
}

/// The seed algorithm: top-down recursion over sub-rectangles, memoized, mex by sorting a Vec.
struct SeedSolver<'b> {
    board: &'b Board,
    memo: Vec<i32>,
}

impl SeedSolver<'_> {
    fn grundy(board: &Board) -> u32 {
        let mut s = SeedSolver { board, memo: vec![-1; 21 * 21 * 21 * 21] };
        s.rec(0, board.rows(), 0, board.cols()) as u32
    }

    fn rec(&mut self, r0: usize, r1: usize, c0: usize, c1: usize) -> i32 {
        if r0 >= r1 || c0 >= c1 {
            return 0;
        }
        let key = ((r0 * 21 + r1) * 21 + c0) * 21 + c1;
        if self.memo[key] >= 0 {
            return self.memo[key];
        }
        let mut seen = Vec::new();
        for i in r0..r1 {
            for j in c0..c1 {
                if !self.board.is_x(i, j) {
                    let v = self.rec(r0, i, c0, j) ^ self.rec(r0, i, j + 1, c1)
                        ^ self.rec(i + 1, r1, c0, j) ^ self.rec(i + 1, r1, j + 1, c1);
                    seen.push(v);
                }
            }
        }
        seen.sort_unstable();
        seen.dedup();
        let mex = seen.iter().enumerate().find(|&(k, &v)| v != k as i32).map_or(seen.len(), |(k, _)| k);
        self.memo[key] = mex as i32;
        mex as i32
    }
}

fn single_boards(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(11717);
    let mut group = c.benchmark_group("wall_20x20");
    for density in [0.0, 0.3, 0.6] {
        let board = random_board(&mut rng, density);
        assert_eq!(dp::solve(&board).grundy, SeedSolver::grundy(&board));
        let label = format!("{}%X", (density * 100.0) as u32);
        group.bench_with_input(BenchmarkId::new("band_dp", &label), &board, |b, board| {
            b.iter(|| dp::solve(black_box(board)))
        });
        group.bench_with_input(BenchmarkId::new("seed_recursion", &label), &board, |b, board| {
            b.iter(|| SeedSolver::grundy(black_box(board)))
        });
    }
    group.finish();
}

fn batch(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2015);
    let boards: Vec<Board> = (0..1000).map(|_| {
        let density = rng.random_range(0.0..0.7);
        random_board(&mut rng, density)
    }).collect();
    let mut group = c.benchmark_group("wall_20x20_batch");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.sample_size(10);
    group.bench_function("band_dp_1000_boards", |b| {
        b.iter(|| boards.iter().map(|board| dp::solve(board).grundy).sum::<u32>())
    });
    group.finish();
}

criterion_group!(benches, single_boards, batch);
criterion_main!(benches);
