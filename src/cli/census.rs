//! `sprague census GAME`: the claimed side alone on every pattern (no naive cross-check).

use super::verify_wall::SizesArgs;
use super::Status;
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct CensusArgs {
    #[command(subcommand)]
    game: CensusGame,
}

#[derive(Subcommand)]
enum CensusGame {
    /// Wall Making Game: rectangle-DP Grundy values of every X-pattern (summary, distribution).
    Wall(SizesArgs),
}

pub fn run(args: CensusArgs) -> anyhow::Result<Status> {
    match args.game {
        CensusGame::Wall(sizes) => super::verify_wall::run_census(sizes),
    }
}
