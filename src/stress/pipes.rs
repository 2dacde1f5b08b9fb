//! The pipes of one run of the program under test: non-blocking stdin, stdout and stderr and,
//! where the kernel has it, a pidfd that signals the program's exit, polled together.

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{pidfd_open, Pid, PidfdFlags};
use std::io::{ErrorKind, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::Child;
use std::time::Duration;

/// The child's pipes (non-blocking) and, where the kernel has it, a pidfd that signals its exit.
pub(super) struct Pipes {
    pub stdin: Option<std::process::ChildStdin>,
    pub stdout: Option<std::process::ChildStdout>,
    pub stderr: Option<std::process::ChildStderr>,
    pub exit_fd: Option<OwnedFd>,
}

pub(super) struct Ready {
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
    pub exited: bool,
}

impl Pipes {
    pub fn take(child: &mut Child) -> std::io::Result<Self> {
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
    pub fn poll(&self, wait: Duration) -> std::io::Result<Ready> {
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
    pub fn write_stdin(&mut self, rest: &[u8]) -> std::io::Result<usize> {
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
