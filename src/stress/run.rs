//! A whole stress run: lock the output directory, judge generated cases in the pool until the
//! budget or the failure limit, shrink each failure, save it, and write manifest.json.

use super::command::CommandLine;
use super::contest::{Cases, Contest, Generator, Source};
use super::failures::{FailureFiles, FailureLog, FailureRow, FAILURES_DIR};
use super::pool::{Found, Plan, Pool, Progress};
use super::process::Limits;
use super::outcome::Verdict;
use super::shrink::{shrink, ShrinkLimits, Shrunk};
use super::smallest;
use super::tally::{self, GeneratorTally, Tallies};
use crate::error::{Error, Result};
use crate::output::manifest::{Manifest, RunClock};
use crate::output::takeover::{remove_stale, withdraw};
use crate::output::text::counted;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// File name of the run's provenance in the output directory.
pub const MANIFEST: &str = "manifest.json";

/// What a stress run does.
#[derive(Debug, Clone)]
pub struct StressConfig {
    /// Generators mixed in turn (all three when empty).
    pub sources: Vec<Source>,
    pub seed: u64,
    pub jobs: usize,
    pub limits: Limits,
    /// Time for generating and judging.
    pub budget: Duration,
    /// Time for shrinking all the failures, after `budget` (a run takes at most the two and a
    /// run's wall-clock cap).
    pub shrink_budget: Duration,
    /// Time for the search for the smallest failing inputs and where they go wrong, after
    /// shrinking (`None`: no search; the failures stay locally minimal).
    pub search_budget: Option<Duration>,
    pub max_failures: usize,
    pub out: PathBuf,
    /// The invocation, recorded in the directory lock and the manifest.
    pub command_line: Vec<String>,
    /// Facts recorded in the manifest besides the run's own counts (game, program, options).
    pub parameters: BTreeMap<String, Value>,
}

impl StressConfig {
    /// The game stressed, as the manifest records it (`parameters["game"]`).
    pub fn game(&self) -> &str {
        self.parameters.get("game").and_then(Value::as_str).unwrap_or_default()
    }
}

/// What a stress run found.
#[derive(Debug, Clone)]
pub struct StressSummary {
    pub runs: u64,
    pub failures: Vec<FailureRow>,
    /// The saved shrunk inputs, one per failure.
    pub inputs: Vec<PathBuf>,
    pub elapsed: Duration,
    /// Seconds spent generating and judging (before shrinking).
    pub judging_seconds: f64,
    /// True when every generated case was judged (an exhaustive run that finished).
    pub exhausted: bool,
    /// Runs and the largest input of each generator, in the order of the run's generators.
    pub generators: Vec<GeneratorTally>,
    /// True when a signal stopped the run ([`crate::interrupt::stop_gently`]): judging ended
    /// there, and the shrinking and search of what was found were cut short.
    pub interrupted: bool,
    /// Runs in flight at that signal, killed and not judged.
    pub unjudged: u64,
}

impl StressSummary {
    /// Program runs per second while judging generated cases.
    pub fn rate(&self) -> f64 {
        self.runs as f64 / self.judging_seconds.max(1e-9)
    }
}

/// Refuses a run that tested nothing (`runs` = 0): the budget ran out before the first case
/// was judged, or the generators (`exhausted`) gave none.
pub fn something_ran(runs: u64, exhausted: bool, budget: Duration) -> Result<()> {
    match (runs, exhausted) {
        (0, true) => Err(Error::Usage("the generators gave no case: nothing was tested".into())),
        (0, false) => Err(Error::Usage(format!("no case ran within the budget of {} s; give a larger --budget", budget.as_secs_f64()))),
        _ => Ok(()),
    }
}

/// A failure of the trusted side, with what the run had judged when it came: nothing is saved.
pub fn judged_before(e: Error, runs: u64, failures: usize) -> Error {
    let judged = format!("{} judged and {} found before it; nothing saved", counted(runs, "run"), counted(failures as u64, "failure"));
    // After a message that quotes the program's stderr (lines of its own), on a line of its own.
    let text = e.to_string();
    let gap = if text.contains('\n') { "\n" } else { " " };
    Error::Usage(format!("{text}{gap}({judged})"))
}

/// Runs `command` against `game` as `config` says, saving failures and manifest.json under
/// `config.out`.
pub fn stress<G: Generator>(game: &G, command: &CommandLine, config: &StressConfig, progress: &dyn Fn(&Progress)) -> Result<StressSummary> {
    let clock = RunClock::start(config.command_line.clone(), config.jobs).writing_into(&[FAILURES_DIR]);
    let _lock = clock.lock(&config.out, config.game())?;
    let started = Instant::now();
    let sources = if config.sources.is_empty() { Source::ALL.to_vec() } else { config.sources.clone() };
    let tagged = Tagged(game);
    let tallies = Tallies::new(&sources);
    let cases = tallies.count(game, tagged.mixed(&sources, config.seed));
    let mut pool = Pool::new(command, config.limits, config.jobs)?;
    let plan = Plan { budget: Some(config.budget), max_failures: config.max_failures.max(1), max_runs: None };
    game.set_deadline(Some(Instant::now() + config.budget), &format!("--budget {} s", config.budget.as_secs_f64()));
    let report = pool.run_stream(&tagged, cases, &plan, progress)?;
    if report.runs == 0 && crate::interrupt::stopping() {
        return Err(Error::Usage("stopped before the first case was judged; nothing written".into()));
    }
    something_ran(report.runs, report.exhausted, config.budget)?;
    let judging_seconds = report.elapsed.as_secs_f64();
    let shrink_deadline = Instant::now() + config.shrink_budget;
    game.set_deadline(Some(shrink_deadline), &format!("--shrink-budget {} s", config.shrink_budget.as_secs_f64()));
    let mut search_end = None;
    let mut saved = Vec::new();
    let found_count = report.found.len();
    for found in report.found {
        let limits = ShrinkLimits { deadline: Some(shrink_deadline), ..Default::default() };
        let shrunk = shrink_found(&mut pool, &tagged, found, limits)?;
        // The search budget starts when the first search does (after shrinking).
        let end = config.search_budget.map(|b| *search_end.get_or_insert_with(|| Instant::now() + b));
        game.set_deadline(end, &format!("--search-budget {} s", config.search_budget.unwrap_or_default().as_secs_f64()));
        let failure = if crate::interrupt::stopping() { shrunk } else { search_below(&mut pool, game, shrunk, end)? };
        // The trusted side asked again first: if it answers otherwise, the program is not blamed.
        game.confirm(&failure.shrunk.case)?;
        saved.push(Saved::of(game, failure));
    }
    // Nothing is written before the run is known good: a trusted side that failed (its
    // shrink candidates or sizes cut short) leaves the directory as it was.
    if let Some(e) = game.take_failure() {
        return Err(judged_before(e, report.runs, found_count));
    }
    // The earlier run's manifest goes first: a run killed while saving leaves no manifest
    // listing files that have changed.
    let earlier = withdraw(&config.out)?;
    let mut log = FailureLog::create(&config.out)?;
    let inputs = saved.into_iter().map(|s| s.save(&mut log)).collect::<Result<Vec<_>>>()?;
    let summary = StressSummary {
        runs: report.runs,
        failures: log.rows().to_vec(),
        inputs,
        elapsed: started.elapsed(),
        judging_seconds,
        exhausted: report.exhausted,
        generators: tallies.into_inner(),
        interrupted: crate::interrupt::stopping(),
        unjudged: report.unjudged,
    };
    let manifest = write_manifest(&clock, config, &sources, &summary, &log)?;
    if let Some(earlier) = earlier {
        remove_stale(&config.out, &earlier, &manifest)?;
    }
    Ok(summary)
}

/// A shrunk failure after the search below it.
struct Failure<C> {
    source: Source,
    original: C,
    shrunk: Shrunk<C>,
    /// The size shrinking reached (the search may have found a smaller failing input).
    shrunk_size: String,
    smallest: bool,
    searched: String,
    cause: String,
}

/// Shrinks one failure.
fn shrink_found<G: Contest>(pool: &mut Pool, tagged: &Tagged<'_, G>, found: Found<(Source, G::Case)>, limits: ShrinkLimits) -> Result<Failure<G::Case>> {
    let (source, original) = found.case.clone();
    let s = shrink(pool, tagged, found.case, found.expected, found.fault, found.seconds, limits)?;
    let shrunk = Shrunk { case: s.case.1, expected: s.expected, fault: s.fault, steps: s.steps, tries: s.tries, seconds: s.seconds, minimal: s.minimal };
    let shrunk_size = tagged.0.describe(&shrunk.case);
    Ok(Failure { source, original, shrunk, shrunk_size, smallest: false, searched: "off".into(), cause: String::new() })
}

/// Searches every input below the shrunk one for a smaller failing input until four fifths
/// of the time left to `end`, then asks where the program goes wrong until `end`.
fn search_below<G: Generator>(pool: &mut Pool, game: &G, mut failure: Failure<G::Case>, end: Option<Instant>) -> Result<Failure<G::Case>> {
    let Some(end) = end else { return Ok(failure) };
    let now = Instant::now();
    let search_end = now + end.saturating_duration_since(now).mul_f64(0.8);
    let search = smallest::smallest(pool, game, &failure.shrunk.case, failure.shrunk.fault.kind, search_end)?;
    failure.searched = search.text(&failure.shrunk_size);
    failure.smallest = search.smallest;
    if let Some((case, judged)) = search.found {
        let Verdict::Fail(fault) = judged.verdict else { unreachable!("the search keeps failing inputs") };
        let s = &mut failure.shrunk;
        (s.case, s.expected, s.fault, s.seconds, s.minimal) = (case, judged.expected, fault, judged.seconds, true);
    }
    if !crate::interrupt::stopping() {
        failure.cause = smallest::cause(pool, game, &failure.shrunk.case, failure.shrunk.fault.kind, end)?;
    }
    Ok(failure)
}

/// One failure's row and files, described before anything is written.
struct Saved {
    row: FailureRow,
    original: Vec<u8>,
    shrunk: Vec<u8>,
    stderr: Vec<u8>,
}

impl Saved {
    fn of<G: Contest>(game: &G, failure: Failure<G::Case>) -> Self {
        let Failure { source, original, shrunk, shrunk_size, smallest, searched, cause } = failure;
        let row = FailureRow {
            id: String::new(),
            kind: shrunk.fault.kind,
            source: source.name().to_string(),
            size_before: game.describe(&original),
            size_after: game.describe(&shrunk.case),
            size_shrunk: shrunk_size,
            expected: shrunk.expected.clone(),
            got: shrunk.fault.got.clone(),
            exit_status: shrunk.fault.exit.clone(),
            seconds: shrunk.seconds,
            shrink_steps: shrunk.steps,
            minimal: shrunk.minimal,
            smallest,
            searched,
            cause,
            detail: shrunk.fault.detail.clone(),
        };
        Saved { row, original: game.input_text(&original), shrunk: game.input_text(&shrunk.case), stderr: shrunk.fault.stderr }
    }

    /// Saves the files and the row; the path of the saved `.in`.
    fn save(self, log: &mut FailureLog) -> Result<PathBuf> {
        let expected = self.row.expected.clone();
        let files = FailureFiles { original_input: &self.original, shrunk_input: &self.shrunk, answer: &expected, stderr: &self.stderr };
        log.save(self.row, &files)
    }
}

/// manifest.json: the command line, the options, the counts, and the digest of every saved file.
fn write_manifest(clock: &RunClock, config: &StressConfig, sources: &[Source], summary: &StressSummary, log: &FailureLog) -> Result<Manifest> {
    let files = log.files();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let mut manifest = clock.finish(&config.out, &names)?;
    manifest.parameters = config.parameters.clone();
    let facts: [(&str, Value); 14] = [
        ("mode", "stress".into()),
        ("generators", sources.iter().map(|s| s.name()).collect::<Vec<_>>().into()),
        ("seed", config.seed.into()),
        ("jobs", config.jobs.into()),
        ("budget_seconds", config.budget.as_secs_f64().into()),
        ("shrink_budget_seconds", config.shrink_budget.as_secs_f64().into()),
        ("search_budget_seconds", config.search_budget.map_or(0.0, |b| b.as_secs_f64()).into()),
        ("smallest", summary.failures.iter().map(|f| f.smallest).collect::<Vec<_>>().into()),
        ("timeout_seconds", config.limits.timeout.as_secs_f64().into()),
        ("runs", summary.runs.into()),
        ("failures", summary.failures.len().into()),
        ("exhausted", summary.exhausted.into()),
        ("interrupted", summary.interrupted.into()),
        ("generator_runs", tally::to_json(&summary.generators)),
    ];
    manifest.parameters.extend(facts.into_iter().map(|(k, v)| (k.to_string(), v)));
    manifest.notes.push(format!(
        "{} in {:.1} s ({:.0} runs/s), {}",
        counted(summary.runs, "run"),
        summary.judging_seconds,
        summary.rate(),
        counted(summary.failures.len() as u64, "failure")
    ));
    manifest.write(&config.out.join(MANIFEST))?;
    Ok(manifest)
}

/// A game whose cases carry the generator that made them.
struct Tagged<'g, G>(&'g G);

impl<G: Contest> Contest for Tagged<'_, G> {
    type Case = (Source, G::Case);
    type Answer = G::Answer;

    fn write_input(&self, case: &Self::Case, out: &mut Vec<u8>) {
        self.0.write_input(&case.1, out)
    }
    fn answer(&self, case: &Self::Case) -> G::Answer {
        self.0.answer(&case.1)
    }
    fn parse_output(&self, case: &Self::Case, stdout: &str) -> std::result::Result<G::Answer, String> {
        self.0.parse_output(&case.1, stdout)
    }
    fn accepts(&self, expected: &G::Answer, got: &G::Answer) -> bool {
        self.0.accepts(expected, got)
    }
    fn judges(&self, expected: &G::Answer) -> bool {
        self.0.judges(expected)
    }
    fn describe(&self, case: &Self::Case) -> String {
        self.0.describe(&case.1)
    }
    fn shrink_candidates(&self, case: &Self::Case) -> Vec<Self::Case> {
        self.0.shrink_candidates(&case.1).into_iter().map(|c| (case.0, c)).collect()
    }
    fn shrinks_from_the_first(&self) -> bool {
        self.0.shrinks_from_the_first()
    }
    fn why_wrong(&self, case: &Self::Case, expected: &G::Answer, got: &G::Answer) -> String {
        self.0.why_wrong(&case.1, expected, got)
    }
    fn take_failure(&self) -> Option<crate::error::Error> {
        self.0.take_failure()
    }
    fn set_deadline(&self, deadline: Option<Instant>, budget: &str) {
        self.0.set_deadline(deadline, budget)
    }
    fn confirm(&self, case: &Self::Case) -> Result<()> {
        self.0.confirm(&case.1)
    }
}

impl<G: Generator> Generator for Tagged<'_, G> {
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, Self::Case> {
        Box::new(self.0.cases(source, seed).map(move |c| (source, c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What was judged goes on a line of its own after a message quoting the program's stderr,
    /// not onto its last line.
    #[test]
    fn what_was_judged_follows_the_message() {
        let quoted = judged_before(Error::Usage("game program crashed; its stderr:\nTraceback: fake crash at 5".into()), 1, 0).to_string();
        assert!(quoted.ends_with("Traceback: fake crash at 5\n(1 run judged and 0 failures found before it; nothing saved)"), "{quoted}");
        let plain = judged_before(Error::Usage("the game timed out".into()), 3, 1).to_string();
        assert_eq!(plain, "the game timed out (3 runs judged and 1 failure found before it; nothing saved)");
    }
}
