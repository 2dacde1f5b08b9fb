//! `sprague table custom`: the exact value of every starting position of a game program up to a size (CSV), and the period a sequence of them shows.

use super::program;
use crate::custom::program::table::{observed_period, sequence, table, Table, TableRow};
use crate::custom::program::Explorer;
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, Verb};
use crate::impartial::Convention;
use crate::output::csv::{write_csv, write_csv_to, CsvRecord};
use std::path::Path;
use std::sync::Arc;

/// `table custom`.
#[derive(Clone, Copy)]
pub struct TableCustom;

impl Command for TableCustom {
    fn verb(&self) -> Verb {
        Verb::Table
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            OptSpec::value("max", "N", "Every starting position of sizes 0..=N.").required().validate(|s| program::parse_max(s).map(|_| ())),
            OptSpec::value("out", "FILE", "Write the CSV (`size,position,value`) here, atomically; without it the CSV goes to stdout (the summary goes to stderr either way)."),
            OptSpec::value("threads", "N", "Copies of the game program run at once (default: the number of cores)."),
            OptSpec::flag("components", "Trust the program's `components`: a position that splits is worth the XOR of its parts (normal play; verify custom checks it)."),
        ];
        options.extend(program::options_with_memory());
        CommandSpec {
            name: "custom",
            about: "A game program's exact values (Grundy values, or outcomes under misère) of every starting position up to a size, and the period they show.",
            options,
            examples: &[
                "sprague table custom --game-cmd 'python3 subtraction.py' --max 100 --out table.csv",
                "sprague table custom --game-cmd ./game --max 30 --convention misere",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let max = program::max_size(args)?;
        let convention = program::convention(args)?;
        let split = args.flag("components");
        if split && convention == Convention::Misere {
            return Err(Error::Usage("--components needs normal play: sums of misère games do not XOR".into()));
        }
        let _lock = args.text("out").map(|out| session.lock_file(Path::new(out))).transpose()?;
        let game = Arc::new(program::start(args, rayon::current_num_threads())?);
        let mut explorer = Explorer::new(game, convention, program::graph_limits(args)?);
        let Table { rows, empty_splits } = table(&mut explorer, max, split)?;
        let mut summary = vec![format!("table custom: {} (sizes 0..={max}, {}, {} positions explored)", counted(&rows), convention_name(convention), explorer.len())];
        summary.push(period_line(&rows, max));
        summary.extend(empty_split_warning(&empty_splits));
        match args.text("out") {
            Some(out) => {
                write_csv(Path::new(out), &rows)?;
                summary[0].push_str(&format!("; written to {out}"));
            }
            None => write_csv_to::<TableRow, &TableRow>(session.stdout, Path::new("<stdout>"), TableRow::HEADER, &rows)?,
        }
        // The summary goes to stderr, with or without --out, as every `table` command's does.
        summary.iter().for_each(|l| session.report(l));
        Ok(Status::Ok)
    }
}

fn convention_name(convention: Convention) -> &'static str {
    match convention {
        Convention::Normal => "normal play, Grundy values",
        Convention::Misere => "misère play, outcomes: 1 the player to move wins",
    }
}

/// A warning for `components` answers with no parts: taken as the empty sum (value 0), as
/// the protocol says, but a game whose parts are missing is the likelier reading.
fn empty_split_warning(tokens: &[String]) -> Option<String> {
    let first = tokens.first()?;
    let (noun, was) = if tokens.len() == 1 { ("position", "was") } else { ("positions", "were") };
    Some(format!(
        "warning: {} {noun} answered `components` with no parts (the first: {first:?}) and {was} taken as the empty game, value 0; a position that does not split answers `-`",
        tokens.len()
    ))
}

/// `N starting positions, values 0..=M`.
fn counted(rows: &[TableRow]) -> String {
    let noun = if rows.len() == 1 { "starting position" } else { "starting positions" };
    match rows.iter().map(|r| r.value).max() {
        Some(top) => format!("{} {noun}, values up to {top}", rows.len()),
        None => format!("0 {noun}"),
    }
}

/// The period line: the one observed on a sequence (one starting position per size), none
/// observed, or why none is looked for.
pub fn period_line(rows: &[TableRow], max: u32) -> String {
    let Some(values) = sequence(rows, max) else {
        return "period: not looked for (a sequence needs exactly one starting position of every size)".to_string();
    };
    match observed_period(&values) {
        Some(p) => format!("period {} after a preperiod of {} (observed on sizes 0..={max}, not proved)", p.period, p.preperiod),
        None => format!("period: none observed on sizes 0..={max} (a period must repeat twice after its preperiod)"),
    }
}
