//! `sprague serve`: a web page where every move shows its value, over a JSON API.
//!
//! The page (HTML, CSS and scripts embedded in the binary, [`assets`]) draws whatever the games'
//! explorers ([`crate::game::explore::Explore`], listed by `games::explorers()`) return; this
//! module names no game. Routes (docs/serve.md): `GET /` and `/assets/NAME`, `GET /api/games`,
//! `POST /api/games/{name}/analyse`, `GET /api/results` and `/api/results/{path}` ([`files`]).
//! Solving runs on blocking threads, a bounded number at a time, and fewer for a game that asks
//! for it ([`api`]).

pub mod api;
pub mod assets;
pub mod files;
pub mod listener;

use crate::error::{Error, Result};
use crate::game::explore::Explore;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

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
}

impl Options {
    /// [`HOST`], the given port and games, no results, as many analyses at once as cores,
    /// [`QUEUE_WAIT`].
    pub fn new(port: u16, explorers: Vec<Box<dyn Explore>>) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Options { host: HOST.into(), port, explorers, results: None, max_in_flight: cores.max(2), queue_wait: QUEUE_WAIT }
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
}

/// The routes over `state`.
pub fn router(state: Arc<State>) -> Router {
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
        .with_state(state)
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
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| Error::Usage(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(async move {
        let place = match options.host.contains(':') {
            true => format!("[{}]:{}", options.host, options.port),
            false => format!("{}:{}", options.host, options.port),
        };
        let listener = tokio::net::TcpListener::bind(&place).await.map_err(|e| Error::Usage(format!("cannot listen on {place}: {e}")))?;
        let address = listener.local_addr().map_err(|e| Error::Usage(format!("cannot listen on {place}: {e}")))?;
        ready(address);
        axum::serve(listener::JsonErrorListener(listener), router(state)).await.map_err(|e| Error::Usage(format!("the server on {address} stopped: {e}")))
    })
}
