//! What a running command sees: standard streams, progress reports, its command line; how it ended.

use crate::error::{Error, Result};
use crate::input::read_capped;
use crate::output::atomic::is_stream;
use crate::output::lock::FileLock;
use crate::output::manifest::RunClock;
use crate::runner::Progress;
use std::io::{BufRead, Write};
use std::path::Path;

/// How a command ended (the command line maps these to exit codes 0, 1 and 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything agreed / the job is done.
    Ok,
    /// A mismatch or regression was found.
    Failed,
    /// Stopped early on request (testing), leaving a checkpoint to resume.
    Interrupted,
}

/// The environment of one command.
pub struct Session<'a> {
    pub stdin: &'a mut dyn BufRead,
    pub stdout: &'a mut dyn Write,
    /// One-line reports (what was written where); progress bars go through `progress`.
    pub stderr: &'a mut dyn Write,
    pub progress: &'a dyn Progress,
    /// The command line as invoked, for manifests.
    pub command_line: Vec<String>,
}

impl Session<'_> {
    /// Reads the input named `file` (`-` or none: standard input) as text; returns the name to
    /// use in messages (`<stdin>` or the path) and the text. An input of more than
    /// [`crate::input::MAX_INPUT_BYTES`] is refused.
    pub fn read_input(&mut self, file: Option<&str>) -> Result<(String, String)> {
        let (name, bytes) = match file.filter(|&f| f != "-") {
            None => ("<stdin>".to_string(), read_capped("<stdin>", self.stdin)?),
            Some(path) => {
                let mut opened = std::fs::File::open(path).map_err(|e| Error::Usage(format!("cannot read {path}: {e}")))?;
                (path.to_string(), read_capped(path, &mut opened)?)
            }
        };
        let text = String::from_utf8(bytes).map_err(|e| crate::input::not_utf8(&name, &e.as_bytes()[..e.utf8_error().valid_up_to()], 1))?;
        Ok((name, text))
    }

    /// Runs `read` on the input named `file` (`-` or none: standard input) as a stream, so that
    /// answers can be written to standard output while the input is still being read.
    pub fn with_input_stream<T>(
        &mut self,
        file: Option<&str>,
        read: impl FnOnce(&str, &mut dyn BufRead, &mut dyn Write) -> Result<T>,
    ) -> Result<T> {
        match file.filter(|&f| f != "-") {
            None => read("<stdin>", self.stdin, self.stdout),
            Some(path) => {
                let opened = std::fs::File::open(path).map_err(|e| Error::Usage(format!("cannot read {path}: {}", Error::io(path, e).describe())))?;
                read(path, &mut std::io::BufReader::new(opened), self.stdout)
            }
        }
    }

    /// Starts the clock of a run whose manifest records this command line.
    pub fn clock(&self) -> RunClock {
        RunClock::start(self.command_line.clone(), rayon::current_num_threads())
    }

    /// Locks output file `out` for this run, and the file it is a companion of, if any
    /// ([`FileLock::acquire_with_owner`]); none for a stream (a device, a FIFO: nothing lies
    /// beside it).
    pub fn lock_file(&self, out: &Path) -> Result<Vec<FileLock>> {
        if is_stream(out) {
            return Ok(Vec::new());
        }
        crate::output::takeover::refuse_run_file(out, &self.command_line)?;
        FileLock::acquire_with_owner(out, &self.command_line.join(" "))
    }

    /// Writes `text` on standard output, as it is.
    pub fn print(&mut self, text: &str) -> Result<()> {
        self.stdout.write_all(text.as_bytes()).map_err(|e| Error::io("<stdout>", e))
    }

    /// Writes `line` and a newline on standard output.
    pub fn println(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdout, "{line}").map_err(|e| Error::io("<stdout>", e))
    }

    /// Writes one report line to standard error (a failure to write it is not an error).
    pub fn report(&mut self, line: &str) {
        let _ = writeln!(self.stderr, "{line}");
    }
}
