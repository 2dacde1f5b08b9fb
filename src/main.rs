//! `sprague` command line: arguments → library command → exit code (0 ok, 1 mismatch, 2 bad input, 3 stopped early).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    sprague::sys::ignore_file_size_signal();
    cli::run().unwrap_or_else(|err| {
        if reader_went_away(&err) {
            // `sprague solve wall --batch boards | head`: the reader has all it wants.
            return ExitCode::SUCCESS;
        }
        sprague::sys::say(&format!("error: {err:#}"));
        ExitCode::from(2)
    })
}

/// Whether the error is a write into a pipe whose reader has closed it.
fn reader_went_away(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| match cause.downcast_ref::<sprague::Error>() {
        Some(error) => error.is_broken_pipe(),
        None => cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe),
    })
}
