//! Atomic file writes (temp file in the same directory, fsync, rename, fsync of the directory) and file digests.

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Writes `path` atomically: readers see the old file or the complete new one, never a part.
/// A symbolic link is followed (the file it names is replaced, the link stays); a path that is
/// not a regular file (a device such as /dev/null, a FIFO, /dev/stdout) is written directly, in
/// place, as a stream: it is never replaced by a file.
pub fn write_atomic<F>(path: &Path, fill: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> Result<()>,
{
    match target(path)? {
        Target::Stream => write_stream(path, fill),
        Target::File(file) => replace_file(&file, path, fill),
    }
}

/// True when `path` exists and is not a regular file (after symbolic links): a device, a FIFO,
/// /dev/stdout. [`write_atomic`] writes it in place; nothing can be kept beside it.
pub fn is_stream(path: &Path) -> bool {
    matches!(target(path), Ok(Target::Stream))
}

/// The file `path` names: the end of its symbolic links, in the canonical path of its
/// directory when that exists (a stream, as [`is_stream`] says, is `path` itself). Two names
/// of one file resolve alike; output locks are named from it.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let file = match target(path)? {
        Target::File(file) => file,
        Target::Stream => return Ok(path.to_path_buf()),
    };
    let Some(name) = file.file_name().filter(|n| *n != "..") else { return Ok(file) };
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok(fs::canonicalize(dir).map_or_else(|_| file.clone(), |dir| dir.join(name)))
}

/// `path` absolute with its links resolved as far as it exists, the rest appended as written:
/// where a write through it lands, so that `link/failures`, with `link` a link to `out`, lies
/// in `out`, even before either is made.
pub fn resolved_dir(path: &Path) -> Result<PathBuf> {
    let absolute = std::path::absolute(path).map_err(|e| Error::io(path, e))?;
    let existing = absolute.ancestors().find(|a| a.exists()).unwrap_or(&absolute);
    let rest = absolute.strip_prefix(existing).unwrap_or(Path::new(""));
    Ok(existing.canonicalize().map_err(|e| Error::io(existing, e))?.join(rest))
}

/// Where [`write_atomic`] writes.
enum Target {
    /// A regular file, existing or not, at the end of any symbolic links.
    File(PathBuf),
    /// Something else that exists: written in place, never replaced.
    Stream,
}

/// Follows `path`'s symbolic links to the file they name. A link into /proc or /dev/fd
/// (/dev/stdout) names an open file of this process: a stream, even when it is a regular file.
fn target(path: &Path) -> Result<Target> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        if current.starts_with("/proc") || current.starts_with("/dev/fd") {
            return Ok(Target::Stream);
        }
        let Ok(meta) = fs::symlink_metadata(&current) else { return Ok(Target::File(current)) };
        if !meta.file_type().is_symlink() {
            let regular = meta.is_file() || meta.is_dir();
            return Ok(if regular { Target::File(current) } else { Target::Stream });
        }
        let link = fs::read_link(&current).map_err(|e| Error::io(&current, e))?;
        let base = current.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        current = base.join(link);
    }
    Err(Error::Usage(format!("cannot write {}: too many levels of symbolic links", path.display())))
}

/// Writes into an existing non-regular file (appending, so that a redirected stdout keeps
/// what came before).
fn write_stream<F>(path: &Path, fill: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> Result<()>,
{
    let file = fs::OpenOptions::new().append(true).open(path).map_err(|e| Error::io(path, e))?;
    let mut writer = BufWriter::new(file);
    fill(&mut writer)?;
    writer.flush().map_err(|e| Error::io(path, e))
}

/// Writes `file` (named `shown` by the user) through a temporary file beside it and a rename.
fn replace_file<F>(file: &Path, shown: &Path, fill: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> Result<()>,
{
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    create_dir(dir)?;
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!("{}{}", temp_prefix(name), std::process::id()));
    let result = (|| {
        let handle = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let mut writer = BufWriter::new(handle);
        fill(&mut writer)?;
        let handle = writer.into_inner().map_err(|e| Error::io(&tmp, e.into_error()))?;
        handle.sync_all().map_err(|e| Error::io(&tmp, e))?;
        fs::rename(&tmp, file).map_err(|e| Error::io(shown, e))?;
        // The rename outlasts a power loss once the directory is on disk too (a file system
        // that cannot sync a directory is no error: the file itself is).
        let _ = File::open(dir).and_then(|d| d.sync_all());
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Creates the output directory `dir` and its parents, returning those it made, deepest
/// first; the error says why in terms of the path (the first ancestor that is a file, or the
/// existing directory that refused a new entry).
pub fn create_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let made = dir.ancestors().take_while(|a| !a.as_os_str().is_empty() && !a.exists()).map(Path::to_path_buf).collect();
    let Err(error) = fs::create_dir_all(dir) else { return Ok(made) };
    Err(refused(dir, Error::io(dir, error).describe()))
}

/// Refuses, before any work, an output directory `dir` that [`create_dir`] could not create
/// or that would not accept a file; creates nothing (a probe file is made and deleted).
pub fn check_dir(dir: &Path) -> Result<()> {
    if broken_link(dir).is_some() {
        return Err(refused(dir, String::new()));
    }
    let existing = existing_ancestor(dir).unwrap_or(Path::new("."));
    if !existing.is_dir() {
        return Err(refused(dir, String::new()));
    }
    match tempfile::Builder::new().prefix(".sprague-probe").tempfile_in(existing) {
        Ok(_) => Ok(()),
        Err(e) if existing == dir => Err(Error::Usage(format!("cannot write into the output directory {}: {}", dir.display(), Error::io(dir, e).describe()))),
        Err(e) => Err(refused(dir, Error::io(existing, e).describe())),
    }
}

/// Why output directory `dir` cannot be made or written (`os`: the system's words), in terms
/// of its first existing ancestor.
fn refused(dir: &Path, os: String) -> Error {
    let why = broken_link(dir).unwrap_or_else(|| match existing_ancestor(dir) {
        Some(a) if a.is_file() => format!("{} is a file, not a directory", a.display()),
        Some(a) if !a.is_dir() => format!("{} is a device, a FIFO or a socket, not a directory", a.display()),
        Some(a) => format!("{} does not accept a new directory here ({os})", a.display()),
        None => os,
    });
    Error::Usage(format!("cannot create the output directory {}: {why}", dir.display()))
}

/// Why `dir` or one of its ancestors is a symbolic link that names nothing (dangling, or
/// looping); `None` when none is.
fn broken_link(dir: &Path) -> Option<String> {
    let link = dir.ancestors().take_while(|a| !a.as_os_str().is_empty()).find(|a| !a.exists() && fs::symlink_metadata(a).is_ok())?;
    let loops = fs::metadata(link).is_err_and(|e| e.raw_os_error() == Some(libc::ELOOP));
    Some(match fs::read_link(link) {
        _ if loops => format!("{} is a symbolic link that loops (each link leads back to another)", link.display()),
        Ok(to) => format!("{} is a dangling symbolic link (to {}, which does not exist)", link.display(), to.display()),
        Err(e) => format!("{} is a symbolic link that names nothing ({e})", link.display()),
    })
}

/// The first of `dir` and its ancestors that exists; `None` when none of a relative path's
/// does (the current directory is then the one that exists).
fn existing_ancestor(dir: &Path) -> Option<&Path> {
    // Without a trailing `/`: `tdir/` does not exist when tdir is a file, tdir does.
    dir.components().as_path().ancestors().take_while(|a| !a.as_os_str().is_empty()).find(|a| a.exists())
}

/// The start of the names of [`write_atomic`]'s temporary files for a file called `name`.
fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp.")
}

/// The longest name in bytes of [`write_atomic`]'s temporary file for a file whose name is
/// `len` bytes long (the prefix and a process id of up to 10 digits).
pub fn temp_name_len(len: usize) -> usize {
    temp_prefix("").len() + len + u32::MAX.to_string().len()
}

/// Deletes every temporary file of [`write_atomic`] in `dir` (`.NAME.tmp.PID`) whose writer is
/// dead: a killed writer leaves them behind. For a directory that this run holds locked.
pub fn remove_stale_temps(dir: &Path) -> Result<()> {
    remove_temps(dir, |_| true)
}

/// Deletes the temporary files of [`write_atomic`] for the files `names` of `dir` whose writer
/// is dead: for the companions of an output file locked by this run, in a directory that
/// other runs may write into.
pub fn remove_stale_temps_of(dir: &Path, names: &[&str]) -> Result<()> {
    remove_temps(dir, |name| names.contains(&name))
}

/// Deletes the temporary files in `dir` of the files named as `wanted` says, by dead writers.
fn remove_temps(dir: &Path, wanted: impl Fn(&str) -> bool) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(());
    };
    let stale = |name: &str| {
        let Some((head, pid)) = name.rsplit_once(".tmp.") else { return false };
        let Some(file) = head.strip_prefix('.').filter(|f| !f.is_empty()) else { return false };
        let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
        digits && pid.parse::<u32>().map_or(true, |pid| !alive(pid)) && wanted(file)
    };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(stale) {
            fs::remove_file(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
        }
    }
    Ok(())
}
/// True when process `pid` is this one or still runs (/proc/PID exists; without /proc, every
/// other writer counts as dead: call it only for files this run holds locked).
fn alive(pid: u32) -> bool {
    pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists()
}

/// Deletes the file at `path`; no error when there is none.
pub fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, e)),
        _ => Ok(()),
    }
}

/// Writes bytes to `path` atomically.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, |w| w.write_all(bytes).map_err(|e| Error::io(path, e)))
}

/// Opens `path` for reading only when it is a regular file: a device (`/dev/zero`, or a link to
/// one), FIFO or socket in place of a file sprague reads (a manifest, checkpoint, values or
/// proof file) is an `InvalidInput` error, never read without end or sized as empty.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        let what = if file.metadata()?.is_dir() { "a directory" } else { "a device, FIFO or socket" };
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("not a regular file ({what})")));
    }
    Ok(file)
}

/// The whole content of the regular file `path` ([`open_regular`]).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// SHA-256 of a file, as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// SHA-256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes as lowercase hex.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_directories_that_cannot_be_made_say_why() {
        let err = create_dir(Path::new("/proc/sprague-test/out")).unwrap_err().to_string();
        assert!(err.contains("/proc does not accept a new directory here"), "{err}");
        let err = create_dir(Path::new("/dev/null")).unwrap_err().to_string();
        assert!(err.ends_with("/dev/null is a device, a FIFO or a socket, not a directory"), "{err}");
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, "").unwrap();
        let err = create_dir(&file.join("a/b")).unwrap_err().to_string();
        assert!(err.ends_with(&format!("{} is a file, not a directory", file.display())), "{err}");
        create_dir(&tmp.path().join("x/y")).unwrap();
    }

    #[test]
    fn dangling_and_looping_links_are_named_as_such() {
        let tmp = tempfile::tempdir().unwrap();
        let (dang, looping) = (tmp.path().join("dang"), tmp.path().join("loop"));
        std::os::unix::fs::symlink("nowhere", &dang).unwrap();
        std::os::unix::fs::symlink("loop", &looping).unwrap();
        for check in [create_dir_checked, check_dir] {
            let err = check(&dang.join("sub")).unwrap_err().to_string();
            assert!(err.ends_with(&format!("{} is a dangling symbolic link (to nowhere, which does not exist)", dang.display())), "{err}");
            let err = check(&looping).unwrap_err().to_string();
            assert!(err.ends_with(&format!("{} is a symbolic link that loops (each link leads back to another)", looping.display())), "{err}");
        }
        assert!(!tmp.path().join("nowhere").exists());
    }

    fn create_dir_checked(dir: &Path) -> Result<()> {
        create_dir(dir).map(drop)
    }

    #[test]
    fn output_directories_are_checked_without_being_made() {
        let err = check_dir(Path::new("/proc/sprague-test/out")).unwrap_err().to_string();
        assert!(err.contains("/proc does not accept a new directory here"), "{err}");
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, "").unwrap();
        let err = check_dir(&file.join("a")).unwrap_err().to_string();
        assert!(err.ends_with(&format!("{} is a file, not a directory", file.display())), "{err}");
        check_dir(&tmp.path().join("x/y")).unwrap();
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "nothing made");
        let err = check_dir(Path::new("/proc")).unwrap_err().to_string();
        assert!(err.starts_with("cannot write into the output directory /proc: "), "{err}");
    }

    #[test]
    fn writes_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/a.txt");
        write_bytes_atomic(&path, b"abc").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"abc");
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
        assert_eq!(
            sha256_file(&path).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn removes_only_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        // Pids above the kernel's largest (2^22) are dead; this process is alive.
        let live = format!(".d.csv.tmp.{}", std::process::id());
        for name in [".a.csv.tmp.4194305", ".b.csv.tmp.99999999999", "a.csv", "notes.tmp.1", ".c.tmp.x", "keep.csv", &live] {
            fs::write(dir.path().join(name), b"").unwrap();
        }
        let left = |dir: &Path| {
            let mut names: Vec<String> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            names.sort();
            names
        };
        remove_stale_temps_of(dir.path(), &["b.csv"]).unwrap();
        assert_eq!(left(dir.path()), [".a.csv.tmp.4194305", ".c.tmp.x", live.as_str(), "a.csv", "keep.csv", "notes.tmp.1"]);
        remove_stale_temps(dir.path()).unwrap();
        assert_eq!(left(dir.path()), [".c.tmp.x", live.as_str(), "a.csv", "keep.csv", "notes.tmp.1"]);
        remove_stale_temps(&dir.path().join("none")).unwrap();
    }

    #[test]
    fn links_are_followed_and_streams_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("target.csv"), dir.path().join("link.csv"));
        fs::write(&target, b"old").unwrap();
        std::os::unix::fs::symlink("target.csv", &link).unwrap();
        write_bytes_atomic(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert!(!is_stream(&link) && !is_stream(&dir.path().join("none.csv")));
        // A FIFO (as a device or /dev/stdout) is written into, not replaced by a file.
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert!(is_stream(&fifo) && is_stream(Path::new("/dev/stdout")));
        let reader = std::thread::spawn({
            let fifo = fifo.clone();
            move || fs::read(fifo).unwrap()
        });
        write_bytes_atomic(&fifo, b"streamed").unwrap();
        assert_eq!(reader.join().unwrap(), b"streamed");
        assert!(!fs::symlink_metadata(&fifo).unwrap().is_file(), "still a FIFO");
    }

    #[test]
    fn failed_fill_keeps_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_bytes_atomic(&path, b"old").unwrap();
        let err = write_atomic(&path, |_| Err(Error::Usage("boom".into())));
        assert!(err.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
