//! The catalogue games through the CLI (answers, bad input, verify exit codes) and against the
//! committed results.

mod common;
use common::sprague;

use predicates::prelude::*;
use proptest::prelude::*;
use sprague::game::{Args, Verb};
use sprague::games::commands;
use sprague::games::catalogue::divisor;
use sprague::impartial::{BruteForce, Impartial};
use sprague::stress::Source;

fn solve(game: &str, input: &str) -> assert_cmd::assert::Assert {
    sprague().args(["solve", game]).write_stdin(input).assert()
}

#[test]
fn answers() {
    let cases = [
        ("nim", "3\n1 2 3\n", "cubelover"),
        ("nim", "2\n1000000000 1\n", "koosaga"),
        ("nim-count", "3\n3 4 5\n", "1"),
        ("misere-nim", "3\n1 1 1\n", "cubelover"),
        ("misere-nim", "1\n1000000000\n", "koosaga"),
        ("odd-even-nim", "2\n3 6\n", "cubelover"),
        ("pimber", "1\n4\n", "cubelover"),
        ("pimber", "2\n4 9\n", "koosaga"),
        ("polygon", "5\n", "2"),
        ("polygon", "6\n", "1"),
        ("cross", "2\n", "2"),
        ("cross", "6\n", "2"),
        ("cross", "7\n", "1"),
        ("divisor", "999999999999999989\n", "cubelover"),
        ("divisor", "999999999999999999\n", "koosaga"),
    ];
    for (game, input, answer) in cases {
        solve(game, input).success().stdout(format!("{answer}\n"));
    }
}

#[test]
fn bad_input_exits_2_with_position() {
    let cases = [
        ("nim", "101\n", "<stdin>:1:1: N (number of piles) must be between 1 and 100"),
        ("nim", "2\n1 z\n", "<stdin>:2:3: expected pile size (a number)"),
        ("pimber", "1\n3000001\n", "<stdin>:2:1: pile size must be between 1 and 3000000"),
        ("polygon", "3\n0 0\n1 0\n", "<stdin>:3:4: expected x coordinate of vertex 3 of 3, found end of input"),
        ("polygon", "3\n0 0\n1 1\n2 2\n", "<stdin>:2:1: vertex 1 lies on the line through vertices 2 and 3"),
        ("polygon", "4\n0 0\n1 0\n0 0\n0 1\n", "<stdin>:4:1: vertex 3 (0, 0) repeats vertex 1 (line 2)"),
        ("cross", "0\n", "<stdin>:1:1: N (strip length) must be between 1 and 2000"),
        ("divisor", "1000000000000000001\n", "<stdin>:1:1: N must be between 1 and"),
        ("divisor", "12 13\n", "<stdin>:1:4: unexpected extra input"),
    ];
    for (game, input, message) in cases {
        solve(game, input).code(2).stderr(predicate::str::contains(message));
    }
}

#[test]
fn verify_writes_files_and_flags_the_cross_claim() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nim");
    let mut cmd = sprague();
    cmd.args(["verify", "odd-even-nim", "--piles", "3", "--max", "6", "--heaps", "20", "-q", "--out"]).arg(&out);
    cmd.assert().success();
    for file in ["summary.csv", "distribution.csv", "mismatches.csv", "sequence.csv", "manifest.json"] {
        assert!(out.join(file).exists(), "{file}");
    }
    let sequence = std::fs::read_to_string(out.join("sequence.csv")).unwrap();
    assert!(sequence.starts_with("game,n,grundy\nodd-even-nim,0,0\nodd-even-nim,1,1\nodd-even-nim,2,0\nodd-even-nim,3,2\n"));

    let out = dir.path().join("cross");
    let mut cmd = sprague();
    cmd.args(["verify", "cross", "--max", "10", "-q", "--out"]).arg(&out);
    cmd.assert().code(1);
    assert_eq!(
        std::fs::read_to_string(out.join("mismatches.csv")).unwrap(),
        "game,rule,strips,cells,strip,dp_grundy,naive_grundy,naive_outcome\ncross,published,1,2,..,1,0,Second\n"
    );
}

#[test]
fn verify_rejects_bad_options() {
    let mut cmd = sprague();
    cmd.args(["verify", "divisor", "--max", "999", "-q", "--out", "/nonexistent/x"]);
    cmd.assert().code(2).stderr(predicate::str::contains("power of ten"));
    let mut cmd = sprague();
    cmd.args(["verify", "nim", "--claim", "misere", "--max", "2", "-q", "--out", "/nonexistent/x"]);
    cmd.assert().code(2).stderr(predicate::str::contains("unexpected argument '--claim'"));
}

/// polygon, cross and divisor: a --max past the brute force is refused before any work (exit 2,
/// naming the limit), a small one runs (their time estimates: catalogue::run's unit tests).
#[test]
fn verify_refuses_a_huge_max_and_runs_a_small_one() {
    for (game, huge, limit) in [("polygon", "1000000", "--max at most 16"), ("cross", "1000000", "--max at most 28"), ("divisor", "1000000000000", "--max at most 10^8")] {
        let mut cmd = sprague();
        cmd.args(["verify", game, "--max", huge, "-q", "--out", "/nonexistent/x"]);
        cmd.assert().code(2).stderr(predicate::str::contains(format!("--max {huge} is beyond what the {game} brute force handles ({limit}")));
    }
    let dir = tempfile::tempdir().unwrap();
    for (game, small) in [("polygon", "8"), ("divisor", "100")] {
        let mut cmd = sprague();
        cmd.args(["verify", game, "--max", small, "-q", "--out"]).arg(dir.path().join(game));
        cmd.assert().success();
    }
}

proptest! {
    #[test]
    fn big_omega_is_additive(a in 1u64..1_000_000_000, b in 1u64..1_000_000_000) {
        prop_assert_eq!(divisor::big_omega(a * b), divisor::big_omega(a) + divisor::big_omega(b));
    }
}

/// The numbers of `input`: N, then (Nim family) the piles or (polygon) the vertices.
fn numbers(input: &[u8]) -> Vec<i64> {
    String::from_utf8_lossy(input).split_whitespace().map(|t| t.parse().unwrap()).collect()
}

/// The winner's word the brute force (whole positions, never the claim) gives `position`.
fn truth<G: Impartial>(game: &G, position: G::Position, answers: &[&str]) -> String {
    let first_wins = BruteForce::new(game).first_player_wins(&position);
    answers[usize::from(!first_wins)].to_string()
}

/// Nim's winning first moves by brute force: pile i (each pile counts, equal ones too) taken
/// down to any smaller size that leaves a lost position.
fn winning_moves(piles: &[u32]) -> String {
    let mut brute = BruteForce::new(&sprague::games::catalogue::nim::Nim);
    let after = |i: usize, size: u32| {
        let mut next: Vec<u32> = piles.iter().enumerate().map(|(j, &p)| if j == i { size } else { p }).filter(|&p| p > 0).collect();
        next.sort_unstable();
        next
    };
    let moves = (0..piles.len()).flat_map(|i| (0..piles[i]).map(move |size| (i, size)));
    moves.filter(|&(i, size)| !brute.first_player_wins(&after(i, size))).count().to_string()
}

/// Every catalogue game: `solve` answers the true game (the brute force on the position the
/// input describes) on the smallest inputs of its exhaustive generator.
#[test]
fn solve_answers_what_the_brute_force_finds() {
    use sprague::games::catalogue::{cross, divisor::Divisor, entries, misere_nim::MisereNim, nim, odd_even_nim::OddEvenNim, pimber::Pimber, polygon::Polygon};
    let games = [&entries::NIM, &entries::NIM_COUNT, &entries::MISERE_NIM, &entries::ODD_EVEN_NIM, &entries::PIMBER, &entries::POLYGON, &entries::CROSS, &entries::DIVISOR];
    for game in games {
        let stress = commands(Verb::Stress).into_iter().find(|c| c.spec().name == game.name).unwrap();
        let defaults = stress.spec().options.iter().filter_map(|o| o.default.map(|d| (o.name, d))).fold(Args::new(), |a, (k, v)| a.with(k, v));
        let side = stress.stress_side(&defaults.with("cmd", "true")).unwrap().unwrap();
        let samples = side.samples(Source::Exhaustive, 1, 60);
        let mut checked = 0;
        for input in samples.iter().map(|(input, _)| input).filter(|input| numbers(input)[0] <= 12) {
            let (n, piles) = (numbers(input)[0] as u64, numbers(input)[1..].iter().map(|&p| p as u32).collect::<Vec<_>>());
            let mut sorted = piles.clone();
            sorted.sort_unstable();
            let want = match game.name {
                "nim" => truth(&nim::Nim, sorted, game.answers),
                "nim-count" => winning_moves(&piles),
                "misere-nim" => truth(&MisereNim, sorted, game.answers),
                "odd-even-nim" => truth(&OddEvenNim, sorted, game.answers),
                "pimber" => truth(&Pimber, sorted, game.answers),
                "polygon" => truth(&Polygon, (n as u32, 0), game.answers),
                "cross" => truth(&cross::Cross(cross::CrossClaim::Solver), (n as u32, 0), game.answers),
                _ => truth(&Divisor, n, game.answers),
            };
            let text = String::from_utf8_lossy(input);
            assert_eq!((game.solve)("<test>", &text).unwrap(), want, "{}: {text}", game.name);
            checked += 1;
        }
        assert!(checked >= 8, "{}: {checked} inputs", game.name);
    }
}
