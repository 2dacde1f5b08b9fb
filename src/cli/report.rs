//! `sprague report`: report.md and SVG plots from the committed wall results.

use super::Status;
use sprague::games::wall::report::{write_report, WallResults};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The results directory; the report reads its wall/standard/ files.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Directory for report.md and the SVG plots.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let data = WallResults::read(&args.results)?;
    let written = write_report(&data, &args.out)?;
    eprintln!("report: {} files in {}", written.len(), args.out.display());
    Ok(Status::Ok)
}
