//! `sprague verify kings`: Nim on A_i − 2 vs retrograde analysis on every small set of bridges.

use super::run::RunArgs;
use super::Status;
use clap::ValueEnum;
use sprague::games::kings::claim::Claim;
use sprague::games::kings::verify::{length_sets, verify_sets, write_graphs, GAME};
use std::collections::BTreeMap;

#[derive(Clone, Copy, ValueEnum)]
enum ClaimArg {
    /// Nim on A_i − 2 (the claim under test).
    #[value(name = "nim-minus-2")]
    NimMinus2,
    /// Nim on A_i − 1 — deliberately wrong, to show the check can fail.
    #[value(name = "nim-minus-1")]
    NimMinus1,
}

#[derive(clap::Args)]
pub struct Args {
    /// Every multiset of 1..=MAX_BRIDGES bridges.
    #[arg(long, default_value_t = 3)]
    max_bridges: usize,
    /// Bridge lengths 2..=MAX_LENGTH.
    #[arg(long, default_value_t = 7)]
    max_length: u64,
    /// The claimed rule under test.
    #[arg(long, value_enum, default_value = "nim-minus-2")]
    claim: ClaimArg,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let claim = match args.claim {
        ClaimArg::NimMinus2 => Claim::NimMinus2,
        ClaimArg::NimMinus1 => Claim::NimMinus1,
    };
    let sets: usize = (1..=args.max_bridges.min(8)).map(|k| length_sets(k, args.max_length.min(9), None).len()).sum();
    let bar = args.run.progress("sets", sets as u64);
    let run = verify_sets(args.max_bridges, args.max_length, claim, None, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    std::fs::create_dir_all(&args.run.out)?;
    let graphs = write_graphs(&args.run.out, &run.graphs)?;
    let draws: u64 = run.graphs.iter().map(|g| g.draws).sum();
    let positions: u64 = run.graphs.iter().map(|g| g.positions).sum();
    eprintln!("kings: {} sets of bridges, {positions} positions in their graphs, {draws} draws", run.graphs.len());
    let parameters = BTreeMap::from([
        ("game".to_string(), GAME.into()),
        ("max_bridges".to_string(), args.max_bridges.into()),
        ("max_length".to_string(), args.max_length.into()),
    ]);
    let notes = vec![
        "rows = bridges, cols = longest bridge; one pattern per (set of lengths, first player); xs = first player (0 White, 1 Black), grundy = claimed nim-sum".to_string(),
        format!("brute force: retrograde analysis of the whole position graph (draws allowed); graphs.csv: {positions} positions, {draws} draws"),
    ];
    args.run.finish_with(&clock, &run.results, &[graphs], parameters, notes)
}
