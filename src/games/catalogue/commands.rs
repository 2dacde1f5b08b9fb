//! The catalogue's commands: `solve` and `verify` for each of its eight games; their registry entries.

use super::contest::{CatalogueContest, Family};
use super::moves::MoveRule;
use super::run::{recompute_size, CatalogueOptions, CatalogueRun};
use super::verify::{Layout, Verifier};
use crate::output::records::Columns;
use crate::error::Result;
use crate::game::commands::{run_verification, RUN_OPTIONS};
use crate::game::explore::Explore;
use crate::game::stress::{max_in, run_stress, stress_spec};
use crate::game::{Args, Command, CommandSpec, Game, OptSpec, Oracle, Recompute, ResultsDir, Session, Status, StressSide, Verb};
use crate::runner::Verification;

/// The columns of the Nim family: piles, largest pile, stones in all, the piles.
pub(super) const PILES: Columns = Columns { size: ["piles", "largest_pile"], key: "stones", position: "position", answer: false };

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
    /// What `verify --max` bounds; the claim variants `verify --claim` offers (none: the
    /// option is not offered); whether sequence.csv (and `--sequence`) applies.
    pub max_help: &'static str,
    pub claims: &'static [(&'static str, &'static str)],
    pub sequence: bool,
    /// Default `--max` of `stress` (the exhaustive generator's bound), and its help's examples.
    pub stress_max: &'static str,
    pub stress_examples: &'static [&'static str],
    /// What `sprague serve` shows of the game.
    pub explore: fn() -> Box<dyn Explore>,
    /// How a program's move is printed and judged (`stress --answer move`); none: the game's
    /// answer is not a move (nim-count) or needs more than the claim (cross).
    pub moves: Option<MoveRule>,
    /// The naive oracle: the game's move rule and brute force under `rules/`, never its claim.
    pub oracle: Oracle,
    /// What `verify` checks: the claim variant named (`None`: the game's default claim; a name
    /// the game lacks gives the default, which `verify::verifier` then refuses by its rule).
    pub verifier: fn(Option<&str>) -> Box<dyn Verifier>,
    /// How `verify` lays out its sizes (`--piles`/`--max`/`--heaps` and the jobs they make).
    pub layout: Layout,
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
        self.oracle
    }

    fn columns(&self) -> Columns {
        self.columns
    }

    fn explore(&self) -> Option<Box<dyn Explore>> {
        Some((self.explore)())
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
        session.println(&answer.to_string())?;
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
        let mut options = verify_options(&self.0);
        options.extend_from_slice(RUN_OPTIONS);
        CommandSpec { name: self.0.name, about: self.0.verify_about, options, examples: self.0.verify_examples }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        let own: Vec<&str> = verify_options(&self.0).iter().map(|o| o.name).collect();
        run_verification(&*build(self.0.name, args)?, &own, args, session)
    }

    fn verification(&self, args: &Args) -> Option<Result<Box<dyn Verification>>> {
        Some(build(self.0.name, args))
    }
}

/// `stress GAME`: the program under test against `solve GAME`.
struct Stress(CatalogueGame);

impl Stress {
    fn build(&self, args: &Args) -> Result<Box<dyn StressSide>> {
        let range = match self.0.family {
            Family::Piles { .. } => 1..=40,
            Family::Number { min, max, .. } => min..=max,
        };
        let contest = CatalogueContest { game: self.0, exhaustive_max: max_in(args, self.0.name, range)? };
        match self.0.moves {
            Some(_) => crate::game::stress::side_with_moves(contest, args),
            None => Ok(Box::new(contest)),
        }
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

/// The verification `verify GAME` runs with these options.
pub fn build(game: &str, args: &Args) -> Result<Box<dyn Verification>> {
    Ok(Box::new(CatalogueRun::new(CatalogueOptions {
        game: game.to_string(),
        rule: args.text("claim").map(str::to_string),
        piles: args.get("piles")?.unwrap_or(DEFAULT_PILES),
        max: args.require("max")?,
        heaps: args.get("heaps")?.unwrap_or(0),
        sequence: args.get("sequence")?,
    })?))
}

/// Piles of a Nim-family run without --piles (what older manifests of other games record too).
const DEFAULT_PILES: u32 = 4;

/// The options of `verify GAME`: only those that apply to the game.
pub fn verify_options(game: &CatalogueGame) -> Vec<OptSpec> {
    let mut options = vec![OptSpec::value("max", "MAX", game.max_help).required()];
    if let Family::Piles { .. } = game.family {
        options.push(OptSpec::value("piles", "PILES", "Check every multiset of 1..=PILES piles.").default("4"));
        options.push(OptSpec::value("heaps", "HEAPS", "Also check single heaps up to this size.").default("0"));
    }
    if let Some(&(first, _)) = game.claims.first() {
        options.push(OptSpec::value("claim", "CLAIM", "The claim under test.").default(first).choices(game.claims).aliases(&["rule"]));
    }
    if game.sequence {
        options.push(OptSpec::value(
            "sequence",
            "N",
            "Write sequence.csv with single-heap brute-force values for 0..=N (default: the largest heap checked, at most 10000).",
        ));
    }
    options
}
