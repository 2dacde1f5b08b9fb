//! `sprague table wall-empty` (the table to any size) and `sprague prove wall-empty` (every row
//! up to a height proved constant from its start).

use super::files::{table_rows, write_proof_dir, write_table_dir, PROOF_BIN};
use super::prove::{Lemma, Proof};
use super::table::{table_memory, table_work, Table};
use super::verdict::Verdict;
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::game::commands::{memory_limit, MEMORY_LIMIT};
use super::dp::EmptyRow;
use crate::output::atomic::remove_stale_temps;
use crate::output::csv::write_csv_rows;
use crate::output::manifest::Manifest;
use crate::output::verify_files::MANIFEST;
use crate::output::text::format_bytes;
use crate::runner::cost::refuse_over_a_day;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Largest side a table or proof accepts (beyond it the memory check would refuse anyway).
pub const MAX_SIDE: usize = 1 << 20;

/// Kernel steps per second and thread assumed by the estimates (measured: docs/empty-board.md).
const STEPS_PER_SECOND: f64 = 5.0e9;

/// `HxW` with 1 ≤ H, W ≤ [`MAX_SIDE`].
fn parse_size(s: &str) -> std::result::Result<(usize, usize), String> {
    let shape = crate::games::wall::board::dims::parse_dims(s)?;
    if shape.rows.max(shape.cols) > MAX_SIDE {
        return Err(format!("size {s:?} is too large: each side at most {MAX_SIDE}"));
    }
    Ok((shape.rows, shape.cols))
}

/// A height 1 ≤ A ≤ [`MAX_SIDE`].
fn parse_height(s: &str) -> std::result::Result<usize, String> {
    let bad = || format!("invalid height {s:?}: expected a whole number from 1 to {MAX_SIDE}");
    s.parse::<usize>().ok().filter(|&a| (1..=MAX_SIDE).contains(&a)).ok_or_else(bad)
}

fn size_option(args: &Args, name: &str) -> Result<Option<(usize, usize)>> {
    args.text(name).map(|t| parse_size(t).map_err(|e| Error::Usage(format!("--{name}: {e}")))).transpose()
}

/// Options every long empty-board run takes.
fn run_options() -> [OptSpec; 4] {
    [
        OptSpec::value("threads", "N", "Worker threads (default: all cores)."),
        crate::game::vocabulary::QUIET,
        OptSpec::flag("force", "Run even when the estimate says it takes more than a day."),
        MEMORY_LIMIT,
    ]
}

/// Refuses a run whose memory does not fit or whose time exceeds a day without --force.
fn check_fits(what: &str, bytes: u64, steps: f64, args: &Args) -> Result<()> {
    let available = memory_limit(args)?;
    if let Some(available) = available.filter(|&a| bytes > a) {
        return Err(Error::Usage(format!("{what} needs about {} of memory; only {} is available", format_bytes(bytes), format_bytes(available))));
    }
    let threads = rayon::current_num_threads();
    let seconds = steps / (STEPS_PER_SECOND * threads as f64);
    refuse_over_a_day(&format!("{what} on {threads} threads"), seconds, args.flag("force"), "ask for a smaller size")
}

/// `table wall-empty`: the Grundy value of every X-free board up to a size.
#[derive(Clone, Copy)]
pub struct TableEmpty;

impl Command for TableEmpty {
    fn verb(&self) -> Verb {
        Verb::Table
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            OptSpec::value("max", "HxW", "Every size h×w with h ≤ H and w ≤ W (any size that fits in memory).")
                .default("20x20")
                .validate(|s| parse_size(s).map(|_| ())),
            OptSpec::value("out", "FILE", "Write only this CSV (`rows,cols,grundy`, sorted), e.g. results/wall/standard/empty.csv.")
                .conflicts(&["out-dir"])
                .required_unless(&["out-dir"]),
            OptSpec::value("out-dir", "DIR", "Write empty.csv, empty.bin (compact), row-max.csv, zeros.csv and manifest.json into DIR."),
            OptSpec::value("csv-max", "HxW", "With --out-dir: empty.csv only up to this size (default: the whole table).")
                .validate(|s| parse_size(s).map(|_| ()))
                .requires(&["out-dir"]),
        ];
        options.extend(run_options());
        CommandSpec {
            name: "wall-empty",
            about: "Wall Making Game: Grundy value of the X-free board of every size up to --max (parallel, AVX2).",
            options,
            examples: &[
                "sprague table wall-empty --max 20x20 --out empty.csv",
                "sprague table wall-empty --max 2000x2000 --out-dir out/empty --csv-max 100x100",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let max = size_option(args, "max")?.expect("--max has a default");
        let (short, long) = (max.0.min(max.1), max.0.max(max.1));
        let what = format!("the {}x{} table", max.0, max.1);
        check_fits(&what, table_memory(short, long), table_work(short, long) as f64, args)?;
        let clock = session.clock();
        if let Some(out) = args.text("out") {
            if args.text("csv-max").is_some() {
                return Err(Error::Usage("--csv-max goes with --out-dir (the CSV files of a directory); --out FILE holds every size up to --max".into()));
            }
            let _lock = session.lock_file(Path::new(out))?;
            let table = Table::compute(short, long, true, session.progress)?;
            write_csv_rows::<EmptyRow, EmptyRow>(Path::new(out), table_rows(&table, max))?;
            session.report(&format!("wall empty boards: {} sizes up to {}x{}; written to {out}", max.0 * max.1, max.0, max.1));
            return Ok(Status::Ok);
        }
        let dir = PathBuf::from(args.require::<String>("out-dir")?);
        let csv_max = size_option(args, "csv-max")?.unwrap_or(max);
        if csv_max.0 > max.0 || csv_max.1 > max.1 {
            return Err(Error::Usage(format!("--csv-max {}x{} exceeds --max {}x{}", csv_max.0, csv_max.1, max.0, max.1)));
        }
        let _lock = clock.lock(&dir, "wall")?;
        let table = Table::compute(short, long, true, session.progress)?;
        let manifest = write_table_dir(&dir, &table, max, csv_max, &clock)?;
        session.report(&format!("{what}: {:.1} s; files in {}", manifest.wall_seconds, dir.display()));
        Ok(Status::Ok)
    }
}

/// `prove wall-empty`: every row up to a height proved constant from its start.
#[derive(Clone, Copy)]
pub struct ProveEmpty;

/// Refuses to resume from a proof.bin other than the one the directory's manifest records (its
/// own checksum can be rewritten along with its rows; a proof killed before its first
/// manifest has none to compare).
fn check_recorded_proof(dir: &Path) -> Result<()> {
    let path = dir.join(MANIFEST);
    if !path.exists() {
        return Ok(());
    }
    let manifest = Manifest::read_digested(&path)?;
    match manifest.files.get(PROOF_BIN) {
        Some(digest) => crate::output::digests::check_digest(&dir.join(PROOF_BIN), digest, MANIFEST).map_err(|e| match e {
            Error::Malformed { path, message } => Error::Malformed { path, message: format!("{message}; not the proof the run recorded, so it is not resumed (delete the directory to start over)") },
            other => other,
        }),
        None => Err(Error::malformed(&path, format!("lists no {PROOF_BIN}: not the manifest of a wall-empty proof"))),
    }
}

/// Refuses a fresh proof into `dir` when it holds an unfinished one: a proof.bin whose manifest
/// does not record every row asked for proved (or that has no readable manifest: killed).
fn refuse_unfinished(dir: &Path) -> Result<()> {
    let bin = dir.join(PROOF_BIN);
    if !bin.exists() {
        return Ok(());
    }
    let manifest = Manifest::read_unsealed(&dir.join(MANIFEST)).ok().map(|(m, _)| m);
    let height = |key: &str| manifest.as_ref().and_then(|m| m.parameters.get(key)).and_then(serde_json::Value::as_u64);
    let (proved, asked) = (height("proved_height"), height("max_height"));
    if proved.zip(asked).is_some_and(|(proved, asked)| proved >= asked) {
        return Ok(());
    }
    let rows = proved.zip(asked).map_or(String::new(), |(proved, asked)| format!(", {proved} of {asked} rows proved"));
    Err(Error::Usage(format!("{} holds an unfinished proof ({}{rows}): continue it with --resume, or delete that directory to start over", dir.display(), bin.display())))
}

/// Rough kernel steps of a proof to height `a`: rows observed to start before 16·h, so row h
/// is computed to about 32·h (an estimate for the refusal of day-long runs, not a bound).
fn proof_work(a: usize) -> f64 {
    (1..=a).map(|h| (h as f64 / 2.0) * (32.0 * h as f64).powi(2) / 4.0).sum()
}

impl Command for ProveEmpty {
    fn verb(&self) -> Verb {
        Verb::Prove
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            OptSpec::value("max", "A", "Prove every row h ≤ A (every board with a side ≤ A).")
                .required()
                .aliases(&["max-height"])
                .validate(|s| parse_height(s).map(|_| ())),
            OptSpec::value("out", "DIR", "Directory for rows.csv, zeros.csv, verdict.txt, proof.bin, manifest.json.").default("out/wall-empty-proof"),
            OptSpec::flag("resume", "Continue from the proof.bin in --out."),
            OptSpec::value("budget", "SECONDS", "Stop after the row that ends past this time (files written; exit 3; --resume continues).")
                .aliases(&["time-limit"]),
            OptSpec::value("checkpoint-secs", "SECONDS", "Seconds between writes of the files while rows complete.").default("60").hidden(),
        ];
        options.extend(run_options());
        CommandSpec {
            name: "wall-empty",
            about: "Wall Making Game: prove g(h×n) for every n and every h ≤ A (exit 0 proven, 1 public claim refuted).",
            options,
            examples: &["sprague prove wall-empty --max 300 --out out/proof", "sprague prove wall-empty --max 2000 --budget 3600 --resume --out out/proof"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let target = parse_height(args.text("max").unwrap_or("")).map_err(|e| Error::Usage(format!("--max: {e}")))?;
        let limit = args.positive_seconds("budget")?;
        let every = args.seconds("checkpoint-secs")?.unwrap_or(Duration::from_secs(60));
        let dir = PathBuf::from(args.require::<String>("out")?);
        let clock = session.clock();
        let nothing_to_resume = || Error::Usage(format!("--resume: there is no proof to resume at {}", dir.join(PROOF_BIN).display()));
        if args.flag("resume") && !dir.is_dir() {
            return Err(nothing_to_resume());
        }
        if !args.flag("resume") {
            // A fresh proof too large is refused before the directory is made or locked.
            check_fits(&format!("the proof to height {target}"), Proof::new().next_memory(Lemma::Proven), proof_work(target), args)?;
        }
        // Locked first, so that a run in progress is named as such, not as nothing to resume.
        let _lock = clock.lock(&dir, "wall")?;
        if args.flag("resume") && !dir.join(PROOF_BIN).exists() {
            return Err(nothing_to_resume());
        }
        if !args.flag("resume") {
            refuse_unfinished(&dir)?;
        }
        remove_stale_temps(&dir)?;
        if args.flag("resume") {
            check_recorded_proof(&dir)?;
        }
        let mut proof = if args.flag("resume") { super::compact::read_proof(&dir.join(PROOF_BIN))? } else { Proof::new() };
        if proof.height() > target {
            return Err(Error::Usage(format!("{} already proves {} rows, more than --max {target}", dir.display(), proof.height())));
        }
        check_fits(&format!("the proof to height {target}"), proof.next_memory(Lemma::Proven), proof_work(target) - proof_work(proof.height()), args)?;
        let (started, mut saved) = (Instant::now(), Instant::now());
        session.progress.start("prove", Some(target as u64), proof.height() as u64);
        // At least one row, so that a run that stops at its budget always proves something.
        let first = proof.height();
        while proof.height() < target && (proof.height() == first || limit.is_none_or(|l| started.elapsed() < l)) {
            check_fits(&format!("row {}", proof.height() + 1), proof.next_memory(Lemma::Proven), 0.0, args)
                .inspect_err(|_| drop(write_proof_dir(&dir, &proof, target, &clock)))?;
            let row = proof.extend(Lemma::Proven, true)?;
            if row.constant == 0 {
                session.report(&format!("ROW {} IS CONSTANT 0 from {} on: infinitely many second-player wins", row.height, row.start));
            }
            session.progress.advance(1);
            if saved.elapsed() >= every {
                write_proof_dir(&dir, &proof, target, &clock)?;
                saved = Instant::now();
            }
        }
        session.progress.finish();
        write_proof_dir(&dir, &proof, target, &clock)?;
        let verdict = Verdict::of(&proof);
        session.report(&verdict.line());
        if verdict.refuted() {
            return Ok(Status::Failed);
        }
        if proof.height() < target {
            session.report(&format!("stopped at the time limit after row {} of {target}; continue with --resume (files in {})", proof.height(), dir.display()));
            return Ok(Status::Interrupted);
        }
        Ok(Status::Ok)
    }
}

