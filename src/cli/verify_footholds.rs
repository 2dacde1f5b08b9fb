//! `sprague verify footholds`: memoized negamax vs plain DFS on every small board or random 5×5 boards.

use super::run::RunArgs;
use super::Status;
use clap::ValueEnum;
use sprague::games::footholds::claim::Policy;
use sprague::games::footholds::verify::{shapes, verify_random, verify_shape, write_outcomes, RandomSpec, GAME};
use sprague::runner::RunResults;
use std::collections::BTreeMap;

#[derive(Clone, Copy, ValueEnum)]
enum ClaimArg {
    /// Memoized negamax, "win fast, lose slow" (the claim under test).
    Memo,
    /// The loser also hurries — deliberately wrong, to show the check can fail.
    LoseFast,
}

#[derive(clap::Args)]
pub struct Args {
    /// Every shape r×c (sides ≤ 5) with at most this many cells, every board, every start pair.
    #[arg(long, default_value_t = 12)]
    max_cells: usize,
    /// Check COUNT random 5×5 positions instead.
    #[arg(long, value_name = "COUNT")]
    random: Option<u64>,
    /// Seed of the random positions (ChaCha8; position i is stream i of the seed).
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    /// The claimed solver under test.
    #[arg(long, value_enum, default_value = "memo")]
    claim: ClaimArg,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let policy = match args.claim {
        ClaimArg::Memo => Policy::LoseSlow,
        ClaimArg::LoseFast => Policy::LoseFast,
    };
    let mut parameters = BTreeMap::from([("game".to_string(), GAME.into())]);
    let results = match args.random {
        Some(count) => {
            parameters.insert("random".into(), count.into());
            parameters.insert("seed".into(), args.seed.into());
            let bar = args.run.progress("5x5", count);
            let results = verify_random(RandomSpec { seed: args.seed, count, policy }, &|n| bar.inc(n));
            bar.finish_and_clear();
            results
        }
        None => {
            parameters.insert("max_cells".into(), args.max_cells.into());
            exhaustive(&args, policy)?
        }
    };
    std::fs::create_dir_all(&args.run.out)?;
    let outcomes = write_outcomes(&args.run.out, &results)?;
    let notes = vec![
        "rows x cols = board shape; xs = total moves, grundy = 1 when A (moving first) wins; every board with every ordered start pair on footholds".to_string(),
        "brute force: plain full-tree DFS without memo; outcomes.csv = (winner, moves) distribution per shape".to_string(),
    ];
    args.run.finish_with(&clock, &results, &[outcomes], parameters, notes)
}

fn exhaustive(args: &Args, policy: Policy) -> anyhow::Result<RunResults> {
    let mut results = RunResults::new(GAME, "");
    for (rows, cols) in shapes(args.max_cells) {
        let bar = args.run.progress(&format!("{rows}x{cols}"), 1 << (rows * cols));
        let part = verify_shape(rows, cols, policy, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        results.rule.clone_from(&part.rule);
        results.merge(&part);
    }
    Ok(results)
}
