//! What sprague leaves running or on disk — the process groups of programs it started, its temporary directories — registered, so that SIGINT and SIGTERM end them before the process dies.
//!
//! The programs sprague runs (game programs, solutions under test) live in process groups of
//! their own, out of reach of a terminal's Ctrl-C, and in temporary directories. They are
//! started through [`spawn`] and [`temp_dir`], whose guards end them when dropped; after
//! [`install`], the signal handler wakes a thread that kills every live group, removes every
//! live directory and lets the signal end the process as it would have (exit status 130 or
//! 143 in a shell; the checkpoints written so far stay).
//!
//! A program's children that leave its process group (`setsid`, a daemon's double fork) are
//! ended too on Linux: sprague is their subreaper, so they become its children when their
//! parent exits, and [`orphans`] kills and reaps those of each program when its group ends
//! (told apart by the `SPRAGUE_RUN` variable in their environment), and every one left when
//! sprague ends ([`finish`]) or is stopped.

use rustix::process::{kill_process_group, Pid, Signal};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};

mod orphans;
mod stale;

/// The environment variable that marks every process a started program's tree holds (its
/// value names the program's start), so that those that left its process group are found.
pub const RUN_VARIABLE: &str = "SPRAGUE_RUN";

/// Process group ids and temporary directories alive now.
struct Live {
    groups: BTreeSet<i32>,
    /// The groups of trusted programs (game programs, a problem's reference and helpers),
    /// which a gentle stop leaves running.
    trusted: BTreeSet<i32>,
    dirs: BTreeSet<PathBuf>,
}

static LIVE: Mutex<Live> = Mutex::new(Live { groups: BTreeSet::new(), trusted: BTreeSet::new(), dirs: BTreeSet::new() });
/// Held (shared) while a program is started and registered; taken (exclusive, never given
/// back) by the cleanup, so that no program starts unregistered once it began.
static STARTING: RwLock<()> = RwLock::new(());

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A started program's process group (the command must set `process_group(0)`): killed when
/// dropped, or by the signal handler. Its program stays registered until then, so drop it
/// after reaping the program ([`Group::kill`] first).
pub struct Group {
    id: i32,
    /// The value of [`RUN_VARIABLE`] in the program's environment.
    token: String,
}

/// Spawns `command` (which puts the program in a process group of its own) and registers
/// its group.
pub fn spawn(command: &mut Command) -> std::io::Result<(Child, Group)> {
    start(command, false)
}

/// [`spawn`] for a trusted program whose answers the command still needs when a signal stops
/// it gently (a game program: the failures found are confirmed with it before they are
/// saved; a problem's reference, generator, validator or checker: the case in flight is
/// answered, not an error): the first signal leaves it running, a second one or the command's
/// end kills it.
pub fn spawn_trusted(command: &mut Command) -> std::io::Result<(Child, Group)> {
    start(command, true)
}

fn start(command: &mut Command, trusted: bool) -> std::io::Result<(Child, Group)> {
    static STARTS: AtomicU64 = AtomicU64::new(0);
    orphans::adopt();
    let token = format!("{}.{}", std::process::id(), STARTS.fetch_add(1, Ordering::Relaxed));
    command.env(RUN_VARIABLE, &token);
    let _starting = STARTING.read().unwrap_or_else(PoisonError::into_inner);
    let child = command.spawn()?;
    let id = child.id() as i32;
    let mut live = live();
    live.groups.insert(id);
    if trusted {
        live.trusted.insert(id);
    }
    Ok((child, Group { id, token }))
}

impl Group {
    /// Kills the group (the program and the children it left in it).
    pub fn kill(&self) {
        if let Some(pid) = Pid::from_raw(self.id) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
}

impl Drop for Group {
    /// Kills the group, then the program's children that left it and were handed to sprague
    /// (all of them once the program has been reaped).
    fn drop(&mut self) {
        self.kill();
        let mut live = live();
        live.groups.remove(&self.id);
        live.trusted.remove(&self.id);
        drop(live);
        orphans::sweep(Some((&self.token, self.id)));
    }
}

/// Kills every process left by the programs sprague ran that is still running (those whose
/// environment lost [`RUN_VARIABLE`]); called when a command ends.
pub fn finish() {
    orphans::sweep(None);
}

/// A temporary directory, removed when dropped or by the signal handler.
pub struct TempDir {
    dir: tempfile::TempDir,
}

/// A new temporary directory named `prefix`, this process's pid and a random suffix, in the
/// system's (`TMPDIR`); the first one of each prefix first removes those that processes killed
/// outright (SIGKILL) left a day ago or more ([`stale::sweep`]).
pub fn temp_dir(prefix: &str) -> std::io::Result<TempDir> {
    static SWEPT: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    if SWEPT.lock().unwrap_or_else(PoisonError::into_inner).insert(prefix.to_string()) {
        stale::sweep(&std::env::temp_dir(), prefix, stale::STALE_AGE);
    }
    let dir = tempfile::Builder::new().prefix(&stale::prefix_of_this_process(prefix)).tempdir()?;
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
    orphans::kill_all_but(&live.groups);
    std::mem::forget(live);
}

/// The signal that asked a command under [`stop_gently`] to stop (0: none).
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);
/// Live [`Gentle`] guards.
static GENTLE: AtomicUsize = AtomicUsize::new(0);

/// While alive, the first SIGINT or SIGTERM does not end the process: it sets [`stopping`] and
/// kills the programs running but the trusted ones ([`spawn_trusted`]; the verdicts of those
/// killed the command then ignores), and the command
/// stops starting programs, reports what it found and ends with the signal's exit status
/// (128 + its number); a second one ends the process at once.
pub struct Gentle(());

/// A [`Gentle`] guard, for a command that saves what it found when stopped.
pub fn stop_gently() -> Gentle {
    GENTLE.fetch_add(1, Ordering::SeqCst);
    Gentle(())
}

impl Drop for Gentle {
    fn drop(&mut self) {
        GENTLE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The signal that asked a [`Gentle`] command to stop, if one did.
pub fn stopped_by() -> Option<i32> {
    match STOPPED_BY.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// True once a signal asked a [`Gentle`] command to stop.
pub fn stopping() -> bool {
    stopped_by().is_some()
}

/// The write end of the pipe the handler writes the signal's number into.
static WAKE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write(2) is async-signal-safe; the descriptor stays open for the process's life.
    unsafe { libc::write(WAKE.load(Ordering::Relaxed), (&byte as *const u8).cast(), 1) };
}

/// Handles SIGINT and SIGTERM: the programs started and the directories made are cleaned up,
/// then the signal ends the process (under [`stop_gently`], the second signal does). Called
/// once, at the start of `main`.
pub fn install() -> std::io::Result<()> {
    let (read, write) = rustix::pipe::pipe()?;
    let write = std::os::fd::IntoRawFd::into_raw_fd(write);
    WAKE.store(write, Ordering::Relaxed);
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        let mut byte = [0u8];
        let signal = loop {
            match rustix::io::read(&read, &mut byte) {
                // The first signal to a gentle command asks it to stop; a second ends it.
                Ok(1) if GENTLE.load(Ordering::SeqCst) > 0 && STOPPED_BY.compare_exchange(0, i32::from(byte[0]), Ordering::SeqCst, Ordering::SeqCst).is_ok() => {
                    crate::sys::say("\nsprague: stopping: what was found is saved (again to quit at once)");
                    // The programs under test end now; what they print after the signal is not
                    // judged. A trusted program goes on answering.
                    let live = live();
                    for &group in live.groups.difference(&live.trusted) {
                        if let Some(pid) = Pid::from_raw(group) {
                            let _ = kill_process_group(pid, Signal::KILL);
                        }
                    }
                }
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
        assert!(live().groups.contains(&id) && !live().trusted.contains(&id));
        group.kill();
        assert!(!child.wait().unwrap().success(), "killed with its group");
        drop(group);
        assert!(!live().groups.contains(&id));
        let (mut child, group) = spawn_trusted(Command::new("sleep").arg("30").process_group(0)).unwrap();
        let id = child.id() as i32;
        assert!(live().groups.contains(&id) && live().trusted.contains(&id));
        group.kill();
        assert!(!child.wait().unwrap().success(), "killed with its group");
        drop(group);
        assert!(!live().groups.contains(&id) && !live().trusted.contains(&id));
    }
}
