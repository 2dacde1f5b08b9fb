//! The options every `stress` command shares beyond hunting failures: `--slowest N` (the
//! inputs on which the program is slowest, for sizing time limits) and `--save-tests DIR` (the
//! failures, or the slowest inputs, as a problem package's test folder).

use super::super::options::{Args, OptSpec};
use super::super::session::{Session, Status};
use super::StressSide;
use crate::error::{Error, Result};
use crate::output::atomic::resolved_dir;
use crate::output::text::counted;
use crate::stress::{test_folder, CommandLine, SlowestSummary, StressConfig, StressSummary};
use std::path::{Component, Path, PathBuf};

/// `--slowest`, `--save-tests`, `--overwrite`.
pub fn options() -> Vec<OptSpec> {
    vec![
        OptSpec::value("slowest", "N", "Instead of hunting failures, search --budget seconds for the N inputs on which the program uses the most CPU time: slowest.csv and slowest/NNN.in in --out."),
        OptSpec::value("save-tests", "DIR", "Also save the failures (with --slowest: the slowest inputs) as DIR/001.in and DIR/001.ans (the trusted answer), … for a problem package."),
        OptSpec::flag("overwrite", "--save-tests may replace numbered tests already in DIR."),
    ]
}

/// `path` made absolute, its `.` and `..` components resolved by name (the path may not exist).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            part => out.push(part),
        }
    }
    out
}

/// Where `--save-tests` writes, and whether it may overwrite.
pub struct SaveTests {
    dir: PathBuf,
    overwrite: bool,
}

impl SaveTests {
    /// `--save-tests DIR`, which must lie outside the run's own output directory `out` (its
    /// numbered files there are the run's, replaced by every run).
    pub fn from_args(args: &Args, out: &Path) -> Result<Option<SaveTests>> {
        let overwrite = args.flag("overwrite");
        let dir = args.text("save-tests").map(PathBuf::from);
        if overwrite && dir.is_none() {
            return Err(Error::Usage("--overwrite applies to --save-tests DIR, which is not given".into()));
        }
        // By name, and where the writes land through links (`link/failures`, `link` a link to `out`).
        let real = |path: &Path| resolved_dir(&lexical(path)).unwrap_or_else(|_| lexical(path));
        let within = |dir: &Path| lexical(dir).starts_with(lexical(out)) || real(dir).starts_with(real(out));
        if let Some(dir) = dir.as_ref().filter(|dir| within(dir)) {
            return Err(Error::Usage(format!("--save-tests {} lies inside --out {} (the run's own files): choose a folder outside it", dir.display(), out.display())));
        }
        Ok(dir.map(|dir| SaveTests { dir, overwrite }))
    }

    /// Refuses before the run a DIR that cannot be made or written (not after the run, with
    /// what it found unsaved), and tests 1..=`count` that would replace files (without --overwrite).
    pub fn check(&self, count: usize) -> Result<()> {
        crate::output::atomic::check_dir(&self.dir).map_err(|e| Error::Usage(format!("--save-tests: {e}")))?;
        test_folder::check_free(&self.dir, count, self.overwrite)
    }

    /// Saves the failures of `summary` (the shrunk inputs and their answers); a line saying so.
    pub fn failures(&self, summary: &StressSummary) -> Result<String> {
        let read = |path: PathBuf| std::fs::read(&path).map_err(|e| Error::io(path, e));
        let tests = summary.inputs.iter().map(|input| Ok((read(input.clone())?, String::from_utf8_lossy(&read(input.with_extension("ans"))?).into_owned())));
        self.save(&tests.collect::<Result<Vec<_>>>()?)
    }

    fn save(&self, tests: &[(Vec<u8>, String)]) -> Result<String> {
        let saved = test_folder::save(&self.dir, tests, self.overwrite)?;
        Ok(match saved.len() {
            0 => format!("no test to save in {}\n", self.dir.display()),
            n => format!("saved {} in {} (001.in, 001.ans{})\n", counted(n as u64, "test"), self.dir.display(), if n > 1 { ", …" } else { "" }),
        })
    }
}

/// `--slowest N`: the search, its table on stdout, the tests saved; `Failed` when a kept input
/// passed the time limit or made the program fail.
pub fn run_slowest(name: &str, side: &dyn StressSide, command: &CommandLine, config: &StressConfig, count: usize, save: Option<&SaveTests>, session: &mut Session) -> Result<Status> {
    if !(1..=1000).contains(&count) {
        return Err(Error::Usage(format!("--slowest must be between 1 and 1000, not {count}")));
    }
    if let Some(save) = save {
        save.check(count)?;
    }
    session.progress.start(&format!("stress {name} --slowest"), None, 0);
    // Ctrl-C stops the search gently: the inputs kept so far are ranked, saved and shown.
    let _gentle = crate::interrupt::stop_gently();
    let summary = side.slowest(command, config, (count, save.is_some()), &|p| {
        session.progress.message(&format!("stress {name} --slowest: {}", counted(p.runs, "run")));
    });
    session.progress.finish();
    let summary = summary?;
    // The ranking is shown before the tests are saved: a save that fails loses nothing shown.
    session.print(&slowest_text(name, config, &summary))?;
    if let Some(save) = save {
        let tests: Vec<(Vec<u8>, String)> = summary.tests.iter().map(|(input, answer)| (input.clone(), answer.clone().unwrap_or_default())).collect();
        session.print(&save.save(&tests)?)?;
    }
    Ok(if summary.failed { Status::Failed } else { Status::Ok })
}

/// The ranking for people: one line per kept input, slowest first.
pub fn slowest_text(name: &str, config: &StressConfig, summary: &SlowestSummary) -> String {
    let median = if summary.interrupted { "median of the runs timed" } else { "median of 3 runs" };
    let mut text = format!(
        "stress {name} --slowest: {} in {:.1} s ({}, seed {}); CPU seconds, {median}, limit {:.2} s\n",
        counted(summary.runs, "run"),
        summary.elapsed.as_secs_f64(),
        counted(config.jobs as u64, "job"),
        config.seed,
        config.limits.timeout.as_secs_f64()
    );
    if summary.timed_out > 0 {
        text.push_str(&format!("cut short at the time limit: {}, ranked first (CPU time only a lower bound)\n", counted(summary.timed_out, "run")));
    }
    if summary.interrupted {
        let unjudged = match summary.unjudged {
            0 => String::new(),
            n => format!(" ({} in flight killed, not timed)", counted(n, "run")),
        };
        text.push_str(&format!("interrupted: timing stopped at the signal{unjudged}\n"));
    }
    text.push_str("  rank  seconds  exit status             origin     size\n");
    for row in &summary.rows {
        text.push_str(&format!("  {:<5} {:>7.3}  {:<22}  {:<9}  {}\n", row.rank, row.seconds, row.exit_status, row.origin, row.size));
    }
    text.push_str(&format!("files in {} (slowest.csv, slowest/NNN.in)\n", config.out.display()));
    text
}
