//! `sprague` command line: arguments → library command → exit code (0 ok, 1 mismatch, 2 bad input).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run().unwrap_or_else(|err| {
        eprintln!("error: {err:#}");
        ExitCode::from(2)
    })
}
