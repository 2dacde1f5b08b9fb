//! Tests of the rectangle DP: problem samples, the seed recursion on every rectangle, the AVX2
//! kernel against the portable one.

use super::*;
use crate::games::wall::claim::mex::Mex;

fn grundy(text: &str) -> u32 {
    solve(&Board::from_slashed(text).unwrap()).grundy
}

#[test]
fn problem_samples() {
    assert_eq!(grundy("../.."), 0);
    assert_ne!(grundy("X./.."), 0);
    assert_ne!(grundy("X..../...X./...../....."), 0);
}

#[test]
fn winning_moves_lead_to_zero() {
    let board = Board::from_slashed("X./..").unwrap();
    let sol = solve(&board);
    assert_eq!(sol.winning_moves, vec![(1, 1)]);
}

/// The seed's top-down recursion, for cross-checking the packed band DP.
fn seed_grundy(board: &Board, memo: &mut std::collections::HashMap<[usize; 4], u32>, r: [usize; 4]) -> u32 {
    let [r0, r1, c0, c1] = r;
    if r0 >= r1 || c0 >= c1 {
        return 0;
    }
    if let Some(&v) = memo.get(&r) {
        return v;
    }
    let mut mex = Mex::default();
    for (i, j) in (r0..r1).flat_map(|i| (c0..c1).map(move |j| (i, j))).filter(|&(i, j)| !board.is_x(i, j)) {
        let mut g = |q| seed_grundy(board, memo, q);
        mex.insert((g([r0, i, c0, j]) ^ g([r0, i, j + 1, c1]) ^ g([i + 1, r1, c0, j]) ^ g([i + 1, r1, j + 1, c1])) as u16);
    }
    let v = mex.value() as u32;
    memo.insert(r, v);
    v
}

#[test]
fn every_rectangle_matches_the_seed_recursion() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
    for _ in 0..40 {
        let shape = crate::games::wall::board::Shape::new(rng.random_range(1..=9), rng.random_range(1..=9));
        let density = rng.random::<f64>();
        let board = crate::games::wall::search::generate::random_board(&mut rng, shape, density);
        assert_matches_seed(&board, &RectDp::new(&board));
    }
}

#[test]
fn empty_table_matches_full_dp() {
    for h in 1..=6 {
        for w in 1..=6 {
            let board = Board::empty(crate::games::wall::board::Shape::new(h, w));
            assert_eq!(RectDp::new(&board).grundy(), empty_grundy(h, w) as u32, "{h}x{w}");
        }
    }
}

/// Every rectangle of `board` against the seed recursion.
fn assert_matches_seed(board: &Board, dp: &RectDp) {
    let (rows, cols) = (board.rows(), board.cols());
    let mut memo = std::collections::HashMap::new();
    for (a, b) in (0..rows).flat_map(|a| (a + 1..=rows).map(move |b| (a, b))) {
        for (c0, c1) in (0..cols).flat_map(|c0| (c0 + 1..=cols).map(move |c1| (c0, c1))) {
            assert_eq!(dp.rect_grundy(a, b, c0, c1), seed_grundy(board, &mut memo, [a, b, c0, c1]), "{}", board.to_slashed());
        }
    }
}

/// Wide boards (ranges of one, two and three chunks of eight columns, rows with more than 16
/// free cells in a range) against the seed recursion, with both kernels.
#[test]
fn wide_boards_match_the_seed_recursion_with_both_kernels() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11717);
    for density in [0.0, 0.05, 0.3, 0.6, 0.9] {
        let shape = crate::games::wall::board::Shape::new(rng.random_range(1..=6), rng.random_range(15..=20));
        let board = crate::games::wall::search::generate::random_board(&mut rng, shape, density);
        assert_matches_seed(&board, &RectDp::with_simd(&board, false));
        if crate::bits::avx2_available() {
            assert_matches_seed(&board, &RectDp::with_simd(&board, true));
        }
    }
}

/// All rectangles and the winning moves of `board` with the AVX2 and the portable kernel.
fn assert_kernels_agree(board: &Board) {
    let (fast, portable) = (RectDp::with_simd(board, true), RectDp::with_simd(board, false));
    let (rows, cols) = (board.rows(), board.cols());
    assert_eq!(fast.by_right, portable.by_right, "{}", board.to_slashed());
    assert_eq!(fast.by_left, portable.by_left, "{}", board.to_slashed());
    assert_eq!(fast.winning_moves(), portable.winning_moves(), "{}", board.to_slashed());
    assert!(fast.rect_grundy(0, rows, 0, cols) == portable.grundy());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Random boards up to 20×20 at any density: the AVX2 kernel equals the portable one.
    #[test]
    fn avx2_kernel_equals_portable(rows in 1usize..=20, cols in 1usize..=20, density in 0.0f64..1.0, seed: u64) {
        use rand::SeedableRng;
        if crate::bits::avx2_available() {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let shape = crate::games::wall::board::Shape::new(rows, cols);
            assert_kernels_agree(&crate::games::wall::search::generate::random_board(&mut rng, shape, density));
        }
    }
}
