//! Connections whose automatic answers (hyper's, to a request it cannot parse: 400, 414, 431; and an HTTP/2 preface) carry a JSON `{"error": …}` body like every other error.

use std::io::IoSlice;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// What an HTTP/2 client with prior knowledge sends first (its preface starts so).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";

/// The message of a request that is not HTTP/1.0 or 1.1 (hyper's 400, an HTTP/2 preface).
const NOT_HTTP1: &str = "the request is not valid HTTP/1.0 or HTTP/1.1, the versions served here (its request line or a header cannot be read: e.g. a Content-Length that is not one number)";

/// A connection that writes, in place of an automatic answer's empty head, the same status with
/// a JSON body (and closes, as hyper does after such an answer).
pub struct JsonErrors<S> {
    stream: S,
    /// The answer being written instead of hyper's, and how much of it is written.
    pending: Vec<u8>,
    sent: usize,
    /// The first bytes read, held back while they may still be an HTTP/2 preface (which may
    /// come in pieces); `None` once they are known not to be one.
    start: Option<Vec<u8>>,
    /// The held bytes not handed on yet, once they are known not to be a preface.
    held: Vec<u8>,
}

impl<S> JsonErrors<S> {
    pub fn new(stream: S) -> Self {
        JsonErrors { stream, pending: Vec::new(), sent: 0, start: Some(Vec::new()), held: Vec::new() }
    }
}

/// The message of an automatic answer's status, `None` for any other status.
fn automatic_message(status: &str) -> Option<String> {
    Some(match status {
        "400" => NOT_HTTP1.to_string(),
        "414" => format!("the request's path is over the limit of {} bytes", u16::MAX - 1),
        "431" => "the request's head is too large".to_string(),
        _ => return None,
    })
}

/// The JSON answer that replaces `head`, when `head` is a whole automatic answer: a status line
/// hyper answers by itself, `content-length: 0` and nothing after the head. Our routes never
/// answer these statuses without a body.
pub fn json_answer(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok().filter(|t| t.len() < 1024 && t.ends_with("\r\n\r\n"))?;
    let (status_line, fields) = text.split_once("\r\n")?;
    let rest = status_line.strip_prefix("HTTP/1.1 ").or_else(|| status_line.strip_prefix("HTTP/1.0 "))?;
    let message = automatic_message(rest.get(..3)?)?;
    if !fields.to_ascii_lowercase().split("\r\n").any(|field| field == "content-length: 0") {
        return None;
    }
    Some(closing_answer(status_line, &message))
}

/// An answer with status line `status_line` and the JSON error `message`, that closes the
/// connection.
fn closing_answer(status_line: &str, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    format!("{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).into_bytes()
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Writes the pending answer; `Ready(Ok(claimed))` once it is all out.
    fn poll_pending(&mut self, cx: &mut Context<'_>, claimed: usize) -> Poll<std::io::Result<usize>> {
        while self.sent < self.pending.len() {
            match Pin::new(&mut self.stream).poll_write(cx, &self.pending[self.sent..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.sent += n,
                other => return other,
            }
        }
        Poll::Ready(Ok(claimed))
    }
}

impl<S: AsyncRead + Unpin> JsonErrors<S> {
    /// Reads the first bytes until they are an HTTP/2 preface (then the 400 is pending and
    /// nothing is handed on) or cannot be one (then they are held to be handed on).
    fn poll_start(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while let Some(start) = &mut self.start {
            let mut piece = [0; H2_PREFACE.len()];
            let mut read = ReadBuf::new(&mut piece[..H2_PREFACE.len() - start.len()]);
            std::task::ready!(Pin::new(&mut self.stream).poll_read(cx, &mut read))?;
            start.extend_from_slice(read.filled());
            if start.as_slice() == H2_PREFACE {
                (self.pending, self.sent) = (closing_answer("HTTP/1.1 400 Bad Request", NOT_HTTP1), 0);
                self.start = None;
            } else if read.filled().is_empty() || !H2_PREFACE.starts_with(start) {
                self.held = self.start.take().unwrap_or_default();
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    /// The bytes read; an HTTP/2 preface is not handed to hyper (which would close without an
    /// answer): it reads as the end of the connection, and the 400 is written at its shutdown.
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.poll_start(cx))?;
        if !self.pending.is_empty() {
            return Poll::Ready(Ok(()));
        }
        if !self.held.is_empty() {
            let n = self.held.len().min(buf.remaining());
            buf.put_slice(&self.held[..n]);
            self.held.drain(..n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        // hyper offers the same bytes again after a Pending, so a started answer goes on.
        if self.pending.is_empty() {
            match json_answer(buf) {
                Some(answer) => (self.pending, self.sent) = (answer, 0),
                None => return Pin::new(&mut self.stream).poll_write(cx, buf),
            }
        }
        self.poll_pending(cx, buf.len())
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let mut filled = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next()) {
            return self.poll_write(cx, only);
        }
        if !self.pending.is_empty() {
            return self.poll_pending(cx, bufs.iter().map(|b| b.len()).sum());
        }
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.poll_pending(cx, 0))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_automatic_answers_are_replaced() {
        let answer = json_answer(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n").unwrap();
        let text = String::from_utf8(answer).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n") && head.contains(&format!("content-length: {}", body.len())), "{head}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(body).unwrap()["error"], "the request's path is over the limit of 65534 bytes");
        assert!(json_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n").is_none(), "a route's answer");
        assert!(json_answer(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(json_answer(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\nmore").is_none());
    }
}
