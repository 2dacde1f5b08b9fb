//! Progress reports of long computations (the command line draws bars; tests and libraries ignore them).

/// Receives progress from any thread.
pub trait Progress: Sync {
    /// A new phase named `label` begins: `total` units (None: unknown, e.g. building tables),
    /// of which `done` are already done (a resumed run).
    fn start(&self, _label: &str, _total: Option<u64>, _done: u64) {}
    /// `units` more units are done.
    fn advance(&self, _units: u64) {}
    /// A line of counters shown with the current phase (e.g. runs and failures so far).
    fn message(&self, _text: &str) {}
    /// The current phase is over.
    fn finish(&self) {}
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {}
