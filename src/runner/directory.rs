//! A verification run into an output directory: memory check, resumable run, result files, manifest.

use super::checkpoint::Checkpoint;
use super::progress::Progress;
use super::resumable::{Options, Outcome, Plan};
use super::shard::Shard;
use super::tally::RunResults;
use super::verification::Verification;
use crate::error::Result;
use crate::output::manifest::{Manifest, RunClock};
use super::files::write_verify_files;
use crate::output::verify_files::MANIFEST;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where and how a verification runs.
#[derive(Debug, Clone)]
pub struct DirRun {
    /// The output directory (created when missing).
    pub dir: PathBuf,
    pub shard: Shard,
    /// Continue the unfinished run whose checkpoint is in `dir`.
    pub resume: bool,
    pub options: Options,
    /// Memory to assume available (default: what the system reports).
    pub memory_limit: Option<u64>,
    /// Start even when the estimate says the run takes more than a day.
    pub force: bool,
    /// Manifest parameters besides the verification's own (e.g. the command's options).
    pub parameters: BTreeMap<String, Value>,
}

impl DirRun {
    /// A fresh, unsharded run into `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> DirRun {
        DirRun {
            dir: dir.into(),
            shard: Shard::ALL,
            resume: false,
            options: Options::default(),
            memory_limit: None,
            force: false,
            parameters: BTreeMap::new(),
        }
    }
}

/// The files of a finished run.
#[derive(Debug, Clone)]
pub struct Report {
    pub results: RunResults,
    pub manifest: Manifest,
    /// What the run replaced, when the directory held a finished run of other sizes
    /// ([`replaced`]), for the command to say.
    pub replaced: Option<String>,
}

impl Report {
    /// True when the claim held on every position.
    pub fn all_agree(&self) -> bool {
        self.results.all_agree()
    }
}

/// How a run into a directory ended.
#[derive(Debug)]
pub enum Finished {
    Done(Box<Report>),
    /// Stopped on request (testing); the checkpoint in the directory resumes it.
    Stopped,
}

/// Runs `verification` into `run.dir` and writes its files: summary.csv, distribution.csv,
/// mismatches.csv, the game's own files and manifest.json (each atomically), then removes the
/// checkpoint. `clock` was started when the command began.
pub fn verify_into(verification: &dyn Verification, run: &DirRun, clock: &RunClock, progress: &dyn Progress) -> Result<Finished> {
    // A directory the run may not take is refused before the plan, which may take long (a
    // game program asked its positions).
    clock.admits_now(&run.dir)?;
    super::resumable::refuse_unresumed(&run.dir, run.resume)?;
    let plan = Plan::new(verification, run.shard)?;
    super::cost::check(&plan, run.memory_limit, run.force, rayon::current_num_threads())?;
    let mut parameters = parameters(verification, run.shard);
    parameters.extend(run.parameters.clone());
    // The game as the manifest will record it: a code of the game is a game of its own.
    let game = crate::output::takeover::game_of(&parameters).unwrap_or_else(|| verification.game().to_string());
    let _lock = clock.lock(&run.dir, &game)?;
    // A checkpoint that was there before is another run's (refused below): never this run's to clear.
    let found_checkpoint = Checkpoint::path(&run.dir).symlink_metadata().is_ok();
    let outcome = super::resumable::run(&run.dir, &plan, &run.options, run.resume, progress);
    if outcome.is_err() && !run.resume && !found_checkpoint && !verification.resumable_after_error() {
        Checkpoint::remove(&run.dir)?;
    }
    let (results, earlier) = match outcome? {
        Outcome::Finished(results, earlier) => (results, earlier),
        Outcome::Stopped => return Ok(Finished::Stopped),
    };
    let mut notes = verification.notes(&results);
    let clock = if run.resume { &clock.resumed(earlier) } else { clock };
    if run.resume {
        notes.push("resumed from a checkpoint: wall_seconds and the memory cover the last process only, seconds_all_sittings every sitting".into());
    }
    let replaced = replaced(&run.dir, &results, &parameters);
    let manifest = write_files(verification, &run.dir, clock, &results, parameters, notes, Cost { device: verification.device(), shards_seconds: None })?;
    Checkpoint::remove(&run.dir)?;
    Ok(Finished::Done(Box::new(Report { results, manifest, replaced })))
}

/// A finished run in `dir` of other sizes than `results`, or another rule, shard or mode
/// (`parameters`), which `results` replace (a run of the same kind and game,
/// [`crate::output::takeover`]), as a line naming both: `replaced the run of sizes 1x1..3x4 in
/// out (`sprague verify wall --max 3x4 --out out`) by one of sizes 1x1..2x3`, `… of sizes
/// 1x1..4x4, shard 1/3 … by one of sizes 1x1..4x4, shard 2/3`; `None` when they are the same
/// or nothing finished is there.
pub fn replaced(dir: &Path, results: &RunResults, parameters: &BTreeMap<String, Value>) -> Option<String> {
    let (earlier, _) = Manifest::read_unsealed(&dir.join(MANIFEST)).ok()?;
    let before = super::files::read_verify_files(dir).ok()?;
    let differing = differing_parameters(&earlier.parameters, parameters);
    if before.sizes.keys().eq(results.sizes.keys()) && differing.is_empty() {
        return None;
    }
    let described = |results: &RunResults, parameters: &BTreeMap<String, Value>| {
        let shown = differing.iter().map(|key| format!(", {key} {}", parameters.get(*key).map_or("none".to_string(), parameter_text)));
        format!("sizes {}{}", size_range(results), shown.collect::<String>())
    };
    Some(format!(
        "replaced the run of {} in {} (`{}`) by one of {}",
        described(&before, &earlier.parameters),
        dir.display(),
        earlier.command_line.join(" "),
        described(results, parameters)
    ))
}

/// The parameters two runs record otherwise (their sizes, the options they came from and a
/// merge's inputs aside, which the sizes and the command line show).
fn differing_parameters<'a>(earlier: &'a BTreeMap<String, Value>, now: &'a BTreeMap<String, Value>) -> Vec<&'a str> {
    let keys: BTreeSet<&str> = earlier.keys().chain(now.keys()).map(String::as_str).collect();
    keys.into_iter().filter(|key| !matches!(*key, "sizes" | "options" | "merged_from") && earlier.get(*key) != now.get(*key)).collect()
}

/// A parameter's value as a line shows it: a string as it is.
fn parameter_text(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_string)
}

/// The sizes of `results` as `1x1..3x4` (the first and the last), `2x3` for one, `none`.
fn size_range(results: &RunResults) -> String {
    let mut sizes = results.sizes.keys().map(|(a, b)| format!("{a}x{b}"));
    match (sizes.next(), sizes.next_back()) {
        (Some(first), Some(last)) => format!("{first}..{last}"),
        (Some(only), None) => only,
        _ => "none".into(),
    }
}

/// What a manifest records of what its run cost beside its own time.
pub struct Cost {
    /// The device that counted it, when not the CPU ([`Manifest::device`]).
    pub device: Option<String>,
    /// A merge's shards' thread-seconds ([`Manifest::shards_seconds`]).
    pub shards_seconds: Option<f64>,
}

/// Writes the result files of `results` and the manifest into `dir`.
pub fn write_files(
    verification: &dyn Verification,
    dir: &Path,
    clock: &RunClock,
    results: &RunResults,
    parameters: BTreeMap<String, Value>,
    notes: Vec<String>,
    cost: Cost,
) -> Result<Manifest> {
    let mut files = write_verify_files(dir, results)?;
    files.extend(verification.write_extra(dir, results)?);
    let mut manifest = clock.finish(dir, &files)?;
    manifest.parameters = parameters;
    manifest.notes = notes;
    manifest.device = cost.device;
    manifest.shards_seconds = cost.shards_seconds.map(|s| (s * 1000.0).round() / 1000.0);
    manifest.write(&dir.join(MANIFEST))?;
    Ok(manifest)
}

/// The manifest parameters: the verification's own, its game, rule and mode, and the shard.
fn parameters(verification: &dyn Verification, shard: Shard) -> BTreeMap<String, Value> {
    let mut parameters = verification.parameters();
    parameters.insert("game".into(), verification.game().into());
    parameters.insert("rule".into(), verification.rule().into());
    if verification.mode() != "verify" {
        parameters.insert("mode".into(), verification.mode().into());
    }
    parameters.insert("shard".into(), shard.to_string().into());
    parameters
}
