//! `sprague solve footholds`: board and pieces → total moves under "win fast, lose slow" play.

use super::common::InputArg;
use super::Status;
use clap::ValueEnum;
use sprague::games::footholds::{brute, claim, Position};
use std::io::Write;

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Engine {
    /// Memoized negamax (the claim).
    Claim,
    /// Plain full-tree DFS, no memo.
    Brute,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArg,
    /// Engine that answers.
    #[arg(long, value_enum, default_value = "claim")]
    engine: Engine,
    /// Print `{"moves":M,"winner":"A"|"B"}` instead of the number of moves.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let position = Position::parse_input(&name, &text)?;
    let outcome = match args.engine {
        Engine::Claim => claim::solve(&position),
        Engine::Brute => brute::solve(&position),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let winner = if outcome.first_wins { "A" } else { "B" };
        writeln!(out, "{}", serde_json::json!({ "moves": outcome.moves, "winner": winner }))?;
    } else {
        writeln!(out, "{}", outcome.moves)?;
    }
    Ok(Status::Ok)
}
