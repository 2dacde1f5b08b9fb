//! The results view's files: `GET /api/results` lists the files under `--results DIR` (a
//! `sprague report` output: report.md and its SVG plots) and `GET /api/results/{path}` serves
//! one, never a path outside the directory (`..`, absolute paths and symlinks out are refused).

use super::api::ApiError;
use super::State;
use crate::error::{Error, Result};
use crate::output::verify_files::{unwalked_text, walk_tree_with, Visit};
use axum::body::{Body, Bytes};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path as UrlPath, State as Shared};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::io::{AsyncRead, ReadBuf};

/// The most files listed (a results tree is a few hundred)…
const MAX_LISTED: usize = 5000;
/// …and the most directory entries looked at to find them.
const MAX_ENTRIES: usize = 100_000;
/// Bytes of a results file read at a time while it is sent.
const CHUNK: usize = 64 * 1024;
/// The report `sprague report` writes.
const REPORT: &str = "report.md";

/// The results directory, canonical; a usage error naming `--results` when it is missing or
/// not a directory.
pub fn results_root(dir: &Path) -> Result<PathBuf> {
    let root = dir.canonicalize().map_err(|e| Error::Usage(format!("--results {}: {}", dir.display(), Error::io(dir, e).describe())))?;
    if !root.is_dir() {
        return Err(Error::Usage(format!("--results {}: not a directory", dir.display())));
    }
    Ok(root)
}

#[derive(Serialize)]
pub struct Listing {
    /// The report's path when there is one (report.md at the top, else the first found).
    report: Option<String>,
    files: Vec<Entry>,
    /// True when the walk stopped at a limit, with more files or entries left.
    truncated: bool,
    /// The directories that could not be listed in full (unreadable, or a path under them
    /// longer than PATH_MAX): the files under them are missing from `files`.
    unwalked: Vec<Unwalked>,
}

/// A directory the walk could not list in full, and why.
#[derive(Serialize)]
struct Unwalked {
    /// Relative to the results directory, '/'-separated (`.` for the directory itself).
    dir: String,
    /// `cannot be walked in full: …`, as `check` says it.
    error: String,
}

#[derive(Serialize)]
struct Entry {
    path: String,
    bytes: u64,
}

/// `GET /api/results`: the files under the results directory (symlinks and hidden files left
/// out), sorted, naming the directories that could not be listed in full; walked on a blocking
/// thread, and only up to the limits.
pub async fn listing(Shared(state): Shared<Arc<State>>) -> Result<Json<Listing>, ApiError> {
    let root = root(&state)?.to_path_buf();
    let walked = tokio::task::spawn_blocking(move || {
        let found = walk(&root, MAX_LISTED, MAX_ENTRIES);
        (found.files, found.truncated, found.unwalked)
    });
    let (mut files, truncated, unwalked) = walked.await.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the results could not be listed: {e}")))?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let reports = files.iter().filter(|f| f.path == REPORT || f.path.ends_with(&format!("/{REPORT}")));
    let report = reports.min_by_key(|f| f.path.matches('/').count()).map(|f| f.path.clone());
    Ok(Json(Listing { report, files, truncated, unwalked }))
}

/// What a walk of the results directory found, up to its limits.
struct Found {
    files: Vec<Entry>,
    truncated: bool,
    unwalked: Vec<Unwalked>,
}

/// The files under `root` ([`walk_tree_with`]: symlinks not followed, hidden entries left out),
/// up to `max_files` files or `max_entries` directory entries looked at, whichever comes first,
/// with the directories that could not be listed in full.
fn walk(root: &Path, max_files: usize, max_entries: usize) -> Found {
    let (mut files, mut entries, mut truncated) = (Vec::new(), 0, false);
    let walked = walk_tree_with(root, |path, meta| {
        entries += 1;
        // Hidden entries (`.sprague.lock`, `.git/…`) are not results.
        let hidden = path.file_name().is_some_and(|name| hidden(Path::new(name)));
        truncated = entries > max_entries || (meta.is_file() && !hidden && files.len() >= max_files);
        if truncated {
            Visit::Stop
        } else if hidden {
            Visit::Pass
        } else if meta.is_dir() {
            Visit::Descend
        } else {
            if meta.is_file() {
                files.push(Entry { path: relative(root, path), bytes: meta.len() });
            }
            Visit::Pass
        }
    });
    let unwalked = walked.unreachable.into_iter().map(|(dir, error)| Unwalked { dir: relative(root, &dir), error: unwalked_text(&dir, error) }).collect();
    Found { files, truncated, unwalked }
}

/// `path` under `root`, '/'-separated (`.` for the root itself).
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/");
    if rel.is_empty() { ".".into() } else { rel }
}

/// `GET /api/results/{path}`: one file under the results directory, with its content type and
/// length, sent in chunks as it is read (any size, never held whole in memory).
pub async fn file(Shared(state): Shared<Arc<State>>, path: Result<UrlPath<String>, PathRejection>) -> Result<Response, ApiError> {
    let path = super::api::path_part(path, "the results path")?;
    let root = root(&state)?.to_path_buf();
    let opened = tokio::task::spawn_blocking(move || open(&root, &path)).await;
    let (file, bytes, kind) = opened.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the results file could not be opened: {e}")))??;
    let body = FileBody { file: tokio::fs::File::from_std(file), left: bytes, chunk: vec![0; CHUNK].into_boxed_slice() };
    Ok(([(header::CONTENT_TYPE, kind)], Body::new(body)).into_response())
}

/// The file `path` names under `root`, open, with its length and content type.
fn open(root: &Path, path: &str) -> std::result::Result<(std::fs::File, u64, &'static str), ApiError> {
    let found = inside(root, path)?;
    let unreadable = |e| ApiError(StatusCode::NOT_FOUND, format!("{path}: {}", Error::io(&found, e).describe()));
    let file = std::fs::File::open(&found).map_err(unreadable)?;
    let bytes = file.metadata().map_err(unreadable)?.len();
    Ok((file, bytes, content_type(&found)))
}

/// A file's first `left` bytes (its length when opened), read a chunk at a time as the client
/// takes them; a file that shrinks meanwhile ends the answer with an error (the connection is
/// closed short of the length announced).
struct FileBody {
    file: tokio::fs::File,
    left: u64,
    chunk: Box<[u8]>,
}

impl HttpBody for FileBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<std::io::Result<Frame<Bytes>>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let this = &mut *self;
        let wanted = this.chunk.len().min(usize::try_from(this.left).unwrap_or(usize::MAX));
        let mut buf = ReadBuf::new(&mut this.chunk[..wanted]);
        match Pin::new(&mut this.file).poll_read(cx, &mut buf) {
            Poll::Ready(Ok(())) if buf.filled().is_empty() => Poll::Ready(Some(Err(std::io::ErrorKind::UnexpectedEof.into()))),
            Poll::Ready(Ok(())) => {
                let data = Bytes::copy_from_slice(buf.filled());
                this.left -= data.len() as u64;
                Poll::Ready(Some(Ok(Frame::data(data))))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Some(Err(e))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}

fn root(state: &State) -> std::result::Result<&Path, ApiError> {
    state.results.as_deref().ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "no results directory: start the server with --results DIR".into()))
}

/// True when a component of `path` is hidden (starts with '.'): `.sprague.lock`, `.git/…`.
fn hidden(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
}

/// The file `path` names under `root`: 400 for a path that is absolute or climbs (`..`), 404
/// when there is no such file, a component of the path is hidden (starts with '.'), it
/// resolves (through a symlink) outside `root`, or to a hidden file or directory inside it.
pub fn inside(root: &Path, path: &str) -> std::result::Result<PathBuf, ApiError> {
    let relative = Path::new(path);
    if path.is_empty() || !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(ApiError(StatusCode::BAD_REQUEST, format!("{path:?}: only plain relative paths under the results directory (no '..', no absolute path)")));
    }
    let missing = || ApiError(StatusCode::NOT_FOUND, format!("{path}: no such file under the results directory"));
    // Hidden entries (`.sprague.lock`, `.git/…`) are not results: not listed, not served,
    // also not through a symlink to them.
    if hidden(relative) {
        return Err(missing());
    }
    let found = root.join(relative).canonicalize().map_err(|_| missing())?;
    let Ok(resolved) = found.strip_prefix(root) else {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("{path}: leads outside the results directory")));
    };
    if hidden(resolved) || !found.is_file() {
        return Err(missing());
    }
    Ok(found)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "md" => "text/markdown; charset=utf-8",
        "svg" => "image/svg+xml",
        "csv" => "text/csv; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "txt" | "log" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_under_the_root_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("plots")).unwrap();
        std::fs::write(root.join("plots/a.svg"), "<svg/>").unwrap();
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out.svg")).unwrap();
        assert_eq!(inside(&root, "plots/a.svg").unwrap(), root.join("plots/a.svg"));
        let status = |path: &str| inside(&root, path).unwrap_err().0;
        assert_eq!(status("../etc/passwd"), StatusCode::BAD_REQUEST);
        assert_eq!(status("plots/../plots/a.svg"), StatusCode::BAD_REQUEST);
        assert_eq!(status("/etc/passwd"), StatusCode::BAD_REQUEST);
        assert_eq!(status(""), StatusCode::BAD_REQUEST);
        assert_eq!(status("out.svg"), StatusCode::NOT_FOUND, "a symlink out");
        assert_eq!(status("plots"), StatusCode::NOT_FOUND, "a directory");
        assert_eq!(status("none.svg"), StatusCode::NOT_FOUND);
        std::fs::create_dir(root.join(".hidden")).unwrap();
        std::fs::write(root.join(".hidden/s"), "s").unwrap();
        std::fs::write(root.join(".sprague.lock"), "pid").unwrap();
        std::fs::write(root.join("plots/.a.svg"), "<svg/>").unwrap();
        for hidden in [".sprague.lock", ".hidden/s", "plots/.a.svg"] {
            assert_eq!(status(hidden), StatusCode::NOT_FOUND, "{hidden}");
        }
        // Nor through a symlink to them.
        std::os::unix::fs::symlink(".sprague.lock", root.join("vis.md")).unwrap();
        std::os::unix::fs::symlink(".hidden", root.join("hid")).unwrap();
        for through in ["vis.md", "hid/s"] {
            assert_eq!(inside(&root, through).unwrap_err().1, format!("{through}: no such file under the results directory"));
        }
        assert_eq!(content_type(Path::new("report.md")), "text/markdown; charset=utf-8");
    }

    /// The walk stops at its limits: it neither lists nor looks at more than they allow.
    #[test]
    fn the_walk_stops_at_its_limits() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for d in 0..4 {
            std::fs::create_dir(root.join(format!("d{d}"))).unwrap();
            for f in 0..10 {
                std::fs::write(root.join(format!("d{d}/f{f}")), "x").unwrap();
            }
        }
        let all = walk(&root, 100, 100);
        assert_eq!((all.files.len(), all.truncated, all.unwalked.len()), (40, false, 0));
        let files = walk(&root, 5, 100);
        assert_eq!((files.files.len(), files.truncated), (5, true));
        let entries = walk(&root, 100, 12);
        assert_eq!((entries.files.len(), entries.truncated), (8, true), "the four directories, then d0's first eight files");
    }
}
