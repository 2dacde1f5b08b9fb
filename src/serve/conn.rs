//! The connections: hyper's HTTP/1 server under the router, at most `max_connections` at once, each on a clock ([`super::timed`]) and answering unparsable requests in JSON ([`super::listener`]).

use super::listener::JsonErrors;
use super::timed::{Timed, Tracked, Watch};
use crate::error::{Error, Result};
use axum::body::Body;
use axum::http::{Request, Response};
use axum::Router;
use http_body::Body as _;
use hyper::body::Incoming;
use hyper::service::Service as _;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::future::Future;
use std::io::ErrorKind;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections open at once by default; more wait in the system's backlog.
pub const MAX_CONNECTIONS: usize = 256;
/// Time to send a request head by default, and then its body (each, in all).
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a kept-alive connection may wait for its next request by default.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Time an answer's write may make no progress by default (a client that reads nothing).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What every connection is allowed (docs/serve.md, "Limits").
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once; more wait in the system's backlog until one closes.
    pub max_connections: usize,
    /// Time to send a request head (from the connection's start, or from its first byte after
    /// an answer), and then time to send its body.
    pub read: Duration,
    /// Time between an answer and the next request's first byte.
    pub idle: Duration,
    /// Time a write of an answer may make no progress.
    pub write: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_connections: MAX_CONNECTIONS, read: READ_TIMEOUT, idle: IDLE_TIMEOUT, write: WRITE_TIMEOUT }
    }
}

/// Accepts connections on `listener` and serves `router` on each, until the process ends.
pub async fn accept(listener: TcpListener, router: Router, limits: Limits) -> Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    loop {
        // Over the cap nothing is accepted: new connections wait in the backlog.
        let slot = slots.clone().acquire_owned().await.map_err(|e| Error::Usage(format!("the server stopped accepting connections: {e}")))?;
        match listener.accept().await {
            Ok((stream, _)) => drop(tokio::spawn(connection(stream, router.clone(), limits, slot))),
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused) => {}
            // Out of file descriptors, say: wait for some connections to close.
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Serves one connection until it closes, fails or runs out of time; `_slot` is its place
/// under the connection cap.
async fn connection(stream: TcpStream, router: Router, limits: Limits, _slot: OwnedSemaphorePermit) {
    let watch = Arc::new(Watch::new(limits));
    let io = TokioIo::new(JsonErrors::new(Timed::new(stream, watch.clone())));
    let app = TowerToHyperService::new(router);
    let service = hyper::service::service_fn(move |request| answer(&app, &watch, request));
    // The clock is Timed's (hyper's header timeout would also cut the idle time); a client
    // that half-closes after its request still gets the answer.
    let mut http = hyper::server::conn::http1::Builder::new();
    http.half_close(true).header_read_timeout(None);
    // A connection that failed or timed out is closed; there is no one to tell.
    let _ = http.serve_connection(io, service).await;
}

/// The router's answer to `request`, its bodies telling `watch` when they end.
fn answer(app: &TowerToHyperService<Router>, watch: &Arc<Watch>, request: Request<Incoming>) -> impl Future<Output = std::result::Result<Response<Body>, Infallible>> {
    watch.request_started(request.body().is_end_stream());
    let answered = app.call(request.map(|body| Tracked::new(body, watch.clone(), Watch::body_read)));
    let watch = watch.clone();
    async move {
        let response = answered.await?;
        Ok(response.map(|body| Body::new(Tracked::new(body, watch, Watch::answered))))
    }
}
