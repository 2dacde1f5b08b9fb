//! DAGame's commands: `solve dagame` (contest input) and `verify dagame`; its registry entry.

use super::random::RandomSpec;
use super::verify::DagameRun;
use super::cost::NaiveLimits;
use super::{claim, winner_name, Instance};
use crate::output::records::Columns;
use crate::error::{Error, Result};
use crate::game::vocabulary;
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::Verification;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["nodes", "colours"], key: "edges", position: "instance", answer: false };

/// DAGame (BOJ 27306).
pub static GAME: GameEntry = GameEntry {
    name: "dagame",
    commands,
    results,
    oracle: Oracle {
        files: &["src/games/dagame/brute.rs"],
        may_use: &["super::Dag", "super::Instance", "crate::error"]
    },
    columns: COLUMNS,
    values: crate::output::records::Values::GRUNDY,
    report: None,
    explore: Some(super::explore::explorer),
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(super::contest::STRESS)]
}

fn results() -> Vec<ResultsDir> {
    ["dagame", "dagame/random"]
        .map(|dir| ResultsDir { dir, recompute: Recompute::Sizes(|_, rule, r, c| super::verify::recompute_size(rule, r, c)) })
        .to_vec()
}

const ENGINES: &[(&str, &str)] = &[
    ("claim", "XOR over colours of pair/single Grundy values (verified; full limits)."),
    ("naive", "Whole-position search (at most 8 tokens on 128 nodes; refused when it will not fit in memory or a day)."),
];

const FORMATS: &[(&str, &str)] = &[("text", "The winner's name."), ("json", "`{\"grundy\":G,\"winner\":W}`.")];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "dagame",
        about: "DAGame (BOJ 27306): `N M`, M edges `p q`, `K`, K tokens `v c`; prints Young or Cheol.",
        options: vec![
            vocabulary::engine(ENGINES),
            vocabulary::format(FORMATS)[0],
            vocabulary::format(FORMATS)[1],
            OptSpec::flag("force", "With --engine naive: search even when the estimate says it takes more than a day or more memory than is available."),
        ],
        examples: &["printf '6 5\\n1 2\\n2 3\\n4 5\\n4 6\\n5 6\\n3\\n1 1\\n2 1\\n4 2\\n' | sprague solve dagame"],
    },
    solve,
};

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let instance = Instance::parse_input(&name, &text)?;
    let naive = vocabulary::naive(args);
    if args.flag("force") && !naive {
        return Err(Error::Usage("--force applies to the naive engine only (the claim answers any instance at once)".into()));
    }
    let limits = NaiveLimits { memory: crate::sys::available_memory_bytes(), force: args.flag("force") };
    let grundy = if naive { limits.solve(&instance)? } else { claim::solve(&instance) };
    let line = if vocabulary::json(args) {
        serde_json::json!({ "grundy": grundy, "winner": winner_name(grundy) }).to_string()
    } else {
        winner_name(grundy).to_string()
    };
    session.println(&line)
}

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "dagame",
        about: "DAGame: pair-Grundy claim vs whole-position brute force on every small DAG or random ones.",
        options: vec![
            OptSpec::value("max", "NODES", "Largest node count: every N from 2 up (exhaustive), or the bound of random instances.").default("5").aliases(&["max-nodes"]),
            OptSpec::value("random", "COUNT", "Check COUNT random instances (N from 2 to --max) instead of every DAG."),
            OptSpec::value("seed", "SEED", "Seed of the random instances (ChaCha8; instance i is stream i of the seed).").default("1").requires(&["random"]),
        ],
        examples: &["sprague verify dagame --max 4", "sprague verify dagame --max 10 --random 1000 --seed 7"],
    },
    build,
};

fn build(args: &Args) -> Result<Box<dyn Verification>> {
    let max_nodes = args.require("max")?;
    Ok(Box::new(match args.get::<u64>("random")? {
        Some(count) => DagameRun::random(RandomSpec { count, seed: args.require("seed")?, max_nodes })?,
        None => DagameRun::exhaustive(max_nodes)?,
    }))
}
