//! What a game declares: its commands (solve, verify, …), committed results and independent oracle.
//!
//! Every game implements [`Game`]; the list of all games is [`crate::games::REGISTRY`], from
//! which the command line, `check` and the tests are derived.

pub mod commands;
pub mod explore;
pub mod explore_kit;
pub mod options;
pub mod session;
pub mod stress;
pub mod vocabulary;

pub use commands::{SolveCommand, VerifyCommand};
pub use stress::{StressCommand, StressSide};
pub use options::{Args, OptSpec};
pub use session::{Session, Status};
pub use crate::check::{MergedCheck, Recompute, ResultsDir};
pub use crate::output::run_report::RunReport;

use crate::error::Result;
use crate::output::records::{Columns, Values};
use crate::runner::Verification;

/// The verbs of the command line (`sprague VERB NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verb {
    /// Answer a contest input.
    Solve,
    /// Check a claim against the naive oracle on every small position.
    Verify,
    /// Run someone's contest program on generated inputs against the verified solver.
    Stress,
    /// Search for positions with extreme values.
    Search,
    /// The claimed side alone on every pattern (sizes beyond the oracle's reach).
    Census,
    /// Write a table of exact values.
    Table,
    /// Prove values for unbounded sizes by induction (e.g. every row of an empty board).
    Prove,
    /// Write a report with plots from committed results.
    Report,
}

impl Verb {
    /// Every verb, in help order.
    pub const ALL: [Verb; 8] = [Verb::Solve, Verb::Verify, Verb::Stress, Verb::Census, Verb::Search, Verb::Table, Verb::Prove, Verb::Report];

    /// One line of help for the verb.
    pub fn about(self) -> &'static str {
        match self {
            Verb::Solve => "Answer a contest input (prints the winner).",
            Verb::Verify => "Check a game's claim against brute force on every small position.",
            Verb::Stress => "Run a contest program on generated inputs, judge it against the verified solver, shrink and save what fails.",
            Verb::Search => "Search for positions of extreme value (e.g. wall boards of large Grundy value).",
            Verb::Census => "Count the claimed values of every position of sizes beyond the naive side's reach (no cross-check).",
            Verb::Table => "Write a table of exact values (e.g. the Grundy value of every empty board).",
            Verb::Prove => "Prove exact values for unbounded sizes (e.g. every X-free wall board with a side ≤ A).",
            Verb::Report => "Write report.md and SVG plots (tables, histograms, P-positions, empty-board heat map).",
        }
    }

    /// True for verbs without a game name on the command line (`sprague report`): their one
    /// command is the verb itself.
    pub fn flat(self) -> bool {
        self == Verb::Report
    }

    /// The verb as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Verb::Solve => "solve",
            Verb::Verify => "verify",
            Verb::Stress => "stress",
            Verb::Search => "search",
            Verb::Census => "census",
            Verb::Table => "table",
            Verb::Prove => "prove",
            Verb::Report => "report",
        }
    }
}

/// A command's name, one-line help, options and usage examples.
#[derive(Debug, Clone)]
pub struct CommandSpec {
    /// Subcommand name under its verb: the game's name, or a table's name.
    pub name: &'static str,
    pub about: &'static str,
    pub options: Vec<OptSpec>,
    /// Example command lines shown at the end of the help page.
    pub examples: &'static [&'static str],
}

/// One command of a game.
pub trait Command: Sync {
    fn verb(&self) -> Verb;
    fn spec(&self) -> CommandSpec;
    /// Runs the command with the given option values.
    fn run(&self, args: &Args, session: &mut Session) -> Result<Status>;
    /// For verify-style commands: the verification these options describe (`merge` rebuilds a
    /// sharded run's with it from the options its manifests record).
    fn verification(&self, _args: &Args) -> Option<Result<Box<dyn Verification>>> {
        None
    }
    /// For `stress` commands: the contest side these options describe.
    fn stress_side(&self, _args: &Args) -> Option<Result<Box<dyn StressSide>>> {
        None
    }
}

/// The naive oracle's source files and the only modules they may name (tests enforce it).
#[derive(Debug, Clone, Copy)]
pub struct Oracle {
    /// Paths from the crate root, e.g. `src/games/<game>/naive.rs`.
    pub files: &'static [&'static str],
    /// Module paths the files may use, e.g. `super::rules`, `crate::error`.
    pub may_use: &'static [&'static str],
}

/// A game: its name, its commands, its committed results and its oracle.
pub trait Game: Sync {
    /// Name in result files and on the command line.
    fn name(&self) -> &'static str;
    fn commands(&self) -> Vec<Box<dyn Command>>;
    /// The committed results directories of this game.
    fn results(&self) -> Vec<ResultsDir> {
        Vec::new()
    }
    fn oracle(&self) -> Oracle;
    /// The names of the size, key and position columns of its verify files.
    fn columns(&self) -> Columns;
    /// What its value column means ([`Values::GRUNDY`]: Grundy values, zeros are P-positions).
    fn values(&self) -> Values {
        Values::GRUNDY
    }
    /// The game's own report of one of its run directories (`None`: the generic one, a
    /// summary table and the Grundy-value distribution).
    fn report(&self) -> Option<RunReport> {
        None
    }
    /// What `sprague serve` shows of the game (`None`: the game is not on the page).
    fn explore(&self) -> Option<Box<dyn explore::Explore>> {
        None
    }
    /// Whether file `name` (as a manifest of its runs lists it) may be absent from the
    /// committed results by design (its digest stays listed; the game's own check recomputes it).
    fn omitted_by_design(&self, _name: &str) -> bool {
        false
    }
}


/// A game given by its parts (the usual way to declare one: `pub static GAME: GameEntry`).
pub struct GameEntry {
    pub name: &'static str,
    pub commands: fn() -> Vec<Box<dyn Command>>,
    pub results: fn() -> Vec<ResultsDir>,
    pub oracle: Oracle,
    pub columns: Columns,
    /// What the value column of its verify files means.
    pub values: Values,
    pub report: Option<RunReport>,
    /// The game's explorer for `sprague serve` (`None`: not shown there).
    pub explore: Option<fn() -> Box<dyn explore::Explore>>,
    /// Prefixes of the files its manifests list that the committed results leave out by design
    /// ([`Game::omitted_by_design`]).
    pub omitted: &'static [&'static str],
}

impl Game for GameEntry {
    fn name(&self) -> &'static str {
        self.name
    }
    fn commands(&self) -> Vec<Box<dyn Command>> {
        (self.commands)()
    }
    fn results(&self) -> Vec<ResultsDir> {
        (self.results)()
    }
    fn oracle(&self) -> Oracle {
        self.oracle
    }
    fn columns(&self) -> Columns {
        self.columns
    }
    fn values(&self) -> Values {
        self.values
    }
    fn report(&self) -> Option<RunReport> {
        self.report
    }
    fn explore(&self) -> Option<Box<dyn explore::Explore>> {
        self.explore.map(|make| make())
    }
    fn omitted_by_design(&self, name: &str) -> bool {
        self.omitted.iter().any(|prefix| name.starts_with(prefix))
    }
}
