//! `sprague verify dagame`: the pair-Grundy claim vs whole-position brute force, exhaustive or random.

use super::run::RunArgs;
use super::Status;
use sprague::games::dagame::verify::{dag_count, verify_nodes, verify_random, RandomSpec, MAX_COLOURS, MAX_EXHAUSTIVE_NODES};
use sprague::runner::RunResults;
use std::collections::BTreeMap;

#[derive(clap::Args)]
pub struct Args {
    /// Largest node count: every N from 2 up (exhaustive), or the bound of random instances.
    #[arg(long, default_value_t = 5)]
    max_nodes: usize,
    /// Check COUNT random instances (N from 2 to --max-nodes) instead of every DAG.
    #[arg(long, value_name = "COUNT")]
    random: Option<u64>,
    /// Seed of the random instances (ChaCha8; instance i is stream i of the seed).
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let mut parameters = BTreeMap::from([
        ("game".to_string(), "dagame".into()),
        ("max_nodes".to_string(), args.max_nodes.into()),
    ]);
    let results = match args.random {
        Some(count) => {
            let spec = RandomSpec { count, seed: args.seed, max_nodes: args.max_nodes };
            parameters.insert("random".into(), count.into());
            parameters.insert("seed".into(), args.seed.into());
            let bar = args.run.progress("random", count);
            let results = verify_random(spec, None, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            results
        }
        None => exhaustive(&args)?,
    };
    let notes = vec![
        "rows = nodes N, cols = colours in the placement, xs = distinct edges, grundy = claimed value".to_string(),
        "brute force: whole-position search over all tokens and stacked flags, never split by colour".to_string(),
    ];
    args.run.finish(&clock, &results, parameters, notes)
}

fn exhaustive(args: &Args) -> anyhow::Result<RunResults> {
    let colours: Vec<usize> = (1..=MAX_COLOURS).collect();
    anyhow::ensure!(
        (2..=MAX_EXHAUSTIVE_NODES).contains(&args.max_nodes),
        "--max-nodes must be between 2 and {MAX_EXHAUSTIVE_NODES} for exhaustive runs (use --random for larger DAGs), not {}",
        args.max_nodes
    );
    let mut results = RunResults::new("dagame", sprague::games::dagame::verify::EXHAUSTIVE);
    for nodes in 2..=args.max_nodes {
        let bar = args.run.progress(&format!("N={nodes}"), dag_count(nodes));
        let part = verify_nodes(nodes, &colours, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        results.merge(&part);
    }
    Ok(results)
}
