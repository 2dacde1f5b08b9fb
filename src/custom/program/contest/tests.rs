use super::*;
use crate::custom::program::fake::{subtraction, Fake};
use crate::custom::program::{Ask, GraphLimits};

/// Subtraction {1, 3, 4}: g(n) = [0, 1, 0, 1, 2, 3, 2][n % 7].
const G: [u32; 7] = [0, 1, 0, 1, 2, 3, 2];

fn contest(ask: Arc<dyn Ask>, convention: Convention, max: u32) -> ProgramContest {
    ProgramContest::new(Explorer::new(ask, convention, GraphLimits::default()), convention, max).unwrap()
}

fn subtraction_contest(convention: Convention, max: u32) -> ProgramContest {
    contest(Arc::new(Fake::new("positions moves", subtraction)), convention, max)
}

fn tokens(cases: &[Case]) -> Vec<&str> {
    cases.iter().map(|c| &*c.token).collect()
}

#[test]
fn exhaustive_cases_carry_their_exact_values() {
    let game = subtraction_contest(Convention::Normal, 10);
    let cases: Vec<Case> = game.cases(Source::Exhaustive, 0).collect();
    assert_eq!(tokens(&cases), ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    assert!(cases.iter().all(|c| c.value == G[c.token.parse::<usize>().unwrap() % 7]));
    assert_eq!(game.input_text(&cases[5]), b"5\n");
    assert_eq!(game.answer(&cases[5]).to_string(), "3");
    assert!(game.take_failure().is_none());
}

#[test]
fn answers_are_values_or_winners() {
    let game = subtraction_contest(Convention::Normal, 6);
    let five = game.cases(Source::Exhaustive, 0).nth(5).unwrap();
    let read = |text: &str| game.parse_output(&five, text);
    assert_eq!(read("3\n"), Ok(Answer::Value(3)));
    assert_eq!(read(" First "), Ok(Answer::Winner { first: true }));
    assert!(read("first").unwrap_err().contains("expected a number"));
    assert!(read("").unwrap_err().contains("First or Second"));
    assert!(read("99999999999").unwrap_err().contains("too large"));
    let expected = game.answer(&five);
    assert!(game.accepts(&expected, &Answer::Value(3)) && game.accepts(&expected, &Answer::Winner { first: true }));
    assert!(!game.accepts(&expected, &Answer::Value(1)) && !game.accepts(&expected, &Answer::Winner { first: false }));
    // Misère: the winner only (1 loses: its only move is to 0, where the player to move wins).
    let misere = subtraction_contest(Convention::Misere, 2);
    let one = misere.cases(Source::Exhaustive, 0).nth(1).unwrap();
    assert_eq!(misere.answer(&one), Answer::Winner { first: false });
    assert!(misere.parse_output(&one, "0").unwrap_err().contains("the winner only"));
    assert_eq!(misere.parse_output(&one, "Second"), Ok(Answer::Winner { first: false }));
}

#[test]
fn shrinking_tries_the_moves_smallest_first_or_the_programs_smaller() {
    let game = subtraction_contest(Convention::Normal, 12);
    let twelve = game.cases(Source::Exhaustive, 0).last().unwrap();
    let candidates = game.shrink_candidates(&twelve);
    assert_eq!(tokens(&candidates), ["9", "8", "11"], "one-digit heaps first (the token's length), else the program's order");
    assert!(candidates.iter().all(|c| c.value == G[c.token.parse::<usize>().unwrap() % 7]));
    let halves = Fake::new("positions moves smaller size", |verb, arg: &str| match verb {
        Verb::Smaller => Some(format!("{} {}", arg.parse::<u32>().ok()? / 2, arg.parse::<u32>().ok()?.saturating_sub(1))),
        Verb::Size => Some(arg.to_string()),
        _ => subtraction(verb, arg),
    });
    let game = contest(Arc::new(halves), Convention::Normal, 12);
    let twelve = game.cases(Source::Exhaustive, 0).last().unwrap();
    assert_eq!(tokens(&game.shrink_candidates(&twelve)), ["6", "11"]);
    assert_eq!(game.describe(&twelve), "position 12 (size 12)");
}

#[test]
fn only_strictly_smaller_candidates_of_smaller_are_tried_in_the_programs_order() {
    // `smaller` answers a larger position, the position itself, then smaller ones (one twice).
    let odd = Fake::new("positions moves smaller size", |verb, arg: &str| {
        let n = arg.parse::<u32>().ok()?;
        match verb {
            Verb::Smaller => Some(format!("{} {n} {} {} {}", n + 7, n - 1, n / 2, n - 1)),
            Verb::Size => Some(arg.to_string()),
            _ => subtraction(verb, arg),
        }
    });
    let game = contest(Arc::new(odd), Convention::Normal, 12);
    let twelve = game.cases(Source::Exhaustive, 0).last().unwrap();
    assert_eq!(tokens(&game.shrink_candidates(&twelve)), ["11", "6"]);
    let only_larger = Fake::new("positions moves smaller", |verb, arg: &str| match verb {
        Verb::Smaller => Some(format!("{arg} 1{arg}")),
        _ => subtraction(verb, arg),
    });
    let game = contest(Arc::new(only_larger), Convention::Normal, 12);
    let twelve = game.cases(Source::Exhaustive, 0).last().unwrap();
    assert!(game.shrink_candidates(&twelve).is_empty(), "nothing smaller: nothing to try");
    assert!(game.take_failure().is_none());
}

#[test]
fn random_and_adversarial_cases_are_seeded_and_valued() {
    let game = subtraction_contest(Convention::Normal, 30);
    let first: Vec<Case> = game.cases(Source::Random, 5).take(50).collect();
    assert_eq!(first, game.cases(Source::Random, 5).take(50).collect::<Vec<_>>());
    assert_ne!(first, game.cases(Source::Random, 6).take(50).collect::<Vec<_>>());
    assert!(first.iter().all(|c| c.value == G[c.token.parse::<usize>().unwrap() % 7]));
    let adversarial: Vec<Case> = game.cases(Source::Adversarial, 0).collect();
    assert_eq!(adversarial.len(), 31, "every position once");
    // In turn: the largest values (deepest first), the P-positions and the deepest positions;
    // 30 is both the deepest P-position and the deepest position.
    assert_eq!(tokens(&adversarial[..5]), ["26", "30", "19", "28", "29"]);
    assert_eq!((adversarial[0].value, adversarial[1].value), (3, 0));
}

#[test]
fn a_failing_game_program_ends_the_streams_and_is_kept() {
    let broken = Fake::new("positions moves", |verb, arg: &str| if verb == Verb::Moves && arg == "5" { None } else { subtraction(verb, arg) });
    let game = contest(Arc::new(broken), Convention::Normal, 10);
    let cases: Vec<Case> = game.cases(Source::Exhaustive, 0).collect();
    assert_eq!(cases.len(), 5, "sizes 0 to 4, then the failure");
    assert!(game.cases(Source::Adversarial, 0).next().is_none());
    assert!(game.take_failure().unwrap().to_string().contains("moves 5"));
    let empty = Fake::new("positions moves", |verb, arg: &str| if verb == Verb::Positions { Some(String::new()) } else { subtraction(verb, arg) });
    assert!(contest(Arc::new(empty), Convention::Normal, 3).cases(Source::Random, 1).next().is_none(), "no position: no random case");
}

#[test]
fn a_failure_is_confirmed_by_asking_the_moves_again() {
    let changed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = changed.clone();
    // Once `changed` is set, heap 2 has no move: heap 6 (through 5 and 3) rests on it.
    let flaky = Fake::new("positions moves", move |verb, arg: &str| match verb {
        Verb::Moves if arg == "2" && flag.load(std::sync::atomic::Ordering::Relaxed) => Some(String::new()),
        _ => subtraction(verb, arg),
    });
    let game = contest(Arc::new(flaky), Convention::Normal, 8);
    let six = game.cases(Source::Exhaustive, 0).nth(6).unwrap();
    game.confirm(&six).unwrap();
    changed.store(true, std::sync::atomic::Ordering::Relaxed);
    let err = game.confirm(&six).unwrap_err().to_string();
    assert!(err.contains("request `moves 2`") && err.contains("non-deterministic") && err.contains("first \"1\", then \"\""), "{err}");
}
