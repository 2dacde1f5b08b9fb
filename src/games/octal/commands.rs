//! The octal family's commands: `solve octal` (contest input), `table octal CODE`, `prove octal
//! CODE` ([`super::prove`]), `stress octal`; the registry entry; the shared value computation.

use super::brute::{self, WholePositions};
use super::code::{Code, THREE};
use super::values::{Engine, Method};
use super::parse_input;
use crate::error::{Error, Result};
use crate::game::{vocabulary, Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Session, SolveCommand, Status, Verb, VerifyCommand};
use crate::runner::Verification;
use crate::impartial::BruteForce;
use crate::output::csv::{write_csv_rows, CsvRecord};
use crate::output::records::Columns;
use crate::sys::format_bytes;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["totals", "stones"], key: "heaps", position: "heap_sizes" };

/// Take-and-break games given by their code.
pub static GAME: GameEntry = GameEntry {
    name: "octal",
    commands,
    results: Vec::new,
    oracle: Oracle { files: &["src/games/octal/brute.rs", "src/impartial.rs"], may_use: &["super::code", "crate::impartial"] },
    columns: COLUMNS,
    report: None,
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(TableOctal), Box::new(super::prove::ProveOctal), Box::new(super::contest::STRESS)]
}

/// Most stones in all that `solve octal --engine naive` searches.
pub const NAIVE_TOTAL: usize = 40;

/// Three-heap codes: the plain mex steps beyond which a run needs --force (about a minute).
const MAX_STEPS: f64 = 3e10;

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

/// The CODE argument of `table`, `prove` and `verify`.
pub const CODE: OptSpec = OptSpec::positional(
    "code",
    "Take-and-break code: octal 0.07 or 4.07 (d0 before the point), hexadecimal 0x0.8, subtraction set {1,3,4} or s:1,3,4, or grundy.",
)
.required();

const METHODS: &[(&str, &str)] = &[("sparse", "Rare and common values (exact; plain mex where it does not apply)."), ("plain", "Plain mex over every option.")];

/// Options of every run that computes values.
pub fn value_options() -> [OptSpec; 4] {
    [
        OptSpec::value("method", "METHOD", "How values are computed.").default("sparse").choices(METHODS).hidden(),
        OptSpec::flag("force", "Run even when the estimate says it takes more than a minute (three-heap moves)."),
        OptSpec::flag("quiet", "No progress bar.").short('q'),
        OptSpec::value("memory-limit", "BYTES", "Memory to assume available (default: MemAvailable).").hidden(),
    ]
}

/// The code argument.
pub fn code_arg(args: &Args) -> Result<Code> {
    Code::parse(args.text("code").ok_or_else(|| Error::Usage("a take-and-break code is required".into()))?)
}

/// Refuses, with an estimate, values up to `max` that would not fit in memory or (plain mex of
/// three-heap moves) take more than an hour without --force.
pub fn check_fits(code: &Code, max: usize, args: &Args) -> Result<()> {
    let bytes = (max as u64).saturating_add(1).saturating_mul(2).saturating_add(1 << 20);
    let available = args.get::<u64>("memory-limit")?.or_else(crate::sys::available_memory_bytes);
    if let Some(available) = available.filter(|&a| bytes > a) {
        return Err(Error::Usage(format!("the values of {code} up to {max} need about {} of memory (2 bytes each); {} are available", format_bytes(bytes), format_bytes(available))));
    }
    let threes = code.digits.iter().filter(|d| *d & THREE != 0).count() as f64;
    let steps = threes * (max as f64).powi(3) / 36.0;
    if steps > MAX_STEPS && !args.flag("force") {
        return Err(Error::Usage(format!("{code} has three-heap moves (plain mex, about {steps:.1e} steps up to {max}): more than a minute; add --force to run it anyway")));
    }
    Ok(())
}

/// The engine with values up to `max`, computed by the method `--method` names.
pub fn computed(code: &Code, max: usize, args: &Args, session: &mut Session) -> Result<Engine> {
    check_fits(code, max, args)?;
    let mut engine = Engine::new(code, method(args));
    extend(&mut engine, max, session)?;
    Ok(engine)
}

/// The method `--method` names.
pub fn method(args: &Args) -> Method {
    if args.text("method") == Some("plain") {
        Method::Plain
    } else {
        Method::Sparse
    }
}

/// Extends `engine` to heap `max`, with a progress bar.
pub fn extend(engine: &mut Engine, max: usize, session: &mut Session) -> Result<()> {
    let progress = session.progress;
    progress.start("values", Some(max as u64 + 1), engine.values().len() as u64);
    engine.extend_to(max, &mut |done| progress.advance(done))?;
    progress.finish();
    Ok(())
}

/// How the values were computed, for the report line and the manifest.
pub fn method_note(engine: &Engine) -> String {
    match engine.method() {
        Method::Plain => "plain mex".to_string(),
        Method::Sparse => {
            let rare = engine.split().rare();
            let last = rare.last().map_or(String::new(), |n| format!(", the last at n = {n}"));
            format!("sparse space, mask {:#x}, {} rare values{last}", engine.split().mask(), rare.len())
        }
    }
}

/// One row of a values file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueRow {
    pub n: u64,
    pub grundy: u16,
}

impl CsvRecord for ValueRow {
    const HEADER: &'static [&'static str] = &["n", "grundy"];
}

/// Writes g(0..len) as `n,grundy` to `path`, atomically.
pub fn write_values(path: &Path, g: &[u16]) -> Result<()> {
    write_csv_rows::<ValueRow, ValueRow>(path, g.iter().enumerate().map(|(n, &grundy)| ValueRow { n: n as u64, grundy }))
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
            OptSpec::value("out", "FILE", "Write the CSV (`n,grundy`) here, atomically (default: standard output)."),
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
        let engine = computed(&code, max, args, session)?;
        let g = engine.values();
        let largest = g.iter().max().copied().unwrap_or(0);
        let done = format!("{code}: g(0..={max}) by {}, largest value {largest}, {:.2} s", method_note(&engine), started.elapsed().as_secs_f64());
        match args.text("out") {
            Some(out) => {
                write_values(Path::new(out), g)?;
                session.report(&format!("{done}; written to {out}"));
            }
            None => {
                let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(&mut *session.stdout);
                let io = |e: csv::Error| Error::Usage(format!("<stdout>: {e}"));
                csv.write_record(ValueRow::HEADER).map_err(io)?;
                for (n, &grundy) in g.iter().enumerate() {
                    csv.serialize(ValueRow { n: n as u64, grundy }).map_err(io)?;
                }
                csv.flush().map_err(|e| Error::io("<stdout>", e))?;
                drop(csv);
                session.report(&done);
            }
        }
        Ok(Status::Ok)
    }
}
