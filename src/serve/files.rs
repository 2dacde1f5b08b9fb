//! The results view's files: `GET /api/results` lists the files under `--results DIR` (a
//! `sprague report` output: report.md and its SVG plots) and `GET /api/results/{path}` serves
//! one, never a path outside the directory (`..`, absolute paths and symlinks out are refused).

use super::api::ApiError;
use super::State;
use crate::error::{Error, Result};
use axum::extract::{Path as UrlPath, State as Shared};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The most files listed (a results tree is a few hundred).
const MAX_LISTED: usize = 5000;
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
    /// True when more than the listed files are there.
    truncated: bool,
}

#[derive(Serialize)]
struct Entry {
    path: String,
    bytes: u64,
}

/// `GET /api/results`: every file under the results directory (symlinks and hidden files left
/// out), sorted.
pub async fn listing(Shared(state): Shared<Arc<State>>) -> Result<Json<Listing>, ApiError> {
    let root = root(&state)?;
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let truncated = files.len() > MAX_LISTED;
    files.truncate(MAX_LISTED);
    let reports = files.iter().filter(|f| f.path == REPORT || f.path.ends_with(&format!("/{REPORT}")));
    let report = reports.min_by_key(|f| f.path.matches('/').count()).map(|f| f.path.clone());
    Ok(Json(Listing { report, files, truncated }))
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Entry>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    // Hidden entries (`.sprague.lock`) are not results.
    for entry in entries.flatten().filter(|e| !e.file_name().to_string_lossy().starts_with('.')) {
        let (path, Ok(kind)) = (entry.path(), entry.file_type()) else { continue };
        if kind.is_dir() {
            walk(root, &path, out);
        } else if kind.is_file() && out.len() <= MAX_LISTED {
            let relative = path.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/");
            out.push(Entry { path: relative, bytes: entry.metadata().map_or(0, |m| m.len()) });
        }
    }
}

/// `GET /api/results/{path}`: one file under the results directory, with its content type, once
/// the answers' memory has room for it.
pub async fn file(Shared(state): Shared<Arc<State>>, UrlPath(path): UrlPath<String>) -> Result<Response, ApiError> {
    let root = root(&state)?;
    let found = inside(root, &path)?;
    let unreadable = |e| ApiError(StatusCode::NOT_FOUND, format!("{path}: {}", Error::io(&found, e).describe()));
    let size = std::fs::metadata(&found).map_err(unreadable)?.len();
    let room = state.answers.reserve(usize::try_from(size).unwrap_or(usize::MAX), state.queue_wait).await?;
    let bytes = std::fs::read(&found).map_err(unreadable)?;
    Ok(([(header::CONTENT_TYPE, content_type(&found))], super::budget::body(bytes, room)).into_response())
}

fn root(state: &State) -> Result<&Path, ApiError> {
    state.results.as_deref().ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "no results directory: start the server with --results DIR".into()))
}

/// The file `path` names under `root`: 400 for a path that is absolute or climbs (`..`), 404
/// when there is no such file, a component of the path is hidden (starts with '.') or it
/// resolves (through a symlink) outside `root`.
pub fn inside(root: &Path, path: &str) -> Result<PathBuf, ApiError> {
    let relative = Path::new(path);
    if path.is_empty() || !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(ApiError(StatusCode::BAD_REQUEST, format!("{path:?}: only plain relative paths under the results directory (no '..', no absolute path)")));
    }
    let missing = || ApiError(StatusCode::NOT_FOUND, format!("{path}: no such file under the results directory"));
    // Hidden entries (`.sprague.lock`, `.git/…`) are not results: not listed, not served.
    if relative.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.')) {
        return Err(missing());
    }
    let found = root.join(relative).canonicalize().map_err(|_| missing())?;
    if !found.starts_with(root) {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("{path}: leads outside the results directory")));
    }
    if !found.is_file() {
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
        assert_eq!(content_type(Path::new("report.md")), "text/markdown; charset=utf-8");
    }
}
