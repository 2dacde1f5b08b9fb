//! The octal family's commands: `solve octal` (contest input), `verify octal CODE`, `table octal
//! CODE`, `prove octal CODE` ([`super::prove`]), `stress octal`; the registry entry.

use super::brute::{self, WholePositions};
use super::compute::{code_arg, computed, method_note, value_options, write_values, ValueRow, CODE};
use super::values::{Engine, Method};
use super::{parse_input, resume};
use crate::error::{Error, Result};
use crate::game::{vocabulary, Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Session, SolveCommand, Status, Verb, VerifyCommand};
use crate::impartial::BruteForce;
use crate::output::csv::CsvRecord;
use crate::runner::Verification;
use std::path::Path;
use std::time::Instant;


/// Take-and-break games given by their code.
pub static GAME: GameEntry = GameEntry {
    name: "octal",
    commands,
    results: super::family_check::results,
    oracle: Oracle { files: &["src/games/octal/brute.rs", "src/impartial.rs"], may_use: &["super::code", "crate::impartial"] },
    columns: super::verify::COLUMNS,
    report: None,
    explore: Some(super::explore::explorer),
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(TableOctal), Box::new(super::prove::ProveOctal), Box::new(super::family_run::ProveFamily), Box::new(super::contest::STRESS)]
}

/// Most stones in all that `solve octal --engine naive` searches.
pub const NAIVE_TOTAL: usize = 40;

const ENGINES: &[(&str, &str)] = &[
    ("claim", "XOR of the one-heap values (sparse-space method; full limits)."),
    ("naive", "Search of whole positions, never XORs (at most 40 stones in all)."),
];

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "octal",
        about: "Take-and-break game: its code (0.07, 0x0.8, {1,3,4}, grundy), n (≤ 1000), then n heaps (≤ 10^4); First if the player to move wins, else Second.",
        options: vec![vocabulary::engine(ENGINES)],
        examples: &["printf '0.77\\n2\\n3 5\\n' | sprague solve octal", "printf 's:1,3,4\\n1\\n7\\n' | sprague solve octal --engine naive"],
    },
    solve,
};

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let input = parse_input(&name, &text)?;
    let first_wins = if vocabulary::naive(args) {
        let total: usize = input.heaps.iter().sum();
        if total > NAIVE_TOTAL {
            return Err(Error::Usage(format!("--engine naive searches positions of at most {NAIVE_TOTAL} stones in all; {name} has {total}")));
        }
        brute::solve(&mut BruteForce::new(&WholePositions(&input.code)), &input.heaps).1
    } else {
        let largest = input.heaps.iter().copied().max().unwrap_or(0);
        let g = super::values::values(&input.code, largest, Method::Sparse)?;
        input.heaps.iter().fold(0, |x, &h| x ^ g[h]) != 0
    };
    writeln!(session.stdout, "{}", if first_wins { "First" } else { "Second" }).map_err(|e| Error::io("<stdout>", e))
}

const CLAIM_CHOICES: &[(&str, &str)] = &[
    ("xor", "XOR of the one-heap values (the claim under test)."),
    ("sum", "Their ordinary sum — a misreading, to show the check can fail."),
];

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "octal",
        about: "Take-and-break game: XOR of one-heap values vs whole-position search on every multiset of heaps.",
        options: vec![
            CODE,
            OptSpec::value("max", "T", "Every multiset of heaps with 1..=T stones in all (at most 40).").default("20"),
            OptSpec::value("claim", "CLAIM", "The claim under test.").default("xor").choices(CLAIM_CHOICES),
        ],
        examples: &["sprague verify octal 0.77 --max 30", "sprague verify octal 0.77 --max 6 --claim sum"],
    },
    build: |args| {
        let claim = super::verify::CLAIMS.of(args.text("claim"))?;
        Ok(Box::new(super::verify::OctalRun::new(code_arg(args)?, args.require("max")?, claim)?) as Box<dyn Verification>)
    },
};

/// Writes `n,grundy` for every value to standard output.
fn write_stdout(g: &[u16], session: &mut Session) -> Result<()> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(&mut *session.stdout);
    let io = |e: csv::Error| Error::Usage(format!("<stdout>: {e}"));
    csv.write_record(ValueRow::HEADER).map_err(io)?;
    for (n, &grundy) in g.iter().enumerate() {
        csv.serialize(ValueRow { n: n as u64, grundy }).map_err(io)?;
    }
    csv.flush().map_err(|e| Error::io("<stdout>", e))
}

/// `table octal CODE --max N`: the one-heap values as `n,grundy`.
#[derive(Clone, Copy)]
pub struct TableOctal;

impl Command for TableOctal {
    fn verb(&self) -> Verb {
        Verb::Table
    }

    fn spec(&self) -> CommandSpec {
        let mut options = vec![
            CODE,
            OptSpec::value("max", "N", "Every heap 0..=N.").default("1000"),
            OptSpec::value("out", "FILE", "Write the CSV (`n,grundy`) here, atomically (default: standard output); the checkpoint lies beside it."),
            OptSpec::flag("resume", "Continue the run whose checkpoint (FILE.checkpoint.json, FILE.values.bin) lies beside --out."),
            OptSpec::value("budget", "SECONDS", "Stop after this long, checkpoint saved (exit 3; --resume continues)."),
            OptSpec::value("checkpoint-secs", "SECONDS", "Seconds between checkpoints.").default("60").hidden(),
            OptSpec::value("checkpoint-heaps", "N", "Heaps between looks at the clock.").default("65536").hidden(),
            OptSpec::value("delay-ms", "MS", "Testing: sleep this long after every --checkpoint-heaps heaps.").default("0").hidden(),
        ];
        options.extend(value_options());
        CommandSpec {
            name: "octal",
            about: "Take-and-break game: the Grundy value of every heap up to --max (sparse-space method).",
            options,
            examples: &["sprague table octal 0.77 --max 100", "sprague table octal 0.6 --max 10000000 --out officers.csv"],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let code = code_arg(args)?;
        let max: usize = args.require("max")?;
        let started = Instant::now();
        let done = |engine: &Engine| format!("{code}: g(0..={max}) by {}, largest value {}, {:.2} s", method_note(engine), engine.largest(), started.elapsed().as_secs_f64());
        let Some(out) = args.text("out") else {
            if args.flag("resume") || args.text("budget").is_some() {
                return Err(Error::Usage("--resume and --budget need --out FILE (the checkpoint lies beside it)".into()));
            }
            let engine = computed(&code, max, args, session)?;
            write_stdout(engine.values(), session)?;
            session.report(&done(&engine));
            return Ok(Status::Ok);
        };
        let run = resume::run(&code, max, Path::new(out), args, session)?;
        if run.stopped {
            let last = run.engine.values().len() - 1;
            session.report(&format!("{code}: stopped at the --budget after g(0..={last}) ({}); checkpoint {out}.checkpoint.json; continue with --resume: sprague table octal {code} --max {max} --out {out} --resume", method_note(&run.engine)));
            return Ok(Status::Interrupted);
        }
        write_values(Path::new(out), &run.engine.values()[..=max])?;
        session.report(&format!("{}; written to {out}", done(&run.engine)));
        run.finish()?;
        Ok(Status::Ok)
    }
}
