//! A game given as a program in any language (`--game-cmd`, docs/custom-programs.md): its shared options and its commands.

pub mod explore;
pub mod program;
pub mod stress;
pub mod table;
pub mod verify;

pub use explore::program_explorer;

use crate::custom::COLUMNS;
use crate::game::{Command, GameEntry, Oracle};

/// The user's game program.
pub static GAME: GameEntry = GameEntry {
    name: "custom",
    commands,
    results: Vec::new,
    oracle: Oracle {
        files: &["src/custom/program/graph.rs"],
        // Besides the protocol and mex: helpers that only word messages (a token cut short, a
        // byte count or a count of positions, how to get within a limit).
        may_use: &[
            "super::protocol",
            "super::limits",
            "super::Ask",
            "crate::error",
            "crate::impartial::mex",
            "crate::impartial::Convention",
            "crate::output::text::counted",
            "crate::output::text::format_bytes",
            "crate::output::text::shorten",
        ],
    },
    columns: COLUMNS,
    values: crate::output::records::Values::GRUNDY,
    report: None,
    explore: None,
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(verify::VERIFY), Box::new(table::TableCustom), Box::new(stress::StressCustom)]
}
