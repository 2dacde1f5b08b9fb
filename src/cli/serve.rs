//! `sprague serve`: the web page and JSON API of `sprague::serve` (docs/serve.md).

use super::spec;
use clap::ArgMatches;
use sprague::game::{CommandSpec, OptSpec, Status};
use sprague::games::custom::explore;
use sprague::serve::{serve, Options, HOST, QUEUE_WAIT};
use std::sync::LazyLock;

/// [`QUEUE_WAIT`] in seconds, the default of `--queue-wait`.
static QUEUE_WAIT_TEXT: LazyLock<String> = LazyLock::new(|| QUEUE_WAIT.as_secs_f64().to_string());

/// Where to listen, the results shown, a game program ([`explore::options`]) and the queue wait.
fn spec() -> CommandSpec {
    let mut options = vec![
        OptSpec::value("port", "PORT", "Port to listen on; 0 picks a free one (printed on stderr).").default("8080"),
        OptSpec::value("host", "HOST", "Address to listen on (the default serves this machine only).").default(HOST),
        OptSpec::value("results", "DIR", "A `sprague report --out` directory whose report.md and plots the page shows."),
    ];
    options.extend(explore::options());
    options.push(OptSpec::value("queue-wait", "SECONDS", "Time a request waits for a solver (or the game program's turn) before it gets 503.").default(&QUEUE_WAIT_TEXT));
    CommandSpec {
        name: "serve",
        about: "Serve a web page where every move shows its value (and its JSON API) until stopped.",
        options,
        examples: &[],
    }
}

pub fn command() -> clap::Command {
    spec::command(&spec()).after_help(
        "Open the printed address in a browser. Routes and examples: docs/serve.md. A game program's position past \
         --game-budget, --game-timeout or --max-positions is refused (422); a game program that failed is restarted.\n\n\
         Examples:\n  sprague serve\n  sprague serve --port 0 --results out/report\n  \
         sprague serve --game-cmd 'python3 kayles.py' --game-budget 2",
    )
}

pub fn run(matches: &ArgMatches) -> anyhow::Result<Status> {
    let args = spec::values(&spec(), matches);
    let port: String = args.require("port")?;
    let port: u16 = port.parse().map_err(|_| sprague::Error::Usage(format!("--port must be a port number in 0..=65535, not {port}")))?;
    let queue_wait = args.positive_seconds("queue-wait")?.ok_or_else(|| sprague::Error::Usage("--queue-wait is required".into()))?;
    // Every option is checked before the game program starts.
    let mut explorers = sprague::games::explorers();
    explorers.extend(explore::from_args(&args)?);
    let mut options = Options::new(port, explorers);
    options.queue_wait = queue_wait;
    options.host = args.require("host")?;
    options.results = args.text("results").map(Into::into);
    serve(options, |address| eprintln!("sprague serve: listening on http://{address}/ (Ctrl-C stops it)"))?;
    Ok(Status::Ok)
}
