//! A `sprague serve --port 0` process for the serve tests, and requests to it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

/// A running server, stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl Server {
    /// Starts `sprague serve --port 0 ARGS` and reads the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let binary = assert_cmd::cargo::cargo_bin("sprague");
        let mut child = Command::new(binary).args(["serve", "--port", "0"]).args(args).stderr(Stdio::piped()).spawn().expect("sprague serve starts");
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        let start = line.find("http://").unwrap_or_else(|| panic!("no address in {line:?}"));
        let base = line[start..].split_whitespace().next().unwrap().trim_end_matches('/').to_string();
        Server { child, base }
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        answer(ureq::get(&format!("{}{path}", self.base)).call())
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        answer(ureq::post(&format!("{}{path}", self.base)).set("Content-Type", "application/json").send_string(body))
    }

    /// `POST /api/games/GAME/analyse` with `{"position": POSITION}`.
    pub fn analyse(&self, game: &str, position: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.post(&format!("/api/games/{game}/analyse"), &serde_json::json!({ "position": position }).to_string());
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
    }

    /// The whole answer (head and body) to a request sent byte for byte (no client normalizes
    /// its path).
    pub fn raw(&self, request_line: &str) -> String {
        let address = self.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        write!(stream, "{request_line}\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    }

    /// The status line of a request sent byte for byte.
    pub fn raw_status(&self, request_line: &str) -> String {
        self.raw(request_line).lines().next().unwrap_or_default().to_string()
    }

    /// A connection to the server, its reads bounded by 10 s.
    pub fn connect(&self) -> std::net::TcpStream {
        let stream = std::net::TcpStream::connect(self.base.trim_start_matches("http://")).unwrap();
        stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        stream
    }

    /// `request` sent byte for byte on a new connection, and everything answered until the
    /// server closes it (or its reads fail).
    pub fn exchange(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).unwrap();
        String::from_utf8_lossy(&read_all(&mut stream)).into_owned()
    }

    /// True while the server answers `GET /api/games` with 200.
    pub fn answers(&self) -> bool {
        self.get("/api/games").0 == 200
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn answer(result: Result<ureq::Response, ureq::Error>) -> (u16, String) {
    match result {
        Ok(response) => (response.status(), response.into_string().unwrap()),
        Err(ureq::Error::Status(code, response)) => (code, response.into_string().unwrap()),
        Err(other) => panic!("no answer: {other}"),
    }
}

/// The `error` field of a JSON error body.
pub fn error_of(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    value["error"].as_str().unwrap_or_else(|| panic!("no error field: {body}")).to_string()
}

/// Everything read from `stream` until it ends, fails or its read timeout passes.
pub fn read_all(stream: &mut std::net::TcpStream) -> Vec<u8> {
    let (mut all, mut buffer) = (Vec::new(), vec![0; 64 << 10]);
    while let Ok(n @ 1..) = stream.read(&mut buffer) {
        all.extend_from_slice(&buffer[..n]);
    }
    all
}

/// The status line and the body of one answer in `reply`.
pub fn status_and_body(reply: &str) -> (&str, &str) {
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer: {reply:?}"));
    (head.lines().next().unwrap_or_default(), body)
}

/// Asserts that the raw `reply` is an answer `code` whose JSON error is `message`; `what` names
/// the case in a failure.
pub fn assert_error_reply(reply: &str, code: u16, message: &str, what: &str) {
    let (status, body) = status_and_body(reply);
    assert!(status.starts_with(&format!("HTTP/1.1 {code}")), "{what}: {reply:?}");
    assert_eq!(error_of(body), message, "{what}");
}
