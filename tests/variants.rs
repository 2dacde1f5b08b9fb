//! Rule variants as controls: each false claim is caught at the smallest size where it fails,
//! the t-split claim holds, and counterexample shrinking is deterministic and minimal.

mod common;
use common::sprague;

use proptest::prelude::*;
use sprague::games::wall::{claim, naive, Board, Rule, Shape};
use sprague::games::wall::board::smaller::{size_key, smaller_neighbours};
use sprague::games::wall::verify::shrink::{claim_fails, minimal_counterexamples, Shrinker};
use sprague::games::wall::verify::verify_shape;
use sprague::runner::Shard;
use sprague::games::wall::search::contest::WallContest;
use sprague::stress::{shrink, CommandLine, Limits, Pool, ShrinkLimits, Verdict};

/// Boards of `shape` on which the rule's claim fails, via the reference verifier.
fn mismatches(shape: Shape, rule: Rule) -> Vec<String> {
    let results = verify_shape(shape, rule, Shard::ALL).unwrap();
    results.mismatch_rows().into_iter().map(|m| m.board).collect()
}

/// The fewest cells at which the claim fails, with every failing board of that many cells.
fn first_failure(rule: Rule, max_cells: usize) -> Option<(usize, Vec<String>)> {
    (1..=max_cells).find_map(|cells| {
        let shapes = (1..=cells).filter(|r| cells % r == 0).map(|r| Shape::new(r, cells / r));
        let failing: Vec<String> = shapes.flat_map(|s| mismatches(s, rule)).collect();
        (!failing.is_empty()).then_some((cells, failing))
    })
}

fn board(text: &str) -> Board {
    Board::from_slashed(text).unwrap()
}

fn all_boards_up_to(max: Shape) -> impl Iterator<Item = Board> {
    (1..=max.rows)
        .flat_map(move |r| (1..=max.cols).map(move |c| Shape::new(r, c)))
        .flat_map(|s| (0..1u64 << s.cells()).map(move |x| Board::from_mask(s, x)))
}

#[test]
fn x_blocks_is_caught_at_three_cells() {
    // No board of 1 or 2 cells (1x1, 1x2, 2x1) fails; of 3 cells exactly `.X.` and its
    // transpose do: the DP walls the X and sees one move (value 1), but under x-blocks the
    // rays stop at the X, both '.' cells stay playable, and the game lasts two moves (value 0).
    assert_eq!(first_failure(Rule::XBlocks, 4), Some((3, vec![".X.".to_string(), "./X/.".to_string()])));
    let b = board(".X.");
    assert_eq!(claim::claimed_grundy(&b, Rule::XBlocks), 1);
    assert_eq!(naive::solve(&b, Rule::XBlocks).unwrap().grundy, 0);
    assert!(mismatches(Shape::new(2, 2), Rule::XBlocks).is_empty());
}

#[test]
fn misere_is_caught_at_one_cell() {
    // On `.` the DP value is 1 ("First wins"), but the first player must take the cell and the
    // second, left without a move, wins; on `X` it is the other way round.
    assert_eq!(first_failure(Rule::Misere, 4), Some((1, vec![".".to_string(), "X".to_string()])));
    assert!(!naive::solve(&board("."), Rule::Misere).unwrap().first_player_wins);
    assert!(naive::solve(&board("X"), Rule::Misere).unwrap().first_player_wins);
}

#[test]
fn standard_and_t_split_hold_on_every_pattern_up_to_4x4() {
    for rule in [Rule::Standard, Rule::TSplit] {
        for r in 1..=4 {
            for c in 1..=4 {
                let results = verify_shape(Shape::new(r, c), rule, Shard::ALL).unwrap();
                assert!(results.all_agree(), "{rule} {r}x{c}: {:?}", results.mismatch_rows().first());
                assert_eq!(results.sizes[&(r as u32, c as u32)].patterns, 1 << (r * c));
            }
        }
    }
}

#[test]
fn t_split_values_differ_from_standard() {
    // A column is a Nim heap of its height under t-split; under the standard rule any move in
    // a column walls it all.
    let column = board("./././.");
    assert_eq!(claim::claimed_grundy(&column, Rule::TSplit), 4);
    assert_eq!(naive::solve(&column, Rule::TSplit).unwrap().grundy, 4);
    assert_eq!(claim::claimed_grundy(&column, Rule::Standard), 1);
}

#[test]
fn shrinking_is_deterministic_and_minimal() {
    for rule in [Rule::XBlocks, Rule::Misere] {
        let failing: Vec<Board> =
            all_boards_up_to(Shape::new(3, 4)).filter(|b| claim_fails(b, rule).unwrap()).collect();
        let forward = minimal_counterexamples(&failing, rule).unwrap();
        let reversed: Vec<Board> = failing.iter().rev().cloned().collect();
        assert_eq!(minimal_counterexamples(&reversed, rule).unwrap(), forward, "{rule}");
        let keys: Vec<_> = forward.iter().map(size_key).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{rule}: sorted and distinct");
        for minimal in &forward {
            assert!(claim_fails(minimal, rule).unwrap());
            for n in smaller_neighbours(minimal) {
                assert!(!claim_fails(&n, rule).unwrap(), "{rule}: {} shrinks further to {}", minimal.to_slashed(), n.to_slashed());
            }
        }
        let first = forward[0].to_slashed();
        assert_eq!(first, if rule == Rule::XBlocks { ".X." } else { "." });
    }
    // Every x-blocks counterexample up to 3x4 shrinks to the two smallest ones.
    let failing: Vec<Board> =
        all_boards_up_to(Shape::new(3, 4)).filter(|b| claim_fails(b, Rule::XBlocks).unwrap()).collect();
    let texts: Vec<String> = minimal_counterexamples(&failing, Rule::XBlocks).unwrap().iter().map(Board::to_slashed).collect();
    assert_eq!(texts, [".X.", "./X/."]);
}

/// `stress wall` shrinks as `verify --shrink` does: a program that plays misère (this binary's
/// `solve wall --rules misere`) is wrong exactly where the misère claim fails, and the stress
/// shrinker, judging it, takes each failing board to the board [`Shrinker`] reaches with the
/// oracle. (Stress used to try halves, rows, columns and cleared X, from where the last
/// reduction stood, and stopped elsewhere.)
#[test]
fn stress_and_verify_shrink_a_failing_variant_to_the_same_board() {
    let solver = format!("{} solve wall --rules misere", assert_cmd::cargo::cargo_bin("sprague").display());
    let mut pool = Pool::new(&CommandLine::parse(&solver).unwrap(), Limits::default(), 2).unwrap();
    let game = WallContest::default();
    let mut shrinker = Shrinker::new(Rule::Misere);
    for (text, minimal) in STARTS {
        let start = board(text);
        let judged = pool.judge_all(&game, std::slice::from_ref(&start)).unwrap().remove(0);
        let Verdict::Fail(fault) = judged.verdict else { panic!("{text}: the misère program passes") };
        assert!(claim_fails(&start, Rule::Misere).unwrap(), "{text}");
        let stressed = shrink(&mut pool, &game, start.clone(), judged.expected, fault, judged.seconds, ShrinkLimits::default()).unwrap();
        assert!(stressed.minimal, "{text}");
        assert_eq!(shrinker.shrink(&start).unwrap().to_slashed(), minimal, "{text}");
        assert_eq!(stressed.case.to_slashed(), minimal, "{text}");
    }
}

/// Misère counterexamples on which the old stress order stopped elsewhere (at a board with a
/// failing smaller neighbour, or at another minimal one), with where they shrink: `.`, the
/// empty 3×3, 3×5 and 4×4, and the 4×4 boards with X of results/wall/misere/counterexamples.csv.
const STARTS: [(&str, &str); 6] = [
    (".X.X/X.X./..../....", "."),
    ("X..X/..../..../....", ".../.../..."),
    ("....X/XX.../...../.....", "...../...../....."),
    (".X.X/XX../.X../....", "..../..../..../...."),
    ("X.XX/..../..../X...", "...X/..../..../X..."),
    ("X.../X.../.XXX/...X", "X.../..../..../...X"),
];

fn arb_board(max_side: usize) -> impl Strategy<Value = Board> {
    (1..=max_side, 1..=max_side)
        .prop_flat_map(|(r, c)| (Just(Shape::new(r, c)), any::<u64>()))
        .prop_map(|(shape, bits)| Board::from_mask(shape, bits & shape.full_mask()))
}

proptest! {
    #[test]
    fn t_split_dp_equals_oracle_up_to_6x6(b in arb_board(6)) {
        let claimed = claim::solve(&b, Rule::TSplit);
        let truth = naive::solve(&b, Rule::TSplit).unwrap();
        prop_assert_eq!(claimed.grundy, truth.grundy);
        prop_assert_eq!(claimed.winning_moves, naive::winning_moves(&b, Rule::TSplit).unwrap());
    }

    #[test]
    fn shrinking_one_board_ignores_what_was_shrunk_before(b in arb_board(4), other in arb_board(4)) {
        prop_assume!(claim_fails(&b, Rule::XBlocks).unwrap());
        let fresh = Shrinker::new(Rule::XBlocks).shrink(&b).unwrap();
        let mut warm = Shrinker::new(Rule::XBlocks);
        if claim_fails(&other, Rule::XBlocks).unwrap() {
            warm.shrink(&other).unwrap();
        }
        prop_assert_eq!(&warm.shrink(&b).unwrap(), &fresh);
        prop_assert!(size_key(&fresh) <= size_key(&b));
    }
}

#[test]
fn cli_verify_shrink_writes_counterexamples_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    sprague()
        .args(["verify", "wall", "--max", "2x3", "--rules", "x-blocks", "--shrink", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("first counterexample: rows 1, cols 3, board .X. — claim 1, naive 0\n"));
    let csv = std::fs::read_to_string(dir.path().join("counterexamples.csv")).unwrap();
    assert_eq!(csv, "game,rule,rows,cols,board,claimed,actual\nwall,x-blocks,1,3,.X.,1,0\n");
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert!(summary.contains("\nwall,x-blocks,1,3,8,1,"), "{summary}");
}

#[test]
fn cli_verify_t_split_agrees() {
    let dir = tempfile::tempdir().unwrap();
    sprague().args(["verify", "wall", "--max", "3x3", "--rules", "t-split", "--shrink", "-q", "--out"]).arg(dir.path()).assert().code(0);
    let csv = std::fs::read_to_string(dir.path().join("counterexamples.csv")).unwrap();
    assert_eq!(csv, "game,rule,rows,cols,board,claimed,actual\n");
}

#[test]
fn cli_solve_rule() {
    let solve = |args: &[&str], input: &str| {
        let out = sprague().args(["solve", "wall"]).args(args).write_stdin(input).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    // Misère and x-blocks: the answer is the rules' own (the naive engine, by default); the
    // claim's answer, known false there, is given only when asked for, and labelled.
    assert_eq!(solve(&["--rules", "misere"], "1 1\n.\n"), "Second\n");
    assert_eq!(solve(&["--rules", "misere", "--engine", "naive"], "1 1\n.\n"), "Second\n");
    assert_eq!(solve(&["--rules", "misere", "--engine", "claim"], "1 1\n.\n"), "First (claim: rectangle DP, known false under misere rules)\n");
    // Under misère the Grundy value does not decide the winner: JSON has none (1×2: the first
    // move fills the row, so the first player is the last to move and loses).
    let misere = solve(&["--rules", "misere", "--format", "json"], "1 2\n..\n");
    assert_eq!(misere, "{\"rows\":1,\"cols\":2,\"winner\":\"Second\",\"winning_moves\":[],\"engine\":\"naive\",\"exact\":true}\n");
    let x_blocks = solve(&["--rules", "x-blocks", "--format", "json"], "1 3\n.X.\n");
    assert_eq!(x_blocks, "{\"rows\":1,\"cols\":3,\"grundy\":0,\"winner\":\"Second\",\"winning_moves\":[],\"engine\":\"naive\",\"exact\":true}\n");
    let claim = solve(&["--rules", "x-blocks", "--format", "json", "--engine", "claim"], "1 3\n.X.\n");
    assert!(claim.contains("\"winner\":\"First\"") && claim.contains("\"engine\":\"claim\",\"exact\":false"), "{claim}");
    // T-split: a column of 3 is a Nim heap of 3; the winning move takes the top cell (the
    // claim, verified under t-split, answers by default).
    let want = |engine: &str| format!("{{\"rows\":3,\"cols\":1,\"grundy\":3,\"winner\":\"First\",\"winning_moves\":[[0,0]],\"engine\":\"{engine}\",\"exact\":true}}\n");
    for engine in ["claim", "naive"] {
        assert_eq!(solve(&["--rules", "t-split", "--format", "json", "--engine", engine], "3 1\n.\n.\n.\n"), want(engine));
    }
    assert_eq!(solve(&["--rules", "t-split", "--format", "json"], "3 1\n.\n.\n.\n"), want("claim"));
    let err = sprague().args(["solve", "wall", "--rules", "nope"]).write_stdin("1 1\n.\n").assert().code(2);
    let stderr = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("unknown rule \"nope\" (expected one of: standard, x-blocks, misere, t-split)"), "{stderr}");
}
