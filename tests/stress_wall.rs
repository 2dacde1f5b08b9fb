//! The stress harness, driven through the library, against the wall-game test programs in
//! examples/: each wrong one is caught with the right classification and shrunk; the right
//! one passes.

mod common;
use common::example_binary;

use sprague::games::wall::search::contest::WallContest;
use sprague::games::wall::claim::dp::RectDp;
use sprague::games::wall::search::generate::InnerMax;
use sprague::games::wall::{Board, Shape};
use sprague::stress::{judge, shrink, CommandLine, Contest, FailureKind, Generator, Limits, Plan, Pool, Runner, ShrinkLimits, Shrunk, Source, Verdict};
use std::time::Duration;

/// A test program built by cargo from examples/.
fn program(name: &str) -> CommandLine {
    CommandLine::parse(&example_binary(name).to_string_lossy()).unwrap()
}

fn limits(timeout_ms: u64) -> Limits {
    Limits { timeout: Duration::from_millis(timeout_ms), ..Limits::default() }
}

/// Runs `name` on the mix of `sources` until the first failure, then shrinks it.
fn catch(name: &str, game: &WallContest, sources: &[Source], limits: Limits, max_runs: u64) -> (Board, Shrunk<Board>) {
    let mut pool = Pool::new(&program(name), limits, 2).unwrap();
    let plan = Plan { budget: Some(Duration::from_secs(60)), max_failures: 1, max_runs: Some(max_runs) };
    let report = pool.run_stream(game, game.mixed(sources, 1), &plan, &|_| {}).unwrap();
    let found = report.found.into_iter().next().unwrap_or_else(|| panic!("{name}: no failure in {} runs", report.runs));
    let shrink_limits = ShrinkLimits { deadline: Some(std::time::Instant::now() + Duration::from_secs(240)), ..Default::default() };
    let shrunk = shrink(&mut pool, game, found.case.clone(), found.expected, found.fault, found.seconds, shrink_limits).unwrap();
    (found.case, shrunk)
}

/// The shrunk board fails the same way again, and no candidate of it does.
fn assert_minimal(name: &str, game: &WallContest, shrunk: &Shrunk<Board>, limits: Limits) {
    let mut runner = Runner::new(program(name), limits).unwrap();
    let mut buf = Vec::new();
    let again = judge(&mut runner, game, &shrunk.case, &mut buf).unwrap();
    assert!(matches!(&again.verdict, Verdict::Fail(f) if f.kind == shrunk.fault.kind), "{name}: {:?}", again.verdict);
    assert!(shrunk.minimal, "{name}: shrinking stopped early");
    for candidate in game.shrink_candidates(&shrunk.case) {
        let v = judge(&mut runner, game, &candidate, &mut buf).unwrap().verdict;
        assert!(!matches!(&v, Verdict::Fail(f) if f.kind == shrunk.fault.kind), "{name}: {} still fails", candidate.to_slashed());
    }
}

#[test]
fn right_program_passes_every_source() {
    let game = WallContest { exhaustive_max: Shape::new(3, 3) };
    let mut pool = Pool::new(&program("wall_right"), limits(2000), 2).unwrap();
    let plan = Plan { budget: Some(Duration::from_secs(60)), max_failures: 1, max_runs: Some(1500) };
    let report = pool.run_stream(&game, game.mixed(&Source::ALL, 5), &plan, &|_| {}).unwrap();
    assert!(report.found.is_empty(), "{:?}", report.found.first().map(|f| (f.case.to_slashed(), &f.fault)));
    assert_eq!(report.runs, 1500);
}

#[test]
fn xor_of_component_sizes_is_a_wrong_answer() {
    let game = WallContest { exhaustive_max: Shape::new(3, 3) };
    let (_, shrunk) = catch("wall_xor_components", &game, &[Source::Exhaustive], limits(2000), 2000);
    assert_eq!(shrunk.fault.kind, FailureKind::WrongAnswer);
    assert_minimal("wall_xor_components", &game, &shrunk, limits(2000));
    assert!(shrunk.case.shape().cells() <= 4, "{}", shrunk.case.to_slashed());
}

#[test]
fn rays_stopping_before_x_shrink_to_one_x_between_two_cells() {
    let game = WallContest { exhaustive_max: Shape::new(3, 3) };
    let (_, shrunk) = catch("wall_rays_stop", &game, &[Source::Exhaustive], limits(2000), 2000);
    assert_eq!(shrunk.fault.kind, FailureKind::WrongAnswer);
    assert!([".X.", "./X/."].contains(&shrunk.case.to_slashed().as_str()), "{}", shrunk.case.to_slashed());
    assert_eq!((shrunk.expected.as_str(), shrunk.fault.got.as_str()), ("First", "Second"));
}

#[test]
fn crash_on_the_largest_boards_shrinks_to_one_line_of_twenty() {
    let game = WallContest::default();
    let (orig, shrunk) = catch("wall_crash_large", &game, &[Source::Random, Source::Adversarial], limits(2000), 3000);
    assert_eq!(shrunk.fault.kind, FailureKind::Crash);
    assert!(shrunk.fault.exit.contains("SIGSEGV"), "{}", shrunk.fault.exit);
    assert!(orig.rows() == 20 || orig.cols() == 20);
    assert!(["20x1", "1x20"].contains(&shrunk.case.shape().to_string().as_str()), "{}", shrunk.case.to_slashed());
    assert_eq!(shrunk.case.x_count(), 0);
    assert_minimal("wall_crash_large", &game, &shrunk, limits(2000));
}

#[test]
fn exponential_recursion_is_a_time_limit_and_shrinks() {
    let game = WallContest::default();
    let (orig, shrunk) = catch("wall_slow", &game, &[Source::Random], limits(300), 3000);
    assert_eq!(shrunk.fault.kind, FailureKind::TimeLimit);
    assert!(shrunk.case.shape().cells() - shrunk.case.x_count() <= orig.shape().cells() - orig.x_count());
    assert!(shrunk.fault.exit.starts_with("time limit: "), "{}", shrunk.fault.exit);
}

#[test]
fn mex_in_a_32_bit_mask_fails_on_large_second_player_wins() {
    let game = WallContest::default();
    let (_, shrunk) = catch("wall_mex32", &game, &[Source::Adversarial], limits(2000), 400);
    assert_eq!(shrunk.fault.kind, FailureKind::WrongAnswer);
    let board = &shrunk.case;
    let dp = RectDp::new(board);
    let inner = InnerMax::new(&dp, board.rows(), board.cols()).get(0, board.rows(), 0, board.cols());
    assert!(inner >= 32, "a rectangle of value ≥ 32 is what breaks the mask; largest is {inner}");
    assert!(board.rows().min(board.cols()) >= 8, "{}", board.shape());
    assert_minimal("wall_mex32", &game, &shrunk, limits(2000));
    // Why: every sub-rectangle the board's moves leave is answered right, so the fault is in
    // combining them, and the largest of them (asked first) is one of value ≥ 32.
    let mut pool = Pool::new(&program("wall_mex32"), limits(2000), 2).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let cause = sprague::stress::smallest::cause(&mut pool, &game, board, FailureKind::WrongAnswer, deadline).unwrap();
    let largest = cause.split_once("(the fault is in combining them; the largest: ").unwrap_or_else(|| panic!("{cause}")).1;
    let value: u32 = largest.split_once("Grundy ").unwrap().1.split(')').next().unwrap().parse().unwrap();
    assert!(value >= 32, "{cause}");
}

#[test]
fn the_right_answer_is_the_trusted_solver() {
    let game = WallContest::default();
    let board = Board::from_slashed("X..../...X./...../.....").unwrap();
    assert_eq!(game.answer(&board).to_string(), "First");
}
