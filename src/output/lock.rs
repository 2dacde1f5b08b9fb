//! Exclusive lock on an output directory or file, so that two runs never write into one.
//!
//! The lock is an advisory `flock` (fs4) on `DIR/.sprague.lock`, or on `FILE.lock` beside an
//! output file, held for the life of the [`DirLock`] or [`FileLock`]. The kernel drops it
//! when the holder exits or is killed, so a stale lock from a killed run is taken over by the
//! next run. The file records the holder (pid, command, start time) for the message that
//! refuses a second run.

use crate::error::{Error, Result};
use fs4::FileExt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Name of the lock file inside a locked directory.
pub const LOCK_FILE: &str = ".sprague.lock";

/// A held lock on an output directory; released when dropped.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    dir: PathBuf,
}

impl DirLock {
    /// Creates `dir` if needed and locks it for this run (`command` names the run). Another
    /// live holder makes this fail with a usage error naming it.
    pub fn acquire(dir: &Path, command: &str) -> Result<DirLock> {
        super::atomic::create_dir(dir)?;
        let file = take(&dir.join(LOCK_FILE), dir, command)?;
        Ok(DirLock { _file: file, dir: dir.to_path_buf() })
    }

    /// The locked directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Suffix of the values a resumable run writing FILE keeps beside it (`FILE.values.bin`).
pub const VALUES_BIN: &str = ".values.bin";
/// Suffix of that run's checkpoint (`FILE.checkpoint.json`).
pub const CHECKPOINT_JSON: &str = ".checkpoint.json";
/// Suffix of the lock of FILE.
pub const LOCK: &str = ".lock";
/// The files a run writing FILE may write beside it, by suffix: a run that writes one of them
/// as its own output locks FILE too ([`FileLock::acquire_with_owner`]).
pub const COMPANIONS: [&str; 3] = [VALUES_BIN, CHECKPOINT_JSON, LOCK];

/// A held lock on an output file `FILE`: `FILE.lock` beside it, deleted when dropped.
#[derive(Debug)]
pub struct FileLock {
    /// The locked file (none until it is locked).
    file: Option<File>,
    path: PathBuf,
    /// Directories made for FILE, deepest first: deleted when dropped if still empty.
    made: Vec<PathBuf>,
}

impl FileLock {
    /// Creates the directory of output file `out` if needed (deleted again if nothing is
    /// written into it) and locks `out` for this run (`command` names the run). Another live
    /// holder makes this fail with a usage error naming `out` and it.
    /// The lock is named from the file `out` names ([`super::atomic::resolve`]), so that two
    /// names of one file (a symbolic link, `a/../b`) take one lock.
    pub fn acquire(out: &Path, command: &str) -> Result<FileLock> {
        check_name_fits(out, &[""])?;
        let real = super::atomic::resolve(out)?;
        let parent = real.parent().filter(|p| !p.as_os_str().is_empty());
        let made = parent.map(super::atomic::create_dir).transpose()?.unwrap_or_default();
        let mut path = super::atomic::resolve(&real)?.into_os_string();
        path.push(LOCK);
        let mut lock = FileLock { file: None, path: path.into(), made };
        loop {
            let file = take(&lock.path, out, command)?;
            // A holder that just finished may have deleted the lock file we opened: lock the
            // file the path names now.
            let same = |now: std::fs::Metadata| file.metadata().is_ok_and(|held| (held.dev(), held.ino()) == (now.dev(), now.ino()));
            if std::fs::metadata(&lock.path).is_ok_and(same) {
                lock.file = Some(file);
                return Ok(lock);
            }
        }
    }
}

impl FileLock {
    /// [`FileLock::acquire`] of `out` and, when `out` is named as a companion of another file
    /// (`X.values.bin`, `X.checkpoint.json`, `X.lock`), first of that file X: a run writing X
    /// writes its companions, so the two runs must not overlap.
    pub fn acquire_with_owner(out: &Path, command: &str) -> Result<Vec<FileLock>> {
        let text = out.to_string_lossy();
        let owner = COMPANIONS.iter().find_map(|suffix| text.strip_suffix(suffix).filter(|x| !x.is_empty() && !x.ends_with('/')));
        let owner = owner.map(|owner| FileLock::acquire(Path::new(owner), command)).transpose()?;
        // Dropped in order: `out`'s lock first, then the owner's, which deletes the directories
        // made for them once empty.
        Ok(std::iter::once(FileLock::acquire(out, command)?).chain(owner).collect())
    }
}

/// Longest name a file system takes for one entry (`NAME_MAX` of Linux and the BSDs).
pub const NAME_MAX: usize = 255;

/// Refuses, before any work, an output file `out` whose companions (`out` + each of
/// `suffixes`) or their temporary files ([`super::atomic::write_atomic`]) would have a name
/// longer than [`NAME_MAX`] bytes: the run would fail after its work, on the first of them.
pub fn check_name_fits(out: &Path, suffixes: &[&str]) -> Result<()> {
    let Some(name) = out.file_name() else { return Ok(()) };
    let longest = suffixes.iter().map(|s| s.len()).max().unwrap_or(0);
    let with_temp = super::atomic::temp_name_len(name.len() + longest);
    if with_temp <= NAME_MAX {
        return Ok(());
    }
    let suffix = suffixes.iter().max_by_key(|s| s.len()).unwrap_or(&"");
    Err(Error::Usage(format!(
        "{}: the name is {} bytes long, too long for the files written beside it (the temporary file of {}{suffix} needs {with_temp} bytes, over the {NAME_MAX} a file name may have): choose a shorter --out",
        out.display(),
        name.len(),
        name.to_string_lossy(),
    )))
}

impl Drop for FileLock {
    /// Deletes the lock file while still holding it (so that no other run locks a deleted
    /// file), then the directories made for FILE that are still empty.
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let _ = std::fs::remove_file(&self.path);
            let _ = FileExt::unlock(&file);
        }
        for dir in &self.made {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
}

/// Whether a live run holds the lock at `path` (one a killed run left is not held: the kernel
/// dropped it). Asked by taking a shared lock for an instant, which a run starting in that
/// instant would find taken.
pub fn is_held(path: &Path) -> bool {
    open_lock(path).is_some_and(|file| held(&file))
}

/// The lock file at `path` opened for reading, never through a symbolic link.
fn open_lock(path: &Path) -> Option<File> {
    OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW).open(path).ok()
}

/// Whether a live run holds the lock of the opened lock `file` ([`is_held`]).
fn held(file: &File) -> bool {
    match FileExt::try_lock_shared(file) {
        Ok(()) => {
            let _ = FileExt::unlock(file);
            false
        }
        Err(fs4::TryLockError::WouldBlock) => true,
        Err(fs4::TryLockError::Error(_)) => false,
    }
}

/// Refuses, before any work and creating nothing, directory `dir` while another run holds its
/// lock (the error [`DirLock::acquire`] would give later).
pub fn refuse_held(dir: &Path) -> Result<()> {
    match open_lock(&dir.join(LOCK_FILE)) {
        Some(mut file) if held(&file) => Err(in_use(dir, &mut file)),
        _ => Ok(()),
    }
}

/// The error for `what`, whose lock `file` another run holds, naming the holder it records.
fn in_use(what: &Path, file: &mut File) -> Error {
    let mut holder = String::new();
    let _ = file.read_to_string(&mut holder);
    let holder = holder.trim().replace('\n', ", ");
    Error::Usage(format!(
        "{} is in use by another run ({}); wait for it to finish or choose another --out",
        what.display(),
        if holder.is_empty() { "holder unknown".to_string() } else { holder }
    ))
}

/// The command line the lock at `path` records of the run that took it last.
pub fn recorded_command(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| line.strip_prefix("command ")).map(str::to_string)
}

/// Opens and locks `path`, the lock of `what`, and records this run (`command`) in it.
/// A symbolic link standing as the lock is refused, never followed (writing the holder into
/// it would overwrite the file it names).
fn take(path: &Path, what: &Path, command: &str) -> Result<File> {
    let opened = OpenOptions::new().read(true).write(true).create(true).truncate(false).custom_flags(libc::O_NOFOLLOW).open(path);
    let mut file = match opened {
        Ok(file) => file,
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            return Err(Error::Usage(format!(
                "{} is a symbolic link, not a lock sprague made (it is never written through): delete it, or choose another --out",
                path.display()
            )));
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    match FileExt::try_lock(&file) {
        Ok(()) => {}
        Err(fs4::TryLockError::WouldBlock) => return Err(in_use(what, &mut file)),
        Err(fs4::TryLockError::Error(e)) => return Err(Error::io(path, e)),
    }
    let started = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let info = format!("pid {}\ncommand {command}\nstarted {started}\n", std::process::id());
    let write = |f: &mut File| -> std::io::Result<()> {
        f.set_len(0)?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(info.as_bytes())
    };
    write(&mut file).map_err(|e| Error::io(path, e))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn second_holder_is_refused_with_the_first_named_then_admitted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let first = DirLock::acquire(&dir, "sprague stress wall").unwrap();
        let err = DirLock::acquire(&dir, "sprague verify wall").unwrap_err().to_string();
        assert!(err.contains("is in use by another run"), "{err}");
        assert!(err.contains(&format!("pid {}", std::process::id())) && err.contains("command sprague stress wall"), "{err}");
        assert!(err.contains("started 20"), "{err}");
        drop(first);
        // Another test of this process may be spawning a child right now: between its fork and
        // exec the child holds a copy of every descriptor, this lock's too, for a moment.
        let again = (0..200)
            .find_map(|_| DirLock::acquire(&dir, "sprague verify wall").ok().or_else(|| {
                std::thread::sleep(std::time::Duration::from_millis(10));
                None
            }))
            .expect("the lock is free once its holder is dropped");
        assert_eq!(again.dir(), dir);
    }

    #[test]
    fn a_lock_is_held_while_its_run_lives_and_records_its_command() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let lock = DirLock::acquire(&dir, "sprague prove wall-empty --max 9").unwrap();
        assert!(is_held(&dir.join(LOCK_FILE)));
        assert_eq!(recorded_command(&dir.join(LOCK_FILE)).as_deref(), Some("sprague prove wall-empty --max 9"));
        drop(lock);
        // A lock file no run holds (as a killed run leaves it), and none at all.
        let left = tmp.path().join("left.lock");
        fs::write(&left, "pid 1\ncommand sprague verify nim\n").unwrap();
        assert!(!is_held(&left) && !is_held(&tmp.path().join("none")));
        assert_eq!(recorded_command(&left).as_deref(), Some("sprague verify nim"));
    }

    #[test]
    fn a_lock_left_by_a_killed_run_is_taken_over() {
        let tmp = tempfile::tempdir().unwrap();
        // A child process takes the lock and is killed while holding it.
        let lock = tmp.path().join(LOCK_FILE);
        fs::write(&lock, "pid 1\ncommand killed\nstarted 2020-01-01T00:00:00Z\n").unwrap();
        let mut child = std::process::Command::new("flock").arg("-o").arg(&lock).arg("sleep").arg("30").spawn();
        if let Ok(child) = child.as_mut() {
            std::thread::sleep(std::time::Duration::from_millis(200));
            assert!(DirLock::acquire(tmp.path(), "second").is_err(), "the child holds the lock");
            child.kill().unwrap();
            child.wait().unwrap();
        }
        let taken = DirLock::acquire(tmp.path(), "after the kill").unwrap();
        drop(taken);
        assert!(fs::read_to_string(&lock).unwrap().contains("command after the kill"));
    }

    #[test]
    fn an_output_file_is_locked_beside_it_and_the_lock_deleted_after() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("g.csv");
        let first = FileLock::acquire(&out, "sprague table octal 0.6").unwrap();
        let err = FileLock::acquire(&out, "sprague table octal 0.7").unwrap_err().to_string();
        assert!(err.starts_with(&format!("{} is in use by another run", out.display())), "{err}");
        assert!(err.contains("command sprague table octal 0.6"), "{err}");
        drop(first);
        assert!(!tmp.path().join("g.csv.lock").exists(), "no lock file left behind");
        let again = (0..200)
            .find_map(|_| FileLock::acquire(&out, "again").ok().or_else(|| {
                std::thread::sleep(std::time::Duration::from_millis(10));
                None
            }));
        assert!(again.is_some(), "the lock is free once its holder is dropped");
        // A lock file left by a killed run (no holder) is taken over.
        drop(again);
        fs::write(tmp.path().join("g.csv.lock"), "pid 1\ncommand killed\n").unwrap();
        assert!(FileLock::acquire(&out, "after the kill").is_ok());
        // Directories made for the file and left empty are deleted with the lock.
        let deep = tmp.path().join("a/b/g.csv");
        drop(FileLock::acquire(&deep, "deep").unwrap());
        assert!(!tmp.path().join("a").exists());
        let kept = FileLock::acquire(&deep, "deep").unwrap();
        fs::write(&deep, "").unwrap();
        drop(kept);
        assert!(deep.exists() && !tmp.path().join("a/b/g.csv.lock").exists());
    }

    #[test]
    fn two_names_of_one_file_take_one_lock() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("x.csv");
        std::os::unix::fs::symlink("x.csv", tmp.path().join("lk.csv")).unwrap();
        fs::create_dir(tmp.path().join("sub")).unwrap();
        let first = FileLock::acquire(&out, "first").unwrap();
        for other in ["lk.csv", "sub/../x.csv"] {
            let err = FileLock::acquire(&tmp.path().join(other), "second").unwrap_err().to_string();
            assert!(err.starts_with(&format!("{} is in use by another run", tmp.path().join(other).display())), "{err}");
        }
        drop(first);
        assert!(!tmp.path().join("x.csv.lock").exists() && !tmp.path().join("lk.csv.lock").exists());
    }

    #[test]
    fn a_lock_that_is_a_symbolic_link_is_refused_not_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let precious = tmp.path().join("precious.txt");
        fs::write(&precious, "keep").unwrap();
        let dir = tmp.path().join("sl");
        fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink("../precious.txt", dir.join(LOCK_FILE)).unwrap();
        let err = DirLock::acquire(&dir, "verify").unwrap_err().to_string();
        assert!(err.contains(".sprague.lock is a symbolic link, not a lock sprague made"), "{err}");
        std::os::unix::fs::symlink("precious.txt", tmp.path().join("g.csv.lock")).unwrap();
        assert!(FileLock::acquire(&tmp.path().join("g.csv"), "table").is_err());
        std::os::unix::fs::symlink("none", tmp.path().join("h.csv.lock")).unwrap();
        assert!(FileLock::acquire(&tmp.path().join("h.csv"), "table").is_err(), "a dangling link is not followed either");
        assert!(!tmp.path().join("none").exists());
        assert_eq!(fs::read_to_string(&precious).unwrap(), "keep");
    }

    #[test]
    fn names_too_long_for_their_companions_are_refused() {
        let name = "n".repeat(NAME_MAX - 32);
        check_name_fits(Path::new(&name), &COMPANIONS).unwrap();
        let name = "n".repeat(NAME_MAX - 31);
        let err = check_name_fits(Path::new(&name), &COMPANIONS).unwrap_err().to_string();
        assert!(err.contains("the name is 224 bytes long") && err.contains(".checkpoint.json needs 256 bytes"), "{err}");
        check_name_fits(Path::new(&name), &[""]).unwrap();
    }

    #[test]
    fn a_companion_of_a_locked_file_is_locked_with_it() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("cc.csv");
        let first = FileLock::acquire_with_owner(&out, "sprague table octal 0.6").unwrap();
        for companion in ["cc.csv.values.bin", "cc.csv.checkpoint.json", "cc.csv.lock"] {
            let err = FileLock::acquire_with_owner(&tmp.path().join(companion), "second").unwrap_err().to_string();
            assert!(err.starts_with(&format!("{} is in use by another run", out.display())), "{err}");
        }
        drop(first);
        let locks = FileLock::acquire_with_owner(&tmp.path().join("cc.csv.values.bin"), "alone").unwrap();
        assert_eq!(locks.len(), 2);
        assert!(FileLock::acquire_with_owner(&out, "third").is_err(), "the owner is locked by the companion's run");
    }
}
