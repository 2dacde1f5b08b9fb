//! The memory of answers being sent: each holds its size of one shared budget until its last byte is handed to the connection, so clients that read nothing hold at most the budget.

use super::api::ApiError;
use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use http_body::{Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The answers' memory by default: 256 MiB.
pub const ANSWER_MEMORY: usize = 256 << 20;
/// Most MiB `--answer-memory` may give: what the budget counts (2^32 KiB, 4 TiB).
pub const MOST_ANSWER_MIB: usize = (u32::MAX as usize) >> 10;
/// An answer is handed to the connection in pieces of this size, so that it holds a few of
/// them (hyper's write queue) rather than the whole answer.
const PIECE: usize = 16 << 10;

/// The budget, counted in KiB.
pub struct Budget {
    kib: Arc<Semaphore>,
    total: usize,
    /// Answers waiting for room (each holds its solver meanwhile).
    waiting: AtomicUsize,
}

impl Budget {
    /// A budget of `bytes` (at least 1 KiB).
    pub fn new(bytes: usize) -> Self {
        let total = (bytes >> 10).clamp(1, u32::MAX as usize);
        Budget { kib: Arc::new(Semaphore::new(total)), total, waiting: AtomicUsize::new(0) }
    }

    /// Room for an answer of `bytes` (the whole budget for a larger one) once there is, or 503
    /// after `wait`.
    pub async fn reserve(&self, bytes: usize, wait: Duration) -> Result<OwnedSemaphorePermit, ApiError> {
        let need = bytes.div_ceil(1024).min(self.total) as u32;
        let busy = || ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("busy: the answers being sent held all of their {} MiB (--answer-memory) for {} s; try again", self.total >> 10, wait.as_secs_f64()));
        // Counted while it waits, and uncounted however the wait ends: also when the request
        // is dropped mid-wait (its client gone), which a decrement after the await would miss.
        let _waiting = Waiting::count(&self.waiting);
        let room = tokio::time::timeout(wait, self.kib.clone().acquire_many_owned(need)).await;
        room.map_err(|_| busy())?.map_err(|_| busy())
    }

    /// `busy` (no solver free), saying so when answers waiting for room hold solvers: the
    /// limit then is this budget, not the number of solvers.
    pub fn explain(&self, busy: ApiError) -> ApiError {
        match self.waiting.load(Ordering::Relaxed) {
            0 => busy,
            n => {
                let held = if n == 1 { "1 of them held by an answer".to_string() } else { format!("{n} of them held by answers") };
                let why = format!("{held} waiting for room in the answers' memory ({} MiB, --answer-memory), which clients that do not read their answers hold", self.total >> 10);
                ApiError(busy.0, busy.1.replacen("; try again", &format!(", {why}; try again"), 1))
            }
        }
    }
}

/// One answer counted in [`Budget::waiting`] until dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn count(waiting: &'a AtomicUsize) -> Self {
        waiting.fetch_add(1, Ordering::Relaxed);
        Waiting(waiting)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// `bytes` as a body that keeps `room` until its last piece is handed over.
pub fn body(bytes: Vec<u8>, room: OwnedSemaphorePermit) -> Body {
    Body::new(Held { bytes, at: 0, room: Some(room) })
}

/// An answer not yet handed over whole, and its room in the budget.
struct Held {
    bytes: Vec<u8>,
    at: usize,
    room: Option<OwnedSemaphorePermit>,
}

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    /// The next piece, copied (a piece that shared the answer's memory would keep it all).
    fn poll_frame(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        let end = this.bytes.len().min(this.at + PIECE);
        if this.at == end {
            return Poll::Ready(None);
        }
        let piece = Bytes::copy_from_slice(&this.bytes[this.at..end]);
        this.at = end;
        if end == this.bytes.len() {
            (this.bytes, this.at, this.room) = (Vec::new(), 0, None);
        }
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.at == self.bytes.len()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact((self.bytes.len() - self.at) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use http_body_util::BodyExt;

    #[test]
    fn an_answer_holds_its_room_until_its_last_piece() {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(holds_its_room());
    }

    async fn holds_its_room() {
        let budget = Budget::new(64 << 10);
        let room = budget.reserve(40_000, Duration::from_millis(10)).await.unwrap();
        assert_eq!(budget.kib.available_permits(), 64 - 40);
        let mut held = body(vec![7; 40_000], room);
        assert_eq!(held.size_hint().exact(), Some(40_000));
        let first = held.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!((first.len(), budget.kib.available_permits()), (PIECE, 24));
        let busy = budget.reserve(30_000, Duration::from_millis(10)).await.unwrap_err();
        assert_eq!(busy.0, StatusCode::SERVICE_UNAVAILABLE, "{}", busy.1);
        while held.frame().await.is_some() {}
        assert_eq!(budget.kib.available_permits(), 64);
        let all = budget.reserve(10 << 20, Duration::from_millis(10)).await.unwrap();
        assert_eq!((all.num_permits(), budget.kib.available_permits()), (64, 0), "a larger answer takes the whole budget");
        // While an answer waits for room, a solver's 503 names the budget as the cause.
        let no_solver = || ApiError(StatusCode::SERVICE_UNAVAILABLE, "busy: every solver was taken for 10 s; try again".into());
        let (waited, explained) = tokio::join!(budget.reserve(1000, Duration::from_millis(50)), async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            budget.explain(no_solver())
        });
        assert!(waited.is_err());
        assert_eq!(explained.1, "busy: every solver was taken for 10 s, 1 of them held by an answer waiting for room in the answers' memory (0 MiB, --answer-memory), which clients that do not read their answers hold; try again");
        assert_eq!(budget.explain(no_solver()).1, no_solver().1, "no answer waits: the solvers were busy solving");
        // A wait dropped midway (the client gone) is uncounted too.
        let dropped = tokio::time::timeout(Duration::from_millis(10), budget.reserve(1000, Duration::from_secs(60))).await;
        assert!(dropped.is_err());
        assert_eq!(budget.explain(no_solver()).1, no_solver().1, "a dropped wait holds no solver");
    }
}
