//! A connection's clock: how long it may take to send a request head and body, stay idle, or leave an answer unread ([`Timed`], [`Watch`]).

use super::conn::Limits;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

/// The body's own deadline is the analysis route's (408 with a JSON answer); the connection's
/// comes this much later, for a body no route reads to its end.
const BODY_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Where a connection is in its current request, and until when it may read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Between requests, waiting for the next one's first byte (the idle timeout).
    Waiting(Instant),
    /// Reading a request head (from the connection's start, or from the first byte after an
    /// answer).
    Head(Instant),
    /// Reading the request's body.
    Body(Instant),
    /// The request is being answered: nothing is read meanwhile, so no read time limit (an
    /// analysis takes its queue wait and time limit, never cut here).
    Answering,
}

/// The phase of one connection, moved on by its reads ([`Timed`]) and by its requests and
/// answers ([`Tracked`] bodies).
#[derive(Debug)]
pub struct Watch {
    limits: Limits,
    phase: Mutex<Phase>,
    /// Told of every change of phase.
    changed: Notify,
    /// A request body was dropped before its end: its client may still be sending it.
    unread: AtomicBool,
}

impl Watch {
    /// A fresh connection: its first request head is due within the read timeout.
    pub fn new(limits: Limits) -> Self {
        Watch { limits, phase: Mutex::new(Phase::Head(Instant::now() + limits.read)), changed: Notify::new(), unread: AtomicBool::new(false) }
    }

    fn update(&self, change: impl FnOnce(Phase) -> Phase) {
        let mut phase = self.phase.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *phase = change(*phase);
        self.changed.notify_waiters();
    }

    fn phase(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Returns once the current request has been read whole (or its body dropped) and is
    /// being answered.
    pub async fn answering(&self) {
        loop {
            let mut changed = std::pin::pin!(self.changed.notified());
            changed.as_mut().enable();
            if self.phase() == Phase::Answering {
                return;
            }
            changed.await;
        }
    }

    /// True when a request body was dropped before its end ([`Watch::body_read`]).
    pub fn left_unread(&self) -> bool {
        self.unread.load(Ordering::Relaxed)
    }

    /// Bytes arrived: the first byte of a request starts the head's time.
    fn bytes_read(&self) {
        let head = Instant::now() + self.limits.read;
        self.update(|phase| if let Phase::Waiting(_) = phase { Phase::Head(head) } else { phase });
    }

    /// A request head was read; `empty`: it has no body.
    pub fn request_started(&self, empty: bool) {
        let body = Instant::now() + self.limits.read + BODY_GRACE;
        self.update(|_| if empty { Phase::Answering } else { Phase::Body(body) });
    }

    /// The request's body was read to its end (`whole`), or dropped before it.
    pub fn body_read(&self, whole: bool) {
        if !whole {
            self.unread.store(true, Ordering::Relaxed);
        }
        self.update(|phase| if let Phase::Body(_) = phase { Phase::Answering } else { phase });
    }

    /// The answer was handed to the connection (whole or cut short): waiting for the next
    /// request.
    pub fn answered(&self, _whole: bool) {
        let idle = Instant::now() + self.limits.idle;
        self.update(|_| Phase::Waiting(idle));
    }

    /// Until when a read may wait, and what it waits for; `None` while answering.
    fn read_deadline(&self) -> Option<(Instant, &'static str)> {
        match self.phase() {
            Phase::Waiting(at) => Some((at, "no request came within the idle timeout")),
            Phase::Head(at) => Some((at, "the request head was not sent within the read timeout")),
            Phase::Body(at) => Some((at, "the request body was not sent within the read timeout")),
            Phase::Answering => None,
        }
    }
}

/// A timer set to one deadline at a time.
#[derive(Default)]
struct Alarm {
    sleep: Option<Pin<Box<Sleep>>>,
    at: Option<Instant>,
}

impl Alarm {
    /// True once `deadline` has passed; until then the task is woken at `deadline`.
    fn rings(&mut self, cx: &mut Context<'_>, deadline: Instant) -> bool {
        let sleep = self.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if self.at != Some(deadline) {
            sleep.as_mut().reset(deadline);
            self.at = Some(deadline);
        }
        sleep.as_mut().poll(cx).is_ready()
    }
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

/// A connection whose reads fail at its [`Watch`]'s deadline and whose writes fail when they
/// make no progress for the write timeout: hyper then closes it, and frees what it held.
pub struct Timed<S> {
    io: S,
    watch: Arc<Watch>,
    reading: Alarm,
    writing: Alarm,
    /// When the pending write must have made progress.
    stalled: Option<Instant>,
}

impl<S> Timed<S> {
    pub fn new(io: S, watch: Arc<Watch>) -> Self {
        Timed { io, watch, reading: Alarm::default(), writing: Alarm::default(), stalled: None }
    }

    /// `polled`, or a timeout when it stayed pending past the write timeout.
    fn progress<T>(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let deadline = *self.stalled.get_or_insert_with(|| Instant::now() + self.watch.limits.write);
        match self.writing.rings(cx, deadline) {
            true => Poll::Ready(Err(timed_out("the client read nothing of the answer within the write timeout"))),
            false => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Timed<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) if buf.filled().len() > before => {
                this.watch.bytes_read();
                Poll::Ready(Ok(()))
            }
            Poll::Pending => match this.watch.read_deadline() {
                Some((deadline, what)) if this.reading.rings(cx, deadline) => Poll::Ready(Err(timed_out(what))),
                _ => Poll::Pending,
            },
            other => other,
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Timed<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.progress(cx, polled)
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.progress(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.progress(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_shutdown(cx);
        self.progress(cx, polled)
    }
}

/// A request or answer body that tells its connection's [`Watch`] when it ends: read to its
/// end, failed, or dropped (whether it was whole then).
pub struct Tracked<B: Body> {
    body: B,
    watch: Arc<Watch>,
    ended: Option<fn(&Watch, bool)>,
}

impl<B: Body> Tracked<B> {
    /// `body`, calling `ended` on the watch once when it ends, with true when it was whole.
    pub fn new(body: B, watch: Arc<Watch>, ended: fn(&Watch, bool)) -> Self {
        Tracked { body, watch, ended: Some(ended) }
    }

    fn end(&mut self, whole: bool) {
        if let Some(ended) = self.ended.take() {
            ended(&self.watch, whole);
        }
    }
}

impl<B: Body> Drop for Tracked<B> {
    fn drop(&mut self) {
        let whole = self.body.is_end_stream();
        self.end(whole);
    }
}

impl<B: Body + Unpin> Body for Tracked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        match polled {
            Poll::Ready(None) => self.end(true),
            Poll::Ready(Some(Err(_))) => self.end(false),
            _ => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
