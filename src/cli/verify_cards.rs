//! `sprague verify cards`: the interval DP vs plain minimax recursion on every short row or random rows.

use super::run::RunArgs;
use super::Status;
use clap::ValueEnum;
use sprague::games::cards::claim::Claim;
use sprague::games::cards::verify::{verify_length, verify_random, RandomSpec, GAME};
use sprague::runner::RunResults;
use std::collections::BTreeMap;

#[derive(Clone, Copy, ValueEnum)]
enum ClaimArg {
    /// The O(N²) interval DP (the claim under test).
    Dp,
    /// Take the larger end card — deliberately wrong, to show the check can fail.
    Greedy,
}

#[derive(clap::Args)]
pub struct Args {
    /// Longest row: every length 1..=MAX_LEN (exhaustive), or the bound of random rows.
    #[arg(long, default_value_t = 10)]
    max_len: usize,
    /// Card values are 1..=MAX_VALUE.
    #[arg(long, default_value_t = 4)]
    max_value: u32,
    /// Check COUNT random rows instead of every row.
    #[arg(long, value_name = "COUNT")]
    random: Option<u64>,
    /// Seed of the random rows (ChaCha8; row i is stream i of the seed).
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    /// The claimed solver under test.
    #[arg(long, value_enum, default_value = "dp")]
    claim: ClaimArg,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let claim = match args.claim {
        ClaimArg::Dp => Claim::Dp,
        ClaimArg::Greedy => Claim::Greedy,
    };
    let mut parameters = BTreeMap::from([
        ("game".to_string(), GAME.into()),
        ("max_len".to_string(), args.max_len.into()),
        ("max_value".to_string(), args.max_value.into()),
    ]);
    let results = match args.random {
        Some(count) => {
            parameters.insert("random".into(), count.into());
            parameters.insert("seed".into(), args.seed.into());
            let spec = RandomSpec { seed: args.seed, count, max_len: args.max_len, max_value: args.max_value, claim };
            let bar = args.run.progress("random", count);
            let results = verify_random(spec, None, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            results
        }
        None => exhaustive(&args, claim)?,
    };
    let notes = vec![
        "rows = row length, cols = largest value; (xs, grundy) = (1, 0) tie, (0, 1) first gets more, (0, 0) first gets less".to_string(),
        "brute force: plain minimax recursion over (l, r), no table; dp_grundy/naive_grundy = first player's total".to_string(),
    ];
    args.run.finish(&clock, &results, parameters, notes)
}

fn exhaustive(args: &Args, claim: Claim) -> anyhow::Result<RunResults> {
    let mut results = RunResults::new(GAME, "");
    for len in 1..=args.max_len {
        let total = u64::from(args.max_value).saturating_pow(len as u32);
        let bar = args.run.progress(&format!("N={len}"), total);
        let part = verify_length(len, args.max_value, claim, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        results.rule.clone_from(&part.rule);
        results.merge(&part);
    }
    Ok(results)
}
