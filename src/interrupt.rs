//! What sprague leaves running or on disk — the process groups of programs it started, its temporary directories — registered, so that SIGINT and SIGTERM end them before the process dies.
//!
//! The programs sprague runs (game programs, solutions under test) live in process groups of
//! their own, out of reach of a terminal's Ctrl-C, and in temporary directories. They are
//! started through [`spawn`] and [`temp_dir`], whose guards end them when dropped; after
//! [`install`], the signal handler wakes a thread that kills every live group, removes every
//! live directory and lets the signal end the process as it would have (exit status 130 or
//! 143 in a shell; the checkpoints written so far stay).

use rustix::process::{kill_process_group, Pid, Signal};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};

/// Process group ids and temporary directories alive now.
struct Live {
    groups: BTreeSet<i32>,
    dirs: BTreeSet<PathBuf>,
}

static LIVE: Mutex<Live> = Mutex::new(Live { groups: BTreeSet::new(), dirs: BTreeSet::new() });
/// Held (shared) while a program is started and registered; taken (exclusive, never given
/// back) by the cleanup, so that no program starts unregistered once it began.
static STARTING: RwLock<()> = RwLock::new(());

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A started program's process group (the command must set `process_group(0)`): killed when
/// dropped, or by the signal handler.
pub struct Group(i32);

/// Spawns `command` (which puts the program in a process group of its own) and registers
/// its group.
pub fn spawn(command: &mut Command) -> std::io::Result<(Child, Group)> {
    let _starting = STARTING.read().unwrap_or_else(PoisonError::into_inner);
    let child = command.spawn()?;
    let id = child.id() as i32;
    live().groups.insert(id);
    Ok((child, Group(id)))
}

impl Drop for Group {
    /// Kills the group (the program and the children it left), before the program is reaped.
    fn drop(&mut self) {
        if let Some(pid) = Pid::from_raw(self.0) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
        live().groups.remove(&self.0);
    }
}

/// A temporary directory, removed when dropped or by the signal handler.
pub struct TempDir {
    dir: tempfile::TempDir,
}

/// A new temporary directory named `prefix` and a random suffix, in the system's (`TMPDIR`).
pub fn temp_dir(prefix: &str) -> std::io::Result<TempDir> {
    let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
    live().dirs.insert(dir.path().to_path_buf());
    Ok(TempDir { dir })
}

impl TempDir {
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        live().dirs.remove(self.dir.path());
    }
}

/// Kills every live group and removes every live directory; later starts wait forever (the
/// process is about to end).
fn clean_up() {
    std::mem::forget(STARTING.write().unwrap_or_else(PoisonError::into_inner));
    let live = live();
    for &group in &live.groups {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    for dir in &live.dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
    std::mem::forget(live);
}

/// The write end of the pipe the handler writes the signal's number into.
static WAKE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write(2) is async-signal-safe; the descriptor stays open for the process's life.
    unsafe { libc::write(WAKE.load(std::sync::atomic::Ordering::Relaxed), (&byte as *const u8).cast(), 1) };
}

/// Handles SIGINT and SIGTERM: the programs started and the directories made are cleaned up,
/// then the signal ends the process. Called once, at the start of `main`.
pub fn install() -> std::io::Result<()> {
    let (read, write) = rustix::pipe::pipe()?;
    let write = std::os::fd::IntoRawFd::into_raw_fd(write);
    WAKE.store(write, std::sync::atomic::Ordering::Relaxed);
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        let mut byte = [0u8];
        let signal = loop {
            match rustix::io::read(&read, &mut byte) {
                Ok(1) => break libc::c_int::from(byte[0]),
                Err(rustix::io::Errno::INTR) => continue,
                _ => return,
            }
        };
        clean_up();
        // SAFETY: restoring the default action and raising the signal again ends the process
        // as the signal would have without a handler.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
        std::process::exit(128 + signal);
    })?;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only writes one byte to a pipe (async-signal-safe); a signal
        // ignored from the start (`nohup`, a background job) stays ignored.
        unsafe {
            match libc::signal(signal, on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t) {
                libc::SIG_ERR => return Err(std::io::Error::last_os_error()),
                libc::SIG_IGN => _ = libc::signal(signal, libc::SIG_IGN),
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn groups_and_directories_are_registered_while_alive() {
        let dir = temp_dir("sprague-test-").unwrap();
        let path = dir.path().to_path_buf();
        assert!(live().dirs.contains(&path));
        drop(dir);
        assert!(!live().dirs.contains(&path) && !path.exists());
        let (mut child, group) = spawn(Command::new("sleep").arg("30").process_group(0)).unwrap();
        let id = child.id() as i32;
        assert!(live().groups.contains(&id));
        drop(group);
        assert!(!live().groups.contains(&id));
        assert!(!child.wait().unwrap().success(), "killed with its group");
    }
}
