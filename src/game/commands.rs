//! The two shapes of game commands: `solve` (answer a contest input) and verify-style runs into `--out`.

use super::options::{Args, OptSpec};
use super::session::{Session, Status};
use super::{Command, CommandSpec, Verb};
use crate::error::{Error, Result};
use crate::output::text::counted;
use crate::output::records::{Answer, Columns, MismatchRow};
use crate::runner::directory::{verify_into, DirRun, Finished};
use crate::runner::resumable::Options;
use crate::runner::{RunResults, Shard, Verification};
use std::time::Duration;

/// The FILE argument of every `solve` command.
pub const INPUT_FILE: OptSpec =
    OptSpec::positional("file", "Input file in the problem's format; `-` or absent reads standard input. Errors name the place as FILE:LINE:COLUMN, 1-based.");

/// Options of every verify-style run (appended to the game's own).
pub const RUN_OPTIONS: &[OptSpec] = &[
    OptSpec::value("out", "DIR", "Output directory for summary.csv, distribution.csv, mismatches.csv, manifest.json.")
        .default("out"),
    OptSpec::value("threads", "N", "Worker threads (default: all cores)."),
    crate::game::vocabulary::QUIET,
    OptSpec::value("shard", "K/N", "Process only shard K of N of the run's positions, all sizes' laid end to end (merge the N outputs).")
        .default("1/1"),
    OptSpec::flag("resume", "Continue the unfinished run whose checkpoint.json is in --out."),
    OptSpec::flag("force", "Start even when the estimate says the run takes more than a day."),
    OptSpec::value("checkpoint-secs", "SECONDS", "Seconds between checkpoints (besides one per job).").default("30").hidden(),
    OptSpec::value("block-patterns", "N", "Positions per checkpointed block.").default("1048576").hidden(),
    OptSpec::value("stop-after-blocks", "N", "Testing: exit with code 3 after the first checkpoint once N blocks ran.")
        .hidden(),
    OptSpec::value("block-delay-ms", "MS", "Testing: sleep this long per block evaluated.").default("0").hidden(),
    MEMORY_LIMIT,
];

/// `--memory-limit BYTES`: the memory a run may plan for.
pub const MEMORY_LIMIT: OptSpec = OptSpec::value(
    "memory-limit",
    "BYTES",
    "Memory the run may plan for, in bytes (default: what is available: the smallest of MemAvailable, the room under the cgroup memory limit and that under `ulimit -v`); a run estimated to need more is refused.",
);

/// The least `--memory-limit` taken: no memory at all is a slip (a tiny limit is refused by
/// the run's own estimate, which names what it needs).
pub const LEAST_MEMORY_LIMIT: u64 = 1;

/// The memory of `--memory-limit`, else the memory available; `None` when neither is known.
pub fn memory_limit(args: &Args) -> Result<Option<u64>> {
    Ok(memory_limit_given(args)?.or_else(crate::sys::available_memory_bytes))
}

/// `--memory-limit BYTES` as given (`None` without it), refused below [`LEAST_MEMORY_LIMIT`].
pub fn memory_limit_given(args: &Args) -> Result<Option<u64>> {
    match args.get::<u64>("memory-limit")? {
        Some(bytes) if bytes < LEAST_MEMORY_LIMIT => Err(Error::Usage(format!("--memory-limit must be at least {LEAST_MEMORY_LIMIT} byte, not {bytes}"))),
        given => Ok(given),
    }
}

/// `sprague solve GAME [FILE] …`: the game's options plus FILE; `solve` prints the answer.
#[derive(Clone, Copy)]
pub struct SolveCommand {
    pub spec: fn() -> CommandSpec,
    pub solve: fn(&Args, &mut Session) -> Result<()>,
}

impl Command for SolveCommand {
    fn verb(&self) -> Verb {
        Verb::Solve
    }

    fn spec(&self) -> CommandSpec {
        let mut spec = (self.spec)();
        spec.options.insert(0, INPUT_FILE);
        spec
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        (self.solve)(args, session)?;
        session.stdout.flush().map_err(|e| crate::Error::io("<stdout>", e))?;
        Ok(Status::Ok)
    }
}

/// A verify or census command: the game's options describe a [`Verification`], which runs
/// into `--out` with [`RUN_OPTIONS`].
#[derive(Clone, Copy)]
pub struct VerifyCommand {
    pub verb: Verb,
    pub spec: fn() -> CommandSpec,
    pub build: fn(&Args) -> Result<Box<dyn Verification>>,
}

impl Command for VerifyCommand {
    fn verb(&self) -> Verb {
        self.verb
    }

    fn spec(&self) -> CommandSpec {
        let mut spec = (self.spec)();
        spec.options.extend_from_slice(RUN_OPTIONS);
        spec
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let own: Vec<&str> = (self.spec)().options.iter().map(|o| o.name).collect();
        run_verification(&*(self.build)(args)?, &own, args, session)
    }

    fn verification(&self, args: &Args) -> Option<Result<Box<dyn Verification>>> {
        Some((self.build)(args))
    }
}

/// Runs `verification` into `--out` as [`RUN_OPTIONS`] say, recording the options named
/// `own` in the manifest, and reports the totals.
pub fn run_verification(verification: &dyn Verification, own: &[&str], args: &Args, session: &mut Session) -> Result<Status> {
    let mut run = dir_run(args)?;
    run.parameters.insert("options".into(), args.to_json(own));
    let clock = session.clock();
    match verify_into(verification, &run, &clock, session.progress)? {
        Finished::Stopped => {
            session.report(&format!("stopped as asked; continue with --resume (checkpoint in {})", run.dir.display()));
            Ok(Status::Interrupted)
        }
        Finished::Done(report) => {
            if let Some(line) = &report.replaced {
                session.report(line);
            }
            session.report(&totals(&report.results, verification.mode(), &run));
            if let Some(line) = counterexample_line(&report.results, verification)? {
                session.report(&line);
            }
            Ok(if report.all_agree() { Status::Ok } else { Status::Failed })
        }
    }
}

/// The output directory, shard, resumption and pacing given by [`RUN_OPTIONS`].
pub fn dir_run(args: &Args) -> Result<DirRun> {
    let options = Options {
        checkpoint_every: args.seconds("checkpoint-secs")?.unwrap_or(Options::default().checkpoint_every),
        block_positions: args.require::<u64>("block-patterns")?.max(1),
        stop_after_blocks: args.get("stop-after-blocks")?,
        block_delay: Duration::from_millis(args.require("block-delay-ms")?),
        ..Options::default()
    };
    let mut run = DirRun::new(args.require::<String>("out")?);
    run.shard = args.require::<Shard>("shard")?;
    run.resume = args.flag("resume");
    run.options = options;
    run.memory_limit = memory_limit_given(args)?;
    run.force = args.flag("force");
    Ok(run)
}

/// What a run with mismatches prints after its totals (`verify`, and `merge` of its shards):
/// the first counterexample, smallest in the order of `verification`'s sizes; `None` when
/// every answer agreed.
pub fn counterexample_line(results: &RunResults, verification: &dyn Verification) -> Result<Option<String>> {
    let order: Vec<(u32, u32)> = verification.jobs()?.into_iter().flat_map(|j| j.sizes).collect();
    Ok(results.first_mismatch(&order).map(|first| first_counterexample(first, &results.rows_of(first), results.columns)))
}

/// The number of mismatches of `results`, all sizes together.
pub fn mismatches(results: &RunResults) -> u64 {
    results.sizes.values().map(|t| t.mismatches).sum()
}

/// The smallest counterexample `first` in the game's own column names, with what each of its
/// `rows` (one per wrong answer) says, e.g. `first counterexample: rows 1, cols 3, board .X. —
/// claim 1, naive 0` ([`wrong_answer`]; several joined by `; `).
fn first_counterexample(first: &MismatchRow, rows: &[&MismatchRow], columns: Columns) -> String {
    let [a, b] = columns.size;
    let answers: Vec<String> = rows.iter().map(|row| wrong_answer(row)).collect();
    format!("first counterexample: {a} {}, {b} {}, {} {} — {}", first.rows, first.cols, columns.position, first.board, answers.join("; "))
}

/// The wrong answer of one mismatch row against the naive value: `claim 1, naive 0`, or for the
/// components of a game that checks them `components: XOR of the parts' values 1, naive 0`;
/// where the values agree (a misère claim is wrong about the winner only: the outcomes were
/// compared, and the normal-play values would only mislead), the winners alone: `misère
/// winner: claim first player wins, naive second player wins`.
fn wrong_answer(row: &MismatchRow) -> String {
    let naive_wins = format!("{} player wins", row.naive_outcome.to_lowercase());
    let claim = row.dp_grundy;
    let said = match row.answer {
        Some(Answer::Components) => format!("components: XOR of the parts' values {claim}"),
        Some(Answer::Claim) | None => format!("claim {claim}"),
    };
    match row.naive_grundy {
        Some(value) if value == claim => format!("misère winner: claim {}, naive {naive_wins}", other_winner(&row.naive_outcome)),
        Some(value) => format!("{said}, naive {value}"),
        None => format!("{said}, naive: {naive_wins}"),
    }
}

/// The winner a claim names when it disagrees with `naive_outcome` (`First` or `Second`) on it.
fn other_winner(naive_outcome: &str) -> &'static str {
    match naive_outcome {
        "First" => "second player wins",
        "Second" => "first player wins",
        _ => "another winner",
    }
}

/// One line per run: positions checked and mismatches, and where the files are.
fn totals(results: &RunResults, mode: &str, run: &DirRun) -> String {
    let positions: u64 = results.sizes.values().map(|t| t.patterns).sum();
    let checked = if mode == "census" { "none cross-checked".to_string() } else { counted(mismatches(results), "mismatch") };
    format!(
        "{} ({}): {}, {}, {checked}; files in {}",
        results.game,
        results.rule,
        counted(results.sizes.len() as u64, "size"),
        counted(positions, "position"),
        run.dir.display()
    )
}
