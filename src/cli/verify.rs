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
    /// Nim: XOR vs brute force on every multiset of piles.
    Nim(super::verify_catalogue::Args),
    /// Nim: the winning-move count formula vs brute force.
    NimCount(super::verify_catalogue::Args),
    /// Misère Nim: Bouton's misère rule vs minimax.
    MisereNim(super::verify_catalogue::Args),
    /// Odd-even Nim: the closed form vs brute force.
    OddEvenNim(super::verify_catalogue::Args),
    /// Pimber: the mex recurrence vs brute force.
    Pimber(super::verify_catalogue::Args),
    /// Polygon chords: the recurrence vs play on the polygon.
    Polygon(super::verify_catalogue::Args),
    /// Cross: the published recurrence (or the solver) vs play on the strip.
    Cross(super::verify_catalogue::Args),
    /// Divisor game: Ω(N) − 1 vs the divisor DAG (--max a power of ten).
    Divisor(super::verify_catalogue::Args),
    /// DAGame: pair-Grundy claim vs whole-position brute force on every small DAG or random ones.
    Dagame(super::verify_dagame::Args),
    /// Footholds: memoized negamax vs plain DFS on every board of ≤ 12 cells or random 5×5 ones.
    Footholds(super::verify_footholds::Args),
    /// Cards: interval DP vs plain minimax on every short row or random rows.
    Cards(super::verify_cards::Args),
    /// Kings' bridge: Nim on A_i − 2 vs retrograde analysis of every small set of bridges.
    Kings(super::verify_kings::Args),
}

pub fn run(args: VerifyArgs) -> anyhow::Result<Status> {
    match args.game {
        VerifyGame::Wall(a) => super::verify_wall::run(a),
        VerifyGame::Nim(a) => super::verify_catalogue::run("nim", a),
        VerifyGame::NimCount(a) => super::verify_catalogue::run("nim-count", a),
        VerifyGame::MisereNim(a) => super::verify_catalogue::run("misere-nim", a),
        VerifyGame::OddEvenNim(a) => super::verify_catalogue::run("odd-even-nim", a),
        VerifyGame::Pimber(a) => super::verify_catalogue::run("pimber", a),
        VerifyGame::Polygon(a) => super::verify_catalogue::run("polygon", a),
        VerifyGame::Cross(a) => super::verify_catalogue::run("cross", a),
        VerifyGame::Divisor(a) => super::verify_catalogue::run("divisor", a),
        VerifyGame::Dagame(a) => super::verify_dagame::run(a),
        VerifyGame::Footholds(a) => super::verify_footholds::run(a),
        VerifyGame::Cards(a) => super::verify_cards::run(a),
        VerifyGame::Kings(a) => super::verify_kings::run(a),
    }
}
