//! `sprague solve nim|nim-count|misere-nim|odd-even-nim|pimber|polygon|cross|divisor`: one answer line.

use super::common::InputArg;
use super::Status;

/// Arguments of every catalogue `solve` subcommand.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArg,
}

/// Reads the input and prints the answer of `solve` (a library function of the game).
pub fn run(args: Args, solve: fn(&str, &str) -> sprague::Result<String>) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    println!("{}", solve(&name, &text)?);
    Ok(Status::Ok)
}
