//! `sprague solve GAME [FILE]`: answer a contest input.

use super::common::InputArg;
use super::Status;
use clap::{Args, Subcommand, ValueEnum};
use sprague::games::wall::{claim, naive, Board, Rule};
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
    /// Nim: N (≤ 100) then N piles (≤ 10^9); prints koosaga (first wins) or cubelover.
    Nim(super::solve_catalogue::Args),
    /// Nim: same input; prints the number of winning first moves.
    NimCount(super::solve_catalogue::Args),
    /// Misère Nim (last stone loses): same input; koosaga / cubelover.
    MisereNim(super::solve_catalogue::Args),
    /// Odd-even Nim: same input; koosaga / cubelover.
    OddEvenNim(super::solve_catalogue::Args),
    /// Pimber (remove a Fibonacci number): N (≤ 10^5) then piles (≤ 3·10^6); koosaga / cubelover.
    Pimber(super::solve_catalogue::Args),
    /// Polygon chords: N (3..1000), optionally the N vertices; prints 1 or 2.
    Polygon(super::solve_catalogue::Args),
    /// Cross on a 1×N strip (N ≤ 2000), by real play; prints 1 or 2.
    Cross(super::solve_catalogue::Args),
    /// Divisor game: N (≤ 10^18); koosaga / cubelover.
    Divisor(super::solve_catalogue::Args),
    /// DAGame (BOJ 27306): `N M`, M edges `p q`, `K`, K tokens `v c`; prints Young or Cheol.
    Dagame(super::solve_dagame::Args),
    /// Disappearing footholds: `R C`, R rows of 0/1, `ar ac br bc`; prints the total moves.
    Footholds(super::solve_footholds::Args),
    /// Card game: T, then per case N (≤ 1000) and N cards (≤ 10,000); prints the first player's totals.
    Cards(super::solve_cards::Args),
    /// Kings' bridge: N (≤ 100), A_1 … A_N (≤ 10^9), Whiteking|Blackking; prints the winner.
    Kings(super::solve_kings::Args),
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
    /// Rule variant: naive plays it exactly; dp gives the rule's claim (see docs/variants.md).
    #[arg(long, default_value = "standard")]
    rule: Rule,
}

pub fn run(args: SolveArgs) -> anyhow::Result<Status> {
    match args.game {
        SolveGame::Wall(a) => solve_wall(a),
        SolveGame::Nim(a) => super::solve_catalogue::run(a, sprague::games::catalogue::nim::solve),
        SolveGame::NimCount(a) => super::solve_catalogue::run(a, sprague::games::catalogue::nim::solve_count),
        SolveGame::MisereNim(a) => super::solve_catalogue::run(a, sprague::games::catalogue::misere_nim::solve),
        SolveGame::OddEvenNim(a) => super::solve_catalogue::run(a, sprague::games::catalogue::odd_even_nim::solve),
        SolveGame::Pimber(a) => super::solve_catalogue::run(a, sprague::games::catalogue::pimber::solve),
        SolveGame::Polygon(a) => super::solve_catalogue::run(a, sprague::games::catalogue::polygon::solve),
        SolveGame::Cross(a) => super::solve_catalogue::run(a, sprague::games::catalogue::cross::solve),
        SolveGame::Divisor(a) => super::solve_catalogue::run(a, sprague::games::catalogue::divisor::solve),
        SolveGame::Dagame(a) => super::solve_dagame::run(a),
        SolveGame::Footholds(a) => super::solve_footholds::run(a),
        SolveGame::Cards(a) => super::solve_cards::run(a),
        SolveGame::Kings(a) => super::solve_kings::run(a),
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

fn answer_wall(board: &Board, engine: Engine, rule: Rule) -> anyhow::Result<WallAnswer> {
    let (grundy, first_wins, moves) = match engine {
        Engine::Dp => {
            let sol = claim::solve(board, rule);
            (sol.grundy, sol.grundy != 0, sol.winning_moves)
        }
        Engine::Naive => {
            let verdict = naive::solve(board, rule)?;
            (verdict.grundy, verdict.first_player_wins, naive::winning_moves(board, rule)?)
        }
    };
    Ok(WallAnswer {
        rows: board.rows(),
        cols: board.cols(),
        grundy,
        winner: if first_wins { "First" } else { "Second" },
        winning_moves: moves.into_iter().map(|(r, c)| [r, c]).collect(),
    })
}

fn solve_wall(args: WallArgs) -> anyhow::Result<Status> {
    let (name, text) = args.input.read()?;
    let boards = Board::parse_input(&name, &text, args.batch)?;
    let mut out = std::io::stdout().lock();
    for board in &boards {
        let answer = answer_wall(board, args.engine, args.rule)?;
        match args.format {
            Format::Text => writeln!(out, "{}", answer.winner)?,
            Format::Json => writeln!(out, "{}", serde_json::to_string(&answer)?)?,
        }
    }
    Ok(Status::Ok)
}
