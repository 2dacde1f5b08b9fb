//! `sprague verify GAME ...`: check a game's claim against brute force; one module per game.

use super::Status;
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct VerifyArgs {
    #[command(subcommand)]
    game: VerifyGame,
}

#[derive(Subcommand)]
enum VerifyGame {
    /// Wall Making Game: rectangle DP vs whole-board search on every X-pattern.
    Wall(super::verify_wall::Args),
    /// DAGame: pair-Grundy claim vs whole-position brute force on every small DAG or random ones.
    Dagame(super::verify_dagame::Args),
}

pub fn run(args: VerifyArgs) -> anyhow::Result<Status> {
    match args.game {
        VerifyGame::Wall(a) => super::verify_wall::run(a),
        VerifyGame::Dagame(a) => super::verify_dagame::run(a),
    }
}
