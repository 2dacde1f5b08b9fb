//! The wall game's commands: `solve`, `verify` (`census` in census_command.rs, `table` and `prove wall-empty` in empty/); its registry entry.

use super::empty::dp::{empty_table, EmptyRow, EMPTY};
use super::verify::{recompute_census, recompute_size, WallRun};
use super::board::{rules::Rule, Board, Shape};
use super::{claim, empty, naive, verify::cost};
use crate::sys;
use crate::check::{compare_rows, Difference};
use crate::output::records::Columns;
use crate::output::verify_files::SUMMARY;
use crate::error::{Error, Result};
use crate::game::vocabulary;
use crate::game::{Args, Command, CommandSpec, GameEntry, MergedCheck, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::Shard;
use crate::output::csv::read_csv;
use crate::runner::Verification;
use std::path::Path;
use std::io::Write;

/// The Wall Making Game (BOJ 11717).
pub static GAME: GameEntry = GameEntry {
    name: "wall",
    commands,
    results,
    oracle: Oracle {
        files: &["src/games/wall/naive/mod.rs", "src/games/wall/naive/table.rs"],
        may_use: &["crate::games::wall::board", "crate::games::wall::naive", "crate::bits", "crate::error"],
    },
    columns: Columns::BOARD,
    values: crate::output::records::Values::GRUNDY,
    report: Some(super::report::runs::run_report),
    explore: Some(super::explore::explorer),
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![
        Box::new(SOLVE),
        Box::new(VERIFY),
        Box::new(super::search::contest::STRESS),
        Box::new(super::census_command::CensusCommand),
        Box::new(super::search::command::SearchCommand),
        Box::new(super::empty::commands::TableEmpty),
        Box::new(super::empty::commands::ProveEmpty),
        Box::new(super::report::runs::ReportCommand),
    ]
}

fn results() -> Vec<ResultsDir> {
    let sizes = |dir| ResultsDir { dir, recompute: Recompute::Sizes(|_, rule, r, c| recompute_size(rule, r, c)) };
    let table = |dir, file, seconds, compare| ResultsDir { dir, recompute: Recompute::Table { file, seconds, compare } };
    vec![
        ResultsDir { dir: "wall/standard", recompute: Recompute::Table { file: EMPTY, seconds: 0.05, compare: compare_empty } },
        sizes("wall/standard"),
        census_dir("wall/census"),
        census_dir("wall/census/5x7"),
        census_dir("wall/census/4x8"),
        census_dir("wall/census/7x5"),
        ResultsDir { dir: "wall/census/7x5", recompute: Recompute::Table { file: SUMMARY, seconds: 0.01, compare: super::verify::transposes::compare_with_transposed_sibling } },
        sharded_census("wall/census/6x7"),
        sharded_census("wall/census/5x8"),
        sizes("wall/x-blocks"),
        sizes("wall/misere"),
        sizes("wall/t-split"),
        transposes("wall/standard"),
        transposes("wall/x-blocks"),
        transposes("wall/misere"),
        ResultsDir {
            dir: "wall/search",
            recompute: Recompute::Table { file: super::search::command::BEST, seconds: 0.05, compare: super::search::command::compare_best },
        },
        table("wall/empty/table", empty::files::TABLE_CSV, 0.05, empty::check::table_csv),
        table("wall/empty/table", empty::files::ROW_MAX, empty::WHOLE_TABLE_SECONDS, empty::check::whole_table),
        table("wall/empty/proof", empty::files::ROWS, 0.1, empty::check::proof_start),
        table("wall/empty/proof", empty::files::VERDICT, empty::WHOLE_PROOF_SECONDS, empty::check::whole_proof),
    ]
}

/// Each size of a committed run against its transpose (no recomputation: the rows themselves).
fn transposes(dir: &'static str) -> ResultsDir {
    ResultsDir { dir, recompute: Recompute::Table { file: SUMMARY, seconds: 0.01, compare: super::verify::transposes::compare_transposes } }
}

/// A census committed as one run.
fn census_dir(dir: &'static str) -> ResultsDir {
    ResultsDir { dir, recompute: Recompute::Sizes(|_, rule, r, c| recompute_census(rule, r, c, Shard::ALL)) }
}

/// A census committed as shards (DIR/shards/K) and their merge, with the few-X check.
fn sharded_census(dir: &'static str) -> ResultsDir {
    let few_x = MergedCheck { label: "few-X rows by the per-board DP", seconds: 4.0, compare: super::census::few_x::compare_committed };
    ResultsDir { dir, recompute: Recompute::Sharded { recompute: |_, rule, r, c, shard| recompute_census(rule, r, c, shard), merged: Some(few_x) } }
}

/// Recomputes empty.csv (every X-free board up to 20×20) and compares it with `path`.
fn compare_empty(path: &Path) -> Result<Vec<Difference>> {
    let committed = read_csv::<EmptyRow>(path)?;
    let lines: Vec<_> = committed.iter().enumerate().map(|(i, r)| (i + 2, r)).collect();
    let fresh = empty_table(Shape::new(super::board::MAX_SIDE, super::board::MAX_SIDE))?;
    Ok(compare_rows(path, &lines, &fresh, |r| (r.rows, r.cols)))
}


const RULES_HELP: &str = "The game's rules: standard, x-blocks, misere or t-split (docs/variants.md).";

/// `--rules` (`--rule`, its old name, hidden: manifests record it).
const RULES: OptSpec = OptSpec::value("rules", "RULES", RULES_HELP).default("standard").aliases(&["rule"]).validate(|s| s.parse::<Rule>().map(|_| ()));

const ENGINES: &[(&str, &str)] = &[
    ("claim", "The claim, the rectangle DP (any board up to 20×20): verified under standard and t-split rules, known false under x-blocks and misere."),
    ("naive", "Whole-board search, exact under every rule (boards of at most 64 cells; refused when it will not fit in memory or a day)."),
];

const FORMATS: &[(&str, &str)] = &[
    ("text", "First or Second."),
    ("json", "{rows, cols, grundy, winner, winning_moves: [[row, col], …] 0-based, engine, exact (false: a claim known false answered)}."),
];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "wall",
        about: "Wall Making Game (BOJ 11717): `H W` then H rows of '.'/'X'; prints First or Second.",
        options: vec![
            vocabulary::format(FORMATS)[0],
            vocabulary::format(FORMATS)[1],
            OptSpec::flag("batch", "Read any number of boards, one after another; one answer per board."),
            OptSpec {
                help: "Engine that answers (default: claim under standard and t-split rules; naive under x-blocks and misere, where the claim is known false \
                       and --engine claim labels its answer so).",
                default: None,
                ..vocabulary::engine(ENGINES)
            },
            OptSpec::flag("force", "With --engine naive: search even when the estimate says it takes more than a day or more memory than is available."),
            RULES,
        ],
        examples: &[
            "printf '2 2\\nX.\\n..\\n' | sprague solve wall --format json",
            "sprague solve wall --batch boards.txt",
            "printf '1 1\\n.\\n' | sprague solve wall --rules misere",
        ],
    },
    solve,
};

/// Whether the claim (the rectangle DP) is known to be false under `rule` (docs/variants.md:
/// `verify wall --rules x-blocks|misere` finds counterexamples; standard and t-split agree).
pub fn claim_known_false(rule: Rule) -> bool {
    matches!(rule, Rule::XBlocks | Rule::Misere)
}

#[derive(serde::Serialize)]
struct WallAnswer {
    rows: usize,
    cols: usize,
    /// The Grundy value; absent under misère rules, where it does not decide the winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy: Option<u32>,
    winner: &'static str,
    /// Each move's cell as [row, col], 0-based.
    winning_moves: Vec<[usize; 2]>,
    engine: &'static str,
    /// False only when the claim answered under rules where it is known to be false
    /// (`--engine claim` with x-blocks or misère rules): then the answer may be wrong.
    exact: bool,
}

impl WallAnswer {
    /// The text line: the winner, labelled when the answer is a claim known to be false.
    fn text(&self, rule: Rule) -> String {
        match self.exact {
            false => format!("{} (claim: rectangle DP, known false under {rule} rules)", self.winner),
            true => self.winner.to_string(),
        }
    }
}

fn answer(board: &Board, naive: Option<cost::NaiveLimits>, rule: Rule) -> Result<WallAnswer> {
    let (grundy, first_wins, moves) = match naive {
        Some(limits) => {
            let cap = limits.check(board, rule, claim_known_false(rule))?;
            let verdict = naive::solve_within(board, rule, cap)?;
            (verdict.grundy, verdict.first_player_wins, naive::winning_moves_within(board, rule, cap)?)
        }
        None => {
            let sol = claim::solve(board, rule);
            (sol.grundy, sol.grundy != 0, sol.winning_moves)
        }
    };
    Ok(WallAnswer {
        rows: board.rows(),
        cols: board.cols(),
        grundy: (rule != Rule::Misere).then_some(grundy),
        winner: if first_wins { "First" } else { "Second" },
        winning_moves: moves.into_iter().map(|(r, c)| [r, c]).collect(),
        engine: if naive.is_some() { "naive" } else { "claim" },
        exact: naive.is_some() || !claim_known_false(rule),
    })
}

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let rule: Rule = args.require("rules")?;
    let naive = args.text("engine").map_or(claim_known_false(rule), |e| e == "naive");
    if args.flag("force") && !naive {
        return Err(Error::Usage("--force applies to the naive engine only (the claim answers any board at once)".into()));
    }
    let naive = naive.then(|| cost::NaiveLimits { memory: sys::available_memory_bytes(), force: args.flag("force") });
    let json = vocabulary::json(args);
    let print = |board: Board, stdout: &mut dyn Write| -> Result<()> {
        let answer = answer(&board, naive, rule)?;
        let line = if json { serde_json::to_string(&answer).expect("answers serialize") } else { answer.text(rule) };
        writeln!(stdout, "{line}").and_then(|()| stdout.flush()).map_err(|e| Error::io("<stdout>", e))
    };
    if args.flag("batch") {
        return session.with_input_stream(args.text("file"), |name, input, stdout| {
            Board::read_batch(name, input, |board| print(board, stdout))
        });
    }
    let (name, text) = session.read_input(args.text("file"))?;
    let board = Board::parse_input(&name, &text, false)?.pop().expect("one board");
    print(board, session.stdout)
}


static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || {
        let mut options = vec![
            RULES,
            OptSpec::flag("shrink", "Also shrink every counterexample to a minimal one and write counterexamples.csv."),
        ];
        options.extend(super::sizes::size_options());
        CommandSpec {
            name: "wall",
            about: "Wall Making Game: rectangle DP vs whole-board search on every X-pattern.",
            options,
            examples: &["sprague verify wall --max 5x5", "sprague verify wall --max 4x4 --rules x-blocks --shrink --out out/x-blocks"],
        }
    },
    build: |args| {
        let (shapes, label) = super::sizes::shapes(args)?;
        let mut run = WallRun::verify(shapes, args.require("rules")?, label)?;
        run.shrink = args.flag("shrink");
        Ok(Box::new(run) as Box<dyn Verification>)
    },
};
