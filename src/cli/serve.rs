//! `sprague serve`: the web page and JSON API of `sprague::serve` (docs/serve.md).

use sprague::game::Status;
use sprague::games::custom::explore::{program_explorer, Budget, MAX_POSITIONS};
use sprague::serve::{serve, Options};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on; 0 picks a free one (printed on stderr).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (the default serves this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A `sprague report --out` directory whose report.md and plots the page shows.
    #[arg(long, value_name = "DIR")]
    results: Option<PathBuf>,
    /// A custom game given as a program (docs/custom-programs.md), shown beside the built-in
    /// games as `custom`.
    #[arg(long = "game-cmd", value_name = "CMD")]
    game_cmd: Option<String>,
    /// Time one analysis of the game program may spend exploring, in seconds; past it the
    /// position is refused (422).
    #[arg(long = "game-budget", value_name = "SECONDS", default_value = "5", value_parser = seconds)]
    game_budget: Duration,
    /// Time the game program may take per answer line, in seconds; past it the program is
    /// stopped and a fresh copy started.
    #[arg(long = "game-timeout", value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    game_timeout: Duration,
    /// Most positions of the game program kept (about 100 bytes each); a position reaching more
    /// is refused (422).
    #[arg(long = "max-positions", value_name = "N", default_value_t = MAX_POSITIONS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_positions: usize,
    /// Time a request waits for a solver (or the game program's turn) before it gets 503, in
    /// seconds.
    #[arg(long = "queue-wait", value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    queue_wait: Duration,
}

/// A positive, finite number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    let bounded = |d: &Duration| !d.is_zero() && d.as_secs_f64() < sprague::game::options::MAX_SECONDS;
    Duration::try_from_secs_f64(seconds).ok().filter(bounded).ok_or_else(|| format!("{text:?} is not a positive number of seconds below 1000000000"))
}

pub fn command() -> clap::Command {
    <Args as clap::Args>::augment_args(clap::Command::new("serve"))
        .about("Serve a web page where every move shows its value (and its JSON API) until stopped.")
        .after_help(
            "Open the printed address in a browser. Routes and examples: docs/serve.md.\n\nExamples:\n  sprague serve\n  \
             sprague serve --port 0 --results out/report\n  \
             sprague serve --game-cmd 'python3 kayles.py' --game-budget 2",
        )
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let mut explorers = sprague::games::explorers();
    if let Some(command) = &args.game_cmd {
        let mut budget = Budget { time: args.game_budget, ..Budget::default() };
        budget.program.timeout = args.game_timeout;
        budget.program.timeout_option = "game-timeout";
        budget.graph.max_positions = args.max_positions;
        explorers.push(program_explorer(command, budget)?);
    }
    let mut options = Options::new(args.port, explorers);
    options.queue_wait = args.queue_wait;
    options.host = args.host;
    options.results = args.results;
    serve(options, |address| eprintln!("sprague serve: listening on http://{address}/ (Ctrl-C stops it)"))?;
    Ok(Status::Ok)
}
