//! `sprague serve`: a web page where every move shows its value, over a JSON API.
//!
//! The page (HTML, CSS and scripts embedded in the binary, [`assets`]) draws whatever the games'
//! explorers ([`crate::game::explore::Explore`], listed by `games::explorers()`) return; this
//! module names no game. Routes (docs/serve.md): `GET /` and `/assets/NAME`, `GET /api/games`,
//! `POST /api/games/{name}/analyse`, `GET /api/results` and `/api/results/{path}` ([`files`]).
//! Solving runs on blocking threads, a bounded number at a time, and fewer for a game that asks
//! for it ([`api`]). Connections are capped in number and time, and the answers being sent in
//! memory ([`conn`], [`timed`], [`budget`]); a server on loopback answers only its own host
//! names ([`origin`]).

pub mod api;
pub mod assets;
pub mod budget;
pub mod conn;
pub mod files;
pub mod listener;
pub mod origin;
pub mod timed;

use crate::error::{Error, Result};
use crate::game::explore::Explore;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

pub use budget::{ANSWER_MEMORY, MOST_ANSWER_MIB};
pub use conn::{Limits, IDLE_TIMEOUT, MAX_CONNECTIONS, MOST_CONNECTIONS, READ_TIMEOUT, WRITE_TIMEOUT};

/// Largest request body accepted: the largest documented input of a game on the page fits (a
/// DAGame of 500 nodes, 100,000 edges and 1,000 tokens, about 0.9 MB as JSON; a 20×20 board
/// position is about 430 bytes).
pub const BODY_LIMIT: usize = 1024 * 1024;
/// An oversized body is read (and dropped) up to this many bytes, so that its sender gets the
/// 413 answer; past it the connection is closed.
pub const DRAIN_LIMIT: usize = 4 * 1024 * 1024;

/// The address listened on by default: this machine only.
pub const HOST: &str = "127.0.0.1";
/// How long a request waits by default for a solver before it gets 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// What `sprague serve` was asked for.
pub struct Options {
    pub host: String,
    /// 0: any free port (the one taken is handed to `ready`).
    pub port: u16,
    /// The games shown, in order: the registry's explorers (`games::explorers()`), then any the
    /// caller adds (a custom program game from `--game-cmd`).
    pub explorers: Vec<Box<dyn Explore>>,
    /// A directory of `sprague report` output (report.md and its plots) for the results view.
    pub results: Option<PathBuf>,
    /// Analyses solved at once; more requests wait (up to `queue_wait`), then get 503.
    pub max_in_flight: usize,
    pub queue_wait: Duration,
    /// The connections' cap and time limits.
    pub limits: Limits,
    /// Bytes of answers held at once while they are sent ([`budget`]).
    pub answer_memory: usize,
}

impl Options {
    /// [`HOST`], the given port and games, no results, as many analyses at once as cores,
    /// [`QUEUE_WAIT`], the default [`Limits`] and [`ANSWER_MEMORY`].
    pub fn new(port: u16, explorers: Vec<Box<dyn Explore>>) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Options { host: HOST.into(), port, explorers, results: None, max_in_flight: cores.max(2), queue_wait: QUEUE_WAIT, limits: Limits::default(), answer_memory: ANSWER_MEMORY }
    }
}

/// A game shown, with turns of its own when it analyses fewer positions at once than the
/// server does ([`Explore::at_once`]).
pub struct Game {
    pub explorer: Arc<dyn Explore>,
    pub turns: Option<Arc<Semaphore>>,
}

impl Game {
    fn new(explorer: Box<dyn Explore>) -> Self {
        let turns = explorer.at_once().map(|n| Arc::new(Semaphore::new(n.max(1))));
        Game { explorer: Arc::from(explorer), turns }
    }
}

/// What every handler shares.
pub struct State {
    pub games: Vec<Game>,
    /// The results directory, canonical (files are served only from under it).
    pub results: Option<PathBuf>,
    pub solving: Arc<Semaphore>,
    pub queue_wait: Duration,
    pub limits: Limits,
    /// The memory of the answers being sent.
    pub answers: budget::Budget,
    /// The host listened on, when it is a loopback one: then only requests for this machine's
    /// names are answered ([`origin::check_host`]).
    pub loopback: Option<String>,
}

/// The routes over `state`.
pub fn router(state: Arc<State>) -> Router {
    let host_check = middleware::from_fn_with_state(state.clone(), origin::check_host);
    Router::new()
        .route("/", get(assets::page))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/games", get(api::games))
        .route("/api/games/{name}/analyse", post(api::analyse))
        .route("/api/results", get(files::listing))
        .route("/api/results/{*path}", get(files::file))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(host_check)
        .with_state(state)
}

/// `HOST:PORT` to bind, an IPv6 host bracketed once whether it was given bracketed or not
/// (`::1` and `[::1]` are the same host).
pub fn place(host: &str, port: u16) -> String {
    let bare = unbracketed(host);
    match bare.contains(':') {
        true => format!("[{bare}]:{port}"),
        false => format!("{bare}:{port}"),
    }
}

/// `host` without the brackets of an IPv6 address (`[::1]` → `::1`).
pub fn unbracketed(host: &str) -> &str {
    host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host)
}

/// Serves until the process ends; `ready` gets the address listened on (`--port 0`: the port
/// the system picked) once connections are accepted.
pub fn serve(options: Options, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let results = options.results.as_deref().map(files::results_root).transpose()?;
    let state = Arc::new(State {
        games: options.explorers.into_iter().map(Game::new).collect(),
        results,
        solving: Arc::new(Semaphore::new(options.max_in_flight.max(1))),
        queue_wait: options.queue_wait,
        limits: options.limits,
        answers: budget::Budget::new(options.answer_memory),
        loopback: origin::is_loopback(&options.host).then(|| unbracketed(&options.host).to_ascii_lowercase()),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| Error::Usage(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(async move {
        let place = place(&options.host, options.port);
        let listener = tokio::net::TcpListener::bind(&place).await.map_err(|e| Error::Usage(format!("cannot listen on {place}: {e}")))?;
        let address = listener.local_addr().map_err(|e| Error::Usage(format!("cannot listen on {place}: {e}")))?;
        ready(address);
        conn::accept(listener, router(state), options.limits).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_hosts_are_bracketed_once() {
        assert_eq!(place("::1", 80), "[::1]:80");
        assert_eq!(place("[::1]", 80), "[::1]:80");
        assert_eq!(place("127.0.0.1", 0), "127.0.0.1:0");
        assert_eq!(place("localhost", 8080), "localhost:8080");
    }
}
