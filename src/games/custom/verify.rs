//! `verify custom`: a game program's claim and components against the exact values of every starting position of sizes 0..=N.

use super::program;
use crate::custom::program::{Ask, GameProgram, ProgramRun, Start};
use crate::error::Result;
use crate::game::{Args, CommandSpec, OptSpec, Verb, VerifyCommand};
use crate::runner::Verification;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

pub static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "custom",
        about: "Your game as a program in any language (docs/custom-programs.md): its claim and components vs the exact values of every starting position of sizes 0..=N. --threads = copies of the program.",
        options: {
            let mut options = program::options();
            options.push(OptSpec::value("max", "N", "Every starting position of sizes 0..=N (`positions 0` … `positions N`; N ≤ 1000000).").required().validate(|s| program::parse_max(s).map(|_| ())));
            options
        },
        examples: &[
            "sprague verify custom --game-cmd 'python3 kayles.py' --max 40",
            "sprague verify custom --game-cmd './mygame' --max 12 --convention misere --game-timeout 60",
        ],
    },
    build,
};

/// The run the options describe; the program starts only when the run first needs it.
fn build(args: &Args) -> Result<Box<dyn Verification>> {
    let command = program::command(args)?;
    let limits = program::limits(args)?;
    let max = program::max_size(args)?;
    let copies = match args.get::<usize>("threads")? {
        Some(n) => n.max(1),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let files: serde_json::Map<String, Value> = program::program_files(&command)?.into_iter().map(|(path, sha)| (path, sha.into())).collect();
    let described = BTreeMap::from([("program".to_string(), Value::from(command.display())), ("program_files".to_string(), Value::Object(files))]);
    let start: Start = Box::new(move || Ok(Arc::new(GameProgram::start(command.clone(), copies, limits)?) as Arc<dyn Ask>));
    Ok(Box::new(ProgramRun::new(start, program::convention(args)?, program::graph_limits(args)?, max, described)))
}
