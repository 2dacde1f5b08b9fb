//! The kings' bridge game's commands: `solve kings` (contest input) and `verify kings`; its registry entry.

use super::retro::{start_value, Value};
use super::verify::{KingsRun, CLAIMS};
use super::{claim, parse_input};
use crate::output::records::{Columns, Values};
use crate::error::Result;
use crate::game::vocabulary;
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::Verification;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["bridges", "longest_bridge"], key: "first_player", position: "position", answer: false };
/// The value column: the claimed nim-sum (0: the claim says the player to move loses).
pub const VALUES: Values = Values { value: "claimed nim-sum", zero: ["claimed first-player loss", "claimed first-player losses"] };

/// Kings' bridge.
pub static GAME: GameEntry = GameEntry {
    name: "kings",
    commands,
    results,
    oracle: Oracle {
        files: &["src/games/kings/retro.rs"],
        may_use: &["super::Game", "super::Side", "crate::error"]
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
    vec![ResultsDir { dir: "kings", recompute: Recompute::Sizes(|_, rule, r, c| super::verify::recompute_size(rule, r, c)) }]
}

const ENGINES: &[(&str, &str)] = &[
    ("claim", "Nim on A_i − 2 (verified)."),
    ("naive", "Retrograde analysis of the position graph (small inputs only; may answer Draw)."),
];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "kings",
        about: "Kings' bridge: N (≤ 100), A_1 … A_N (≤ 10^9), Whiteking|Blackking; prints the winner.",
        options: vec![vocabulary::engine(ENGINES)],
        examples: &["printf '2\\n3 3\\nBlackking\\n' | sprague solve kings"],
    },
    solve,
};

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let game = parse_input(&name, &text)?;
    let winner = if vocabulary::naive(args) {
        match start_value(&game)? {
            Value::Win => game.first.name(),
            Value::Loss => game.first.other().name(),
            Value::Draw => "Draw",
        }
    } else {
        claim::winner(&game).name()
    };
    session.println(winner)
}

const CLAIM_CHOICES: &[(&str, &str)] = &[
    ("nim-minus-2", "Nim on A_i − 2 (the claim under test)."),
    ("nim-minus-1", "Nim on A_i − 1 — deliberately wrong, to show the check can fail."),
];

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "kings",
        about: "Kings' bridge: Nim on A_i − 2 vs retrograde analysis of every small set of bridges.",
        options: vec![
            OptSpec::value("max", "BRIDGESxLENGTH", "Every multiset of 1..=BRIDGES bridges of lengths 2..=LENGTH, e.g. 3x7.").default("3x7"),
            OptSpec::value("max-bridges", "BRIDGES", "Old spelling of --max's BRIDGES.").hidden(),
            OptSpec::value("max-length", "LENGTH", "Old spelling of --max's LENGTH.").hidden(),
            OptSpec::value("claim", "CLAIM", "The claimed rule under test.").default("nim-minus-2").choices(CLAIM_CHOICES),
        ],
        examples: &["sprague verify kings --max 3x6", "sprague verify kings --claim nim-minus-1"],
    },
    build,
};

fn build(args: &Args) -> Result<Box<dyn Verification>> {
    let claim = CLAIMS.of(args.text("claim"))?;
    let (bridges, length) = vocabulary::max_pair(args, "BRIDGESxLENGTH", None, ["max-bridges", "max-length"])?;
    Ok(Box::new(KingsRun::new(usize::try_from(bridges).unwrap_or(usize::MAX), length, claim)?))
}
