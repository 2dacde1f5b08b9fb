//! `sprague report`: the wall's report of the committed layout (results/wall/standard, the
//! census, the X-free boards) when the results directory has it, and a report of every other
//! run directory under it, each game's own or the generic one; the wall's report of one run.

use super::census::CENSUS_DIR;
use super::{markdown, write_report, WallResults, REPORT, WALL_DIR};
use crate::games::wall::empty::dp::{EmptyRow, EMPTY};
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::output::atomic::{resolved_dir, write_bytes_atomic};
use crate::output::digests::Recorded;
use crate::output::manifest::{Manifest, RunClock};
use crate::output::run_report::{generic_report, read_runs, report_runs};
use crate::output::verify_files::{VerifyRows, MANIFEST, SUMMARY};
use crate::output::text::counted;
use std::path::{Path, PathBuf};

/// `sprague report`: report.md and SVG plots of any results directory.
#[derive(Clone, Copy)]
pub struct ReportCommand;

impl Command for ReportCommand {
    fn verb(&self) -> Verb {
        Verb::Report
    }

    fn spec(&self) -> CommandSpec {
        CommandSpec {
            name: "report",
            about: "Write report.md and SVG plots of the runs under a results directory (the committed results/ or any out/).",
            options: vec![
                OptSpec::value("results", "DIR", "The results directory: the committed layout (wall/standard/ …) or any tree of run directories.").default("results"),
                OptSpec::value("out", "DIR", "Directory for report.md and the SVG plots (one subdirectory per run besides the committed wall's).").required(),
            ],
            examples: &["sprague report --results results --out out/report", "sprague report --results out --out report"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let (results, out): (PathBuf, PathBuf) = (args.require("results")?, args.require("out")?);
        if !results.is_dir() {
            return Err(Error::Usage(format!("results directory {} does not exist (or is not a directory)", results.display())));
        }
        refuse_out_in_results(&results, &out)?;
        let clock = session.clock();
        let _lock = clock.lock(&out, "wall")?;
        // Everything is read (each file checked against its digest) before anything is written.
        let recorded = Recorded::read(&results, crate::games::omitted_by_design)?;
        let committed = results.join(WALL_DIR).join(SUMMARY).is_file();
        let wall = if committed { Some(WallResults::read(&results, &recorded)?) } else { None };
        if committed {
            super::empty::check_digests(&results, &recorded)?;
        }
        let covered = |rel: &str| committed && (rel == WALL_DIR || rel.starts_with(CENSUS_DIR));
        let runs = read_runs(&results, &covered, &crate::games::run_report, &recorded)?;
        let (mut text, mut written) = match &wall {
            Some(data) => committed_wall(data, &results, &out)?,
            None => (String::new(), Vec::new()),
        };
        let (index, files) = report_runs(&runs, &results, &out, &crate::games::run_report)?;
        written.extend(files);
        if committed && !index.is_empty() {
            text.push_str(&format!("\n## Other runs\n{index}"));
        } else if !committed {
            let none = if index.is_empty() { "\nNo run directories (a verify or census run's manifest.json beside its summary.csv) were found.\n" } else { "" };
            text = format!("# Runs under {}\n{none}{index}", results.display());
        }
        text.push_str(&runs.unfinished_section(&results));
        let path = out.join(REPORT);
        write_bytes_atomic(&path, text.as_bytes())?;
        written.push(path);
        written.sort();
        written.dedup();
        seal(&out, &written, &clock, &results)?;
        let unfinished = runs.unfinished(&results);
        let left_out = match unfinished.first() {
            None => String::new(),
            Some(first) => format!("; left out {} not finished ({}{})", counted(unfinished.len() as u64, "run"), first.display(), if unfinished.len() > 1 { ", …: see report.md" } else { "" }),
        };
        session.report(&format!("report: {} files in {}{left_out}", written.len(), out.display()));
        Ok(Status::Ok)
    }
}

/// Writes the report's manifest.json, listing the `written` files (paths under `out`) with
/// their digests: `check` checks them, and the next report into `out` removes those it does not
/// write again (a run no longer under `--results`).
fn seal(out: &Path, written: &[PathBuf], clock: &RunClock, results: &Path) -> Result<()> {
    let names: Vec<String> = written.iter().map(|path| path.strip_prefix(out).unwrap_or(path).to_string_lossy().into_owned()).collect();
    let mut manifest = clock.finish(out, &names.iter().map(String::as_str).collect::<Vec<_>>())?;
    manifest.parameters.insert("game".into(), "wall".into());
    manifest.parameters.insert("results".into(), results.display().to_string().into());
    manifest.write(&out.join(MANIFEST))
}

/// The wall's report of the committed layout (`data`) and its X-free-board section (whose files
/// the caller has checked against their digests): report.md's text and the plots written.
fn committed_wall(data: &WallResults, results: &Path, out: &Path) -> Result<(String, Vec<PathBuf>)> {
    let mut written = write_report(data, out)?;
    let mut text = markdown(data);
    if let Some((section, files)) = super::empty::write(results, out)? {
        text.push_str(&section);
        written.extend(files);
    }
    Ok((text, written))
}

/// Refuses an `--out` that is the results directory, inside it or holding it: the report would
/// write its files among the results (or the results among its files).
fn refuse_out_in_results(results: &Path, out: &Path) -> Result<()> {
    let (results_real, out_real) = (resolved_dir(results)?, resolved_dir(out)?);
    if out_real.starts_with(&results_real) || results_real.starts_with(&out_real) {
        return Err(Error::Usage(format!(
            "--out {} is {}the results directory {}: the report would write among the results; choose a directory outside it",
            out.display(),
            if out_real == results_real { "" } else if out_real.starts_with(&results_real) { "inside " } else { "above " },
            results.display()
        )));
    }
    Ok(())
}

/// The wall's report of one verify run directory (a census run gets the generic one).
pub fn run_report(dir: &Path, out: &Path) -> Result<(String, Vec<PathBuf>)> {
    let manifest = Manifest::read(&dir.join(MANIFEST))?;
    if manifest.parameters.get("mode").and_then(|m| m.as_str()) == Some("census") {
        return generic_report(dir, out, crate::output::records::Values::GRUNDY);
    }
    let VerifyRows { summary, distribution, .. } = super::read_sizes(dir)?;
    let empty: Vec<EmptyRow> = if manifest.files.contains_key(EMPTY) { super::read_empty(&dir.join(EMPTY))? } else { Vec::new() };
    let data = WallResults { source: format!("`{}`", dir.display()), summary, distribution, empty, manifest: Some(manifest), census: Vec::new() };
    let written = write_report(&data, out)?.into_iter().filter(|p| !p.ends_with(REPORT)).collect();
    Ok((markdown(&data), written))
}
