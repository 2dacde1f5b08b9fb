//! `sprague` command line: arguments → subcommand → exit code (0 ok, 1 mismatch, 2 bad input).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(status) => status.exit_code(),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
