//! The catalogue's commands: `solve` and `verify` for each of its eight games; their registry entries.

use super::contest::{divisor_special, pile_of, CatalogueContest, Family};
use super::run::{recompute_size, CatalogueOptions, CatalogueRun};
use super::{cross, divisor, misere_nim, nim, odd_even_nim, pimber, polygon};
use crate::output::records::Columns;
use crate::error::{Error, Result};
use crate::game::commands::{run_verification, RUN_OPTIONS};
use crate::game::stress::{max_in, run_stress, stress_spec};
use crate::game::{Args, Command, CommandSpec, Game, OptSpec, Oracle, Recompute, ResultsDir, Session, Status, StressSide, Verb};
use crate::runner::Verification;

/// The columns of the Nim family: piles, largest pile, stones in all, the piles.
pub(super) const PILES: Columns = Columns { size: ["piles", "largest_pile"], key: "stones", position: "position" };

/// One catalogue game: its names, help lines, contest solver and committed results.
#[derive(Clone, Copy)]
pub struct CatalogueGame {
    pub name: &'static str,
    pub solve_about: &'static str,
    pub verify_about: &'static str,
    /// Answers a whole contest input (source name, text) with one line.
    pub solve: fn(&str, &str) -> Result<String>,
    pub results: &'static [&'static str],
    /// The names of its size, key and position columns.
    pub columns: Columns,
    /// Example command lines of `solve`, and of `verify`.
    pub examples: &'static [&'static str],
    pub verify_examples: &'static [&'static str],
    /// The answers `solve` prints: the first player's win and loss words (empty: a number).
    pub answers: &'static [&'static str],
    /// The contest input family, for `stress`.
    pub family: Family,
    /// Default `--max` of `stress` (the exhaustive generator's bound), and its help's examples.
    pub stress_max: &'static str,
    pub stress_examples: &'static [&'static str],
}

impl Game for CatalogueGame {
    fn name(&self) -> &'static str {
        self.name
    }

    fn commands(&self) -> Vec<Box<dyn Command>> {
        vec![Box::new(Solve(*self)), Box::new(Verify(*self)), Box::new(Stress(*self))]
    }

    fn results(&self) -> Vec<ResultsDir> {
        self.results.iter().map(|&dir| ResultsDir { dir, recompute: Recompute::Sizes(recompute_size) }).collect()
    }

    fn oracle(&self) -> Oracle {
        Oracle { files: &["src/impartial.rs"], may_use: &[] }
    }

    fn columns(&self) -> Columns {
        self.columns
    }
}

/// `solve GAME`: one answer line.
struct Solve(CatalogueGame);

impl Command for Solve {
    fn verb(&self) -> Verb {
        Verb::Solve
    }

    fn spec(&self) -> CommandSpec {
        CommandSpec {
            name: self.0.name,
            about: self.0.solve_about,
            options: vec![crate::game::commands::INPUT_FILE],
            examples: self.0.examples,
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let (name, text) = session.read_input(args.text("file"))?;
        let answer = (self.0.solve)(&name, &text)?;
        writeln!(session.stdout, "{answer}").map_err(|e| Error::io("<stdout>", e))?;
        Ok(Status::Ok)
    }
}

/// `verify GAME`: every position up to a size, claim vs brute force.
struct Verify(CatalogueGame);

impl Command for Verify {
    fn verb(&self) -> Verb {
        Verb::Verify
    }

    fn spec(&self) -> CommandSpec {
        let mut options = verify_options();
        options.extend_from_slice(RUN_OPTIONS);
        CommandSpec { name: self.0.name, about: self.0.verify_about, options, examples: self.0.verify_examples }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let own: Vec<&str> = verify_options().iter().map(|o| o.name).collect();
        run_verification(&*build(self.0.name, args)?, &own, args, session)
    }

    fn verification(&self, args: &Args) -> Option<Result<Box<dyn Verification>>> {
        Some(build(self.0.name, args))
    }
}

/// `stress GAME`: the program under test against `solve GAME`.
struct Stress(CatalogueGame);

const WINNER: &[&str] = &["koosaga", "cubelover"];
const ONE_TWO: &[&str] = &["1", "2"];

impl Stress {
    fn build(&self, args: &Args) -> Result<Box<dyn StressSide>> {
        let range = match self.0.family {
            Family::Piles { .. } => 1..=40,
            Family::Number { min, max, .. } => min..=max,
        };
        Ok(Box::new(CatalogueContest { game: self.0, exhaustive_max: max_in(args, self.0.name, range)? }))
    }
}

impl Command for Stress {
    fn verb(&self) -> Verb {
        Verb::Stress
    }

    fn spec(&self) -> CommandSpec {
        let help = match self.0.family {
            Family::Piles { .. } => "The exhaustive generator's bound: every list of piles with at most this many stones in all (at most 40).",
            Family::Number { .. } => "The exhaustive generator's bound: every N from the smallest up to this.",
        };
        stress_spec(self.0.name, self.0.solve_about, OptSpec::value("max", "N", help).default(self.0.stress_max), self.0.stress_examples)
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        run_stress(self.0.name, |a| self.build(a), args, session)
    }

    fn stress_side(&self, args: &Args) -> Option<Result<Box<dyn StressSide>>> {
        Some(self.build(args))
    }
}

const NIM_PILES: Family = Family::Piles {
    max_piles: nim::MAX_PILES as u64,
    max_pile: nim::MAX_PILE as u64,
    heap_value: |v| v,
    with_value: pile_of,
};

pub static NIM: CatalogueGame = CatalogueGame {
    name: "nim",
    solve_about: "Nim: N (≤ 100) then N piles (≤ 10^9); prints koosaga (first wins) or cubelover.",
    verify_about: "Nim: XOR vs brute force on every multiset of piles.",
    solve: nim::solve,
    results: &["nim"],
    columns: PILES,
    examples: &["printf '3\\n1 2 3\\n' | sprague solve nim"],
    verify_examples: &["sprague verify nim --piles 5 --max 10"],
    answers: WINNER,
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress nim --cmd ./a.out", "sprague stress nim --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static NIM_COUNT: CatalogueGame = CatalogueGame {
    name: "nim-count",
    solve_about: "Nim: same input; prints the number of winning first moves.",
    verify_about: "Nim: the winning-move count formula vs brute force.",
    solve: nim::solve_count,
    results: &["nim-count"],
    columns: PILES,
    examples: &["printf '3\\n3 4 5\\n' | sprague solve nim-count"],
    verify_examples: &["sprague verify nim-count --piles 5 --max 10"],
    answers: &[],
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress nim-count --cmd ./a.out", "sprague stress nim-count --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static MISERE_NIM: CatalogueGame = CatalogueGame {
    name: "misere-nim",
    solve_about: "Misère Nim (last stone loses): same input; koosaga / cubelover.",
    verify_about: "Misère Nim: Bouton's misère rule vs minimax.",
    solve: misere_nim::solve,
    results: &["misere-nim"],
    columns: PILES,
    examples: &["printf '3\\n1 1 1\\n' | sprague solve misere-nim"],
    verify_examples: &["sprague verify misere-nim --piles 5 --max 10"],
    answers: WINNER,
    family: NIM_PILES,
    stress_max: "12",
    stress_examples: &["sprague stress misere-nim --cmd ./a.out", "sprague stress misere-nim --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static ODD_EVEN_NIM: CatalogueGame = CatalogueGame {
    name: "odd-even-nim",
    solve_about: "Odd-even Nim: same input; koosaga / cubelover.",
    verify_about: "Odd-even Nim: the closed form vs brute force.",
    solve: odd_even_nim::solve,
    results: &["odd-even-nim"],
    columns: PILES,
    examples: &["printf '2\\n3 6\\n' | sprague solve odd-even-nim"],
    verify_examples: &["sprague verify odd-even-nim --piles 5 --max 10 --heaps 400"],
    answers: WINNER,
    family: Family::Piles { max_piles: nim::MAX_PILES as u64, max_pile: nim::MAX_PILE as u64, heap_value: odd_even_nim::heap_value, with_value: odd_even_nim::heap_with_value },
    stress_max: "12",
    stress_examples: &["sprague stress odd-even-nim --cmd ./a.out", "sprague stress odd-even-nim --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static PIMBER: CatalogueGame = CatalogueGame {
    name: "pimber",
    solve_about: "Pimber (remove a Fibonacci number): N (≤ 10^5) then piles (≤ 3·10^6); koosaga / cubelover.",
    verify_about: "Pimber: the mex recurrence vs brute force.",
    solve: pimber::solve,
    results: &["pimber"],
    columns: PILES,
    examples: &["printf '2\\n4 9\\n' | sprague solve pimber"],
    verify_examples: &["sprague verify pimber --piles 5 --max 10 --heaps 1200"],
    answers: WINNER,
    family: Family::Piles { max_piles: pimber::MAX_PILES as u64, max_pile: pimber::MAX_PILE as u64, heap_value: pimber::heap_value, with_value: pimber::heap_with_value },
    stress_max: "12",
    stress_examples: &["sprague stress pimber --cmd ./a.out", "sprague stress pimber --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static POLYGON: CatalogueGame = CatalogueGame {
    name: "polygon",
    solve_about: "Polygon chords: N (3..1000), optionally the N vertices; prints 1 or 2.",
    verify_about: "Polygon chords: the recurrence vs play on the polygon.",
    solve: polygon::solve,
    results: &["polygon"],
    columns: Columns { size: ["polygons", "vertices"], key: "free_vertices", position: "polygon" },
    examples: &["printf '5\\n' | sprague solve polygon"],
    verify_examples: &["sprague verify polygon --max 14"],
    answers: ONE_TWO,
    family: Family::Number { min: polygon::MIN_N as u64, max: polygon::MAX_N as u64, vertices: true, special: Vec::new },
    stress_max: "1000",
    stress_examples: &["sprague stress polygon --cmd ./a.out", "sprague stress polygon --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static CROSS: CatalogueGame = CatalogueGame {
    name: "cross",
    solve_about: "Cross on a 1×N strip (N ≤ 2000), by real play; prints 1 or 2.",
    verify_about: "Cross: the published recurrence (or the solver) vs play on the strip.",
    solve: cross::solve,
    results: &["cross", "cross-solver"],
    columns: Columns { size: ["strips", "cells"], key: "free_cells", position: "strip" },
    examples: &["printf '7\\n' | sprague solve cross"],
    verify_examples: &["sprague verify cross --max 20", "sprague verify cross --max 20 --rule solver"],
    answers: ONE_TWO,
    family: Family::Number { min: 1, max: cross::MAX_N as u64, vertices: false, special: Vec::new },
    stress_max: "2000",
    stress_examples: &["sprague stress cross --cmd ./a.out", "sprague stress cross --cmd 'python3 sol.py' --generator random --seed 7"],
};

pub static DIVISOR: CatalogueGame = CatalogueGame {
    name: "divisor",
    solve_about: "Divisor game: N (≤ 10^18); koosaga / cubelover.",
    verify_about: "Divisor game: Ω(N) − 1 vs the divisor DAG (--max a power of ten).",
    solve: divisor::solve,
    results: &["divisor"],
    columns: Columns { size: ["numbers", "decade"], key: "prime_factors", position: "n" },
    examples: &["printf '12\\n' | sprague solve divisor"],
    verify_examples: &["sprague verify divisor --max 1000000"],
    answers: WINNER,
    family: Family::Number { min: 1, max: divisor::MAX_N, vertices: false, special: divisor_special },
    stress_max: "100000",
    stress_examples: &["sprague stress divisor --cmd ./a.out", "sprague stress divisor --cmd 'python3 sol.py' --generator random --seed 7"],
};

/// The verification `verify GAME` runs with these options.
pub fn build(game: &str, args: &Args) -> Result<Box<dyn Verification>> {
    Ok(Box::new(CatalogueRun::new(CatalogueOptions {
        game: game.to_string(),
        rule: args.text("rule").map(str::to_string),
        piles: args.require("piles")?,
        max: args.require("max")?,
        heaps: args.require("heaps")?,
        sequence: args.get("sequence")?,
    })?))
}

/// The options of every catalogue `verify`.
pub fn verify_options() -> Vec<OptSpec> {
    vec![
        OptSpec::value("max", "MAX", "Largest pile (Nim family), vertices (polygon), cells (cross), or N as a power of ten (divisor).").required(),
        OptSpec::value("piles", "PILES", "Nim family: check every multiset of 1..=PILES piles.").default("4"),
        OptSpec::value("heaps", "HEAPS", "Nim family: also check single heaps up to this size.").default("0"),
        OptSpec::value("rule", "RULE", "Claim variant (default: the game's own; cross: `published` or `solver`)."),
        OptSpec::value("sequence", "N", "Write sequence.csv with single-heap brute-force values for 0..=N (default: the largest heap checked, at most 10000)."),
    ]
}
