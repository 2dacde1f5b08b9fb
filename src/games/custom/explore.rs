//! What `sprague serve --game-cmd CMD` shows of a game given as a program: one position token,
//! the moves the program lists, and every value by brute force over its move graph.

use crate::custom::program::protocol::check_token;
use crate::custom::program::table::starting_positions;
use crate::custom::program::{Explorer, GameProgram, GraphLimits, ProgramLimits};
use super::program;
use crate::error::{Error, Result};
use crate::game::explore::{Analysis, Cancel, Explore, GameInfo, View};
use crate::game::explore_kit::{analysis, check_moves, move_info, Eval, SOURCE};
use crate::game::{Args, OptSpec};
use crate::impartial::Convention;
use crate::input::Scanner;
use crate::output::text::format_bytes;
use crate::stress::CommandLine;
use serde_json::json;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Most positions the explorer keeps by default (about 250 bytes each at the peak, 50 MiB in all): what a
/// program answers in a few seconds, for a page that waits on it.
pub const MAX_POSITIONS: usize = 200_000;

/// Time one analysis may spend exploring by default.
pub const TIME_LIMIT: Duration = Duration::from_secs(5);

/// [`MAX_POSITIONS`] and [`TIME_LIMIT`] (in seconds) as option defaults.
static MAX_POSITIONS_TEXT: LazyLock<String> = LazyLock::new(|| MAX_POSITIONS.to_string());
static TIME_LIMIT_TEXT: LazyLock<String> = LazyLock::new(|| TIME_LIMIT.as_secs_f64().to_string());

/// How far `sprague serve` goes for one position of a game program (docs/serve.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Time one analysis may spend exploring, looked at by every wait for an answer.
    pub time: Duration,
    /// Positions kept (across analyses; a position reaching more is refused), moves from one
    /// position (only the analysed position's are listed, at most 10,000) and bytes kept.
    pub graph: GraphLimits,
    /// Time the program may take per answer line, and bytes of answers held at once.
    pub program: ProgramLimits,
}

impl Default for Budget {
    /// The time and position limits above; the bytes kept and the answers held each bounded by
    /// half the memory available.
    fn default() -> Self {
        let half = crate::sys::available_memory_bytes().map_or(u64::MAX, |m| m / 2);
        Budget {
            time: TIME_LIMIT,
            graph: GraphLimits { max_positions: MAX_POSITIONS, max_moves: 1_000_000, max_bytes: half, smaller: None },
            program: ProgramLimits { answer_bytes: half, smaller: None, ..ProgramLimits::default() },
        }
    }
}

/// `sprague serve`'s options for a game program: `--game-cmd` (optional there), `--game-budget`,
/// and the limits of [`program::options_without_timeout`] but `--convention` (the page shows
/// normal play), their defaults those of [`Budget::default`].
pub fn options() -> Vec<OptSpec> {
    let game_cmd = "A custom game given as a program (docs/custom-programs.md), shown beside the built-in games as `custom`.";
    let budget = OptSpec::value("game-budget", "SECONDS", "Time one analysis of the game program may spend exploring; past it the position is refused (422).").default(&TIME_LIMIT_TEXT);
    let serve = |o: OptSpec| match o.name {
        "game-cmd" => Some([OptSpec { required: false, help: game_cmd, ..o }, budget].to_vec()),
        "max-positions" => Some(vec![o.default(&MAX_POSITIONS_TEXT)]),
        "convention" => None,
        _ => Some(vec![o]),
    };
    program::options_without_timeout().into_iter().filter_map(serve).flatten().collect()
}

/// The explorer of `--game-cmd` within the budget the [`options`] give, started now; `None`
/// without `--game-cmd` (every option is checked either way).
pub fn from_args(args: &Args) -> Result<Option<Box<dyn Explore>>> {
    let time = args.positive_seconds("game-budget")?.ok_or_else(|| Error::Usage("--game-budget is required".into()))?;
    // Serve analyses one position: it has no --max to lower.
    let graph = GraphLimits { smaller: None, ..program::graph_limits(args)? };
    let budget = Budget { time, graph, program: ProgramLimits { smaller: None, ..program::limits(args)? } };
    args.text("game-cmd").map(|command| program_explorer(command, budget)).transpose()
}

/// The largest size whose starting positions give the example.
const EXAMPLE_SIZE: u32 = 6;

/// The explorer of the game program `command` (normal play) within `budget`, started now: its
/// example is the first starting position of the largest size up to 6 that has one.
pub fn program_explorer(command: &str, budget: Budget) -> Result<Box<dyn Explore>> {
    let line = CommandLine::parse_option("--game-cmd", command)?;
    let mut explorer = start(&line, budget)?;
    let sizes = starting_positions(&mut explorer, EXAMPLE_SIZE)?;
    let example = sizes.iter().rev().find_map(|ids| ids.first()).map(|&id| explorer.token(id).to_string());
    let example = example.ok_or_else(|| Error::Usage(format!("game program {command:?} has no starting position of size 0 to {EXAMPLE_SIZE}")))?;
    Ok(Box::new(ProgramExplorer { command: command.to_string(), line, example, budget, explorer: Mutex::new(Some(explorer)) }))
}

/// A fresh copy of the program, and an explorer that knows nothing yet.
fn start(line: &CommandLine, budget: Budget) -> Result<Explorer> {
    let program = GameProgram::start(line.clone(), 1, budget.program)?;
    Ok(Explorer::new(Arc::new(program), Convention::Normal, budget.graph))
}

struct ProgramExplorer {
    command: String,
    line: CommandLine,
    example: String,
    budget: Budget,
    /// `None` after a failure the program could not be restarted from (tried again next time).
    explorer: Mutex<Option<Explorer>>,
}

/// Why an analysis stopped short of a value.
enum Stop {
    /// Past [`Budget::time`].
    OutOfTime,
    /// Past the positions of [`Budget::graph`].
    Full,
    /// Cancelled ([`Explore::analyse_unless`]): its client left.
    Cancelled,
    /// The program failed or broke the protocol.
    Failed(Error),
}

impl Explore for ProgramExplorer {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "custom",
            title: format!("Game program: {}", self.command),
            view: View::Text,
            format: "One position token as the game program writes it (no whitespace; docs/custom-programs.md). Values are exact, by brute force over the program's moves.".to_string(),
            example: self.example.clone(),
            grundy: true,
        }
    }

    /// One analysis at a time: the program copy and what it answered are shared.
    fn at_once(&self) -> Option<usize> {
        Some(1)
    }

    fn analyse(&self, position: &str) -> Result<Analysis> {
        self.analyse_unless(position, &Cancel::default())
    }

    /// The exploration checks `cancel` between its batches of `moves` requests.
    fn analyse_unless(&self, position: &str, cancel: &Cancel) -> Result<Analysis> {
        let mut s = Scanner::new(SOURCE, position);
        let found = s.token("a position token")?;
        check_token(found.text).map_err(|why| s.error_at(found.line, found.col, why))?;
        s.expect_end()?;
        let token = found.text;
        let started = Instant::now();
        let deadline = started + self.budget.time;
        let mut kept = self.explorer.lock().unwrap_or_else(PoisonError::into_inner);
        let explorer = match kept.take() {
            Some(explorer) => explorer,
            None => start(&self.line, self.budget).map_err(|e| Error::Usage(format!("game program {}: it failed earlier and cannot be restarted: {e}", self.line.display())))?,
        };
        let explorer = kept.insert(explorer);
        let before = explorer.len();
        explorer.set_stop(Some(cancel.flag()));
        let mut outcome = solve(explorer, token, deadline);
        if matches!(outcome, Err(Stop::Full)) && before > 0 {
            // What earlier analyses kept may be what filled it: once more from nothing.
            self.forget(explorer);
            explorer.set_stop(Some(cancel.flag()));
            outcome = solve(explorer, token, deadline);
        }
        explorer.set_stop(None);
        let (id, value) = match outcome {
            Ok(found) => found,
            Err(stop) => {
                return Err(self.stopped(explorer, stop, token, started).unwrap_or_else(|error| {
                    *kept = None;
                    error
                }))
            }
        };
        let mut children: Vec<u32> = explorer.moves(id).unwrap_or_default().to_vec();
        let mut seen = std::collections::HashSet::new();
        children.retain(|&c| seen.insert(c));
        check_moves("game program", children.len() as u64)?;
        let moves = children
            .iter()
            .map(|&c| {
                let (name, eval) = (explorer.token(c).to_string(), Eval::grundy(u64::from(explorer.value(c).expect("solved below the root"))));
                move_info(format!("to {name}"), name, eval, json!({}))
            })
            .collect();
        let drawing = json!({"text": token});
        Ok(analysis(token.to_string(), Eval::grundy(u64::from(value)), drawing, moves))
    }
}

/// The id and value of `token`, exploring until `deadline`.
fn solve(explorer: &mut Explorer, token: &str, deadline: Instant) -> std::result::Result<(u32, u32), Stop> {
    let stop = |explorer: &Explorer, error| if explorer.len() >= explorer.limits().max_positions { Stop::Full } else { Stop::Failed(error) };
    let id = explorer.intern(token, "the position to analyse").map_err(|e| stop(explorer, e))?;
    match explorer.explore_until(&[id], Some(deadline)) {
        Ok(true) => explorer.values(&[id]).map(|values| (id, values[0])).map_err(|e| stop(explorer, e)),
        Ok(false) if explorer.stop_asked() => Err(Stop::Cancelled),
        Ok(false) => Err(Stop::OutOfTime),
        Err(e) => Err(stop(explorer, e)),
    }
}

impl ProgramExplorer {
    /// Drops what `explorer` knows; it goes on with the same copy of the program.
    fn forget(&self, explorer: &mut Explorer) {
        *explorer = Explorer::new(explorer.program().clone(), Convention::Normal, self.budget.graph);
    }

    /// The error of an analysis of `token` (begun at `started`) that stopped, once `explorer`
    /// is ready for the next one: past the positions it starts afresh on the same copy of the
    /// program (what it kept is a half-explored graph); past the time limit or after a failure
    /// it starts on a fresh copy, as the program may have been stopped while it answered, or be
    /// gone. `Err`: the program could not be restarted (`explorer` is then of no more use).
    fn stopped(&self, explorer: &mut Explorer, stop: Stop, token: &str, started: Instant) -> std::result::Result<Error, Error> {
        let explored = explorer.len();
        let error = match stop {
            Stop::OutOfTime => Error::Usage(format!(
                "game program: the analysis of {token:?} stopped at the time limit of {} s per analysis (--game-budget), {:.1} s in, after {explored} positions, with more to explore; its exact value is out of reach here",
                self.budget.time.as_secs_f64(),
                started.elapsed().as_secs_f64()
            )),
            // Stopped between batches, the program answered all it was asked: the same copy
            // goes on, from nothing (what it kept is a half-explored graph).
            Stop::Cancelled => {
                self.forget(explorer);
                return Ok(Error::Usage(format!("game program: the analysis of {token:?} was cancelled {:.1} s in, after {explored} positions: its client left", started.elapsed().as_secs_f64())));
            }
            Stop::Full => {
                self.forget(explorer);
                let max = self.budget.graph.max_positions;
                return Ok(Error::Usage(format!(
                    "game program: the position reaches more than {max} positions, the most the explorer keeps (about {}; --max-positions); its exact value is out of reach here",
                    format_bytes(crate::custom::program::kept_bytes(max))
                )));
            }
            Stop::Failed(error) => error,
        };
        match start(&self.line, self.budget) {
            Ok(fresh) => {
                *explorer = fresh;
                Ok(error)
            }
            Err(restart) => Err(Error::Usage(format!("{error}\nthe game program could not be restarted after this: {restart}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::explore::Winner;

    fn kayles_command() -> String {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/kayles_doc.py");
        format!("python3 {}", script.display())
    }

    fn kayles() -> Box<dyn Explore> {
        program_explorer(&kayles_command(), Budget::default()).unwrap()
    }

    #[test]
    fn the_serve_options_default_to_the_default_budget() {
        let defaults = options().iter().filter_map(|o| o.default.map(|d| (o.name, d))).fold(Args::new(), |a, (k, v)| a.with(k, v));
        let time = defaults.positive_seconds("game-budget").unwrap().unwrap();
        let (graph, program) = (program::graph_limits(&defaults).unwrap(), program::limits(&defaults).unwrap());
        let default = Budget::default();
        assert_eq!((time, graph.max_positions, graph.max_moves, program.timeout), (default.time, default.graph.max_positions, default.graph.max_moves, default.program.timeout));
        assert_eq!(options().iter().map(|o| o.name).collect::<Vec<_>>(), ["game-cmd", "game-budget", "game-timeout", "max-positions", "max-moves", "memory-limit"]);
        assert!(from_args(&defaults).unwrap().is_none(), "no --game-cmd, no explorer");
    }

    #[test]
    fn a_position_past_the_limit_is_refused_and_the_next_one_answered() {
        let budget = Budget { graph: GraphLimits { max_positions: 60, max_moves: 100, max_bytes: u64::MAX, smaller: None }, ..Budget::default() };
        let explorer = program_explorer(&kayles_command(), budget).unwrap();
        let err = explorer.analyse("30").unwrap_err();
        assert!(matches!(err, Error::Usage(_)) && err.to_string().contains("more than 60 positions, the most the explorer keeps (about 14.65 KiB;"), "{err}");
        assert_eq!(explorer.analyse("4").unwrap().value, Some(1));
        // Positions kept from earlier analyses do not count against a later one.
        for n in ["5", "6", "4.5", "7"] {
            explorer.analyse(n).unwrap();
        }
    }

    /// tests/fixtures/programs/hostile_game.py (subtraction {1, 3, 4}; `deep`, `hang`, `bad`
    /// and `die` are hostile) copied to a temporary directory, explored within `budget`.
    fn hostile(budget: Budget) -> (tempfile::TempDir, std::path::PathBuf, Box<dyn Explore>) {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("hostile.py");
        std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/programs/hostile_game.py"), &script).unwrap();
        let explorer = program_explorer(&format!("python3 {}", script.display()), budget).unwrap();
        (dir, script, explorer)
    }

    #[test]
    fn an_endless_position_stops_at_the_time_limit_and_the_next_one_is_answered() {
        let graph = GraphLimits { max_positions: 50_000_000, max_moves: 100, max_bytes: u64::MAX, smaller: None };
        let (_dir, _, explorer) = hostile(Budget { time: Duration::from_millis(300), graph, ..Budget::default() });
        let started = Instant::now();
        let err = explorer.analyse("deep").unwrap_err().to_string();
        assert!(err.contains("\"deep\" stopped at the time limit of 0.3 s per analysis (--game-budget)"), "{err}");
        // The limit is looked at by every wait for an answer, each answered in far less.
        assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
        let again = explorer.analyse("deep").unwrap_err().to_string();
        assert!(again.contains("stopped at the time limit"), "asked again, it stops again: {again}");
        assert_eq!(explorer.analyse("5").unwrap().value, Some(3), "subtraction {{1, 3, 4}}: g(5) = 3");
    }

    /// A cancelled analysis stops at its next batch, long before the time limit, and the same
    /// copy of the program answers the next position.
    #[test]
    fn a_cancelled_analysis_stops_and_the_next_one_is_answered() {
        let (_dir, _, explorer) = hostile(Budget { time: Duration::from_secs(3600), ..Budget::default() });
        let cancel = Cancel::default();
        let endless = std::thread::scope(|scope| {
            let running = scope.spawn(|| explorer.analyse_unless("deep", &cancel));
            cancel.cancel();
            running.join().unwrap()
        });
        let err = endless.unwrap_err().to_string();
        assert!(err.contains("the analysis of \"deep\" was cancelled") && err.ends_with("its client left"), "{err}");
        assert_eq!(explorer.analyse_unless("5", &Cancel::default()).unwrap().value, Some(3));
    }

    /// Each answer of tests/fixtures/programs/slow_wide_game.py takes 0.05 s and a batch asks
    /// hundreds: the time limit holds within an answer, not a batch, and the next position is
    /// answered by a fresh copy of the program.
    #[test]
    fn slow_answers_stop_at_the_time_limit_not_after_their_batch() {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/programs/slow_wide_game.py");
        let program = ProgramLimits { timeout: Duration::from_secs(1), ..ProgramLimits::default() };
        let explorer = program_explorer(&format!("python3 {}", script.display()), Budget { time: Duration::from_millis(500), program, ..Budget::default() }).unwrap();
        let started = Instant::now();
        let err = explorer.analyse("1").unwrap_err().to_string();
        let elapsed = started.elapsed();
        assert!(err.contains("\"1\" stopped at the time limit of 0.5 s per analysis (--game-budget), ") && err.contains(" s in, after "), "{err}");
        assert!(elapsed < Duration::from_millis(1500), "a batch of slow answers went on past the limit: {elapsed:?}");
        let again = explorer.analyse("2").unwrap_err().to_string();
        assert!(again.contains("\"2\" stopped at the time limit"), "a fresh copy answers: {again}");
    }

    #[test]
    fn after_a_failure_a_fresh_program_answers() {
        let program = ProgramLimits { timeout: Duration::from_millis(500), ..ProgramLimits::default() };
        let (_dir, _, explorer) = hostile(Budget { program, ..Budget::default() });
        assert_eq!(explorer.analyse("5").unwrap().value, Some(3));
        for (position, why) in [("hang", "gave no answer within 0.5 s"), ("bad", "answered with a line that is not UTF-8"), ("die", "exited (status 5)"), ("hang", "gave no answer within 0.5 s")] {
            let err = explorer.analyse(position).unwrap_err().to_string();
            assert!(err.contains(&format!("request `moves {position}`: {why}")), "{position}: {err}");
            assert_eq!(explorer.analyse("5").unwrap().value, Some(3), "after {position}");
            assert_eq!(explorer.analyse("8").unwrap().value, Some(1), "after {position}: g(8) = 1");
        }
    }

    #[test]
    fn a_program_that_cannot_be_restarted_is_named_until_it_can() {
        let (dir, script, explorer) = hostile(Budget::default());
        let moved = dir.path().join("away.py");
        std::fs::rename(&script, &moved).unwrap();
        let err = explorer.analyse("die").unwrap_err().to_string();
        assert!(err.contains("request `moves die`: exited (status 5)") && err.contains("could not be restarted after this: "), "{err}");
        let err = explorer.analyse("5").unwrap_err().to_string();
        assert!(err.contains("it failed earlier and cannot be restarted"), "{err}");
        std::fs::rename(&moved, &script).unwrap();
        assert_eq!(explorer.analyse("5").unwrap().value, Some(3));
    }

    #[test]
    fn a_token_that_is_no_position_is_malformed_input() {
        let err = kayles().analyse("-").unwrap_err();
        assert!(matches!(err, Error::Input { line: 1, col: 1, .. }), "{err}");
    }

    #[test]
    fn kayles_through_the_program() {
        let explorer = kayles();
        assert_eq!(explorer.info().example, "6");
        // Kayles (0.77): g(1..=6) = 1 2 3 1 4 3.
        let analysis = explorer.analyse("6").unwrap();
        assert_eq!((analysis.value, analysis.winner), (Some(3), Winner::First));
        for m in &analysis.moves {
            assert_eq!(explorer.analyse(&m.position).unwrap().value, m.value, "{}", m.name);
        }
        assert!(matches!(explorer.analyse("6 7").unwrap_err(), Error::Input { line: 1, col: 3, .. }));
        assert!(matches!(explorer.analyse("").unwrap_err(), Error::Input { .. }));
    }
}
