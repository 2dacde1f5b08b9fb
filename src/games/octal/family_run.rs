//! `prove octal-family --digits 3 --max N --out DIR`: every code of the family
//! ([`super::family`]) settled in parallel over codes (rayon), resumable code by code.
//!
//! A finished code leaves `DIR/rows/CODE.json` (its row, sealed with the run's parameters:
//! [`super::family_rows`]) and, when proved, `DIR/values/CODE.csv`; a stopped run (`--budget`,
//! or killed) keeps them and the same command goes on with the codes left (exit 3 until every
//! code is done), after checking each saved row; other parameters are refused (exit 2), and so
//! are rows of another family's codes. At the end family.csv (sorted), equivalences.csv
//! ([`super::equivalence`]) and manifest.json are written and rows/ is removed.
//!
//! The family is a game of its own (`octal 0.d1…d3`, [`family_name`]): a directory holding
//! another family's finished run is refused; one of the same family within other limits is
//! replaced, with a line saying so.

use super::equivalence::{classes, ClassRow};
use super::family::{code_seconds_at_most, codes, family_name, name, settle, values_file, FamilyRow, Limits, Settled, COMMITTED_VALUES, DENSE_SHARE, VALUES_DIR};
use super::compute::write_values;
use super::family_rows::{self, Shape, ROWS};
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::atomic::{create_dir, remove_if_present, remove_stale_temps};
use crate::output::csv::{read_csv, write_csv};
use crate::output::manifest::Manifest;
use crate::output::verify_files::MANIFEST;
use crate::output::takeover::{game_of_code, mark_finished, remove_stale, replaced_line, withdraw};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

pub const FAMILY: &str = "family.csv";
pub const EQUIVALENCES: &str = "equivalences.csv";
/// Longest family accepted (8^5 codes).
const MAX_DIGITS: u32 = 5;

/// `prove octal-family`.
#[derive(Clone, Copy)]
pub struct ProveFamily;

impl Command for ProveFamily {
    fn verb(&self) -> Verb {
        Verb::Prove
    }

    fn spec(&self) -> CommandSpec {
        CommandSpec {
            name: "octal-family",
            about: "Every octal code 0.d1…dk: values until the periodicity theorem proves a period or --max values, then the classes of equal codes (exit 3 while codes are left: rerun to go on).",
            options: vec![
                OptSpec::value("digits", "K", "Digits after the point (8^K codes).").default("3"),
                OptSpec::value("max", "N", "Values computed at most per code (doubling from 1024 while no period is proved).").default("1048576"),
                OptSpec::value("dense-from", "N", "From N values on, stop a code whose values are not sparse (more than 1 in 64 rare).").default("32768"),
                OptSpec::value("out", "DIR", "Directory for family.csv, equivalences.csv, values/ and manifest.json.").default("out/octal-family"),
                OptSpec::value("budget", "SECONDS", "Start no new code after this many seconds (the run then exits 3; rerun to go on)."),
                OptSpec::value("threads", "N", "Codes computed at once (default: all cores)."),
                OptSpec::flag("force", "Start even when the run (with --budget: one code) could take more than a day."),
                crate::game::vocabulary::QUIET,
                OptSpec::value("stop-after-codes", "N", "Testing: start no code after N codes were started (as if --budget ran out).").hidden(),
            ],
            examples: &["sprague prove octal-family --digits 2 --max 4096 --out out/family2", "sprague prove octal-family --out results/octal/family"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let digits: u32 = args.require("digits")?;
        if !(1..=MAX_DIGITS).contains(&digits) {
            return Err(Error::Usage(format!("--digits must be between 1 and {MAX_DIGITS}, found {digits}")));
        }
        let max: usize = args.require("max")?;
        if max < 2 {
            return Err(Error::Usage(format!("--max must be at least 2, found {max}")));
        }
        super::compute::check_heap_limit(max)?;
        let limits = Limits { max, dense_from: args.require("dense-from")? };
        let budget = args.seconds("budget")?;
        refuse_a_long_run(digits, limits, budget.is_some(), args.flag("force"))?;
        let dir = PathBuf::from(args.require::<String>("out")?);
        let clock = session.clock().writing_into(&[ROWS, VALUES_DIR]);
        let family = family_name(digits);
        let _lock = clock.lock(&dir, &game_of_code("octal", &family))?;
        let stop = Stop { deadline: budget.map(|b| Instant::now() + b), codes: args.get("stop-after-codes")?, started: AtomicUsize::new(0) };
        let all = codes(digits);
        let shape = Shape::new(digits, limits);
        let (mut done, left) = load_all(&dir, &all, &family, shape)?;
        let reached = reach(max as u64, limits.dense_from as u64);
        let replaced = withdraw_replaced(&dir, &reached)?;
        clock.mark_unfinished(&dir)?;
        done.extend(settle_left(&dir, &left, all.len(), done.len(), shape, &stop, session)?);
        if done.len() < all.len() {
            session.report(&format!("stopped with {} of {} codes done; rerun the same command to go on", done.len(), all.len()));
            return Ok(Status::Interrupted);
        }
        let (rows, classes) = finish(&dir, done)?;
        let mut files = vec![FAMILY, EQUIVALENCES];
        let names: Vec<String> = rows.iter().filter(|r| r.proved()).map(|r| values_file(&r.code)).collect();
        files.extend(names.iter().map(String::as_str));
        let mut manifest = clock.finish(&dir, &files)?;
        let proved = rows.iter().filter(|r| r.proved()).count();
        manifest.parameters = BTreeMap::from([
            ("game".to_string(), "octal".into()),
            ("family".to_string(), family.into()),
            ("digits".to_string(), digits.into()),
            ("max".to_string(), max.into()),
            ("dense_from".to_string(), limits.dense_from.into()),
            ("dense_share".to_string(), DENSE_SHARE.into()),
            ("codes".to_string(), rows.len().into()),
            ("proved".to_string(), proved.into()),
        ]);
        manifest.write(&dir.join(MANIFEST))?;
        if let Some((earlier, line)) = replaced {
            remove_stale(&dir, &earlier, &manifest)?;
            session.report(&line);
        }
        std::fs::remove_dir_all(dir.join(ROWS)).map_err(|e| Error::io(dir.join(ROWS), e))?;
        mark_finished(&dir)?;
        let line = format!("{} codes: {proved} proved, {} open ({reached}); {} classes of equal codes; files in {}", rows.len(), rows.len() - proved, classes.len(), dir.display());
        session.println(&line)?;
        Ok(Status::Ok)
    }
}

/// Withdraws the manifest of an earlier run of the family in `dir` that computed to another
/// reach than `reached`, before this run overwrites its values files: a run killed partway then
/// leaves no manifest listing files that have changed. Returns it with its "replaced" line.
fn withdraw_replaced(dir: &Path, reached: &str) -> Result<Option<(Manifest, String)>> {
    let earlier_reach = |p: &BTreeMap<String, serde_json::Value>| Some(reach(p.get("max")?.as_u64()?, p.get("dense_from")?.as_u64()?));
    let Ok((earlier, _)) = Manifest::read_unsealed(&dir.join(MANIFEST)) else { return Ok(None) };
    let Some(line) = replaced_line(dir, &earlier, reached, earlier_reach) else { return Ok(None) };
    withdraw(dir)?;
    Ok(Some((earlier, line)))
}

/// Refuses, unless `force`, a run of the 8^`digits` codes within `limits` that could take more
/// than a day on this run's threads ([`code_seconds_at_most`] for every code), or under a
/// `budget` one code that could (a code once started is never stopped midway).
fn refuse_a_long_run(digits: u32, limits: Limits, budget: bool, force: bool) -> Result<()> {
    let threads = rayon::current_num_threads();
    let per_code = code_seconds_at_most(limits);
    let (what, seconds) = match budget {
        true => ("one code (a code is not stopped midway, whatever --budget)".to_string(), per_code),
        false => (format!("every code on {}", crate::runner::cost::threads_phrase(threads)), codes(digits).len() as f64 * per_code / threads as f64),
    };
    let what = format!("prove octal-family --digits {digits} --max {} --dense-from {}, {what}, if no period is proved early,", limits.max, limits.dense_from);
    let mut advice = "lower --max or --dense-from (a dense code's values cost n² up to --dense-from)".to_string();
    if !budget {
        advice.push_str(", or give --budget SECONDS to compute part of it and rerun to go on");
    }
    crate::runner::cost::refuse_over_a_day(&what, seconds, force, &advice)
}

/// How far a run computes each code: `up to 4096 values, dense codes from 32768`.
fn reach(max: u64, dense_from: u64) -> String {
    format!("up to {max} values, dense codes from {dense_from}")
}

/// When a sitting starts no more codes.
struct Stop {
    /// `--budget`.
    deadline: Option<Instant>,
    /// `--stop-after-codes` (testing).
    codes: Option<usize>,
    /// Codes started so far.
    started: AtomicUsize,
}

impl Stop {
    /// True when no code may start now; counts the code that may.
    fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.codes.is_some_and(|n| self.started.fetch_add(1, Ordering::SeqCst) >= n)
    }
}

/// The rows of every code done, earlier runs' included (each checked: [`family_rows::load`]),
/// and the codes left. Rows of codes outside `family` are refused.
fn load_all<'a>(dir: &Path, all: &'a [super::code::Code], family: &str, shape: Shape) -> Result<(Vec<FamilyRow>, Vec<&'a super::code::Code>)> {
    for sub in [dir.to_path_buf(), dir.join(ROWS), dir.join(VALUES_DIR)] {
        create_dir(&sub)?;
        remove_stale_temps(&sub)?;
    }
    let mut done = Vec::new();
    let mut left = Vec::new();
    for code in all {
        match family_rows::load(dir, &name(code), shape)? {
            Some(row) => done.push(row),
            None => left.push(code),
        }
    }
    family_rows::refuse_others(dir, &all.iter().map(name).collect(), family)?;
    Ok((done, left))
}

/// Settles the codes `left` (of `total`, `done` already), saving each row; codes are started
/// until `stop` says.
fn settle_left(dir: &Path, left: &[&super::code::Code], total: usize, done: usize, shape: Shape, stop: &Stop, session: &mut Session) -> Result<Vec<FamilyRow>> {
    let limits = Limits { max: shape.max, dense_from: shape.dense_from };
    let progress = session.progress;
    progress.start("codes", Some(total as u64), done as u64);
    let fresh: Vec<Option<FamilyRow>> = left
        .par_iter()
        .map(|code| {
            if stop.reached() {
                return Ok(None);
            }
            let settled = settle(code, limits)?;
            let row = save(dir, shape, &settled)?;
            progress.advance(1);
            Ok(Some(row))
        })
        .collect::<Result<_>>()?;
    progress.finish();
    Ok(fresh.into_iter().flatten().collect())
}

/// Writes a settled code's values (when proved; an open code's stale values file, left by an
/// earlier run, is deleted) and then its row.
fn save(dir: &Path, shape: Shape, settled: &Settled) -> Result<FamilyRow> {
    let row = settled.row()?;
    let values = dir.join(values_file(&row.code));
    if row.proved() {
        write_values(&values, settled.kept())?;
    } else {
        remove_if_present(&values)?;
    }
    family_rows::save(dir, shape, &row)?;
    Ok(row)
}

/// Writes family.csv and equivalences.csv from the rows of every code.
fn finish(dir: &Path, mut rows: Vec<FamilyRow>) -> Result<(Vec<FamilyRow>, Vec<ClassRow>)> {
    rows.sort_by(|a, b| a.code.cmp(&b.code));
    let values = proved_values(dir, &rows)?;
    let found = classes(&rows, &values)?;
    write_csv(&dir.join(FAMILY), &rows)?;
    write_csv(&dir.join(EQUIVALENCES), &found)?;
    Ok((rows, found))
}

/// The values files of the proved codes among `rows` that are committed (at most
/// [`COMMITTED_VALUES`] values), by code: what the classes are derived from, by the run and by
/// `check` alike.
pub fn proved_values(dir: &Path, rows: &[FamilyRow]) -> Result<BTreeMap<String, Vec<u16>>> {
    rows.iter()
        .filter(|r| r.proved() && r.values_kept <= COMMITTED_VALUES)
        .map(|r| {
            let file = dir.join(values_file(&r.code));
            let values = read_csv::<super::compute::ValueRow>(&file)?;
            Ok((r.code.clone(), values.into_iter().map(|v| v.grundy).collect()))
        })
        .collect()
}
