//! Running the program under test once: stdin fed, stdout and stderr captured up to a cap, a
//! CPU-time limit (the program and its children, as judges count it; wall-clock time only as
//! a safety cap) that kills the whole process group and the children that left it, a private
//! working directory.

use super::command::CommandLine;
use super::cpu;
use super::pipes::Pipes;
use crate::error::{Error, Result};
use crate::interrupt::{self, Group};
use std::io::{ErrorKind, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Resource limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user and system, of the program and its children) past which a run is a
    /// time-limit failure; the program is killed with its process group once it is past it,
    /// or once its wall-clock time passes [`Limits::wall_cap`] (a program waiting for nothing).
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

impl Limits {
    /// The wall-clock cap of a run: 3 time limits, at least the limit and 5 s (a loaded
    /// machine gives a run a fraction of a core; the cap only ends programs that wait).
    pub fn wall_cap(&self) -> Duration {
        (self.timeout * 3).max(self.timeout + Duration::from_secs(5))
    }
}

/// How often the CPU time of a run is read once its wall-clock time has passed the limit.
const CPU_CHECK: Duration = Duration::from_millis(10);

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The program exited by itself with this status code.
    Code(i32),
    /// The program was ended by this signal (a crash, or killed from outside).
    Signal(i32),
    /// The program used more CPU time than the limit (or ran past the wall-clock cap) and
    /// was killed with its process group.
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
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// CPU time of the program and the children it waited for (user and system).
    pub cpu: Duration,
    /// A first Ctrl-C ([`interrupt::stopping`]) had come when the end of a program under test
    /// was seen: its signal's kill may have ended it, so the run says nothing (never set for a
    /// trusted program, which that signal leaves running).
    pub cut_by_signal: bool,
}

/// Runs one command again and again, each time in the same private, emptied directory.
pub struct Runner {
    command: CommandLine,
    limits: Limits,
    dir: interrupt::TempDir,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    stderr_cut: u64,
    /// CPU time of the process group when last read during the run.
    group_cpu: Duration,
    chunk: Box<[u8]>,
    /// Started with [`interrupt::spawn_trusted`]: a first Ctrl-C lets the run finish.
    trusted: bool,
}

impl Runner {
    /// A runner of the program under test, killed at the first Ctrl-C.
    pub fn new(command: CommandLine, limits: Limits) -> Result<Self> {
        let dir = interrupt::temp_dir("sprague-stress-").map_err(|e| Error::io("temporary directory", e))?;
        Ok(Runner { command, limits, dir, stdout: Vec::new(), stderr: Vec::new(), stderr_cut: 0, group_cpu: Duration::ZERO, chunk: vec![0; 1 << 16].into(), trusted: false })
    }

    /// A runner of a trusted helper (a reference, generator, validator or checker), whose run
    /// a first Ctrl-C lets finish, so that the case in flight still gets its answer.
    pub fn trusted(command: CommandLine, limits: Limits) -> Result<Self> {
        Ok(Runner { trusted: true, ..Runner::new(command, limits)? })
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
        self.group_cpu = Duration::ZERO;
        let started = Instant::now();
        let (mut child, group) = self.spawn()?;
        let extra = meanwhile();
        let exit = self.communicate(&mut child, input, started);
        // The signal is marked before its kill: a program seen ending before the mark ended by
        // itself.
        let cut_by_signal = !self.trusted && interrupt::stopping();
        // Children left behind (or everything, on a time limit) go with the process group;
        // those that left it, once the program is reaped (its group unregistered only then).
        group.kill();
        let reaped = cpu::reap(child.id());
        drop(group);
        let (status, cpu) = reaped.map_err(|e| Error::io("program under test", e))?;
        // Children killed with the group were never waited for: their time is in the last read.
        let cpu = cpu.max(self.group_cpu);
        let via_shell = self.command.via_shell();
        let exit = exit?.unwrap_or_else(|| match (status.code(), status.signal()) {
            // Over the limit however it ended (the kernel's CPU limit sends SIGXCPU or SIGKILL).
            _ if cpu > self.limits.timeout => Exit::TimedOut,
            // `sh -c` reports a command killed by signal n as status 128 + n.
            (Some(code @ 129..=192), _) if via_shell => Exit::Signal(code - 128),
            (Some(code), _) => Exit::Code(code),
            (None, Some(sig)) => Exit::Signal(sig),
            (None, None) => Exit::Code(-1),
        });
        self.keep_stderr_end(self.limits.output_cap);
        let (stdout, stderr, stderr_cut, elapsed) = (&self.stdout[..], &self.stderr[..], self.stderr_cut, started.elapsed());
        let out = RunOutput { exit, stdout, stderr, stderr_cut, elapsed, cpu, cut_by_signal };
        Ok((out, extra))
    }

    fn spawn(&self) -> Result<(Child, Group)> {
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
        let spawn = if self.trusted { interrupt::spawn_trusted } else { interrupt::spawn };
        let (child, group) = spawn(&mut cmd).map_err(|e| Error::Usage(format!("cannot start {}: {e}", self.command.display())))?;
        cpu::limit(child.id(), self.limits.timeout);
        Ok((child, group))
    }

    /// Feeds stdin and drains stdout/stderr until the program exits. `Some(exit)` when the
    /// run was cut short (time or output limit), `None` when the program ended by itself.
    fn communicate(&mut self, child: &mut Child, input: &[u8], started: Instant) -> Result<Option<Exit>> {
        let io = |e: std::io::Error| Error::io("program under test", e);
        let mut pipes = Pipes::take(child).map_err(io)?;
        let (limit, pid) = (started + self.limits.timeout, child.id());
        let cap = started + self.limits.wall_cap();
        let (mut written, mut next_check) = (0, limit);
        loop {
            if written == input.len() {
                pipes.stdin = None;
            }
            let now = Instant::now();
            // Past the limit in wall-clock time, the CPU time is read every CPU_CHECK.
            let wait = next_check.min(cap).saturating_duration_since(now);
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
            let exited = ready.exited || (pipes.exit_fd.is_none() && cpu::exited(pid).map_err(io)?);
            if exited {
                let over = self.drain(&mut pipes.stdout, true).map_err(io)?;
                self.drain(&mut pipes.stderr, false).map_err(io)?;
                return Ok(over.then_some(Exit::OutputLimit));
            }
            let now = Instant::now();
            if now >= next_check {
                next_check = now + CPU_CHECK;
                self.group_cpu = cpu::running(pid);
                if now >= cap || self.group_cpu > self.limits.timeout {
                    return Ok(Some(Exit::TimedOut));
                }
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
                    if self.stderr.len() > cap.max(1 << 16).saturating_mul(2) {
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
