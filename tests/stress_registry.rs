//! The stress side of every registered game, derived from the registry: every game with a
//! contest `solve` has a `stress` command, and on inputs of each generator the trusted answer
//! is exactly what `sprague solve GAME` prints for that input (so a saved `NNN.in` solves to
//! `NNN.ans`). Generators are reproducible from their seed.

use sprague::game::{Args, Command, Session, StressSide, Verb};
use sprague::games::commands;
use sprague::runner::Silent;
use sprague::stress::Source;

/// `command`'s defaults as the command line fills them in, plus `extra`.
fn defaults(command: &dyn Command, extra: &[(&str, &str)]) -> Args {
    let spec = command.spec();
    let with_defaults = spec.options.iter().filter_map(|o| o.default.map(|d| (o.name, d))).fold(Args::new(), |a, (k, v)| a.with(k, v));
    extra.iter().fold(with_defaults, |a, (k, v)| a.with(k, v))
}

/// What `solve` prints for `input` (its whole stdout).
fn solve(command: &dyn Command, input: &[u8]) -> String {
    let mut stdin: &[u8] = input;
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut session = Session { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr, progress: &Silent, command_line: vec![] };
    command.run(&defaults(command, &[]), &mut session).unwrap_or_else(|e| panic!("{}: {e}\n{}", command.spec().name, String::from_utf8_lossy(input)));
    String::from_utf8(stdout).unwrap()
}

fn stress_side(game: &str) -> Box<dyn StressSide> {
    let stress = commands(Verb::Stress).into_iter().find(|c| c.spec().name == game).unwrap_or_else(|| panic!("no stress {game}"));
    stress.stress_side(&defaults(&*stress, &[("cmd", "true")])).expect("a stress command has a side").unwrap()
}

#[test]
fn every_game_with_a_contest_solver_has_a_stress_command() {
    let solved: Vec<&str> = commands(Verb::Solve).iter().map(|c| c.spec().name).collect();
    let stressed: Vec<&str> = commands(Verb::Stress).iter().map(|c| c.spec().name).collect();
    assert!(solved.iter().all(|s| stressed.contains(s)), "{solved:?} {stressed:?}");
    // A game program's game has no `solve`: its stress side judges a solution of it; nor has
    // `problem`, whose trusted answers come from the user's reference.
    assert_eq!(stressed.iter().filter(|s| !solved.contains(s)).collect::<Vec<_>>(), [&"custom", &"problem"]);
    assert!(solved.len() >= 14, "{solved:?}");
}

#[test]
fn trusted_answers_are_what_solve_prints() {
    for solver in commands(Verb::Solve) {
        let name = solver.spec().name;
        let side = stress_side(name);
        for source in Source::ALL {
            let samples = side.samples(source, 7, 20);
            assert!(!samples.is_empty(), "{name} {source}");
            for (input, answer) in samples {
                assert_eq!(solve(&*solver, &input), format!("{answer}\n"), "{name} {source}: {}", String::from_utf8_lossy(&input));
            }
        }
    }
}

#[test]
fn generators_repeat_from_their_seed() {
    for solver in commands(Verb::Solve) {
        let name = solver.spec().name;
        let side = stress_side(name);
        for source in [Source::Random, Source::Adversarial] {
            let (a, b, c) = (side.samples(source, 11, 12), side.samples(source, 11, 12), side.samples(source, 12, 12));
            assert_eq!(a, b, "{name} {source}");
            assert!(source == Source::Adversarial || a != c, "{name}: seeds 11 and 12 give the same random inputs");
        }
    }
}
