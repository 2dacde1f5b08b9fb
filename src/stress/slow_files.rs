//! A `--slowest` run into its directory: the search ([`super::slowest::search`]), then
//! `slowest.csv` (rank, median CPU seconds of three runs, how the last ended, the input's size),
//! `slowest/NNN.in` (and `NNN.ans`, the trusted answer, when asked), and manifest.json, all
//! written atomically into a locked directory.

use super::command::CommandLine;
use super::contest::Generator;
use super::failures::remove_saved;
use super::pool::Progress;
use super::run::{StressConfig, MANIFEST};
use super::slowest::{search, Grow};
use crate::error::{Error, Result};
use crate::output::atomic::write_bytes_atomic;
use crate::output::csv::{write_csv, CsvRecord};
use crate::output::manifest::RunClock;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// File name of the ranking in the output directory.
pub const SLOWEST_CSV: &str = "slowest.csv";
/// Folder of the slowest inputs.
pub const SLOWEST_DIR: &str = "slowest";

/// One row of slowest.csv.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlowRow {
    /// File stem in slowest/ (`001` is the slowest).
    pub rank: String,
    /// Median CPU seconds of the timed runs, and the fastest and slowest of them.
    pub seconds: f64,
    pub fastest: f64,
    pub slowest: f64,
    pub exit_status: String,
    /// `generated` or `climbed`.
    pub origin: String,
    pub size: String,
}

impl CsvRecord for SlowRow {
    const HEADER: &'static [&'static str] = &["rank", "seconds", "fastest", "slowest", "exit_status", "origin", "size"];
}

/// What a slowest run found: its rows, the inputs with their trusted answers (when asked),
/// whether any kept run failed (passed the time limit, crashed, exited non-zero).
#[derive(Debug, Clone)]
pub struct SlowestSummary {
    pub rows: Vec<SlowRow>,
    pub tests: Vec<(Vec<u8>, Option<String>)>,
    pub runs: u64,
    /// Runs cut short at the time limit (ranked above those that finished).
    pub timed_out: u64,
    /// True when a signal stopped the search; `unjudged` runs it killed were not timed.
    pub interrupted: bool,
    pub unjudged: u64,
    pub elapsed: Duration,
    pub failed: bool,
}

/// Searches for the `count` slowest inputs and writes their files under `config.out`; with
/// `answers`, the trusted answer of each too (an error when there is none).
pub fn slowest<G: Generator>(
    game: &G,
    command: &CommandLine,
    config: &StressConfig,
    (count, answers): (usize, bool),
    grow: Option<Grow<'_, G::Case>>,
    progress: &dyn Fn(&Progress),
) -> Result<SlowestSummary> {
    let clock = RunClock::start(config.command_line.clone(), config.jobs).writing_into(&[SLOWEST_DIR]);
    let _lock = clock.lock(&config.out, config.game())?;
    let found = search(game, command, config, count, grow, progress)?;
    let (mut rows, mut tests) = (Vec::new(), Vec::new());
    for (i, slow) in found.kept.iter().enumerate() {
        let rank = format!("{:03}", i + 1);
        let times = |pick: fn(f64, f64) -> f64| slow.times.iter().copied().reduce(pick).unwrap_or(0.0);
        let input = game.input_text(&slow.case);
        let answer = answers.then(|| trusted(game, &slow.case, &rank)).transpose()?;
        let (size, origin, exit_status) = (game.describe(&slow.case), slow.origin.to_string(), slow.exit.clone());
        rows.push(SlowRow { rank, seconds: slow.seconds(), fastest: times(f64::min), slowest: times(f64::max), exit_status, origin, size });
        tests.push((input, answer));
    }
    // Nothing is written before the run is known good (a trusted side that failed ended its
    // streams early).
    if let Some(e) = game.take_failure() {
        return Err(e);
    }
    let interrupted = crate::interrupt::stopping();
    if found.runs == 0 && interrupted {
        return Err(Error::Usage("stopped before the first input was timed; nothing written".into()));
    }
    super::run::something_ran(found.runs, false, config.budget)?;
    let folder = config.out.join(SLOWEST_DIR);
    remove_saved(&folder)?;
    let mut names = vec![SLOWEST_CSV.to_string()];
    for (row, (input, answer)) in rows.iter().zip(&tests) {
        write_bytes_atomic(&folder.join(format!("{}.in", row.rank)), input)?;
        names.push(format!("{SLOWEST_DIR}/{}.in", row.rank));
        if let Some(answer) = answer {
            write_bytes_atomic(&folder.join(format!("{}.ans", row.rank)), format!("{answer}\n").as_bytes())?;
            names.push(format!("{SLOWEST_DIR}/{}.ans", row.rank));
        }
    }
    write_csv(&config.out.join(SLOWEST_CSV), &rows)?;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut manifest = clock.finish(&config.out, &names)?;
    manifest.parameters = config.parameters.clone();
    let facts: [(&str, serde_json::Value); 9] = [
        ("mode", "slowest".into()),
        ("slowest", count.into()),
        ("seed", config.seed.into()),
        ("budget_seconds", config.budget.as_secs_f64().into()),
        ("timeout_seconds", config.limits.timeout.as_secs_f64().into()),
        ("runs", found.runs.into()),
        ("timed_out_runs", found.timed_out.into()),
        ("unjudged_runs", found.unjudged.into()),
        ("interrupted", interrupted.into()),
    ];
    manifest.parameters.extend(facts.into_iter().map(|(k, v)| (k.to_string(), v)));
    manifest.write(&config.out.join(MANIFEST))?;
    let failed = found.kept.iter().any(|k| !k.ok);
    Ok(SlowestSummary { rows, tests, runs: found.runs, timed_out: found.timed_out, interrupted, unjudged: found.unjudged, elapsed: found.elapsed, failed })
}

/// The trusted answer to the slowest input of `rank`.
fn trusted<G: Generator>(game: &G, case: &G::Case, rank: &str) -> Result<String> {
    let answer = game.answer(case);
    match game.judges(&answer) {
        true => Ok(answer.to_string()),
        false => Err(Error::Usage(format!("no trusted answer for the slowest input {rank} ({SLOWEST_DIR}/{rank}.in): the validator or the reference refused it"))),
    }
}
