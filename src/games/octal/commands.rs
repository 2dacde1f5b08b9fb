//! The octal family's commands: `solve octal` (contest input), `verify octal CODE`, `table octal
//! CODE`, `prove octal CODE` ([`super::prove`]), `stress octal`; the registry entry.

use super::brute::{self, WholePositions};
use super::compute::{check_three_heap_time, code_arg, solve_method, CODE};
use super::parse_input;
use crate::error::{Error, Result};
use crate::game::{vocabulary, Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Session, SolveCommand, Verb, VerifyCommand};
use crate::impartial::BruteForce;
use crate::runner::Verification;


/// Take-and-break games given by their code.
pub static GAME: GameEntry = GameEntry {
    name: "octal",
    commands,
    results: super::family_check::results,
    oracle: Oracle { files: &["src/games/octal/brute.rs", "src/impartial.rs"], may_use: &["super::code", "crate::impartial"] },
    columns: super::verify::COLUMNS,
    values: crate::output::records::Values::GRUNDY,
    report: None,
    explore: Some(super::explore::explorer),
    // The proofs too long to commit (values/CODE.csv of COMMITTED_VALUES or more heaps).
    omitted: &[super::family::VALUES_DIR],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(super::table::TableOctal), Box::new(super::prove::ProveOctal), Box::new(super::family_run::ProveFamily), Box::new(super::contest::STRESS)]
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
        options: vec![vocabulary::engine(ENGINES), OptSpec::flag("force", "Answer even when the values would take more than about a minute (codes with long runs of three-heap moves: plain mex, cubic in the largest heap; dense codes with long runs of two-heap moves: quadratic).")],
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
        let force = args.flag("force");
        let named = |e: Error| Error::Usage(format!("{name}: {e}"));
        check_three_heap_time(&input.code, largest, force).map_err(named)?;
        let method = solve_method(&input.code, largest, force).map_err(named)?;
        let g = super::values::values(&input.code, largest, method)?;
        input.heaps.iter().fold(0, |x, &h| x ^ g[h]) != 0
    };
    session.println(if first_wins { "First" } else { "Second" })
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
