//! `sprague verify wall`: every X-pattern of every board size, DP vs naive oracle.

use super::run::RunArgs;
use super::Status;
use sprague::games::wall::{Rule, Shape};
use sprague::verify::{wall::verify_shape, RunResults, Shard};
use std::collections::BTreeMap;

#[derive(clap::Args)]
pub struct Args {
    /// Check every size h×w with h ≤ H and w ≤ W, e.g. `5x5`.
    #[arg(long, value_parser = parse_shape, conflicts_with = "size", required_unless_present = "size")]
    max: Option<Shape>,
    /// Check one size, e.g. `4x5`.
    #[arg(long, value_parser = parse_shape)]
    size: Option<Shape>,
    /// Rule variant.
    #[arg(long, default_value = "standard")]
    rule: Rule,
    /// Process only shard K of N of every size's patterns.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
    /// Also shrink every counterexample to a minimal one and write counterexamples.csv.
    #[arg(long)]
    shrink: bool,
    #[command(flatten)]
    run: RunArgs,
}

/// Parses `HxW` with 1 ≤ H, W and H·W ≤ 64.
pub fn parse_shape(s: &str) -> Result<Shape, String> {
    let bad = || format!("invalid size {s:?}: expected HxW, e.g. 5x5");
    let (h, w) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (rows, cols): (usize, usize) = (h.parse().map_err(|_| bad())?, w.parse().map_err(|_| bad())?);
    if rows == 0 || cols == 0 {
        return Err(bad());
    }
    let shape = Shape::new(rows, cols);
    if !shape.fits_mask() {
        return Err(format!("size {shape} has {} cells; verification handles boards of at most 64", shape.cells()));
    }
    Ok(shape)
}

fn shapes(args: &Args) -> Vec<Shape> {
    match (args.size, args.max) {
        (Some(one), _) => vec![one],
        (None, Some(max)) => (1..=max.rows).flat_map(|r| (1..=max.cols).map(move |c| Shape::new(r, c))).collect(),
        (None, None) => unreachable!("clap requires --max or --size"),
    }
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    let mut results = RunResults::new("wall", args.rule.name());
    for shape in shapes(&args) {
        let bar = args.run.progress(&shape.to_string(), args.shard.slice(1 << shape.cells()).count() as u64);
        let part = verify_shape(shape, args.rule, args.shard, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        results.merge(&part);
    }
    if args.shrink {
        sprague::verify::shrink::write_counterexamples(&args.run.out, &results)?;
    }
    let parameters = BTreeMap::from([
        ("game".to_string(), "wall".into()),
        ("rule".to_string(), args.rule.name().into()),
        ("shard".to_string(), args.shard.to_string().into()),
    ]);
    args.run.finish(&clock, &results, parameters, Vec::new())
}
