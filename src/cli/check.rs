//! `sprague check`: recompute the committed results that fit a time budget and compare.

use sprague::check::DEFAULT_BUDGET;
use sprague::game::Status;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The results directory: the committed results/ (every registered directory must be
    /// there), or any tree of run directories (e.g. out/ after some verify runs).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Estimated seconds to spend; the cheapest sizes are recomputed first.
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    budget: f64,
    /// Print every unit recomputed with its time and estimate.
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    anyhow::ensure!(!args.budget.is_nan(), "--budget must be a number of seconds (or inf), not NaN");
    anyhow::ensure!(args.budget >= 0.0, "--budget must not be negative");
    let plan = sprague::games::check_plan(&args.results, args.budget)?;
    let outcome = plan.run(&|unit, seconds| {
        if args.verbose {
            eprintln!("{}: {seconds:.3} s (estimated {:.3} s)", unit.label, unit.estimate);
        }
    })?;
    let damaged: Vec<_> = plan.damage.iter().chain(&outcome.damage).collect();
    for damage in &damaged {
        println!("{damage}");
    }
    for difference in &outcome.differences {
        println!("{difference}");
    }
    let skipped: Vec<_> = plan.skipped().collect();
    if !skipped.is_empty() {
        let estimate = skipped.iter().map(|u| u.estimate).filter(|s| s.is_finite()).fold(0.0, |a, b| a + b);
        let on_device = skipped.iter().filter(|u| u.estimate.is_infinite()).count();
        let device = if on_device > 0 { format!(" without the {on_device} a device counted, whose CPU time is unknown: --budget inf takes them") } else { String::new() };
        println!("skipped for budget ({} units, estimated {estimate:.1} s{device}; raise --budget to include them):", skipped.len());
        for unit in skipped {
            match unit.estimate {
                s if s.is_finite() => println!("  {} (estimated {s:.2} s)", unit.label),
                _ => println!("  {} (counted on a device: no CPU estimate)", unit.label),
            }
        }
    }
    for note in plan.notes() {
        println!("{note}");
    }
    for dir in &plan.unregistered {
        println!("not checked: {dir} (no entry in the check registry, or no verify files)");
    }
    let estimate = plan.selected().map(|u| u.estimate).fold(0.0, |a, b| a + b);
    println!(
        "checked every committed file against its manifest ({} damaged); recomputed {} units in {:.1} s (estimated {estimate:.1} s, budget {} s): {} differences",
        damaged.len(),
        outcome.checked,
        outcome.seconds,
        args.budget,
        outcome.differences.len()
    );
    Ok(if outcome.differences.is_empty() && damaged.is_empty() { Status::Ok } else { Status::Failed })
}
