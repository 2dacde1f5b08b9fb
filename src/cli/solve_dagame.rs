//! `sprague solve dagame`: BOJ 27306 input → `Young` (first player wins) or `Cheol`.

use super::common::InputArg;
use super::Status;
use clap::ValueEnum;
use sprague::games::dagame::{brute, claim, winner_name, Instance};
use std::io::Write;

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Engine {
    /// XOR over colours of pair/single Grundy values (full limits).
    Claim,
    /// Whole-position search (at most 8 tokens on 128 nodes; small inputs only).
    Brute,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArg,
    /// Engine that answers.
    #[arg(long, value_enum, default_value = "claim")]
    engine: Engine,
    /// Print `{"grundy":G,"winner":W}` instead of the winner's name.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let instance = Instance::parse_input(&name, &text)?;
    let grundy = match args.engine {
        Engine::Claim => claim::solve(&instance),
        Engine::Brute => brute::solve(&instance)?,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::json!({ "grundy": grundy, "winner": winner_name(grundy) }))?;
    } else {
        writeln!(out, "{}", winner_name(grundy))?;
    }
    Ok(Status::Ok)
}
