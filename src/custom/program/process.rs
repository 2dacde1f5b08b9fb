//! One running copy of a game program: batches of request lines in, one answer line per request out, each awaited at most the time limit.
//!
//! A writer thread feeds stdin and a reader thread splits stdout into lines, so a program that
//! answers while it still reads never blocks against us. The reader hands over every complete
//! line of one read at once: one wake-up per read, not per line. The program runs in its own
//! process group, in a private empty directory; its stderr goes to a file beside that directory
//! and its end is quoted when the program fails.

use crate::error::{Error, Result};
use crate::stress::CommandLine;
use crate::output::text::format_bytes;
use crate::interrupt::{self, Group, TempDir};
use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Longest answer line accepted.
pub const MAX_LINE: usize = 64 << 20;
/// Bytes of stderr quoted in an error.
const STDERR_TAIL: u64 = 4096;
/// How often a wait for an answer looks whether the program exited.
const EXIT_POLL: Duration = Duration::from_millis(100);
/// How long after the program exited its last lines may still come.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// Bytes of answer lines held at once while one list of requests is answered, counted by
/// every copy answering it, and the most allowed.
pub struct Held {
    bytes: AtomicU64,
    limit: u64,
    /// The option that makes the run smaller, named past the limit ([`super::advice`]).
    smaller: Option<&'static str>,
}

impl Held {
    pub fn new(limit: u64, smaller: Option<&'static str>) -> Self {
        Held { bytes: AtomicU64::new(0), limit, smaller }
    }

    /// Counts a line of `len` bytes (and its keeping); false once the lines are past the limit.
    fn keep(&self, len: usize) -> bool {
        let len = len as u64 + LINE_OVERHEAD;
        self.bytes.fetch_add(len, Ordering::Relaxed).saturating_add(len) <= self.limit
    }
}

/// Which requests of a batch a failure is blamed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blame {
    /// The request at this index got no proper answer.
    Request(usize),
    /// The batch as a whole: a line too many or missing somewhere in it (which request's
    /// cannot be told), or the closing request's answer changed.
    Batch,
}

/// Bytes a kept line takes besides its text (its `String`).
const LINE_OVERHEAD: u64 = 24;

/// What the reader thread hands over.
enum Line {
    Text(String),
    NotUtf8,
    TooLong,
    End,
}

/// One running copy of the game program.
/// How long each answer line may take, and the limit that sets it (named when it runs out).
#[derive(Debug, Clone, Copy)]
pub struct Wait<'a> {
    pub each: Duration,
    pub named: &'a str,
}

impl Wait<'static> {
    /// The wait set by `--game-timeout`.
    pub fn game_timeout(each: Duration) -> Self {
        Wait { each, named: "--game-timeout" }
    }
}

pub struct Copy {
    child: Child,
    /// The copy's process group, killed with it (`None` once stopped).
    group: Option<Group>,
    requests: Option<Sender<Vec<u8>>>,
    answers: Receiver<Vec<Line>>,
    /// Lines received and not yet taken.
    received: VecDeque<Line>,
    stderr: PathBuf,
    /// Holds the private working directory and the stderr file for the copy's life.
    _home: TempDir,
    /// Set once the copy failed; it answers nothing more.
    dead: bool,
    /// The request closing every batch and its answer (see [`Copy::close_batches_with`]).
    sentinel: Option<(String, String)>,
}

impl Copy {
    /// Starts `command` in a fresh private directory.
    pub fn start(command: &CommandLine) -> Result<Copy> {
        let home = interrupt::temp_dir("sprague-game-").map_err(|e| Error::io("temporary directory", e))?;
        let (work, stderr) = (home.path().join("work"), home.path().join("stderr"));
        std::fs::create_dir(&work).map_err(|e| Error::io(&work, e))?;
        let stderr_file = std::fs::File::create(&stderr).map_err(|e| Error::io(&stderr, e))?;
        let mut cmd = command.command();
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr_file).current_dir(&work).process_group(0);
        let (mut child, group) = interrupt::spawn_trusted(&mut cmd).map_err(|e| Error::Usage(format!("cannot start the game program {}: {e}", command.display())))?;
        let (stdin, stdout) = (child.stdin.take().expect("piped"), child.stdout.take().expect("piped"));
        let (requests, to_write) = channel::<Vec<u8>>();
        std::thread::spawn(move || write_requests(stdin, to_write));
        let (lines, answers) = channel();
        std::thread::spawn(move || read_answers(stdout, lines));
        Ok(Copy { child, group: Some(group), requests: Some(requests), answers, received: VecDeque::new(), stderr, _home: home, dead: false, sentinel: None })
    }

    /// After the handshake: `request` (`sprague 1`) is appended to every batch and must be
    /// answered `answer` again, so that a missing or extra line cannot shift answers unseen.
    pub fn close_batches_with(&mut self, request: String, answer: String) {
        self.sentinel = Some((request, answer));
    }

    /// Sends `requests` (lines without newlines), the closing request and a `flush`, then reads
    /// one answer line per request, each counted in `held` and awaited `wait` at most, and
    /// not past `deadline`. `Err((blame, why))`: the requests that got no proper answer; the
    /// copy is then stopped and answers nothing more.
    pub fn answer(&mut self, requests: &[String], wait: Wait, held: &Held, deadline: Option<Instant>) -> std::result::Result<Vec<String>, (Blame, String)> {
        if self.dead {
            return Err((Blame::Request(0), "stopped after an earlier failure".into()));
        }
        let closing = self.sentinel.as_ref().map(|(request, _)| request);
        let mut batch = Vec::with_capacity(requests.iter().map(|r| r.len() + 1).sum::<usize>() + 16);
        for request in requests.iter().chain(closing) {
            batch.extend_from_slice(request.as_bytes());
            batch.push(b'\n');
        }
        batch.extend_from_slice(b"flush\n");
        let sent = self.requests.as_ref().is_some_and(|r| r.send(batch).is_ok());
        let mut out = Vec::with_capacity(requests.len() + 1);
        let expected = requests.len() + usize::from(closing.is_some());
        while out.len() < expected {
            let left = deadline.map_or(wait.each, |d| wait.each.min(d.saturating_duration_since(Instant::now())));
            let line = if sent { self.next_line(left) } else { Ok(Line::End) };
            let mut blame = Blame::Request(out.len().min(requests.len().saturating_sub(1)));
            let why = match line {
                Ok(Line::Text(text)) if !held.keep(text.len()) => format!(
                    "its answers held at once take more than {} of memory (half the memory budget: --memory-limit BYTES, by default the memory available); {}",
                    format_bytes(held.limit),
                    super::advice(held.smaller, "raise --memory-limit if the machine has the room")
                ),
                Ok(Line::Text(text)) => match self.out_of_step(&text, out.len(), requests) {
                    None => {
                        out.push(text);
                        continue;
                    }
                    Some(why) => {
                        blame = Blame::Batch;
                        why
                    }
                },
                Ok(Line::NotUtf8) => "answered with a line that is not UTF-8".to_string(),
                Ok(Line::TooLong) => format!("answered with a line longer than {} MiB", MAX_LINE >> 20),
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => self.ended(),
                Err(RecvTimeoutError::Timeout) if deadline.is_some_and(|d| Instant::now() >= d) => "was stopped still answering at the deadline".to_string(),
                Err(RecvTimeoutError::Timeout) => format!("gave no answer within {} s ({})", wait.each.as_secs_f64(), wait.named),
            };
            self.stop();
            return Err((blame, format!("{why}{}", self.stderr_tail())));
        }
        out.truncate(requests.len());
        Ok(out)
    }

    /// Why answer line `index` of a batch shows the program out of step (a line missing or
    /// one too many), or `None`.
    fn out_of_step(&self, line: &str, index: usize, requests: &[String]) -> Option<String> {
        let (request, answer) = self.sentinel.as_ref()?;
        let closing = index == requests.len();
        match (closing, line == answer) {
            // A list of requests there: the handshake's answer, changed.
            (true, false) if super::protocol::lists_requests(line) => Some(format!(
                "the handshake's answer changed: answered `{request}` closing the batch with {line:?}, not {answer:?} as at the start (the answer to `{request}` must stay the same)"
            )),
            (true, false) => Some(format!(
                "wrote more lines than requests: {line:?} came where the answer to `{request}` closing the batch was expected, so one of the batch's requests got more than one line (which one cannot be told from the batch: ask the program them one at a time by hand to find it; one answer line per request, debugging output goes to stderr)"
            )),
            (false, true) => Some(format!(
                "answered {index} lines for {} requests: the answer to `{request}` closing the batch came early, so one of the batch's requests got no line (one answer line per request, an empty line for none)",
                requests.len()
            )),
            _ => None,
        }
    }

    /// The next answer line, waiting at most `timeout` for it. A program that exited is seen
    /// while waiting (its output may stay open in a child it left running): once it has exited
    /// and nothing more comes within [`EXIT_GRACE`], its output has ended.
    fn next_line(&mut self, timeout: Duration) -> std::result::Result<Line, RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        let mut exited = false;
        while self.received.is_empty() {
            let wait = if exited { EXIT_GRACE } else { deadline.saturating_duration_since(Instant::now()).min(EXIT_POLL) };
            match self.answers.recv_timeout(wait) {
                // The reader sends no empty list, and nothing after the end.
                Ok(lines) => self.received.extend(lines),
                Err(RecvTimeoutError::Timeout) if exited => return Ok(Line::End),
                Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => return Err(RecvTimeoutError::Timeout),
                Err(RecvTimeoutError::Timeout) => exited = matches!(self.child.try_wait(), Ok(Some(_))),
                Err(e) => return Err(e),
            }
        }
        Ok(self.received.pop_front().unwrap_or(Line::End))
    }

    /// The program's exit, after its stdout ended: its status once it has exited.
    fn ended(&mut self) -> String {
        let status = (0..100).find_map(|_| {
            let status = self.child.try_wait().ok().flatten();
            status.or_else(|| {
                std::thread::sleep(Duration::from_millis(10));
                None
            })
        });
        match status {
            Some(status) => format!("exited ({}) before answering", describe(status)),
            None => "closed its output before answering".into(),
        }
    }

    /// The end of the program's stderr, as a message suffix (empty when it wrote nothing).
    fn stderr_tail(&self) -> String {
        let Ok(mut file) = std::fs::File::open(&self.stderr) else { return String::new() };
        let len = file.metadata().map_or(0, |m| m.len());
        let skip = len.saturating_sub(STDERR_TAIL);
        let mut text = Vec::new();
        let _ = std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(skip)).and_then(|_| file.read_to_end(&mut text));
        let text = String::from_utf8_lossy(&text);
        let text = text.trim_end();
        match (text.is_empty(), skip > 0) {
            (true, _) => String::new(),
            (false, false) => format!("\nits stderr:\n{text}"),
            (false, true) => format!("\nthe last {STDERR_TAIL} bytes of its stderr:\n{text}"),
        }
    }

    /// Kills the copy and its children.
    fn stop(&mut self) {
        self.dead = true;
        self.requests = None;
        // Unregistered only once reaped (a zombie no program owns is reaped by anyone).
        if let Some(group) = &self.group {
            group.kill();
        }
        let _ = self.child.wait();
        self.group = None;
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        if !self.dead {
            self.stop();
        }
    }
}

/// An exit status in words.
fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "unknown status".into(),
    }
}

/// Writes each batch to the program's stdin until the channel closes or the pipe breaks.
fn write_requests(mut stdin: std::process::ChildStdin, batches: Receiver<Vec<u8>>) {
    for batch in batches {
        if stdin.write_all(&batch).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// Splits the program's stdout into lines (without the newline) until it ends, handing over
/// every complete line of one read together; an unfinished last line counts as a line.
fn read_answers(mut stdout: std::process::ChildStdout, lines: Sender<Vec<Line>>) {
    let mut chunk = vec![0u8; 1 << 16];
    let mut line = Vec::new();
    loop {
        let read = match stdout.read(&mut chunk) {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Ok(read) => read,
            Err(_) => 0,
        };
        let mut out = Vec::new();
        for piece in chunk[..read].split_inclusive(|&b| b == b'\n') {
            line.extend_from_slice(piece);
            if line.last() == Some(&b'\n') {
                line.pop();
                out.push(text(&line));
                line.clear();
            }
        }
        if line.len() > MAX_LINE {
            out.push(Line::TooLong);
        } else if read == 0 {
            out.extend((!line.is_empty()).then(|| text(&line)));
            out.push(Line::End);
        }
        let last = out.iter().any(|l| matches!(l, Line::End | Line::TooLong));
        if !out.is_empty() && lines.send(out).is_err() || last {
            return;
        }
    }
}

/// One line's bytes (no newline) as a line: too long, not UTF-8, or its text without a final `\r`.
fn text(bytes: &[u8]) -> Line {
    if bytes.len() > MAX_LINE {
        return Line::TooLong;
    }
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_or(Line::NotUtf8, |t| Line::Text(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers of `sh -c script` to `count` requests, each awaited at most `timeout`.
    fn answers(script: &str, count: usize, timeout: Duration) -> std::result::Result<Vec<String>, (Blame, String)> {
        let command = CommandLine::Direct { program: "/bin/sh".into(), args: vec!["-c".into(), script.into()] };
        let requests: Vec<String> = (0..count).map(|i| format!("moves {i}")).collect();
        Copy::start(&command).unwrap().answer(&requests, Wait::game_timeout(timeout), &Held::new(u64::MAX, None), None)
    }

    const SECOND: Duration = Duration::from_secs(5);

    #[test]
    fn lines_are_read_across_writes_with_or_without_a_final_newline() {
        let got = answers("printf 'one\\r\\nt'; sleep 0.1; printf 'wo\\n\\nthree'", 4, SECOND).unwrap();
        assert_eq!(got, ["one", "two", "", "three"]);
    }

    #[test]
    fn a_bad_line_a_crash_and_silence_name_the_request_and_the_reason() {
        let (index, why) = answers("printf 'a\\n\\377\\n'", 2, SECOND).unwrap_err();
        assert_eq!((index, why.as_str()), (Blame::Request(1), "answered with a line that is not UTF-8"));
        let (index, why) = answers("echo a; echo oops >&2; exit 3", 2, SECOND).unwrap_err();
        assert_eq!((index, why.as_str()), (Blame::Request(1), "exited (status 3) before answering\nits stderr:\noops"));
        let (index, why) = answers("sleep 5", 1, Duration::from_millis(200)).unwrap_err();
        assert_eq!((index, why.as_str()), (Blame::Request(0), "gave no answer within 0.2 s (--game-timeout)"));
    }

    #[test]
    fn a_line_over_the_limit_is_refused() {
        let script = format!("echo short; head -c {} /dev/zero | tr '\\0' a; echo", MAX_LINE + 1);
        let (index, why) = answers(&script, 2, SECOND).unwrap_err();
        assert_eq!((index, why.as_str()), (Blame::Request(1), "answered with a line longer than 64 MiB"));
        let script = format!("head -c {MAX_LINE} /dev/zero | tr '\\0' a; echo");
        assert_eq!(answers(&script, 1, SECOND).unwrap()[0].len(), MAX_LINE);
    }

    #[test]
    fn answers_past_the_memory_budget_are_refused() {
        let command = CommandLine::Direct { program: "/bin/sh".into(), args: vec!["-c".into(), "yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into()] };
        let requests: Vec<String> = (0..100).map(|i| format!("moves {i}")).collect();
        let (index, why) = Copy::start(&command).unwrap().answer(&requests, Wait::game_timeout(SECOND), &Held::new(2000, None), None).unwrap_err();
        assert_eq!(index, Blame::Request(16), "{why}");
        assert!(why.starts_with("its answers held at once take more than 1.95 KiB of memory"), "{why}");
        assert!(answers("yes a", 100, SECOND).is_ok(), "no limit");
    }

    #[test]
    fn an_exit_is_seen_while_a_child_holds_the_output_open() {
        let started = std::time::Instant::now();
        let (index, why) = answers("echo a; sleep 30 & exit 3", 2, Duration::from_secs(20)).unwrap_err();
        assert_eq!((index, why.as_str()), (Blame::Request(1), "exited (status 3) before answering"));
        assert!(started.elapsed() < Duration::from_secs(5), "not the time limit: {:?}", started.elapsed());
    }
}
