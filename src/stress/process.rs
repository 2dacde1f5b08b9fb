//! Running the program under test once: stdin fed, stdout and stderr captured up to a cap, a
//! time limit that kills the whole process group, a private working directory.

use super::command::CommandLine;
use crate::error::{Error, Result};
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{kill_process_group, pidfd_open, Pid, PidfdFlags, Signal};
use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Resource limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time after which the program and its children are killed.
    pub timeout: Duration,
    /// Bytes of stdout kept; a program writing more is killed. Of stderr the last this many
    /// bytes are kept (its end, where the error is).
    pub output_cap: usize,
    /// Address-space limit (bytes) set in the child before it starts, if any.
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { timeout: Duration::from_secs(2), output_cap: 1 << 20, memory: None }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The program exited by itself with this status code.
    Code(i32),
    /// The program was ended by this signal (a crash, or killed from outside).
    Signal(i32),
    /// The program passed the time limit and was killed with its process group.
    TimedOut,
    /// The program wrote more than the output cap to stdout and was killed.
    OutputLimit,
}

/// What one run produced; the buffers belong to the [`Runner`] and are reused.
#[derive(Debug)]
pub struct RunOutput<'a> {
    pub exit: Exit,
    pub stdout: &'a [u8],
    /// The end of stderr: its last output-cap bytes.
    pub stderr: &'a [u8],
    /// Bytes cut from the start of stderr (0 when all of it is in `stderr`).
    pub stderr_cut: u64,
    pub elapsed: Duration,
}

/// Runs one command again and again, each time in the same private, emptied directory.
pub struct Runner {
    command: CommandLine,
    limits: Limits,
    dir: tempfile::TempDir,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    stderr_cut: u64,
    chunk: Box<[u8]>,
}

impl Runner {
    pub fn new(command: CommandLine, limits: Limits) -> Result<Self> {
        let dir = tempfile::Builder::new().prefix("sprague-stress-").tempdir().map_err(|e| Error::io("temporary directory", e))?;
        Ok(Runner { command, limits, dir, stdout: Vec::new(), stderr: Vec::new(), stderr_cut: 0, chunk: vec![0; 1 << 16].into() })
    }

    pub fn command(&self) -> &CommandLine {
        &self.command
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Runs the program on `input`; `meanwhile` is called once the program has started (to
    /// compute the expected answer while the program runs).
    pub fn run<T>(&mut self, input: &[u8], meanwhile: impl FnOnce() -> T) -> Result<(RunOutput<'_>, T)> {
        self.clear_dir()?;
        self.stdout.clear();
        self.stderr.clear();
        self.stderr_cut = 0;
        let started = Instant::now();
        let mut child = self.spawn()?;
        let extra = meanwhile();
        let exit = self.communicate(&mut child, input, started);
        // Children left behind (or everything, on a time limit) go with the process group.
        let _ = kill_process_group(Pid::from_child(&child), Signal::KILL);
        let status = child.wait().map_err(|e| Error::io("program under test", e))?;
        let via_shell = self.command.via_shell();
        let exit = exit?.unwrap_or_else(|| match (status.code(), status.signal()) {
            // `sh -c` reports a command killed by signal n as status 128 + n.
            (Some(code @ 129..=192), _) if via_shell => Exit::Signal(code - 128),
            (Some(code), _) => Exit::Code(code),
            (None, Some(sig)) => Exit::Signal(sig),
            (None, None) => Exit::Code(-1),
        });
        self.keep_stderr_end(self.limits.output_cap);
        let out = RunOutput { exit, stdout: &self.stdout, stderr: &self.stderr, stderr_cut: self.stderr_cut, elapsed: started.elapsed() };
        Ok((out, extra))
    }

    fn spawn(&self) -> Result<Child> {
        let mut cmd = self.command.command();
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.current_dir(self.dir.path()).process_group(0);
        if let Some(bytes) = self.limits.memory {
            let limit = rustix::process::Rlimit { current: Some(bytes), maximum: Some(bytes) };
            // SAFETY: setrlimit is a plain system call, safe between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    rustix::process::setrlimit(rustix::process::Resource::As, limit).map_err(Into::into)
                });
            }
        }
        cmd.spawn().map_err(|e| Error::Usage(format!("cannot start {}: {e}", self.command.display())))
    }

    /// Feeds stdin and drains stdout/stderr until the program exits. `Some(exit)` when the
    /// run was cut short (time or output limit), `None` when the program ended by itself.
    fn communicate(&mut self, child: &mut Child, input: &[u8], started: Instant) -> Result<Option<Exit>> {
        let io = |e: std::io::Error| Error::io("program under test", e);
        let mut pipes = Pipes::take(child).map_err(io)?;
        let deadline = started + self.limits.timeout;
        let mut written = 0;
        loop {
            if written == input.len() {
                pipes.stdin = None;
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            let ready = pipes.poll(if pipes.exit_fd.is_some() { wait } else { wait.min(Duration::from_millis(1)) }).map_err(io)?;
            if ready.stdin {
                written += pipes.write_stdin(&input[written..]).map_err(io)?;
            }
            if ready.stdout && self.drain(&mut pipes.stdout, true).map_err(io)? {
                return Ok(Some(Exit::OutputLimit));
            }
            if ready.stderr {
                self.drain(&mut pipes.stderr, false).map_err(io)?;
            }
            let exited = ready.exited || (pipes.exit_fd.is_none() && child.try_wait().map_err(io)?.is_some());
            if exited {
                let over = self.drain(&mut pipes.stdout, true).map_err(io)?;
                self.drain(&mut pipes.stderr, false).map_err(io)?;
                return Ok(over.then_some(Exit::OutputLimit));
            }
            if Instant::now() >= deadline {
                return Ok(Some(Exit::TimedOut));
            }
        }
    }

    /// Reads what a pipe holds now; true when stdout passed the cap. Of stderr the end is kept
    /// (trimmed to the cap once it holds twice as much).
    fn drain<R: Read>(&mut self, pipe: &mut Option<R>, is_stdout: bool) -> std::io::Result<bool> {
        let Some(reader) = pipe else { return Ok(false) };
        let cap = self.limits.output_cap;
        loop {
            match reader.read(&mut self.chunk) {
                Ok(0) => {
                    *pipe = None;
                    return Ok(false);
                }
                Ok(n) if is_stdout => {
                    let keep = n.min(cap.saturating_sub(self.stdout.len()));
                    self.stdout.extend_from_slice(&self.chunk[..keep]);
                    if keep < n {
                        return Ok(true);
                    }
                }
                Ok(n) => {
                    self.stderr.extend_from_slice(&self.chunk[..n]);
                    if self.stderr.len() > 2 * cap.max(1 << 16) {
                        self.keep_stderr_end(cap);
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Drops the start of stderr so that its last `cap` bytes remain.
    fn keep_stderr_end(&mut self, cap: usize) {
        let cut = self.stderr.len().saturating_sub(cap);
        self.stderr.drain(..cut);
        self.stderr_cut += cut as u64;
    }

    /// Empties the working directory if the last program left files in it.
    fn clear_dir(&self) -> Result<()> {
        let path = self.dir.path();
        for entry in std::fs::read_dir(path).map_err(|e| Error::io(path, e))?.flatten() {
            let p = entry.path();
            let removed = if p.is_dir() && !p.is_symlink() { std::fs::remove_dir_all(&p) } else { std::fs::remove_file(&p) };
            removed.map_err(|e| Error::io(&p, e))?;
        }
        Ok(())
    }
}

/// The child's pipes (non-blocking) and, where the kernel has it, a pidfd that signals its exit.
struct Pipes {
    stdin: Option<std::process::ChildStdin>,
    stdout: Option<std::process::ChildStdout>,
    stderr: Option<std::process::ChildStderr>,
    exit_fd: Option<OwnedFd>,
}

struct Ready {
    stdin: bool,
    stdout: bool,
    stderr: bool,
    exited: bool,
}

impl Pipes {
    fn take(child: &mut Child) -> std::io::Result<Self> {
        let pipes = Pipes {
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
            exit_fd: pidfd_open(Pid::from_child(child), PidfdFlags::empty()).ok(),
        };
        for fd in [pipes.stdin.as_ref().map(|p| p.as_fd()), pipes.stdout.as_ref().map(|p| p.as_fd()), pipes.stderr.as_ref().map(|p| p.as_fd())].into_iter().flatten() {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(pipes)
    }

    /// Waits up to `wait` for any pipe or the exit fd to be ready.
    fn poll(&self, wait: Duration) -> std::io::Result<Ready> {
        let (ins, outs) = (PollFlags::OUT, PollFlags::IN);
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(4);
        let mut slots = [usize::MAX; 4];
        let entries = [
            self.stdin.as_ref().map(|p| (p.as_fd(), ins)),
            self.stdout.as_ref().map(|p| (p.as_fd(), outs)),
            self.stderr.as_ref().map(|p| (p.as_fd(), outs)),
            self.exit_fd.as_ref().map(|p| (p.as_fd(), outs)),
        ];
        for (slot, entry) in entries.into_iter().enumerate() {
            if let Some((fd, flags)) = entry {
                slots[slot] = fds.len();
                fds.push(PollFd::from_borrowed_fd(fd, flags));
            }
        }
        let timeout = Timespec { tv_sec: wait.as_secs() as i64, tv_nsec: wait.subsec_nanos() as i64 };
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        let hit = |slot: usize| slots[slot] != usize::MAX && !fds[slots[slot]].revents().is_empty();
        Ok(Ready { stdin: hit(0), stdout: hit(1), stderr: hit(2), exited: hit(3) })
    }

    /// Writes what the pipe takes now; closes stdin when the program stopped reading it.
    fn write_stdin(&mut self, rest: &[u8]) -> std::io::Result<usize> {
        let Some(stdin) = self.stdin.as_mut() else { return Ok(rest.len()) };
        match stdin.write(rest) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => Ok(0),
            Err(_) => {
                // Broken pipe: the program exited or closed stdin; the rest is not wanted.
                self.stdin = None;
                Ok(rest.len())
            }
        }
    }
}
