//! Grundy's game's commands: `solve grundy` (contest input) and `verify grundy`; its registry entry.

use super::verify::{recompute_size, GrundyRun, CLAIMS, MAX_TOTAL};
use super::{claim, parse_input};
use crate::games::octal::brute::{self, WholePositions};
use crate::game::vocabulary;
use crate::output::records::Columns;
use crate::error::{Error, Result};
use crate::game::{Args, Command, CommandSpec, GameEntry, OptSpec, Oracle, Recompute, ResultsDir, Session, SolveCommand, Verb, VerifyCommand};
use crate::runner::Verification;

/// The names of the size, key and position columns of its verify files.
pub const COLUMNS: Columns = Columns { size: ["totals", "stones"], key: "heaps", position: "heap_sizes", answer: false };

/// Grundy's game (OEIS A002188).
pub static GAME: GameEntry = GameEntry {
    name: "grundy",
    commands,
    results,
    // The take-and-break engine's oracle on the code `grundy` (super::code is octal::code there).
    oracle: Oracle { files: &["src/games/octal/brute.rs", "src/impartial.rs"], may_use: &["super::code", "crate::impartial"] },
    columns: COLUMNS,
    values: crate::output::records::Values::GRUNDY,
    report: None,
    explore: Some(super::explore::explorer),
    omitted: &[],
};

fn commands() -> Vec<Box<dyn Command>> {
    vec![Box::new(SOLVE), Box::new(VERIFY), Box::new(super::contest::STRESS)]
}

fn results() -> Vec<ResultsDir> {
    vec![ResultsDir { dir: "grundy", recompute: Recompute::Sizes(|_, rule, r, c| recompute_size(rule, r, c)) }]
}

static SOLVE: SolveCommand = SolveCommand {
    spec: || CommandSpec {
        name: "grundy",
        about: "Grundy's game: n (≤ 1000), then n heaps (≤ 10^4); prints First if the player to move wins, else Second.",
        options: vec![vocabulary::engine(ENGINES)],
        examples: &["printf '2\\n3 5\\n' | sprague solve grundy", "printf '2\\n3 5\\n' | sprague solve grundy --engine naive"],
    },
    solve,
};

const ENGINES: &[(&str, &str)] = &[
    ("claim", "XOR of the one-heap values (verified; full limits)."),
    ("naive", "Search of whole positions, never XORs (at most 60 stones in all)."),
];

fn solve(args: &Args, session: &mut Session) -> Result<()> {
    let (name, text) = session.read_input(args.text("file"))?;
    let heaps = parse_input(&name, &text)?;
    let first_wins = if vocabulary::naive(args) {
        let total: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
        if total > u64::from(MAX_TOTAL) {
            return Err(Error::Usage(format!("--engine naive searches positions of at most {MAX_TOTAL} stones in all; {name} has {total}")));
        }
        let whole: Vec<usize> = heaps.iter().map(|&h| usize::from(h)).collect();
        brute::solve(&mut crate::impartial::BruteForce::new(&WholePositions(&super::code())), &whole).1
    } else {
        claim::grundy(&heaps) != 0
    };
    session.println(if first_wins { "First" } else { "Second" })
}

const CLAIM_CHOICES: &[(&str, &str)] = &[
    ("xor", "XOR of the one-heap recurrence (the claim under test)."),
    ("equal-splits", "The recurrence with equal halves allowed — a misreading, to show the check can fail."),
];

static VERIFY: VerifyCommand = VerifyCommand {
    verb: Verb::Verify,
    spec: || CommandSpec {
        name: "grundy",
        about: "Grundy's game: XOR of one-heap values vs whole-position search on every multiset of heaps.",
        options: vec![
            OptSpec::value("max", "T", "Every multiset of heaps with 1..=T stones in all (at most 60).").default("30").aliases(&["max-total"]),
            OptSpec::value("claim", "CLAIM", "The claim under test.").default("xor").choices(CLAIM_CHOICES),
        ],
        examples: &["sprague verify grundy --max 40", "sprague verify grundy --max 8 --claim equal-splits"],
    },
    build: |args| Ok(Box::new(GrundyRun::new(args.require("max")?, CLAIMS.of(args.text("claim"))?)?) as Box<dyn Verification>),
};
