//! The worked game programs of examples/games/ (docs/custom-programs.md, "Worked examples")
//! through the library: each runs as a pool of processes (`GameProgram`), its positions are
//! explored and solved by brute force (`Explorer`), and the exact values are compared with the
//! published ones (Kayles, OEIS A002186), sprague's own Grundy's-game brute force and the
//! period-7 subtraction game; the wrong Kayles claim is caught and shrunk with `smaller` to its
//! smallest counterexample.

mod common;
use common::example_game;

use sprague::custom::program::protocol::{self, Verb};
use sprague::custom::program::{Ask, Explorer, GameProgram, GraphLimits, ProgramLimits};
use sprague::games::grundy::verify::sequence;
use sprague::games::octal::brute::{self, WholePositions};
use sprague::games::octal::totals::partitions;
use sprague::impartial::{BruteForce, Convention};
use sprague::stress::CommandLine;
use std::sync::Arc;

/// Kayles, OEIS A002186, n = 0..=20 as published.
const KAYLES: [u32; 21] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1];
/// The subtraction game {1, 3, 4}: period 7 from the start.
const SUBTRACTION: [u32; 7] = [0, 1, 0, 1, 2, 3, 2];

fn start(command: &str) -> Arc<GameProgram> {
    let command = CommandLine::parse(command).unwrap();
    Arc::new(GameProgram::start(command, 2, ProgramLimits::default()).unwrap())
}

fn python(file: &str) -> Arc<GameProgram> {
    start(&format!("python3 {}", example_game(file).display()))
}

/// Every position of sizes 0..=max, in order, with its size, and the explorer that solved them.
struct Run {
    program: Arc<GameProgram>,
    explorer: Explorer,
    positions: Vec<(u32, u32)>,
}

impl Run {
    fn new(program: Arc<GameProgram>, max: u32) -> Run {
        let sizes: Vec<String> = (0..=max).map(|n| n.to_string()).collect();
        let args: Vec<&str> = sizes.iter().map(String::as_str).collect();
        let answers = program.ask(Verb::Positions, &args).unwrap();
        let mut explorer = Explorer::new(program.clone(), Convention::Normal, GraphLimits::default());
        let mut positions = Vec::new();
        for (size, answer) in (0..).zip(&answers) {
            positions.extend(explorer.intern_all(answer, "positions").unwrap().into_iter().map(|id| (size, id)));
        }
        let ids: Vec<u32> = positions.iter().map(|&(_, id)| id).collect();
        explorer.values(&ids).unwrap();
        Run { program, explorer, positions }
    }

    fn tokens(&self) -> Vec<&str> {
        self.positions.iter().map(|&(_, id)| self.explorer.token(id)).collect()
    }

    /// The exact value of `token` (explored and solved if new).
    fn exact(&mut self, token: &str) -> u32 {
        let id = self.explorer.intern(token, "test").unwrap();
        self.explorer.values(&[id]).unwrap()[0]
    }

    /// The program's numbers (`claim`, `size`) for `tokens`.
    fn numbers(&self, verb: Verb, tokens: &[&str]) -> Vec<u32> {
        let answers = self.program.ask(verb, tokens).unwrap();
        answers.iter().map(|a| protocol::number(a, false).unwrap().unwrap()).collect()
    }

    /// Every position's claim equals its exact value, and so does the XOR of its components'.
    fn assert_claim_and_components_agree(&mut self) {
        let tokens: Vec<String> = self.tokens().into_iter().map(str::to_string).collect();
        let args: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let claims = self.numbers(Verb::Claim, &args);
        let parts = self.program.ask(Verb::Components, &args).unwrap();
        for ((token, claim), parts) in tokens.iter().zip(claims).zip(parts) {
            let exact = self.exact(token);
            assert_eq!(claim, exact, "claim of {token}");
            let parts = protocol::components(&parts).unwrap().expect("every position splits into its rows");
            let xor = parts.iter().fold(0, |x, part| x ^ self.exact(part));
            assert_eq!(xor, exact, "components of {token}: {parts:?}");
        }
    }
}

#[test]
fn kayles_rows_and_their_sums_have_the_published_values() {
    let mut run = Run::new(python("kayles.py"), 20);
    assert_eq!(run.program.verbs().names(), "positions moves claim components size smaller");
    // Every multiset of rows with at most 20 pins: p(0) + … + p(20) positions.
    assert_eq!(run.positions.len(), (0..=20).map(|n| partitions(n).len()).sum::<usize>());
    let rows: Vec<u32> = (0..=20).map(|n| run.exact(&n.to_string())).collect();
    assert_eq!(rows, KAYLES);
    run.assert_claim_and_components_agree();
}

#[test]
fn grundy_program_agrees_with_sprague_s_own_brute_force() {
    const MAX: u16 = 16;
    let mut run = Run::new(python("grundy.py"), MAX.into());
    let heaps: Vec<u32> = (0..=MAX).map(|n| run.exact(&n.to_string())).collect();
    assert_eq!(heaps, sequence(MAX).iter().map(|row| row.grundy).collect::<Vec<_>>());
    let code = sprague::games::grundy::code();
    let game = WholePositions(&code);
    let mut brute = BruteForce::new(&game);
    for total in 1..=MAX {
        for heaps in partitions(total) {
            let token = heaps.iter().map(u16::to_string).collect::<Vec<_>>().join(".");
            let whole: Vec<usize> = heaps.iter().map(|&h| usize::from(h)).collect();
            assert_eq!(run.exact(&token), brute::solve(&mut brute, &whole).0, "heaps {token}");
        }
    }
    assert_eq!(run.positions.len(), 1 + (1..=MAX).map(|t| partitions(t).len()).sum::<usize>());
    run.assert_claim_and_components_agree();
}

#[test]
fn subtraction_in_cpp_agrees_with_its_period() {
    let dir = tempfile::tempdir().unwrap();
    let Some(binary) = common::compile_subtraction_cpp(dir.path(), "subtraction_in_cpp_agrees_with_its_period") else { return };
    let mut run = Run::new(start(&binary.display().to_string()), 1000);
    let tokens: Vec<String> = run.tokens().into_iter().map(str::to_string).collect();
    assert_eq!(tokens, (0..=1000).map(|n| n.to_string()).collect::<Vec<_>>());
    let exact: Vec<u32> = tokens.iter().map(|t| run.exact(t)).collect();
    assert_eq!(exact, (0..=1000).map(|n| SUBTRACTION[n % 7]).collect::<Vec<_>>());
    let args: Vec<&str> = tokens.iter().map(String::as_str).collect();
    assert_eq!(run.numbers(Verb::Claim, &args), exact);
}

/// Walks `smaller` from a failing `token` to a position where the claim still fails and no
/// candidate does: at each step the failing candidate of least `size` (then token).
fn shrink(run: &mut Run, token: &str) -> String {
    let mut current = token.to_string();
    loop {
        let answer = run.program.ask(Verb::Smaller, &[&current]).unwrap().remove(0);
        let candidates: Vec<String> = protocol::tokens(&answer).unwrap().into_iter().map(str::to_string).collect();
        let args: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let (claims, sizes) = (run.numbers(Verb::Claim, &args), run.numbers(Verb::Size, &args));
        let failing = candidates.iter().zip(claims).zip(sizes).filter(|((c, claim), _)| run.exact(c) != *claim);
        let Some(((next, _), _)) = failing.min_by(|((a, _), x), ((b, _), y)| (x, a).cmp(&(y, b))) else { return current };
        current = next.clone();
    }
}

#[test]
fn the_misprinted_kayles_claim_is_caught_and_shrunk_to_one_row_of_11() {
    let mut run = Run::new(python("kayles_wrong.py"), 14);
    let tokens: Vec<String> = run.tokens().into_iter().map(str::to_string).collect();
    let args: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let claims = run.numbers(Verb::Claim, &args);
    let failing: Vec<&String> = tokens.iter().zip(claims).filter(|&(t, claim)| run.exact(t) != claim).map(|(t, _)| t).collect();
    // The first failing position in size order is the row of 11 (exact 6, claimed 4), and every
    // failing position has a row of 11 pins.
    assert_eq!(failing[0], "11");
    assert_eq!((run.exact("11"), run.numbers(Verb::Claim, &["11"])[0]), (KAYLES[11], 4));
    assert!(failing.iter().all(|t| t.split('.').any(|row| row == "11")), "{failing:?}");
    let most_rows = failing.iter().max_by_key(|t| t.split('.').count()).expect("failing positions");
    assert_eq!(*most_rows, "1.1.1.11");
    assert_eq!(shrink(&mut run, most_rows), "11");
    assert_eq!(shrink(&mut run, "1.2.11"), "11");
}
