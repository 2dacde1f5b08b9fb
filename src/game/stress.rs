//! `sprague stress GAME`: the command of every game with a contest side — its options, the run
//! through [`crate::stress::stress`], the summary on stdout and the exit status.

use super::options::{Args, OptSpec};
use super::session::{Session, Status};
use super::{Command, CommandSpec, Verb};
use crate::error::{Error, Result};
use crate::output::text::{counted, escaped, shorten};
use crate::stress::{self, CommandLine, Contest, FailureKind, FailureRow, Generator, Limits, SlowestSummary, Source, StressConfig, StressSummary};

mod modes;
mod recorded;
pub use modes::{run_slowest, slowest_text};
pub use recorded::{Larger, Recorded};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A game's contest side behind one object: a stress run, and samples of its inputs with the
/// trusted answers (tests compare them with `sprague solve`).
pub trait StressSide: Sync {
    fn stress(&self, command: &CommandLine, config: &StressConfig, progress: &dyn Fn(&stress::Progress)) -> Result<StressSummary>;
    /// True when the program answers with moves (`--answer move`).
    fn answers_moves(&self) -> bool {
        false
    }
    /// The first `count` cases of `source` as (input text, trusted answer).
    fn samples(&self, source: Source, seed: u64, count: usize) -> Vec<(Vec<u8>, String)>;
    /// `--slowest`: the `count` inputs on which `command` is slowest (with their trusted
    /// answers when `answers`), written under `config.out`.
    fn slowest(&self, command: &CommandLine, config: &StressConfig, count: (usize, bool), progress: &dyn Fn(&stress::Progress)) -> Result<SlowestSummary>;
}

impl<G: Generator> StressSide for G {
    fn stress(&self, command: &CommandLine, config: &StressConfig, progress: &dyn Fn(&stress::Progress)) -> Result<StressSummary> {
        stress::stress(self, command, config, progress)
    }

    fn answers_moves(&self) -> bool {
        Contest::answers_moves(self)
    }

    fn samples(&self, source: Source, seed: u64, count: usize) -> Vec<(Vec<u8>, String)> {
        self.cases(source, seed).take(count).map(|c| (self.input_text(&c), self.answer(&c).to_string())).collect()
    }

    fn slowest(&self, command: &CommandLine, config: &StressConfig, count: (usize, bool), progress: &dyn Fn(&stress::Progress)) -> Result<SlowestSummary> {
        stress::slowest(self, command, config, count, None, progress)
    }
}

/// `sprague stress GAME --cmd 'COMMAND' …`: the game's `--max` plus the options every game shares.
#[derive(Clone, Copy)]
pub struct StressCommand {
    pub name: &'static str,
    /// What the inputs and answers are, for the help line.
    pub about: &'static str,
    /// The bound of the exhaustive generator (`--max`), with the game's own value form and default.
    pub max: OptSpec,
    /// The contest side these options describe.
    pub build: fn(&Args) -> Result<Box<dyn StressSide>>,
    /// Example command lines for the help page.
    pub examples: &'static [&'static str],
}

const GENERATORS: &str = "exhaustive, random or adversarial; repeat it or give a comma list (default: all three, mixed).";

/// The options every `stress` command has, after the game's `--max`.
pub fn common_options() -> Vec<OptSpec> {
    vec![
        OptSpec::value("cmd", "COMMAND", "The program under test: run once per input, input on stdin, answer on stdout (shell syntax runs via sh -c).").required(),
        OptSpec::value("generator", "GENERATOR", GENERATORS).multiple(),
        OptSpec::value("seed", "N", "Seed of the random and adversarial generators.").default("1"),
        OptSpec::value("budget", "SECONDS", "Time for generating and judging inputs.").default("60"),
        OptSpec::value("timeout", "SECONDS", "CPU time limit per run of the program under test (--cmd, with its children); killed past it, or after 3 times as much wall-clock time (at least 5 s more).").default("2"),
        OptSpec::value("failures", "N", "Stop after this many failures.").default("1").aliases(&["max-failures"]),
        OptSpec::value("threads", "N", "Programs run at once (default: the number of cores).").aliases(&["jobs"]),
        OptSpec::value("out", "DIR", "Output directory: failures/NNN.in, .ans, .orig.in, .err (the program's stderr), failures.csv, manifest.json.").default("out/stress"),
        OptSpec::value("memory", "MIB", "Address-space limit of the program under test, in MiB (default: none)."),
        OptSpec::value("shrink-budget", "SECONDS", "Time for shrinking the failures, after --budget.").default("60"),
        OptSpec::value("search-budget", "SECONDS", "Time for the search for the smallest failing inputs (every smaller input in the game's size order) and where they first go wrong, after shrinking; 0: no search.").default("10"),
        OptSpec::value("answer", "KIND", "move: the program prints a winning move in the game's move format, or the word of a lost position (wall: `r c`, 1-based, or Second; pile games: `i k`, take k stones from pile i, or cubelover; grundy and octal: `i` and the heaps heap i becomes; docs/stress.md lists every game's); default: the problem's own answer."),
        crate::game::vocabulary::QUIET,
    ]
    .into_iter()
    .chain(modes::options())
    .collect()
}

impl Command for StressCommand {
    fn verb(&self) -> Verb {
        Verb::Stress
    }

    fn spec(&self) -> CommandSpec {
        stress_spec(self.name, self.about, self.max, self.examples)
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        run_stress(self.name, self.build, args, session)
    }

    fn stress_side(&self, args: &Args) -> Option<Result<Box<dyn StressSide>>> {
        Some((self.build)(args))
    }
}

/// The options of [`common_options`] only the built-in games have: `--answer move` (a game
/// program or a problem has no move format sprague could read).
const BUILT_IN_ONLY: [&str; 1] = ["answer"];

/// [`common_options`] without [`BUILT_IN_ONLY`]: those of `stress custom` and `stress problem`,
/// which leave the others out of their help and refuse them as unknown. Their inputs have no
/// size order, so `--search-budget` searches nothing below a shrunk failure: `search_budget`
/// is its help there, saying what the command does with it.
pub fn outside_game_options(search_budget: &'static str) -> Vec<OptSpec> {
    let own = |o: OptSpec| if o.name == "search-budget" { OptSpec { help: search_budget, ..o } } else { o };
    common_options().into_iter().filter(|o| !BUILT_IN_ONLY.contains(&o.name)).map(own).collect()
}

/// The spec of `stress NAME`: the game's `--max`, then [`common_options`].
pub fn stress_spec(name: &'static str, about: &'static str, max: OptSpec, examples: &'static [&'static str]) -> CommandSpec {
    let mut options = vec![max];
    options.extend(common_options());
    CommandSpec { name, about, options, examples }
}

/// Runs `stress NAME` with the contest side `build` makes of the options: the stress run with
/// a progress line, the summary on stdout; `Failed` when something failed.
pub fn run_stress(name: &str, build: impl FnOnce(&Args) -> Result<Box<dyn StressSide>>, args: &Args, session: &mut Session) -> Result<Status> {
    let text: String = args.require("cmd")?;
    let command = CommandLine::parse(&text)?;
    // Every option is checked before the game side starts anything (a game program, say).
    let config = config(name, &command, args, session)?;
    let side = build(args)?;
    if answer_moves(args)? && !side.answers_moves() {
        return Err(Error::Usage(format!("--answer move: stress {name} has no move answers (docs/stress.md lists the games that have them, and why the others have none)")));
    }
    let save = modes::SaveTests::from_args(args, &config.out)?;
    if let Some(count) = args.get::<usize>("slowest")? {
        return run_slowest(name, &*side, &command, &config, count, save.as_ref(), session);
    }
    if let Some(save) = &save {
        save.check(config.max_failures)?;
    }
    session.progress.start(&format!("stress {name}"), None, 0);
    // Ctrl-C stops the run gently: what was found is shrunk no further, saved and shown.
    let _gentle = crate::interrupt::stop_gently();
    let summary = side.stress(&command, &config, &|p| {
        let rate = p.runs as f64 / p.elapsed.as_secs_f64().max(1e-9);
        session.progress.message(&format!("stress {name}: {}, {}, {rate:.0} runs/s", counted(p.runs, "run"), counted(p.failures as u64, "failure")));
    });
    session.progress.finish();
    let summary = summary?;
    // The summary is shown before the failures are saved: a save that fails loses nothing shown.
    session.print(&summary_text(name, &config, &summary))?;
    if let Some(save) = &save {
        session.print(&save.failures(&summary)?)?;
    }
    Ok(if summary.failures.is_empty() { Status::Ok } else { Status::Failed })
}

/// `--max` of a game whose exhaustive bound is one number in `range` (a usage error naming
/// the game otherwise).
pub fn max_in(args: &Args, game: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64> {
    let max: u64 = args.require("max")?;
    if !range.contains(&max) {
        return Err(Error::Usage(format!("--max for {game} must be between {} and {}, not {max}", range.start(), range.end())));
    }
    Ok(max)
}

/// True for `--answer move`; false without `--answer` (a usage error for any other value).
pub fn answer_moves(args: &Args) -> Result<bool> {
    match args.text("answer") {
        None => Ok(false),
        Some("move") => Ok(true),
        Some(other) => Err(Error::Usage(format!("--answer must be move (or left out for the problem's own answer), not {other:?}"))),
    }
}

/// The contest side of a game with move answers: [`ByMove`] with `--answer move`, else the
/// game's own answers.
///
/// [`ByMove`]: crate::stress::moves::ByMove
pub fn side_with_moves<G: crate::stress::moves::Moves + 'static>(contest: G, args: &Args) -> Result<Box<dyn StressSide>> {
    Ok(if answer_moves(args)? { Box::new(crate::stress::moves::ByMove(contest)) } else { Box::new(contest) })
}

/// `--search-budget`: seconds, or none for 0.
fn search_budget(args: &Args) -> Result<Option<Duration>> {
    match args.get::<f64>("search-budget")? {
        None | Some(0.0) => Ok(None),
        Some(_) => args.required_positive_seconds("search-budget").map(Some),
    }
}

/// The generators named by `--generator` (comma lists, repeated; none: all three).
pub fn sources(args: &Args) -> Result<Vec<Source>> {
    let mut out = Vec::new();
    let given = args.text("generator");
    if given.is_some_and(|text| text.split(',').all(|name| name.trim().is_empty())) {
        return Err(Error::Usage(format!("--generator {:?} names no generator (exhaustive, random or adversarial)", given.unwrap_or_default())));
    }
    for name in given.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let source: Source = name.parse().map_err(|e| Error::Usage(format!("--generator: {e}")))?;
        if !out.contains(&source) {
            out.push(source);
        }
    }
    Ok(out)
}

fn config(game: &str, command: &CommandLine, args: &Args, session: &Session) -> Result<StressConfig> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.get::<usize>("threads")?.unwrap_or(cores);
    if jobs == 0 || jobs > 64 * cores {
        return Err(Error::Usage(format!("--threads must be between 1 and {} (this machine has {cores} cores), not {jobs}", 64 * cores)));
    }
    let max_failures: usize = args.require("failures")?;
    if max_failures == 0 {
        return Err(Error::Usage("--failures must be at least 1".into()));
    }
    let memory = args.get::<u64>("memory")?.map(|mib| mib.saturating_mul(1 << 20));
    if memory == Some(0) {
        return Err(Error::Usage("--memory must be at least 1 MiB (0 leaves the program no address space to start in)".into()));
    }
    let limits = Limits { timeout: args.required_positive_seconds("timeout")?, memory, ..Limits::default() };
    let parameters = BTreeMap::from([
        ("game".to_string(), Value::from(game)),
        ("program".to_string(), Value::from(command.display())),
        ("options".to_string(), args.to_json(&["max", "generator", "seed", "budget", "shrink-budget", "search-budget", "answer", "timeout", "failures", "threads", "memory", "slowest"])),
    ]);
    Ok(StressConfig {
        sources: sources(args)?,
        seed: args.require("seed")?,
        jobs,
        limits,
        budget: args.required_positive_seconds("budget")?,
        shrink_budget: args.required_positive_seconds("shrink-budget")?,
        search_budget: search_budget(args)?,
        max_failures,
        out: args.require::<String>("out")?.into(),
        command_line: session.command_line.clone(),
        parameters,
    })
}

/// Longest shrunk input shown in the summary (bytes); longer ones are only named.
const SHOWN_INPUT: usize = 1200;

/// The summary on stdout: the counts, then each failure with its shrunk input and answer.
pub fn summary_text(game: &str, config: &StressConfig, summary: &StressSummary) -> String {
    let sources = if config.sources.is_empty() { &Source::ALL[..] } else { &config.sources[..] };
    let generators = sources.iter().map(|s| s.name()).collect::<Vec<_>>().join("+");
    let ended = if summary.exhausted { ", every input judged" } else { "" };
    let shrinking = if summary.failures.is_empty() { String::new() } else { format!("; {:.1} s with shrinking", summary.elapsed.as_secs_f64()) };
    let mut text = format!(
        "stress {game}: {} in {:.1} s ({:.0} runs/s, {}, {generators}, seed {}{ended}){shrinking}\n",
        counted(summary.runs, "run"),
        summary.judging_seconds,
        summary.rate(),
        counted(config.jobs as u64, "job"),
        config.seed
    );
    text.push_str(&format!("  {}\n", stress::tally::text(&summary.generators)));
    if summary.interrupted {
        let cut = if summary.failures.is_empty() { "" } else { "; shrinking and the search below the failures were cut short" };
        let unjudged = match summary.unjudged {
            0 => String::new(),
            n => format!(" ({} in flight at the signal, not judged)", counted(n, "run")),
        };
        text.push_str(&format!("interrupted: judging stopped at the signal{unjudged}{cut}\n"));
    }
    if summary.failures.is_empty() {
        text.push_str("no failure\n");
    }
    for (row, input) in summary.failures.iter().zip(&summary.inputs) {
        text.push_str(&failure_text(row, input, summary.interrupted));
    }
    text.push_str(&format!("files in {}\n", config.out.display()));
    text
}

/// One failure for people; `interrupted`: a signal cut its shrinking short, not the budget.
fn failure_text(row: &FailureRow, input: &Path, interrupted: bool) -> String {
    let cut = if interrupted { "interrupted" } else { "time ran out" };
    let mut how = match (row.minimal || row.size_shrunk != row.size_after, row.shrink_steps) {
        (true, 0) => "already minimal".to_string(),
        (true, steps) => format!("shrunk in {} to {} (minimal)", counted(steps as u64, "step"), row.size_shrunk),
        (false, 0) => format!("not shrunk ({cut} before the first step)"),
        (false, steps) => format!("shrunk in {} to {} ({cut} before a minimal one)", counted(steps as u64, "step"), row.size_shrunk),
    };
    if row.size_shrunk != row.size_after {
        how.push_str(&format!("; the search found {} below it", row.size_after));
    }
    let got = if row.got.is_empty() { "no output" } else { &row.got };
    // A time limit's exit status already says the CPU time.
    let cpu = if row.kind == FailureKind::TimeLimit { String::new() } else { format!(", {:.3} s CPU", row.seconds) };
    let ended = format!("{}{cpu}", row.exit_status);
    let expected = shorten(&row.expected);
    // An answer a checker refused may read the same as the expected one: the reason says why.
    let answer = match row.kind == FailureKind::WrongAnswer && expected == got && !row.detail.is_empty() {
        true => format!("got {got} ({ended}), refused: {}", row.detail),
        false => format!("expected {expected}, got {got} ({ended})"),
    };
    let mut text = format!("FAILED {}: {} ({} generator)\n  found on {}; {how}\n  {answer}\n", row.id, row.kind, row.source, row.size_before);
    if !row.detail.is_empty() && !answer.ends_with(&row.detail) {
        text.push_str(&format!("  {}\n", row.detail));
    }
    for line in [&row.searched, &row.cause].into_iter().filter(|l| !l.is_empty() && *l != "off") {
        text.push_str(&format!("  {line}\n"));
    }
    let body = escaped(&std::fs::read(input).unwrap_or_default());
    text.push_str(&format!("  {} (answer in {}.ans):\n", input.display(), row.id));
    if body.len() <= SHOWN_INPUT {
        text.extend(body.lines().map(|l| format!("    {l}\n")));
    } else {
        text.push_str(&format!("    ({} bytes)\n", body.len()));
    }
    text
}
