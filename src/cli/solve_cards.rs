//! `sprague solve cards`: T rows of cards → the first player's total per row.

use super::common::InputArg;
use super::Status;
use clap::ValueEnum;
use sprague::games::cards::{brute, claim, parse_input};
use sprague::games::cards::verify::MAX_BRUTE_LEN;
use std::io::Write;

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Engine {
    /// O(N²) interval DP (the claim).
    Dp,
    /// Plain minimax recursion (rows of at most 22 cards).
    Brute,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArg,
    /// Engine that answers.
    #[arg(long, value_enum, default_value = "dp")]
    engine: Engine,
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let rows = parse_input(&name, &text)?;
    if args.engine == Engine::Brute {
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() > MAX_BRUTE_LEN) {
            anyhow::bail!("case {} has {} cards; --engine brute takes at most {MAX_BRUTE_LEN}", i + 1, row.len());
        }
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for row in &rows {
        let total = match args.engine {
            Engine::Dp => claim::first_total(row),
            Engine::Brute => brute::first_total(row),
        };
        writeln!(out, "{total}")?;
    }
    out.flush()?;
    Ok(Status::Ok)
}
