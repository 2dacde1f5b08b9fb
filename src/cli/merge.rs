//! `sprague merge DIR... --out DIR`: combine shard outputs into the files of one unsharded run.

use sprague::game::Status;
use sprague::games::verification_from_manifest;
use sprague::output::manifest::RunClock;
use sprague::runner::merge::merge_into;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Output directories of the runs `--shard 1/N` … `--shard N/N` of one verify or census run.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Directory for the merged files.
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = RunClock::start(super::command_line(), rayon::current_num_threads());
    let report = merge_into(&args.dirs, &args.out, &clock, verification_from_manifest)?;
    let positions: u64 = report.results.sizes.values().map(|t| t.patterns).sum();
    eprintln!(
        "{} ({}): merged {} shards, {positions} positions; files in {}",
        report.results.game,
        report.results.rule,
        args.dirs.len(),
        args.out.display()
    );
    Ok(if report.all_agree() { Status::Ok } else { Status::Failed })
}
