use super::*;
use crate::custom::program::fake::{subtraction, Fake};
use crate::runner::{run_in_memory, Plan, Shard, Silent};

fn run_of<F>(verbs: &'static str, answer: F, convention: Convention, max: u32) -> ProgramRun
where
    F: Fn(Verb, &str) -> Option<String> + Send + Sync + Clone + 'static,
{
    let start: Start = Box::new(move || Ok(Arc::new(Fake::new(verbs, answer.clone())) as Arc<dyn Ask>));
    ProgramRun::new(start, convention, GraphLimits::default(), max, BTreeMap::new())
}

fn results(run: &ProgramRun) -> RunResults {
    run_in_memory(&Plan::new(run, Shard::ALL).unwrap(), &Silent).unwrap()
}

/// Subtraction {1, 3, 4}, claiming 9 for heaps of 12 and more that are 5 mod 7 (wrong), and
/// offering every smaller heap when shrinking.
fn wrong_from_twelve(verb: Verb, arg: &str) -> Option<String> {
    let n: u32 = arg.parse().ok()?;
    match verb {
        Verb::Claim if n >= 12 && n % 7 == 5 => Some("9".into()),
        Verb::Smaller => Some((0..n).map(|k| k.to_string()).collect::<Vec<_>>().join(" ")),
        _ => subtraction(verb, arg),
    }
}

#[test]
fn a_right_claim_agrees_on_every_size() {
    let run = run_of("positions moves claim", subtraction, Convention::Normal, 40);
    let results = results(&run);
    assert!(results.all_agree());
    assert_eq!(results.sizes.len(), 41);
    assert_eq!(results.sizes[&(1, 11)].distribution, BTreeMap::from([((0, 2), 1)]), "heap 11 claims 4 mod 7 = 2");
    let parameters = run.parameters();
    assert_eq!(parameters["positions"], Value::from(vec![1u64; 41]));
    assert_eq!(parameters["verbs"], "positions moves claim");
}

#[test]
fn failing_positions_are_shrunk_to_the_smallest() {
    let results = results(&run_of("positions moves claim smaller", wrong_from_twelve, Convention::Normal, 30));
    let mismatches = results.mismatch_rows();
    let rows: Vec<(u32, &str, u32, Option<u32>)> = mismatches.iter().map(|m| (m.cols, m.board.as_str(), m.dp_grundy, m.naive_grundy)).collect();
    assert_eq!(rows, [(12, "12", 9, Some(3)), (19, "12", 9, Some(3)), (26, "12", 9, Some(3))]);
    assert_eq!(results.sizes[&(1, 26)].mismatches, 1);
    let unshrunk = self::results(&run_of("positions moves claim", wrong_from_twelve, Convention::Normal, 30));
    assert_eq!(unshrunk.mismatch_rows().iter().map(|m| m.board.as_str()).collect::<Vec<_>>(), ["12", "19", "26"]);
}

#[test]
fn misere_claims_are_outcomes() {
    // Misère subtraction {1, 3, 4}: heaps 1 and 3 lose (every move leaves a win; 0 wins: no move).
    let claim = |verb: Verb, arg: &str| match verb {
        Verb::Claim => Some(if matches!(arg, "1" | "3") { "0" } else { "5" }.to_string()),
        _ => subtraction(verb, arg),
    };
    let results = results(&run_of("positions moves claim", claim, Convention::Misere, 3));
    assert!(results.all_agree(), "{:?}", results.mismatches);
    assert_eq!(results.rule, "exhaustive:convention=misere");
    let wrong = |verb: Verb, arg: &str| if verb == Verb::Claim { Some("0".into()) } else { subtraction(verb, arg) };
    let wrong = self::results(&run_of("positions moves claim", wrong, Convention::Misere, 3));
    let mismatches = wrong.mismatch_rows();
    let rows: Vec<(&str, Option<u32>, &str)> = mismatches.iter().map(|m| (m.board.as_str(), m.naive_grundy, m.naive_outcome.as_str())).collect();
    assert_eq!(rows, [("0", None, "First"), ("2", None, "First")]);
    let components = |verb: Verb, arg: &str| if verb == Verb::Components { Some(arg.into()) } else { subtraction(verb, arg) };
    let refused = Plan::new(&run_of("positions moves components", components, Convention::Misere, 3), Shard::ALL).err().unwrap();
    assert!(refused.to_string().contains("components are not used under misère"), "{refused}");
}

#[test]
fn components_are_checked_by_the_xor_of_their_exact_values() {
    // Positions "a+b": two heaps; the components are the heaps, a wrong split claims "a" alone.
    let sum = |verb: Verb, arg: &str| {
        let heaps: Vec<u32> = arg.split('+').map(|h| h.parse().ok()).collect::<Option<_>>()?;
        let text = |hs: &[u32]| hs.iter().map(u32::to_string).collect::<Vec<_>>().join("+");
        match verb {
            Verb::Positions => Some(format!("{arg}+0 {}+1", heaps[0].saturating_sub(1))),
            Verb::Moves => {
                let mut moves = Vec::new();
                for (i, &h) in heaps.iter().enumerate() {
                    for k in [1, 3, 4].into_iter().filter(|&k| k <= h) {
                        let mut next = heaps.clone();
                        next[i] = h - k;
                        moves.push(text(&next));
                    }
                }
                Some(moves.join(" "))
            }
            Verb::Components if heaps.len() == 2 && heaps[1] == 1 => Some(heaps[0].to_string()),
            Verb::Components => Some(heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")),
            _ => None,
        }
    };
    let results = results(&run_of("positions moves components", sum, Convention::Normal, 6));
    let mismatches = results.mismatch_rows();
    let rows: Vec<&str> = mismatches.iter().map(|m| m.board.as_str()).collect();
    // a+1 split as a alone is wrong exactly when value(a) ^ 1 != value(a), i.e. always.
    assert_eq!(rows, ["0+1", "0+1", "1+1", "2+1", "3+1", "4+1", "5+1"]);
    assert_eq!(results.sizes[&(1, 4)].distribution, BTreeMap::from([((1, 1), 1), ((2, 2), 1)]));
}

#[test]
fn a_run_rebuilt_from_its_manifest_starts_no_program_until_it_must() {
    let start: Start = Box::new(|| Err(Error::Usage("started".into())));
    let mut run = ProgramRun::new(start, Convention::Normal, GraphLimits::default(), 2, BTreeMap::new());
    let recorded = BTreeMap::from([("positions".to_string(), Value::from(vec![1u64, 2, 1]))]);
    run.adopt_manifest(&recorded).unwrap();
    assert_eq!(run.jobs().unwrap().iter().map(|j| j.total).collect::<Vec<_>>(), [1, 2, 1]);
    assert_eq!(run.prepare(0).err().unwrap().to_string(), "started");
    let short = BTreeMap::from([("positions".to_string(), Value::from(vec![1u64]))]);
    assert!(run.adopt_manifest(&short).unwrap_err().to_string().contains("no `positions` counts for sizes 0..=2"));
}

#[test]
fn a_changed_program_file_or_count_is_refused() {
    let files = |sha: &str| BTreeMap::from([("program_files".to_string(), serde_json::json!({ "/x/game.py": sha }))]);
    let start: Start = Box::new(|| Ok(Arc::new(Fake::new("positions moves", subtraction)) as Arc<dyn Ask>));
    let mut run = ProgramRun::new(start, Convention::Normal, GraphLimits::default(), 1, files("bbb"));
    let mut recorded = files("aaa");
    recorded.insert("positions".into(), Value::from(vec![1u64, 2]));
    run.adopt_manifest(&recorded).unwrap();
    let err = run.prepare(0).err().unwrap().to_string();
    assert!(err.contains("/x/game.py: its SHA-256 is \"bbb\"") && err.contains("\"aaa\""), "{err}");
    run.described = files("aaa");
    assert!(run.prepare(0).is_ok());
    let err = run.prepare(1).err().unwrap().to_string();
    assert!(err.contains("`positions 1` now answers 1 positions, but the run counted 2"), "{err}");
}
