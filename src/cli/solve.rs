//! `sprague solve GAME [FILE]`: answer a contest input.

use super::common::InputArg;
use super::Status;
use clap::{Args, Subcommand, ValueEnum};
use sprague::games::wall::{dp, naive, Board, Rule};
use std::io::Write;

#[derive(Args)]
pub struct SolveArgs {
    #[command(subcommand)]
    game: SolveGame,
}

#[derive(Subcommand)]
enum SolveGame {
    /// Wall Making Game (BOJ 11717): `H W` then H rows of '.'/'X'; prints First or Second.
    Wall(WallArgs),
    /// DAGame (BOJ 27306): `N M`, M edges `p q`, `K`, K tokens `v c`; prints Young or Cheol.
    Dagame(super::solve_dagame::Args),
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Engine {
    /// Rectangle DP (any board up to 20×20).
    Dp,
    /// Whole-board search (boards of at most 64 cells).
    Naive,
}

#[derive(Args)]
struct WallArgs {
    #[command(flatten)]
    input: InputArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Read any number of boards, one after another; one answer per board.
    #[arg(long)]
    batch: bool,
    /// Engine that answers.
    #[arg(long, value_enum, default_value = "dp")]
    engine: Engine,
}

pub fn run(args: SolveArgs) -> anyhow::Result<Status> {
    match args.game {
        SolveGame::Wall(a) => solve_wall(a),
        SolveGame::Dagame(a) => super::solve_dagame::run(a),
    }
}

#[derive(serde::Serialize)]
struct WallAnswer {
    rows: usize,
    cols: usize,
    grundy: u32,
    winner: &'static str,
    winning_moves: Vec<[usize; 2]>,
}

fn answer_wall(board: &Board, engine: Engine) -> anyhow::Result<WallAnswer> {
    let (grundy, moves) = match engine {
        Engine::Dp => {
            let sol = dp::solve(board);
            (sol.grundy, sol.winning_moves)
        }
        Engine::Naive => {
            let verdict = naive::solve(board, Rule::Standard)?;
            (verdict.grundy, naive::winning_moves(board, Rule::Standard)?)
        }
    };
    Ok(WallAnswer {
        rows: board.rows(),
        cols: board.cols(),
        grundy,
        winner: if grundy != 0 { "First" } else { "Second" },
        winning_moves: moves.into_iter().map(|(r, c)| [r, c]).collect(),
    })
}

fn solve_wall(args: WallArgs) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let boards = Board::parse_input(&name, &text, args.batch)?;
    let mut out = std::io::stdout().lock();
    for board in &boards {
        let answer = answer_wall(board, args.engine)?;
        match args.format {
            Format::Text => writeln!(out, "{}", answer.winner)?,
            Format::Json => writeln!(out, "{}", serde_json::to_string(&answer)?)?,
        }
    }
    Ok(Status::Ok)
}
