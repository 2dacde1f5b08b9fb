//! `sprague merge DIR... --out DIR`: combine shard outputs into the files of one unsharded run.

use super::run::RunArgs;
use super::Status;
use sprague::runner::merge::{load_shard, merge_shards, merged_parameters};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Output directories of the runs `verify wall --shard 1/N` … `--shard N/N`.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Directory for the merged files.
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let run = RunArgs { out: args.out, threads: None, quiet: true };
    let clock = run.start()?;
    let outputs = args.dirs.iter().map(|dir| load_shard(dir)).collect::<Result<Vec<_>, _>>()?;
    let results = merge_shards(&outputs)?;
    let parameters = merged_parameters(&outputs);
    let shrink = parameters.get("shrink").and_then(serde_json::Value::as_bool).unwrap_or(false);
    let notes = vec![format!("merged from {} shard directories", outputs.len())];
    super::verify_wall::finish_wall(&run, &clock, &results, shrink, parameters, notes)
}
