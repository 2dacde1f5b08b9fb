//! `sprague serve`: the web page and JSON API of `sprague::serve` (docs/serve.md).

use super::spec;
use clap::ArgMatches;
use sprague::game::{Args, CommandSpec, OptSpec, Status};
use sprague::games::custom::explore;
use sprague::serve::{serve, Limits, Options, ANSWER_MEMORY, HOST, IDLE_TIMEOUT, MAX_CONNECTIONS, MOST_ANSWER_MIB, MOST_CONNECTIONS, QUEUE_WAIT, READ_TIMEOUT, WRITE_TIMEOUT};
use std::sync::LazyLock;
use std::time::Duration;

/// The defaults of the options that are constants of `sprague::serve`, as text: the queue wait,
/// the connection cap, the read, idle and write timeouts, and the answers' memory in MiB.
static DEFAULTS: LazyLock<[String; 6]> = LazyLock::new(|| {
    let seconds = |d: Duration| d.as_secs_f64().to_string();
    [seconds(QUEUE_WAIT), MAX_CONNECTIONS.to_string(), seconds(READ_TIMEOUT), seconds(IDLE_TIMEOUT), seconds(WRITE_TIMEOUT), (ANSWER_MEMORY >> 20).to_string()]
});

/// Where to listen, the results shown, a game program ([`explore::options`]), the queue wait
/// and the connections' limits.
fn spec() -> CommandSpec {
    let mut options = vec![
        OptSpec::value("port", "PORT", "Port to listen on; 0 picks a free one (printed on stderr).").default("8080"),
        OptSpec::value("host", "HOST", "Address to listen on (the default serves this machine only; `::1` or `[::1]` for IPv6).").default(HOST),
        OptSpec::value("results", "DIR", "A `sprague report --out` directory whose report.md and plots the page shows."),
    ];
    options.extend(explore::options());
    let [queue, connections, read, idle, write, memory] = &*DEFAULTS;
    options.extend([
        OptSpec::value("queue-wait", "SECONDS", "Time a request waits for a solver (or the game program's turn, or memory for its answer) before it gets 503.").default(queue),
        OptSpec::value("max-connections", "N", "Connections open at once; more wait in the system's backlog until one closes.").default(connections),
        OptSpec::value("read-timeout", "SECONDS", "Time a client has to send a request head, and then its body (408); a slower one is closed.").default(read),
        OptSpec::value("idle-timeout", "SECONDS", "Time a kept-alive connection may wait for its next request before it is closed.").default(idle),
        OptSpec::value("write-timeout", "SECONDS", "Time an answer may go unread (no byte taken by the client) before its connection is closed.").default(write),
        OptSpec::value("answer-memory", "MIB", "Memory of the answers being sent at once; an answer waits for room (up to --queue-wait, then 503).").default(memory),
    ]);
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
         --game-budget, --game-timeout or --max-positions is refused (422); a game program that failed is restarted. \
         Every connection is bounded: in number (--max-connections), in time to send its request (--read-timeout), between \
         requests (--idle-timeout) and while its answer goes unread (--write-timeout); answers being sent share \
         --answer-memory. On a loopback host only requests for localhost, 127.0.0.1 and [::1] are answered (421 otherwise), \
         and an analysis must be sent as Content-Type: application/json (415 otherwise).\n\n\
         Examples:\n  sprague serve\n  sprague serve --port 0 --results out/report\n  \
         sprague serve --game-cmd 'python3 kayles.py' --game-budget 2",
    )
}

pub fn run(matches: &ArgMatches) -> anyhow::Result<Status> {
    let args = spec::values(&spec(), matches);
    let port: String = args.require("port")?;
    let port: u16 = port.parse().map_err(|_| sprague::Error::Usage(format!("--port must be a port number in 0..=65535, not {port}")))?;
    let queue_wait = args.required_positive_seconds("queue-wait")?;
    let limits = limits(&args)?;
    let answer_memory = positive(&args, "answer-memory", MOST_ANSWER_MIB)? << 20;
    // Every option is checked before the game program starts.
    let mut explorers = sprague::games::explorers();
    explorers.extend(explore::from_args(&args)?);
    let mut options = Options::new(port, explorers);
    (options.queue_wait, options.limits, options.answer_memory) = (queue_wait, limits, answer_memory);
    options.host = args.require("host")?;
    options.results = args.text("results").map(Into::into);
    serve(options, |address| sprague::sys::say(&format!("sprague serve: listening on http://{address}/ (Ctrl-C stops it)")))?;
    Ok(Status::Ok)
}

/// The connection cap and the timeouts.
fn limits(args: &Args) -> sprague::Result<Limits> {
    Ok(Limits { max_connections: positive(args, "max-connections", MOST_CONNECTIONS)?, read: args.required_positive_seconds("read-timeout")?, idle: args.required_positive_seconds("idle-timeout")?, write: args.required_positive_seconds("write-timeout")? })
}

/// Option `name` (which has a default) as a whole number from 1 to `most`.
fn positive(args: &Args, name: &str, most: usize) -> sprague::Result<usize> {
    let wrong = || sprague::Error::Usage(format!("--{name} must be a whole number from 1 to {most}, not {}", args.text(name).unwrap_or_default()));
    match args.get::<u128>(name).map_err(|_| wrong())? {
        Some(n) if (1..=most as u128).contains(&n) => Ok(n as usize),
        _ => Err(wrong()),
    }
}
