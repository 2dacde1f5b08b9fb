//! `sprague stress problem`: any problem, not only sprague's games — the user's program
//! against the user's reference on the user's generator's inputs (docs/stress.md). The trusted
//! side is the user's `--ref`, run by `stress::problem::tools`.

use crate::error::{Error, Result};
use crate::game::stress::{outside_game_options, run_stress, Recorded};
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Session, Status, StressSide, Verb};
use crate::output::records::Columns;
use crate::stress::problem::{Problem, ProblemSpec};
use crate::stress::Limits;
use std::time::Duration;

/// The user's problem: no results, its oracle the user's reference program.
pub static GAME: GameEntry = GameEntry {
    name: "problem",
    commands,
    results: Vec::new,
    oracle: Oracle {
        files: &["src/stress/problem/tools.rs"],
        may_use: &[
            "crate::error",
            "crate::output::text::escaped",
            "crate::output::text::last_lines",
            "crate::output::text::shorten_end",
            "crate::stress::outcome",
            "crate::stress::process",
            "crate::stress::start",
            "crate::stress::CommandLine",
        ],
    },
    columns: Columns::BOARD,
    values: crate::output::records::Values::GRUNDY,
    report: None,
    explore: None,
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(StressProblem)]
}

/// `stress problem`.
#[derive(Clone, Copy)]
pub struct StressProblem;

/// `--search-budget` here: a generator's inputs have no size order to search below a failure in.
const SEARCH_BUDGET: &str = "Unused by stress problem (accepted as by every stress command): a shrunk failure is reported locally minimal, since a generator's inputs have no size order to search for a smaller failing one in.";

const ABOUT: &str = "Any problem: your program against your reference (--ref) on your generator's inputs (--gen 'CMD {seed}'), compared token by token or by a --checker, shrunk within a --validator.";

impl Command for StressProblem {
    fn verb(&self) -> Verb {
        Verb::Stress
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            OptSpec::value("ref", "COMMAND", "The reference (your brute force): its output on each input is the trusted answer.").required(),
            OptSpec::value("gen", "COMMAND", "Your generator: `{seed}` in it is replaced by the seed (--seed, --seed + 1, …); its stdout is the input.").required(),
            OptSpec::value("validator", "COMMAND", "Reads an input on stdin, exits 0 when it is legal: generated inputs must be, shrunk ones are kept only if they are."),
            OptSpec::value("checker", "COMMAND", "Judges an answer, testlib-style: run as `COMMAND input output answer`, exit 0 accepts (3: the checker failed)."),
            OptSpec::value("float-tolerance", "EPS", "Numbers may differ by EPS, absolute or relative: |got − expected| ≤ EPS·max(1, |expected|).").conflicts(&["checker"]),
        ];
        let seed = |o: OptSpec| if o.name == "seed" { OptSpec { help: "The first seed given to --gen (then --seed + 1, …).", ..o } } else { o };
        options.extend(outside_game_options(SEARCH_BUDGET).into_iter().filter(|o| o.name != "generator").map(seed));
        CommandSpec {
            name: "problem",
            about: ABOUT,
            options,
            examples: &[
                "sprague stress problem --cmd ./fast --ref ./brute --gen 'python3 gen.py {seed}'",
                "sprague stress problem --cmd 'python3 fast.py' --ref 'python3 brute.py' --gen 'python3 gen.py {seed}' --validator 'python3 validator.py' --save-tests tests",
                "sprague stress problem --cmd ./sol --ref ./sol --gen './gen {seed}' --validator ./val --slowest 5 --budget 60",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        run_stress("problem", build, &args.clone().with("generator", "random"), session)
    }

    fn stress_side(&self, args: &Args) -> Option<Result<Box<dyn StressSide>>> {
        Some(build(args).map(|side| side as Box<dyn StressSide>))
    }
}

/// The helpers' CPU limit: 10 times the program's, at least 10 s (a brute force is slow).
fn tool_limits(args: &Args) -> Result<Limits> {
    let timeout = args.positive_seconds("timeout")?.ok_or_else(|| Error::Usage("--timeout is required".into()))?;
    let timeout = Duration::from_secs_f64((timeout.as_secs_f64() * 10.0).clamp(10.0, 1e6));
    Ok(Limits { timeout, output_cap: 16 << 20, memory: None })
}

fn build(args: &Args) -> Result<Box<dyn StressSide>> {
    let tolerance = args.get::<f64>("float-tolerance")?;
    if let Some(eps) = tolerance.filter(|e| !(e.is_finite() && *e >= 0.0)) {
        return Err(Error::Usage(format!("--float-tolerance must be a number ≥ 0, not {eps}")));
    }
    let spec = ProblemSpec {
        generator: args.require("gen")?,
        reference: args.require("ref")?,
        validator: args.text("validator").map(str::to_string),
        checker: args.text("checker").map(str::to_string),
        tolerance,
        limits: tool_limits(args)?,
    };
    let recorded = args.to_json(&["gen", "ref", "validator", "checker", "float-tolerance"]);
    // A run is an error when a helper failed.
    Ok(Box::new(Recorded::new(Problem::new(&spec)?, "problem", recorded).growing(Problem::larger)))
}
