//! Tests of the wall's explorer: values equal `wall::solve` and the naive oracle, every move's
//! value equals a fresh analysis of the position it leads to, bad positions are refused.

use super::*;
use crate::games::wall::board::rules::Rule;
use crate::games::wall::{naive, parse_board, solve};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn analyse(text: &str) -> Analysis {
    WallExplorer.analyse(text).unwrap()
}

fn random_board_text(rng: &mut ChaCha8Rng, max_side: usize) -> String {
    let (rows, cols) = (rng.random_range(1..=max_side), rng.random_range(1..=max_side));
    let density = rng.random_range(0.0..0.5);
    let mut text = format!("{rows} {cols}\n");
    for _ in 0..rows {
        text.extend((0..cols).map(|_| if rng.random_bool(density) { 'X' } else { '.' }));
        text.push('\n');
    }
    text
}

/// The board's value and winning moves by `wall::solve`, against the explorer's.
fn assert_agrees_with_solve(text: &str) {
    let analysis = analyse(text);
    let solution = solve(&parse_board(text).unwrap());
    assert_eq!(analysis.value, Some(solution.grundy as u64), "{text}");
    assert_eq!(analysis.winner, Winner::of_value(solution.grundy as u64));
    let winning: Vec<String> = analysis.moves.iter().filter(|m| m.winning).map(|m| m.name.clone()).collect();
    let expected: Vec<String> = solution.winning_moves.iter().map(|(r, c)| format!("{} {}", r + 1, c + 1)).collect();
    assert_eq!(winning, expected, "{text}");
    assert_eq!(analysis.position, text, "the position text is kept as it is when normalized");
}

#[test]
fn the_problems_samples_agree_with_solve() {
    assert_agrees_with_solve("2 2\n..\n..\n");
    assert_agrees_with_solve("2 2\nX.\n..\n");
    assert_agrees_with_solve("4 5\nX....\n...X.\n.....\n.....\n");
    assert_eq!(analyse("2 2\n..\n..\n").winner, Winner::Second);
    assert_eq!(analyse("4 5\nX....\n...X.\n.....\n.....\n").winner, Winner::First);
}

#[test]
fn random_boards_agree_with_solve() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    for _ in 0..200 {
        assert_agrees_with_solve(&random_board_text(&mut rng, MAX_SIDE));
    }
}

#[test]
fn move_values_agree_with_the_naive_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(11717);
    for _ in 0..40 {
        let text = random_board_text(&mut rng, 4);
        let oracle = naive::move_values(&parse_board(&text).unwrap(), Rule::Standard).unwrap();
        let shown: Vec<((usize, usize), u32)> = analyse(&text).moves.iter().map(|m| (cell_of(&m.name), m.value.unwrap() as u32)).collect();
        assert_eq!(shown, oracle, "{text}");
    }
}

fn cell_of(name: &str) -> (usize, usize) {
    let mut numbers = name.split(' ').map(|n| n.parse::<usize>().unwrap() - 1);
    (numbers.next().unwrap(), numbers.next().unwrap())
}

/// Plays random games from random boards: each move's value, parts and walls against a fresh
/// analysis of the position it leads to.
#[test]
fn every_move_value_equals_a_fresh_analysis_of_its_position() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..30 {
        let mut analysis = analyse(&random_board_text(&mut rng, 12));
        while !analysis.moves.is_empty() {
            for m in &analysis.moves {
                let after = analyse(&m.position);
                assert_eq!(after.value, m.value, "{} then {}", analysis.position, m.name);
                assert_eq!(m.winning, m.value == Some(0));
                let parts = m.detail["parts"].as_array().unwrap();
                let xor = parts.iter().fold(analysis.value.unwrap() ^ region_value(&analysis, &m.name), |x, p| x ^ p["value"].as_u64().unwrap());
                assert_eq!(Some(xor), m.value, "the parts' values add up");
                assert!(m.position.matches('#').count() >= analysis.position.matches('#').count() + m.detail["walls"].as_array().unwrap().len());
            }
            let next = rng.random_range(0..analysis.moves.len());
            analysis = analyse(&analysis.moves[next].position);
        }
        assert_eq!(analysis.value, Some(0), "no move left: value 0");
    }
}

/// The value of the region holding move `name`'s cell, from the drawing.
fn region_value(analysis: &Analysis, name: &str) -> u64 {
    let (r, c) = cell_of(name);
    let regions = analysis.drawing["regions"].as_array().unwrap();
    let inside = |g: &serde_json::Value, key: &str, size: &str, at: usize| (g[key].as_u64().unwrap() as usize..(g[key].as_u64().unwrap() + g[size].as_u64().unwrap()) as usize).contains(&at);
    let region = regions.iter().find(|g| inside(g, "top", "rows", r) && inside(g, "left", "cols", c)).unwrap();
    region["value"].as_u64().unwrap()
}

#[test]
fn a_move_builds_the_cross_of_its_region_and_splits_it_in_four() {
    let analysis = analyse("3 3\n...\n...\n...\n");
    let centre = analysis.moves.iter().find(|m| m.name == "2 2").unwrap();
    assert_eq!(centre.position, "3 3\n.#.\n###\n.#.\n");
    assert_eq!(centre.detail["walls"], json!([[1, 0], [1, 1], [1, 2], [0, 1], [2, 1]]));
    let parts = centre.detail["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 4);
    assert_eq!(parts[3], json!({"top": 2, "left": 2, "rows": 1, "cols": 1, "value": 1}));
    // A corner move leaves one rectangle: the empty parts are dropped.
    let corner = analysis.moves.iter().find(|m| m.name == "1 1").unwrap();
    assert_eq!(corner.detail["parts"], json!([{"top": 1, "left": 1, "rows": 2, "cols": 2, "value": 0}]));
    assert_eq!(analysis.drawing["regions"], json!([{"top": 0, "left": 0, "rows": 3, "cols": 3, "value": analysis.value}]));
}

#[test]
fn walls_cross_marked_cells_and_a_position_with_walls_is_a_sum() {
    // The X on the centre's row becomes wall; the two 1×3 strips are independent.
    let analysis = analyse("3 3\nX..\n...\n...\n");
    let m = analysis.moves.iter().find(|m| m.name == "2 2").unwrap();
    assert_eq!(m.position, "3 3\nX#.\n###\n.#.\n");
    let sum = analyse("3 3\n...\n###\n...\n");
    assert_eq!(sum.value, Some(0), "two equal rectangles cancel");
    assert_eq!(sum.drawing["regions"].as_array().unwrap().len(), 2);
}

#[test]
fn a_region_that_is_not_a_rectangle_is_refused_at_its_cell() {
    let error = WallExplorer.analyse("3 3\n...\n.##\n.#.\n").unwrap_err().to_string();
    assert!(error.starts_with("position:3:2: the region of non-wall cells from row 1 column 1 is not a rectangle"), "{error}");
    assert!(matches!(WallExplorer.analyse("2 2\n.#\n#.\n"), Ok(a) if a.value == Some(0)), "two 1×1 regions");
}

#[test]
fn malformed_and_oversized_positions_are_refused_with_the_place_or_the_reason() {
    let cases = [
        ("2 2\n..\n.a\n", "position:3:2: 'a' is not '.', 'X' or '#'"),
        ("2 2\n..\n", "position:3:1: missing board row 2 of 2"),
        ("2 x\n", "position:1:3: expected W (columns) (a number), found \"x\""),
        ("2 2\n...\n..\n", "position:2:3: board row 1 has 3 cells, expected 2"),
        ("1 1\n.\n.\n", "position:3:1: unexpected extra input \".\""),
        ("0 0\n", "position:1:1: H (rows) must be between 1 and 20, found 0"),
        ("-1 2\n", "position:1:1: H (rows) must be between 1 and 20, found -1"),
        ("2 99999999999999999999\n", "position:1:3: W (columns) must be between 1 and 20, found 99999999999999999999"),
    ];
    for (text, expected) in cases {
        assert_eq!(WallExplorer.analyse(text).unwrap_err().to_string(), expected, "{text:?}");
    }
    let error = WallExplorer.analyse("30 20\n").unwrap_err();
    assert!(matches!(&error, Error::Usage(m) if m.starts_with("a 30×20 board is past the contest limit of 20×20") && m.contains("97650 sub-rectangles")), "{error}");
    let error = Position::parse("18446744073709551615 18446744073709551615\n").unwrap_err().to_string();
    assert!(error.contains("18446744073709551615×18446744073709551615 board") && error.ends_with("(this board has about 2.89e76 sub-rectangles to solve)"), "{error}");
}
