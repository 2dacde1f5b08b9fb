use super::*;

fn problem(reference: &str, validator: Option<&str>, checker: Option<&str>) -> Problem {
    let spec = ProblemSpec {
        generator: "echo {seed}".into(),
        reference: reference.into(),
        validator: validator.map(str::to_string),
        checker: checker.map(str::to_string),
        tolerance: Some(1e-6),
        limits: Limits::default(),
    };
    Problem::new(&spec).unwrap()
}

fn case(input: &str, derived: bool) -> TextCase {
    TextCase { seed: 4, input: input.as_bytes().into(), derived }
}

#[test]
fn generated_inputs_follow_the_seeds_and_the_reference_answers() {
    let p = problem("cat", None, None);
    let inputs: Vec<TextCase> = p.cases(Source::Random, 5).take(2).collect();
    let seeds: Vec<(u64, &[u8])> = inputs.iter().map(|c| (c.seed, &c.input[..])).collect();
    assert_eq!(seeds, [(5, &b"5\n"[..]), (6, &b"6\n"[..])]);
    assert!(p.cases(Source::Exhaustive, 5).next().is_none());
    let expected = p.answer(&case("0.5 x\n", false));
    assert_eq!(expected.to_string(), "0.5 x");
    let got = |text: &str| p.parse_output(&case("", false), text).unwrap();
    assert!(p.judges(&expected) && p.accepts(&expected, &got("0.5000001\nx\n")));
    assert!(!p.accepts(&expected, &got("0.51 x")));
    assert_eq!(p.describe(&case("1 2\n3\n", false)), "2 lines, 3 tokens, 6 bytes (seed 4)");
    assert!(p.take_failure().is_none());
}

#[test]
fn refused_inputs_are_not_judged_and_stop_a_run_when_generated() {
    let p = problem("cat", Some("grep -q 1"), None);
    assert!(p.judges(&p.answer(&case("1\n", false))));
    let candidate = p.answer(&case("2\n", true));
    assert!(!p.judges(&candidate) && p.take_failure().is_none(), "a shrink candidate is only dropped");
    assert!(!p.judges(&p.answer(&case("2\n", false))));
    let e = p.take_failure().unwrap().to_string();
    assert!(e.contains("seed 4") && e.contains("validator") && e.contains("`echo 4` makes the input"), "{e}");
    let crashing = problem("sh -c 'echo bad >&2; exit 1'", None, None);
    assert!(!crashing.judges(&crashing.answer(&case("1\n", false))));
    assert!(crashing.cases(Source::Random, 1).next().is_none(), "no more inputs after a failure");
    let e = crashing.take_failure().unwrap().to_string();
    assert!(e.contains("the reference") && e.contains("exit 1: bad"), "{e}");
}

#[test]
fn a_checker_gets_input_output_and_answer() {
    // Accepts when the output's first token equals the input's plus 1 (many right answers).
    let checker = "sh -c 'test $(($(cat \"$1\") + 1)) -eq $(cat \"$2\")' checker";
    let p = problem("echo 0", None, Some(checker));
    let expected = p.answer(&case("41\n", false));
    let got = |text: &str| p.parse_output(&case("41\n", false), text).unwrap();
    assert!(p.accepts(&expected, &got("42\n")) && !p.accepts(&expected, &got("43\n")));
    assert!(p.take_failure().is_none());
    let failing = problem("echo 0", None, Some("sh -c 'exit 3'"));
    assert!(failing.accepts(&failing.answer(&case("1\n", false)), &got("1")));
    assert!(failing.take_failure().unwrap().to_string().contains("--checker"));
}

#[test]
fn a_checker_refusal_says_why() {
    let p = problem("echo 0", None, Some("sh -c 'echo \"wrong answer: always\" >&2; exit 1'"));
    let (input, expected) = (case("1\n", false), p.answer(&case("1\n", false)));
    let got = p.parse_output(&input, "0").unwrap();
    assert!(!p.accepts(&expected, &got), "refused although the tokens agree");
    let why = p.why_wrong(&input, &expected, &got);
    assert!(why.starts_with("the checker `sh -c") && why.ends_with("says exit 1: wrong answer: always"), "{why}");
    assert_eq!(problem("echo 0", None, None).why_wrong(&input, &expected, &got), "", "no checker, nothing to add");
}
