//! `sprague verify nim|...|divisor`: every position up to a size, claim vs brute force, in parallel.

use super::run::RunArgs;
use super::Status;
use sprague::output::csv::write_csv;
use sprague::games::catalogue::verify::{self as catalogue, SEQUENCE};
use sprague::runner::RunResults;
use std::collections::BTreeMap;

/// Largest single heap written to sequence.csv by default (divisor: 10^4 numbers).
const SEQUENCE_CAP: u64 = 10_000;

#[derive(clap::Args)]
pub struct Args {
    /// Largest pile (Nim family), vertices (polygon), cells (cross), or N as a power of ten (divisor).
    #[arg(long)]
    max: u64,
    /// Nim family: check every multiset of 1..=PILES piles.
    #[arg(long, default_value_t = 4)]
    piles: u32,
    /// Nim family: also check single heaps up to this size.
    #[arg(long, default_value_t = 0)]
    heaps: u64,
    /// Claim variant (default: the game's own; cross: `published` or `solver`).
    #[arg(long)]
    rule: Option<String>,
    /// Write sequence.csv with single-heap brute-force values for 0..=N (default: the largest
    /// heap checked, at most 10000).
    #[arg(long)]
    sequence: Option<u64>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(game: &str, args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let rule = args.rule.clone().unwrap_or_else(|| catalogue::default_rule(game).to_string());
    let verifier = catalogue::verifier(game, &rule)?;
    let sizes = catalogue::sizes(game, args.piles, args.max, args.heaps)?;
    let total: u64 = sizes.iter().map(|&(r, c)| verifier.count(r, c)).sum();
    let bar = args.run.progress(game, total);
    let parts = rayon_sizes(&sizes, |(r, c)| verifier.verify_size(r, c, &|n| bar.inc(n)))?;
    bar.finish_and_clear();
    let mut results = RunResults::new(verifier.game(), verifier.rule());
    for part in &parts {
        results.merge(part);
    }
    let heap_max = if game == "divisor" { args.max } else { args.max.max(args.heaps) };
    let sequence = verifier.sequence(u32::try_from(args.sequence.unwrap_or(heap_max.min(SEQUENCE_CAP)))?);
    std::fs::create_dir_all(&args.run.out)?;
    let mut extra = Vec::new();
    if !sequence.is_empty() {
        write_csv(&args.run.out.join(SEQUENCE), &sequence)?;
        extra.push(SEQUENCE);
    }
    let failed: Vec<String> = results.mismatch_rows().iter().map(|m| format!("{} ({}x{})", m.board, m.rows, m.cols)).collect();
    let mut notes = if failed.is_empty() {
        vec![format!("{game} ({rule}): the claim agrees with brute force on every position checked")]
    } else {
        vec![format!("{game} ({rule}): the claim FAILS at {}", failed.join(", "))]
    };
    notes.extend(verifier.notes());
    let parameters = BTreeMap::from([
        ("game".to_string(), game.into()),
        ("rule".to_string(), rule.clone().into()),
        ("max".to_string(), args.max.into()),
        ("piles".to_string(), args.piles.into()),
        ("heaps".to_string(), args.heaps.into()),
        ("sequence_rows".to_string(), sequence.len().into()),
    ]);
    args.run.finish_with(&clock, &results, &extra, parameters, notes)
}

/// Runs every size in parallel (sizes with one position each still spread over the cores).
fn rayon_sizes(
    sizes: &[(u32, u32)],
    each: impl Fn((u32, u32)) -> sprague::Result<RunResults> + Sync,
) -> sprague::Result<Vec<RunResults>> {
    use rayon::prelude::*;
    sizes.par_iter().map(|&s| each(s)).collect()
}
