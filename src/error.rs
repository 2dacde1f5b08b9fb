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
    /// A file that exists but does not hold what it should.
    #[error("{path}: {message}")]
    Malformed { path: PathBuf, message: String },
    /// An I/O failure on a named file.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Wraps an I/O error with the path it happened on.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    /// A malformed-file error.
    pub fn malformed(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Malformed { path: path.into(), message: message.into() }
    }
}

/// Library result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;
