//! `table octal CODE --max N`: the one-heap values, as `n,grundy` CSV or (`--binary`) u16
//! little endian; `--stats DIR` adds what the run found ([`super::stats`]), and `--stats-from
//! FILE` derives the same statistics from the output or the checkpoint of an earlier run.

use super::code::{Code, THREE};
use super::compute::{code_arg, computed, method_note, value_options, write_values, write_values_bin, ValueRow, CODE};
use super::resume::{self, Checkpoint};
use super::stats::{Stats, STATS_FILES};
use super::values::{values, Engine, Method};
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::atomic::{check_dir, is_stream};
use crate::output::csv::{write_csv_to, CsvRecord};
use crate::output::lock::{check_name_fits, DirLock, COMPANIONS};
use crate::output::manifest::RunClock;
use crate::output::takeover::{game_of_code, replaced_count};
use crate::output::verify_files::MANIFEST;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// `table octal CODE --max N`: the one-heap values.
#[derive(Clone, Copy)]
pub struct TableOctal;

impl Command for TableOctal {
    fn verb(&self) -> Verb {
        Verb::Table
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            CODE,
            OptSpec::value("max", "N", "Every heap 0..=N.").default("1000"),
            OptSpec::value("out", "FILE", "Write the values here, atomically (default: standard output); the checkpoint lies beside it."),
            OptSpec::flag("binary", "Write the values as u16 little endian, 2 bytes each (the format of FILE.values.bin; needs --out), not `n,grundy` rows (about 15 bytes each)."),
            OptSpec::value("stats", "DIR", "Also write what the run found into DIR: summary.csv, values.csv, rare.csv (docs/octal.md)."),
            OptSpec::value("stats-from", "FILE", "Compute nothing: the statistics (into --stats DIR) of the values of an earlier run with --out FILE, from its checkpoint if it has one, else from FILE (CSV, or u16 little endian with --binary)."),
            OptSpec::flag("resume", "Continue the run whose checkpoint (FILE.checkpoint.json, FILE.values.bin) lies beside --out."),
            OptSpec::value("budget", "SECONDS", "Stop after this long, checkpoint saved (exit 3; --resume continues)."),
            OptSpec::value("checkpoint-secs", "SECONDS", "Seconds between checkpoints.").default("60").hidden(),
            OptSpec::value("checkpoint-heaps", "N", "Heaps between looks at the clock.").default("65536").hidden(),
            OptSpec::value("delay-ms", "MS", "Testing: sleep this long after every --checkpoint-heaps heaps.").default("0").hidden(),
        ];
        options.extend(value_options());
        CommandSpec {
            name: "octal",
            about: "Take-and-break game: the Grundy value of every heap up to --max (sparse-space method).",
            options,
            examples: &[
                "sprague table octal 0.77 --max 100",
                "sprague table octal 0.6 --max 100000000 --out officers.bin --binary --stats officers-stats",
                "sprague table octal 0.6 --stats-from officers.bin --binary --stats officers-stats",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let code = code_arg(args)?;
        if let Some(stats) = args.text("stats") {
            check_dir(Path::new(stats))?;
        }
        if let Some(from) = args.text("stats-from") {
            return stats_from(&code, Path::new(from), args, session);
        }
        let max: usize = args.require("max")?;
        let started = Instant::now();
        let done = |engine: &Engine| {
            let largest = engine.values().iter().take(max + 1).max().copied().unwrap_or(0);
            format!("{code}: g(0..={max}) by {}, largest value {largest}, {:.2} s", method_note(engine), started.elapsed().as_secs_f64())
        };
        let out = args.text("out");
        // Standard output, or a device or FIFO: no checkpoint can lie beside it.
        if out.is_none_or(|out| is_stream(Path::new(out))) {
            if args.flag("resume") || args.text("budget").is_some() || (out.is_none() && binary(args)) {
                let what = out.map_or("standard output".to_string(), |out| format!("{out}, not a regular file"));
                return Err(Error::Usage(format!("--resume, --budget and --binary need --out FILE (the checkpoint lies beside it); the values go to {what}")));
            }
            let stats = lock_stats(&code, args, session)?;
            let engine = computed(&code, max, args, session)?;
            match out {
                None => write_stdout(engine.values(), session)?,
                Some(out) => write_file(Path::new(out), engine.values(), args)?,
            }
            session.report(&out.map_or_else(|| done(&engine), |out| format!("{}; written to {out}", done(&engine))));
            return write_stats(&code, engine.values(), stats.as_ref(), session).map(|()| Status::Ok);
        }
        let out = out.expect("a file when not streamed");
        check_name_fits(Path::new(out), &COMPANIONS)?;
        let _lock = session.lock_file(Path::new(out))?;
        let stats = lock_stats(&code, args, session)?;
        let run = resume::run(&code, max, Path::new(out), args, session)?;
        if run.stopped {
            let last = run.engine.values().len() - 1;
            let again = resume_command(&session.command_line);
            session.report(&format!("{code}: stopped at the --budget after g(0..={last}) ({}); checkpoint {out}.checkpoint.json; continue with --resume: {again}", method_note(&run.engine)));
            write_stats(&code, run.engine.values(), stats.as_ref(), session)?;
            return Ok(Status::Interrupted);
        }
        write_file(Path::new(out), &run.engine.values()[..=max], args)?;
        session.report(&format!("{}; written to {out}", done(&run.engine)));
        let engine = run.finish()?;
        write_stats(&code, &engine.values()[..=max], stats.as_ref(), session)?;
        Ok(Status::Ok)
    }
}

/// The command that continues a run stopped at its --budget: `command_line` (as typed, so with
/// every option that shapes the output: --binary, --stats, …) without its --budget and with
/// --resume, each word quoted for the shell where it needs it.
fn resume_command(command_line: &[String]) -> String {
    let mut words: Vec<&str> = Vec::with_capacity(command_line.len() + 1);
    let mut skip_value = false;
    for word in command_line {
        match word.as_str() {
            _ if std::mem::take(&mut skip_value) => {}
            "--budget" => skip_value = true,
            "--resume" => {}
            w if w.starts_with("--budget=") => {}
            w => words.push(w),
        }
    }
    words.push("--resume");
    words.iter().map(|w| shlex::try_quote(w).map_or_else(|_| w.to_string(), |q| q.into_owned())).collect::<Vec<_>>().join(" ")
}

/// Writes `g` to `out` as `--binary` says.
fn write_file(out: &Path, g: &[u16], args: &Args) -> Result<()> {
    if binary(args) {
        write_values_bin(out, g)
    } else {
        write_values(out, g)
    }
}

/// True when `--binary` is asked for.
fn binary(args: &Args) -> bool {
    args.flag("binary")
}

/// Locks `--stats DIR`, when given, as every run locks its output directory, for a run of
/// `code` (its own game: [`game_of_code`]): a directory in use, or holding an unfinished run,
/// another kind of run's results or another code's, is refused. With the run's clock.
fn lock_stats(code: &Code, args: &Args, session: &Session) -> Result<Option<(DirLock, RunClock)>> {
    let Some(dir) = args.text("stats") else { return Ok(None) };
    let clock = session.clock();
    Ok(Some((clock.lock(Path::new(dir), &game_of_code("octal", &code.to_string()))?, clock)))
}

/// Writes the statistics of `g` into the locked `--stats DIR`, when given, and the manifest
/// that records the run (its code and heaps), saying what it replaced when the directory held
/// the statistics of another number of heaps of the same code.
fn write_stats(code: &Code, g: &[u16], stats_dir: Option<&(DirLock, RunClock)>, session: &mut Session) -> Result<()> {
    let Some((lock, clock)) = stats_dir else { return Ok(()) };
    let dir = lock.dir();
    let stats = Stats::of(code, g);
    stats.write(dir)?;
    if let Some(line) = replaced_count(dir, "heaps", g.len() as u64, "heaps") {
        session.report(&line);
    }
    let mut manifest = clock.finish(dir, &STATS_FILES)?;
    manifest.parameters = BTreeMap::from([
        ("game".to_string(), "octal".into()),
        ("code".to_string(), code.to_string().into()),
        ("heaps".to_string(), (g.len() as u64).into()),
    ]);
    manifest.write(&dir.join(MANIFEST))?;
    session.report(&stats.line(dir));
    Ok(())
}

/// `--stats-from FILE`: the statistics of the values an earlier run saved — its checkpoint's
/// (checked against its digest) if one lies beside FILE, else FILE read as `--binary` says.
fn stats_from(code: &Code, from: &Path, args: &Args, session: &mut Session) -> Result<Status> {
    if args.text("stats").is_none() {
        return Err(Error::Usage("--stats-from needs --stats DIR (where the statistics go)".into()));
    }
    let shown = from.display();
    let (g, source) = match Checkpoint::saved_values(from, code)? {
        Some(g) => (g, format!("the checkpoint beside {shown} (its digest checked)")),
        None if binary(args) => (resume::read_bin(from)?, shown.to_string()),
        None => (read_csv_values(from)?, shown.to_string()),
    };
    let checked = check_prefix(code, from, &g)?;
    if g.len() > checked {
        session.report(&format!("{code}: g(0..{checked}) recomputed and equal; the values of heaps {checked}..={} are read from {source}, not recomputed", g.len() - 1));
    }
    let stats = lock_stats(code, args, session)?;
    write_stats(code, &g, stats.as_ref(), session)?;
    Ok(Status::Ok)
}

/// Heaps of a `--stats-from` file recomputed and compared before its statistics are trusted:
/// codes with three-heap moves take plain mex (cubic), so fewer of them.
const CHECKED_HEAPS: usize = 4096;
const CHECKED_HEAPS_THREE: usize = 300;

/// Refuses values read from `from` that are not `code`'s: its first heaps (up to
/// [`CHECKED_HEAPS`]) are recomputed, and the first that differs is named; how many were.
fn check_prefix(code: &Code, from: &Path, g: &[u16]) -> Result<usize> {
    let three = code.digits.iter().any(|d| d & THREE != 0);
    let count = g.len().min(if three { CHECKED_HEAPS_THREE } else { CHECKED_HEAPS });
    let Some(last) = count.checked_sub(1) else { return Ok(0) };
    let truth = values(code, last, Method::Plain)?;
    match g.iter().zip(&truth).position(|(a, b)| a != b) {
        None => Ok(count),
        Some(n) => Err(Error::malformed(
            from,
            format!("heap {n} has value {}, but g({n}) = {} for {code}: not the values of {code} (refused; the first {count} heaps are checked)", g[n], truth[n]),
        )),
    }
}

/// The values of an `n,grundy` file, every heap from 0 on in order (read a row at a time).
fn read_csv_values(path: &Path) -> Result<Vec<u16>> {
    let file = crate::output::atomic::open_regular(path).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(std::io::BufReader::new(file));
    let header = reader.headers().map_err(|e| Error::malformed(path, e.to_string()))?;
    if header.iter().ne(ValueRow::HEADER.iter().copied()) {
        return Err(Error::malformed(path, "line 1 is not the header n,grundy (a binary values file needs --binary)"));
    }
    let mut g = Vec::new();
    for (line, row) in (2u64..).zip(reader.deserialize::<ValueRow>()) {
        let row = row.map_err(|e| Error::malformed(path, format!("line {line}: {e}")))?;
        if row.n != g.len() as u64 {
            return Err(Error::malformed(path, format!("line {line}: heap {} where heap {} was due", row.n, g.len())));
        }
        g.push(row.grundy);
    }
    Ok(g)
}

/// Writes `n,grundy` for every value to standard output.
fn write_stdout(g: &[u16], session: &mut Session) -> Result<()> {
    let rows = g.iter().enumerate().map(|(n, &grundy)| ValueRow { n: n as u64, grundy });
    write_csv_to::<ValueRow, ValueRow>(&mut *session.stdout, Path::new("<stdout>"), ValueRow::HEADER, rows)
}
