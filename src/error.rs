//! Library error type: every failure names what is wrong and where.

use std::path::PathBuf;

/// Errors raised by the library. The CLI maps every variant to exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed input text, located by 1-based line and column.
    #[error("{source_name}:{line}:{col}: {message}")]
    Input {
        source_name: String,
        line: usize,
        col: usize,
        message: String,
    },
    /// A request the library cannot honour (board too large, bad size, ...).
    #[error("{0}")]
    Usage(String),
    /// A run's manifest names a game sprague does not have (a program using the library wrote
    /// it): what needs the game's rules cannot be done, what needs only the files can.
    #[error("game {game} is not one of sprague's: written by a program using the library")]
    UnknownGame { game: String },
    /// A file that exists but does not hold what it should.
    #[error("{path}: {message}")]
    Malformed { path: PathBuf, message: String },
    /// An I/O failure on a named file. The OS error is part of the message (and deliberately
    /// not a `source`, which `{:#}` would print a second time).
    #[error("{path}: {}", describe_io(.error))]
    Io { path: PathBuf, error: std::io::Error },
}

impl Error {
    /// Wraps an I/O error with the path it happened on.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), error: source }
    }

    /// The message of an I/O error without its path (the OS error in words).
    pub fn describe(&self) -> String {
        match self {
            Error::Io { error, .. } => describe_io(error),
            other => other.to_string(),
        }
    }

    /// The file an I/O or malformed-file error names.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Error::Malformed { path, .. } | Error::Io { path, .. } => Some(path),
            _ => None,
        }
    }

    /// Whether this is a write into a pipe whose reader has gone (`sprague ... | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// A malformed-file error.
    pub fn malformed(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Malformed { path: path.into(), message: message.into() }
    }
}

/// The OS error in words, without the `(os error N)` suffix that only repeats the code.
fn describe_io(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Library result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;
