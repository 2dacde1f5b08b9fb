//! The connections: hyper's HTTP/1 server under the router, at most `max_connections` at once, each on a clock ([`super::timed`]), answering unparsable requests in JSON ([`super::listener`]), cancelling an analysis whose client left, and closed lingering after a body left unread.

use super::listener::JsonErrors;
use super::timed::{Timed, Tracked, Watch};
use crate::error::{Error, Result};
use crate::game::explore::Cancel;
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
use std::task::Poll;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections open at once by default; more wait in the system's backlog.
pub const MAX_CONNECTIONS: usize = 256;
/// Most connections `--max-connections` may allow: past any system's limit on open files
/// (and far below what tokio's semaphore can count).
pub const MOST_CONNECTIONS: usize = 1 << 20;
/// Time to send a request head by default, and then its body (each, in all).
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a kept-alive connection may wait for its next request by default.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Time an answer's write may make no progress by default (a client that reads nothing).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a connection closed with a request body unread reads and drops what its client
/// still sends ([`linger`]).
pub const LINGER: Duration = Duration::from_secs(2);
/// How many bytes of it, at most.
pub const LINGER_BYTES: usize = super::DRAIN_LIMIT;

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
    // A second handle on the socket, which hyper never reads: it sees the client leave while
    // a request is answered, and keeps the socket for the lingering close (none where the
    // system has no descriptor to spare: the connection is served without them).
    let Ok(stream) = stream.into_std() else { return };
    let other = stream.try_clone().ok().and_then(|s| TcpStream::from_std(s).ok()).map(Arc::new);
    let Ok(stream) = TcpStream::from_std(stream) else { return };
    let watch = Arc::new(Watch::new(limits));
    let io = TokioIo::new(JsonErrors::new(Timed::new(stream, watch.clone())));
    let app = TowerToHyperService::new(router);
    let (served_watch, served_other) = (watch.clone(), other.clone());
    let service = hyper::service::service_fn(move |request| answer(&app, &served_watch, served_other.clone(), request));
    // The clock is Timed's (hyper's header timeout would also cut the idle time); a client
    // that half-closes after its request still gets the answer.
    let mut http = hyper::server::conn::http1::Builder::new();
    http.half_close(true).header_read_timeout(None);
    // A connection that failed or timed out is closed; there is no one to tell.
    let _ = http.serve_connection(io, service).await;
    if let Some(other) = other.and_then(Arc::into_inner).filter(|_| watch.left_unread()) {
        linger(other).await;
    }
}

/// The router's answer to `request`, its bodies telling `watch` when they end. The request
/// carries a [`Cancel`], set when the client closes or resets the connection (seen on `other`,
/// the socket's second handle) while the request, read whole, is answered.
fn answer(app: &TowerToHyperService<Router>, watch: &Arc<Watch>, other: Option<Arc<TcpStream>>, mut request: Request<Incoming>) -> impl Future<Output = std::result::Result<Response<Body>, Infallible>> {
    watch.request_started(request.body().is_end_stream());
    let cancel = Cancel::default();
    request.extensions_mut().insert(cancel.clone());
    let answered = app.call(request.map(|body| Tracked::new(body, watch.clone(), Watch::body_read)));
    let watch = watch.clone();
    async move {
        let mut answered = std::pin::pin!(answered);
        let seen = watch.clone();
        let mut left = std::pin::pin!(async move {
            match &other {
                Some(other) => client_left(other, &seen).await,
                None => std::future::pending().await,
            }
        });
        let mut told = false;
        let response = std::future::poll_fn(|cx| {
            if let Poll::Ready(response) = answered.as_mut().poll(cx) {
                return Poll::Ready(response);
            }
            if !told && left.as_mut().poll(cx).is_ready() {
                told = true;
                cancel.cancel();
            }
            Poll::Pending
        })
        .await?;
        Ok(response.map(|body| Body::new(Tracked::new(body, watch, Watch::answered))))
    }
}

/// Returns when the client has closed its connection (or its writing side: the server cannot
/// tell them apart) or reset it while its request, read whole, is answered; never when it sends
/// more (its next request).
async fn client_left(socket: &TcpStream, watch: &Watch) {
    watch.answering().await;
    if let Ok(1..) = socket.peek(&mut [0]).await {
        std::future::pending::<()>().await;
    }
}

/// The lingering close of a connection that answered without reading a request body to its
/// end (408, 413): hyper has written the answer; the writing side is shut, and what the
/// client still sends is read and dropped, for at most [`LINGER`] and [`LINGER_BYTES`], until
/// the client closes too. A socket closed with bytes unread answers with a reset, which the
/// client may meet before it reads the answer.
async fn linger(socket: TcpStream) {
    let Ok(socket) = socket.into_std() else { return };
    let _ = socket.shutdown(std::net::Shutdown::Write);
    let Ok(socket) = TcpStream::from_std(socket) else { return };
    let until = tokio::time::Instant::now() + LINGER;
    let (mut buffer, mut left) = (vec![0; 64 << 10], LINGER_BYTES);
    while left > 0 {
        let Ok(Ok(())) = tokio::time::timeout_at(until, socket.readable()).await else { return };
        match socket.try_read(&mut buffer) {
            Ok(0) => return,
            Ok(n) => left = left.saturating_sub(n),
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}
