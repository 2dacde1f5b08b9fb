//! `sprague solve kings`: bridges and first player → the winner's name.

use super::common::InputArg;
use super::Status;
use clap::ValueEnum;
use sprague::games::kings::retro::{start_value, Value};
use sprague::games::kings::{claim, parse_input};
use std::io::Write;

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Engine {
    /// Nim on A_i − 2 (the claim).
    Claim,
    /// Retrograde analysis of the position graph (small inputs only; may answer Draw).
    Retro,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArg,
    /// Engine that answers.
    #[arg(long, value_enum, default_value = "claim")]
    engine: Engine,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let game = parse_input(&name, &text)?;
    let winner = match args.engine {
        Engine::Claim => claim::winner(&game).name(),
        Engine::Retro => match start_value(&game)? {
            Value::Win => game.first.name(),
            Value::Loss => game.first.other().name(),
            Value::Draw => "Draw",
        },
    };
    writeln!(std::io::stdout().lock(), "{winner}")?;
    Ok(Status::Ok)
}
