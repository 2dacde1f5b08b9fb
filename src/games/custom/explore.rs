//! What `sprague serve --game-cmd CMD` shows of a game given as a program: one position token,
//! the moves the program lists, and every value by brute force over its move graph.

use crate::custom::program::table::starting_positions;
use crate::custom::program::{Explorer, GameProgram, GraphLimits, ProgramLimits};
use crate::error::{Error, Result};
use crate::game::explore::{Analysis, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, move_info, Eval, SOURCE};
use crate::impartial::Convention;
use crate::input::Scanner;
use crate::stress::CommandLine;
use serde_json::json;
use std::sync::{Arc, Mutex, PoisonError};

/// Most positions the explorer keeps (about 100 bytes each); a position reaching more is refused.
pub const MAX_POSITIONS: usize = 2_000_000;

/// The explorer's graph limits: [`MAX_POSITIONS`], and as many moves from one position as
/// `verify custom` allows (only the analysed position's are listed, at most 10,000); the
/// bytes kept are bounded by the memory available ([`program_explorer`]).
const LIMITS: GraphLimits = GraphLimits { max_positions: MAX_POSITIONS, max_moves: 1_000_000, max_bytes: u64::MAX };

/// The largest size whose starting positions give the example.
const EXAMPLE_SIZE: u32 = 6;

/// The explorer of the game program `command` (normal play), started now: its example is the
/// first starting position of the largest size up to 6 that has one.
pub fn program_explorer(command: &str) -> Result<Box<dyn Explore>> {
    let half = crate::sys::available_memory_bytes().map_or(u64::MAX, |m| m / 2);
    explorer_within(command, GraphLimits { max_bytes: half, ..LIMITS }, ProgramLimits { answer_bytes: half, ..ProgramLimits::default() })
}

/// [`program_explorer`] within `limits`.
fn explorer_within(command: &str, limits: GraphLimits, program_limits: ProgramLimits) -> Result<Box<dyn Explore>> {
    let program = GameProgram::start(CommandLine::parse(command)?, 1, program_limits)?;
    let mut explorer = Explorer::new(Arc::new(program), Convention::Normal, limits);
    let sizes = starting_positions(&mut explorer, EXAMPLE_SIZE)?;
    let example = sizes.iter().rev().find_map(|ids| ids.first()).map(|&id| explorer.token(id).to_string());
    let example = example.ok_or_else(|| Error::Usage(format!("game program {command:?} has no starting position of size 0 to {EXAMPLE_SIZE}")))?;
    Ok(Box::new(ProgramExplorer { command: command.to_string(), example, limits, explorer: Mutex::new(explorer) }))
}

struct ProgramExplorer {
    command: String,
    example: String,
    limits: GraphLimits,
    explorer: Mutex<Explorer>,
}

impl Explore for ProgramExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "custom",
            title: format!("Game program: {}", self.command),
            view: View::Text,
            format: "One position token as the game program writes it (no whitespace; docs/custom-programs.md). Values are exact, by brute force over the program's moves.".to_string(),
            example: self.example.clone(),
            grundy: true,
        }
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        let mut s = Scanner::new(SOURCE, position);
        let token = s.token("a position token")?.text;
        s.expect_end()?;
        let mut explorer = self.explorer.lock().unwrap_or_else(PoisonError::into_inner);
        let found = explorer.intern(token, "the position to analyse").and_then(|id| Ok((id, explorer.values(&[id])?[0])));
        let (id, value) = found.map_err(|error| forget(&mut explorer, self.limits, error))?;
        let mut children: Vec<u32> = explorer.moves(id).unwrap_or_default().to_vec();
        let mut seen = std::collections::HashSet::new();
        children.retain(|&c| seen.insert(c));
        check_moves("game program", children.len() as u64)?;
        let moves = children
            .iter()
            .map(|&c| {
                let (name, eval) = (explorer.token(c).to_string(), Eval::grundy(u64::from(explorer.value(c).expect("solved below the root"))));
                move_info(format!("to {name}"), name, eval, json!({}))
            })
            .collect();
        let drawing = json!({"text": token});
        Ok(analysis(token.to_string(), Eval::grundy(u64::from(value)), drawing, moves))
    }
}

/// Starts the explorer afresh after a failed analysis (what it kept may be a half-explored
/// graph past its limit); the error, in the explorer's words when the limit was the cause.
fn forget(explorer: &mut Explorer, limits: GraphLimits, error: Error) -> Error {
    let full = explorer.len() >= limits.max_positions;
    *explorer = Explorer::new(explorer.program().clone(), Convention::Normal, limits);
    if full {
        return Error::Usage(format!(
            "game program: the position reaches more than {} positions, the most the explorer keeps (about {} MiB); its exact value is out of reach here",
            limits.max_positions,
            (100 * limits.max_positions) >> 20
        ));
    }
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    fn kayles_command() -> String {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/kayles_doc.py");
        format!("python3 {}", script.display())
    }

    fn kayles() -> Box<dyn Explore> {
        program_explorer(&kayles_command()).unwrap()
    }

    #[test]
    fn a_position_past_the_limit_is_refused_and_the_next_one_answered() {
        let explorer = explorer_within(&kayles_command(), GraphLimits { max_positions: 60, max_moves: 100, ..LIMITS }, ProgramLimits::default()).unwrap();
        let err = explorer.analyse("30").unwrap_err();
        assert!(matches!(err, Error::Usage(_)) && err.to_string().contains("more than 60 positions"), "{err}");
        assert_eq!(explorer.analyse("4").unwrap().value, Some(1));
    }

    #[test]
    fn kayles_through_the_program() {
        let explorer = kayles();
        assert_eq!(explorer.info().example, "6");
        // Kayles (0.77): g(1..=6) = 1 2 3 1 4 3.
        let analysis = explorer.analyse("6").unwrap();
        assert_eq!((analysis.value, analysis.winner), (Some(3), Winner::First));
        for m in &analysis.moves {
            assert_eq!(explorer.analyse(&m.position).unwrap().value, m.value, "{}", m.name);
        }
        assert!(matches!(explorer.analyse("6 7").unwrap_err(), Error::Input { line: 1, col: 3, .. }));
        assert!(matches!(explorer.analyse("").unwrap_err(), Error::Input { .. }));
    }
}
