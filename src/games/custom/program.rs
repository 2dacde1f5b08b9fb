//! The options every custom command shares (the program, its limits, the convention) and the program started from them.

use crate::custom::program::{GameProgram, GraphLimits, ProgramLimits};
use crate::error::{Error, Result};
use crate::game::commands::{memory_limit, MEMORY_LIMIT};
use crate::game::{Args, OptSpec};
use crate::impartial::Convention;
use crate::stress::CommandLine;
use crate::output::atomic::sha256_file;

const CONVENTIONS: &[(&str, &str)] = &[
    ("normal", "The player who cannot move loses; exact values are Grundy values."),
    ("misere", "The player who cannot move wins; exact values are outcomes (1: the player to move wins)."),
];

/// Largest `--max`: sizes are asked one request each (and each is a job of `verify`).
pub const MAX_SIZE: u32 = 1_000_000;

/// `--max N`: a size from 0 to [`MAX_SIZE`].
pub fn parse_max(text: &str) -> std::result::Result<u32, String> {
    let bad = || format!("invalid size {text:?}: expected a whole number from 0 to {MAX_SIZE}");
    text.parse::<u32>().ok().filter(|&n| n <= MAX_SIZE).ok_or_else(bad)
}

/// The value of `--max`, checked.
pub fn max_size(args: &Args) -> Result<u32> {
    parse_max(args.text("max").unwrap_or("")).map_err(|e| Error::Usage(format!("--max: {e}")))
}

/// `--game-cmd`, `--convention`, `--game-timeout` (once `--timeout`, still accepted, hidden),
/// `--max-positions`, `--max-moves`.
pub fn options() -> Vec<OptSpec> {
    vec![
        OptSpec::value("game-cmd", "COMMAND", "The game program (any language; protocol in docs/custom-programs.md), e.g. 'python3 kayles.py'.").required(),
        OptSpec::value("convention", "CONVENTION", "Normal or misère play.").default("normal").choices(CONVENTIONS),
        OptSpec::value("game-timeout", "SECONDS", "Time the game program may take per answer; it is stopped past it.").default("10").aliases(&["timeout"]),
        OptSpec::value("max-positions", "N", "Most positions explored in all (about 250 bytes each at the peak, more with long tokens: their bytes count against --memory-limit); more is refused.").default("20000000"),
        OptSpec::value("max-moves", "N", "Most moves from one position; more is refused.").default("1000000"),
    ]
}

/// The options of [`options`] and `--memory-limit` (which `verify` has among its run options).
pub fn options_with_memory() -> Vec<OptSpec> {
    let mut all = options();
    all.push(MEMORY_LIMIT);
    all
}

/// The options of [`options_with_memory`] without the old name `--timeout` (for the commands
/// where `--timeout` is another program's, and `serve`).
pub fn options_without_timeout() -> Vec<OptSpec> {
    let drop_old = |o: OptSpec| if o.name == "game-timeout" { OptSpec { aliases: &[], ..o } } else { o };
    options_with_memory().into_iter().map(drop_old).collect()
}

/// The memory budget of `--memory-limit`, else the memory available (no bound when unknown):
/// half for the positions kept, half for the answers held at once.
fn memory_budget(args: &Args) -> Result<u64> {
    Ok(memory_limit(args)?.unwrap_or(u64::MAX))
}

/// The game program the options name, started as `copies` processes.
pub fn start(args: &Args, copies: usize) -> Result<GameProgram> {
    GameProgram::start(command(args)?, copies, limits(args)?)
}

/// The time limit of `--game-timeout` and the answers' share of the memory budget.
pub fn limits(args: &Args) -> Result<ProgramLimits> {
    let timeout = args.positive_seconds("game-timeout")?.ok_or_else(|| Error::Usage("--game-timeout is required".into()))?;
    Ok(ProgramLimits { timeout, answer_bytes: memory_budget(args)? / 2, smaller: crate::custom::program::SMALLER })
}

/// The command line of `--game-cmd`.
pub fn command(args: &Args) -> Result<CommandLine> {
    let text: String = args.require("game-cmd")?;
    CommandLine::parse_option("--game-cmd", &text)
}

pub fn convention(args: &Args) -> Result<Convention> {
    Ok(if args.text("convention") == Some("misere") { Convention::Misere } else { Convention::Normal })
}

pub fn graph_limits(args: &Args) -> Result<GraphLimits> {
    let positive = |name: &str| -> Result<usize> {
        let n: usize = args.require(name)?;
        if n == 0 {
            return Err(Error::Usage(format!("--{name} must be at least 1")));
        }
        Ok(n)
    };
    Ok(GraphLimits { max_positions: positive("max-positions")?, max_moves: positive("max-moves")?, max_bytes: memory_budget(args)? / 2, smaller: crate::custom::program::SMALLER })
}

/// Every file the command names (the program itself when given as a path, and arguments that
/// are files) with its SHA-256, for the manifest: `path sha256`.
pub fn program_files(command: &CommandLine) -> Result<Vec<(String, String)>> {
    let words: Vec<String> = match command {
        CommandLine::Direct { program, args } => std::iter::once(program.to_string_lossy().into_owned()).chain(args.iter().cloned()).collect(),
        CommandLine::Shell { text } => shlex::split(text).unwrap_or_default(),
    };
    let files = words.into_iter().filter(|w| std::path::Path::new(w).is_file() && !on_path(w));
    files.map(|f| Ok((f.clone(), sha256_file(std::path::Path::new(&f))?))).collect()
}

/// Whether `path` is a program installed on PATH (python3, sh): not the user's file.
fn on_path(path: &str) -> bool {
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    std::path::Path::new(path).parent().is_some_and(|parent| std::env::split_paths(&dirs).any(|d| d == parent))
}
