//! `sprague verify wall`: every X-pattern of every board size, DP vs naive oracle.

use super::run::RunArgs;
use super::Status;
use indicatif::ProgressBar;
use sprague::games::wall::{Rule, Shape};
use sprague::output::manifest::RunClock;
use sprague::runner::checkpoint::Checkpoint;
use sprague::runner::resumable::{check_memory, Options, Outcome, Plan, Progress};
use sprague::games::wall::shrink::{write_counterexamples, COUNTEREXAMPLES};
use sprague::runner::{RunResults, Shard};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Rule variant.
    #[arg(long, default_value = "standard")]
    rule: Rule,
    /// Also shrink every counterexample to a minimal one and write counterexamples.csv.
    #[arg(long)]
    shrink: bool,
    #[command(flatten)]
    sizes: SizesArgs,
}

/// Which sizes a run covers and how it runs (shared by `verify wall` and `census wall`).
#[derive(clap::Args)]
pub struct SizesArgs {
    /// Every size h×w with h ≤ H and w ≤ W, e.g. `5x5`.
    #[arg(long, value_parser = parse_shape, conflicts_with = "size", required_unless_present = "size")]
    max: Option<Shape>,
    /// One size, e.g. `4x5`.
    #[arg(long, value_parser = parse_shape)]
    size: Option<Shape>,
    /// Process only shard K of N of every size's patterns.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
    /// Continue the unfinished run whose checkpoint.json is in --out.
    #[arg(long)]
    resume: bool,
    /// Seconds between checkpoints (besides one at the end of every size).
    #[arg(long, default_value_t = 30.0, hide = true)]
    checkpoint_secs: f64,
    /// Patterns per checkpointed block.
    #[arg(long, default_value_t = 1 << 20, hide = true)]
    block_patterns: u64,
    /// Testing: exit with code 3 after the first checkpoint once this many blocks ran.
    #[arg(long, hide = true)]
    stop_after_blocks: Option<u64>,
    /// Testing: sleep this many milliseconds per block evaluated.
    #[arg(long, default_value_t = 0, hide = true)]
    block_delay_ms: u64,
    /// Memory to assume available, in bytes (default: MemAvailable).
    #[arg(long, hide = true)]
    memory_limit: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Parses `HxW` with 1 ≤ H, W.
pub fn parse_dims(s: &str) -> Result<Shape, String> {
    let bad = || format!("invalid size {s:?}: expected HxW, e.g. 5x5");
    let (h, w) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (rows, cols): (usize, usize) = (h.parse().map_err(|_| bad())?, w.parse().map_err(|_| bad())?);
    if rows == 0 || cols == 0 {
        return Err(bad());
    }
    Ok(Shape::new(rows, cols))
}

/// Parses `HxW` with 1 ≤ H, W and H·W ≤ 64.
pub fn parse_shape(s: &str) -> Result<Shape, String> {
    let shape = parse_dims(s)?;
    if !shape.fits_mask() {
        return Err(format!("size {shape} has {} cells; verification handles boards of at most 64", shape.cells()));
    }
    Ok(shape)
}

fn shapes(args: &SizesArgs) -> Vec<Shape> {
    match (args.size, args.max) {
        (Some(one), _) => vec![one],
        (None, Some(max)) => (1..=max.rows).flat_map(|r| (1..=max.cols).map(move |c| Shape::new(r, c))).collect(),
        (None, None) => unreachable!("clap requires --max or --size"),
    }
}

/// The `sizes` manifest parameter: `max HxW` or the one size.
fn sizes_label(args: &SizesArgs) -> String {
    match (args.size, args.max) {
        (Some(one), _) => one.to_string(),
        (None, Some(max)) => format!("max {max}"),
        (None, None) => unreachable!("clap requires --max or --size"),
    }
}

fn options(args: &SizesArgs) -> anyhow::Result<Options> {
    anyhow::ensure!(args.checkpoint_secs >= 0.0, "--checkpoint-secs must not be negative");
    Ok(Options {
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_secs),
        block_patterns: args.block_patterns.max(1),
        stop_after_blocks: args.stop_after_blocks,
        block_delay: Duration::from_millis(args.block_delay_ms),
    })
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let plan = Plan::new(args.rule, shapes(&args.sizes), args.sizes.shard)?;
    let parameters = BTreeMap::from([("shrink".to_string(), args.shrink.into())]);
    run_plan(&args.sizes, &plan, parameters, Vec::new(), args.shrink)
}

/// `sprague census wall`: the DP side alone on every pattern, nothing cross-checked.
pub fn run_census(args: SizesArgs) -> anyhow::Result<Status> {
    let plan = Plan::census(shapes(&args), args.shard)?;
    let parameters = BTreeMap::from([("mode".to_string(), "census".into())]);
    let notes = vec!["census: rectangle-DP values only; nothing was cross-checked against the naive oracle, \
                      so the mismatches column is 0 by construction"
        .to_string()];
    run_plan(&args, &plan, parameters, notes, false)
}

/// Runs `plan` into `--out` (fresh or resumed) and writes its files and manifest.
fn run_plan(
    args: &SizesArgs,
    plan: &Plan,
    mut parameters: BTreeMap<String, serde_json::Value>,
    mut notes: Vec<String>,
    shrink: bool,
) -> anyhow::Result<Status> {
    let clock = args.run.start()?;
    check_memory(plan, args.memory_limit)?;
    let bars = Bars { run: &args.run, bar: Mutex::new(ProgressBar::hidden()) };
    let out = &args.run.out;
    let results = match sprague::runner::resumable::run(out, plan, &options(args)?, args.resume, &bars)? {
        Outcome::Finished(results) => results,
        Outcome::Stopped => {
            eprintln!("stopped as asked; continue with --resume (checkpoint in {})", out.display());
            return Ok(Status::Interrupted);
        }
    };
    parameters.extend([
        ("game".to_string(), "wall".into()),
        ("rule".to_string(), plan.rule.name().into()),
        ("shard".to_string(), args.shard.to_string().into()),
        ("sizes".to_string(), sizes_label(args).into()),
    ]);
    if args.resume {
        notes.push("resumed from a checkpoint: times cover the last process only".into());
    }
    let status = finish_wall(&args.run, &clock, &results, shrink, parameters, notes)?;
    Checkpoint::remove(out)?;
    Ok(status)
}

/// Writes the files of a wall run (with counterexamples.csv when shrinking) and its manifest.
pub fn finish_wall(
    run: &RunArgs,
    clock: &RunClock,
    results: &RunResults,
    shrink: bool,
    parameters: BTreeMap<String, serde_json::Value>,
    notes: Vec<String>,
) -> anyhow::Result<Status> {
    let extra: &[&'static str] = if shrink {
        write_counterexamples(&run.out, results)?;
        &[COUNTEREXAMPLES]
    } else {
        &[]
    };
    run.finish_with(clock, results, extra, parameters, notes)
}

/// Progress bars of a run: a spinner while tables are built, then one bar per size.
struct Bars<'a> {
    run: &'a RunArgs,
    bar: Mutex<ProgressBar>,
}

impl Bars<'_> {
    fn replace(&self, next: ProgressBar) {
        let mut bar = self.bar.lock().expect("progress bar lock");
        bar.finish_and_clear();
        *bar = next;
    }
}

impl Progress for Bars<'_> {
    fn preparing(&self, shape: Shape) {
        self.replace(self.run.spinner(&format!("{shape}: building tables")));
    }

    fn size_started(&self, shape: Shape, total: u64, done: u64) {
        let bar = self.run.progress(&shape.to_string(), total);
        bar.set_position(done);
        bar.reset_eta();
        self.replace(bar);
    }

    fn advanced(&self, patterns: u64) {
        self.bar.lock().expect("progress bar lock").inc(patterns);
    }

    fn size_finished(&self, _shape: Shape) {
        self.replace(ProgressBar::hidden());
    }
}
