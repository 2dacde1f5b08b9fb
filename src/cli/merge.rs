//! `sprague merge DIR... --out DIR`: combine shard outputs into the files of one unsharded run.

use sprague::game::commands::{counterexample_line, mismatches};
use sprague::game::Status;
use sprague::games::{current_options, verification_from_manifest};
use sprague::output::text::counted;
use sprague::output::manifest::RunClock;
use sprague::runner::merge::merge_into;
use sprague::sys::say;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Output directories of the runs `--shard 1/N` … `--shard N/N` of one verify or census run.
    #[arg(required = true, value_name = "DIR", value_parser = super::spec::utf8_path())]
    dirs: Vec<PathBuf>,
    /// Directory for the merged files.
    #[arg(long, value_name = "DIR", default_value = "out", value_parser = super::spec::utf8_path())]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = RunClock::start(super::command_line(), rayon::current_num_threads());
    let report = merge_into(&args.dirs, &args.out, &clock, verification_from_manifest, current_options)?;
    let positions: u64 = report.results.sizes.values().map(|t| t.patterns).sum();
    let wrong = mismatches(&report.results);
    let found = if wrong == 0 { String::new() } else { format!(", {}", counted(wrong, "mismatch")) };
    say(&format!(
        "{} ({}): merged {}, {}{found}; files in {}",
        report.results.game,
        report.results.rule,
        counted(args.dirs.len() as u64, "shard"),
        counted(positions, "position"),
        args.out.display()
    ));
    if let Some(line) = &report.replaced {
        say(line);
    }
    if wrong > 0 {
        // The sizes' order is the verification's, rebuilt as merge_into did from the manifest.
        let verification = verification_from_manifest(&report.manifest.parameters)?;
        if let Some(line) = counterexample_line(&report.results, &*verification)? {
            say(&line);
        }
    }
    Ok(if report.all_agree() { Status::Ok } else { Status::Failed })
}
