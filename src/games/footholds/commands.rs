//! The footholds game's commands: `solve footholds` (contest input) and `verify footholds`; its registry entry.

use super::verify::{FootholdsRun, RandomSpec, CLAIMS};
use super::{brute, claim, Position};
use crate::output::records::{Columns, Values};
use crate::error::Result;
use crate::game::vocabulary;
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::Verification;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["rows", "cols"], key: "moves", position: "position", answer: false };
/// The value column: 1 when A (moving first) wins, 0 when B does.
pub const VALUES: Values = Values { value: "1 = A (moving first) wins", zero: ["position B wins", "positions B wins"] };

/// Disappearing footholds.
pub static GAME: GameEntry = GameEntry {
    name: "footholds",
    commands,
    results,
    oracle: Oracle {
        files: &["src/games/footholds/brute.rs"],
        may_use: &["super::Geometry", "super::Outcome", "super::Position"]
    },
    columns: COLUMNS,
    values: VALUES,
    report: None,
    explore: Some(super::explore::explorer),
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(super::contest::STRESS)]
}

fn results() -> Vec<ResultsDir> {
    ["footholds", "footholds/random"]
        .map(|dir| ResultsDir { dir, recompute: Recompute::Sizes(|_, rule, r, c| super::verify::recompute_size(rule, r, c)) })
        .to_vec()
}

const ENGINES: &[(&str, &str)] = &[("claim", "Memoized negamax (verified)."), ("naive", "Plain full-tree DFS, no memo.")];

const FORMATS: &[(&str, &str)] = &[("text", "The total number of moves."), ("json", "`{\"moves\":M,\"winner\":\"A\"|\"B\"}`.")];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "footholds",
        about: "Disappearing footholds: `R C`, R rows of 0/1, `ar ac br bc` (0-based); prints the total moves.",
        options: vec![
            vocabulary::engine(ENGINES),
            vocabulary::format(FORMATS)[0],
            vocabulary::format(FORMATS)[1],
        ],
        examples: &["printf '1 5\\n1 1 1 1 1\\n0 0 0 4\\n' | sprague solve footholds"],
    },
    solve,
};

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let position = Position::parse_input(&name, &text)?;
    let outcome = if vocabulary::naive(args) { brute::solve(&position) } else { claim::solve(&position) };
    let line = if vocabulary::json(args) {
        let winner = if outcome.first_wins { "A" } else { "B" };
        serde_json::json!({ "moves": outcome.moves, "winner": winner }).to_string()
    } else {
        outcome.moves.to_string()
    };
    session.println(&line)
}

const CLAIM_CHOICES: &[(&str, &str)] = &[
    ("memo", "Memoized negamax, \"win fast, lose slow\" (the claim under test)."),
    ("lose-fast", "The loser also hurries — deliberately wrong, to show the check can fail."),
];

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "footholds",
        about: "Footholds: memoized negamax vs plain DFS on every board of ≤ 12 cells or random 5×5 ones.",
        options: vec![
            OptSpec::value("max", "CELLS", "Every shape r×c (sides ≤ 5) with at most this many cells, every board, every start pair.").default("12").aliases(&["max-cells"]).conflicts(&["random"]),
            OptSpec::value("random", "COUNT", "Check COUNT random 5×5 positions instead (not with --max)."),
            OptSpec::value("seed", "SEED", "Seed of the random positions (ChaCha8; position i is stream i of the seed).").default("1").requires(&["random"]),
            OptSpec::value("claim", "CLAIM", "The claimed solver under test.").default("memo").choices(CLAIM_CHOICES),
        ],
        examples: &["sprague verify footholds --max 9", "sprague verify footholds --random 1000 --seed 7"],
    },
    build,
};

fn build(args: &Args) -> Result<Box<dyn Verification>> {
    let policy = CLAIMS.of(args.text("claim"))?;
    Ok(Box::new(match args.get::<u64>("random")? {
        Some(count) => FootholdsRun { boards: super::verify::Boards::Random(RandomSpec { seed: args.require("seed")?, count }), policy },
        None => FootholdsRun::exhaustive(args.require("max")?, policy)?,
    }))
}
