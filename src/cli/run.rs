//! Shared plumbing of `verify`-style commands: output dir, threads, progress bar, files + manifest.

use super::Status;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sprague::output::manifest::{Manifest, RunClock};
use sprague::output::verify_files::{write_verify_files, MANIFEST};
use sprague::runner::RunResults;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Options every verification run takes.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Output directory for summary.csv, distribution.csv, mismatches.csv, manifest.json.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

impl RunArgs {
    /// Sets up the rayon pool and starts the run clock.
    pub fn start(&self) -> anyhow::Result<RunClock> {
        if let Some(n) = self.threads {
            anyhow::ensure!(n >= 1, "--threads must be at least 1");
            rayon::ThreadPoolBuilder::new().num_threads(n).build_global().context("cannot start the thread pool")?;
        }
        Ok(RunClock::start(std::env::args().collect(), rayon::current_num_threads()))
    }

    /// True when progress is drawn: not `--quiet` and stderr is a terminal.
    fn shows_progress(&self) -> bool {
        !self.quiet && std::io::stderr().is_terminal()
    }

    /// A ticking spinner with `message`, for work of unknown length.
    pub fn spinner(&self, message: &str) -> ProgressBar {
        if !self.shows_progress() {
            return ProgressBar::hidden();
        }
        let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        spinner.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
        spinner.set_message(message.to_string());
        spinner.enable_steady_tick(std::time::Duration::from_millis(120));
        spinner
    }

    /// A progress bar over `total` items labelled `label`, on stderr when it is a terminal.
    pub fn progress(&self, label: &str, total: u64) -> ProgressBar {
        if !self.shows_progress() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{prefix:>8} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .expect("valid template");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar
    }

    /// Writes the verify files and the manifest; `Status::Failed` when anything disagreed.
    pub fn finish(
        &self,
        clock: &RunClock,
        results: &RunResults,
        parameters: BTreeMap<String, serde_json::Value>,
        notes: Vec<String>,
    ) -> anyhow::Result<Status> {
        self.finish_with(clock, results, &[], parameters, notes)
    }

    /// [`RunArgs::finish`] for a run that already wrote `extra_files` into the output directory
    /// (they are listed in the manifest with their digests).
    pub fn finish_with(
        &self,
        clock: &RunClock,
        results: &RunResults,
        extra_files: &[&'static str],
        parameters: BTreeMap<String, serde_json::Value>,
        notes: Vec<String>,
    ) -> anyhow::Result<Status> {
        let mut files = write_verify_files(&self.out, results)?;
        files.extend_from_slice(extra_files);
        write_manifest(&self.out, clock, &files, parameters, notes)?;
        report_totals(results, &self.out);
        Ok(if results.all_agree() { Status::Ok } else { Status::Failed })
    }
}

/// Writes manifest.json for `files` in `dir`.
pub fn write_manifest(
    dir: &Path,
    clock: &RunClock,
    files: &[&str],
    parameters: BTreeMap<String, serde_json::Value>,
    notes: Vec<String>,
) -> anyhow::Result<Manifest> {
    let mut manifest = clock.finish(dir, files)?;
    manifest.parameters = parameters;
    manifest.notes = notes;
    manifest.write(&dir.join(MANIFEST))?;
    Ok(manifest)
}

/// One line per run on stderr: patterns checked and mismatches.
fn report_totals(results: &RunResults, out: &Path) {
    let patterns: u64 = results.sizes.values().map(|t| t.patterns).sum();
    let mismatches: u64 = results.sizes.values().map(|t| t.mismatches).sum();
    eprintln!(
        "{} ({}): {} sizes, {patterns} positions, {mismatches} mismatches; files in {}",
        results.game,
        results.rule,
        results.sizes.len(),
        out.display()
    );
}
