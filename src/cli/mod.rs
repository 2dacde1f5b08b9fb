//! Command-line definitions (clap) and dispatch to one module per subcommand.

mod census;
mod check;
mod common;
mod merge;
mod report;
mod run;
mod solve;
mod solve_catalogue;
mod table;
mod verify;
mod verify_wall;
mod verify_catalogue;
mod solve_dagame;
mod verify_dagame;
mod solve_cards;
mod solve_footholds;
mod solve_kings;
mod verify_cards;
mod verify_footholds;
mod verify_kings;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Parallel exhaustive verifier and research tool for Sprague–Grundy claims.
#[derive(Parser)]
#[command(name = "sprague", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer a contest input (prints the winner).
    Solve(solve::SolveArgs),
    /// Check a game's claim against brute force on every small position.
    Verify(verify::VerifyArgs),
    /// Combine the output directories of `verify wall --shard K/N` runs into one.
    Merge(merge::Args),
    /// Count the claimed values of every pattern where the naive side is out of reach (6×6).
    Census(census::CensusArgs),
    /// Recompute the committed results that fit a time budget and compare them (CI regression).
    Check(check::Args),
    /// Write report.md and SVG plots (tables, histograms, P-positions, empty-board heat map).
    Report(report::Args),
    /// Write a table of exact values (the empty-board table of the wall game).
    Table(table::TableArgs),
}

/// How a successful command ended.
pub enum Status {
    /// Everything agreed / the job is done.
    Ok,
    /// A mismatch or regression was found.
    Failed,
    /// Stopped early on request (testing), leaving a checkpoint to resume.
    Interrupted,
}

impl Status {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Status::Ok => ExitCode::SUCCESS,
            Status::Failed => ExitCode::from(1),
            Status::Interrupted => ExitCode::from(3),
        }
    }
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<Status> {
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Census(args) => census::run(args),
        Command::Check(args) => check::run(args),
        Command::Report(args) => report::run(args),
        Command::Table(args) => table::run(args),
    }
}
