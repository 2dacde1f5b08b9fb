//! `sprague check`: recompute the committed results that fit a time budget and compare.

use sprague::check::DEFAULT_BUDGET;
use sprague::game::Status;
use std::io::Write;
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
            sprague::sys::say(&format!("{}: {seconds:.3} s (estimated {:.3} s)", unit.label, unit.estimate));
        }
    })?;
    let mut stdout = std::io::stdout();
    let written = stdout.write_all(sprague::check::report(&plan, &outcome, args.budget).as_bytes()).and_then(|()| stdout.flush());
    written.map_err(|e| sprague::Error::io("<stdout>", e))?;
    Ok(if sprague::check::passed(&plan, &outcome) { Status::Ok } else { Status::Failed })
}
