//! The rectangle DP against the independent naive oracle, on every X-pattern up to 4×4.

use proptest::prelude::*;
use sprague::games::wall::{claim::dp, naive, Board, Rule, Shape};

fn check(board: &Board) {
    let claimed = dp::solve(board);
    let oracle = naive::solve(board, Rule::Standard).unwrap();
    assert_eq!(claimed.grundy, oracle.grundy, "Grundy of {}", board.to_slashed());
    assert_eq!(claimed.grundy != 0, oracle.first_player_wins, "outcome of {}", board.to_slashed());
}

#[test]
fn problem_samples() {
    let answers = [("../..", false), ("X./..", true), ("X..../...X./...../.....", true)];
    for (text, first_wins) in answers {
        let board = Board::from_slashed(text).unwrap();
        assert_eq!(dp::solve(&board).grundy != 0, first_wins, "{text}");
        assert_eq!(naive::solve(&board, Rule::Standard).unwrap().first_player_wins, first_wins, "{text}");
    }
}

#[test]
fn dp_equals_oracle_on_every_pattern_up_to_4x4() {
    let mut boards = 0u64;
    for rows in 1..=4 {
        for cols in 1..=4 {
            let shape = Shape::new(rows, cols);
            for x in 0..1u64 << shape.cells() {
                check(&Board::from_mask(shape, x));
                boards += 1;
            }
        }
    }
    // Σ over h, w ≤ 4 of 2^(h·w).
    assert_eq!(boards, 2 + 2 * 4 + 2 * 8 + 2 * 16 + 16 + 2 * 64 + 2 * 256 + 512 + 2 * 4096 + 65536);
}

fn arb_board() -> impl Strategy<Value = Board> {
    (1usize..=6, 1usize..=6)
        .prop_flat_map(|(r, c)| (Just(Shape::new(r, c)), any::<u64>()))
        .prop_map(|(shape, bits)| Board::from_mask(shape, bits & shape.full_mask()))
}

proptest! {
    #[test]
    fn dp_equals_oracle_up_to_6x6(board in arb_board()) {
        check(&board);
    }

    #[test]
    fn winning_moves_reach_zero_and_no_move_keeps_the_value(board in arb_board()) {
        let sol = dp::solve(&board);
        let children = naive::move_values(&board, Rule::Standard).unwrap();
        for &(cell, value) in &children {
            prop_assert_ne!(value, sol.grundy, "move {:?} keeps the value of {}", cell, board.to_slashed());
        }
        let zero: Vec<_> = children.iter().filter(|c| c.1 == 0).map(|c| c.0).collect();
        prop_assert_eq!(&sol.winning_moves, &zero);
        prop_assert_eq!(sol.grundy == 0, sol.winning_moves.is_empty());
    }
}
