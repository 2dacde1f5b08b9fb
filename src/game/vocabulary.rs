//! The command line's one vocabulary: every visible option name with its one meaning in every
//! game, the values of `--engine` and `--format`, and the option specs games share for them.
//! A test derived from the registry (tests/vocabulary.rs) holds every command to it.

use super::options::{Args, OptSpec};
use crate::error::{Error, Result};

/// Every option name a command may show, with its one meaning.
pub const OPTIONS: &[(&str, &str)] = &[
    ("file", "solve: the input file (`-` or absent: standard input)"),
    ("code", "octal: the take-and-break code (0.07, 0x0.8, {1,3,4}, grundy)"),
    ("digits", "octal-family: digits after the point of every code (0.d1…dk)"),
    ("dense-from", "octal-family: from this many values on, stop a code whose values are not sparse"),
    ("format", "the output format: text or json"),
    ("batch", "solve: any number of inputs, one answer each"),
    ("engine", "which engine answers: claim (the claimed fast solver) or naive (the exact whole-position search)"),
    ("device", "census: where the counting runs: cpu, gpu or auto"),
    ("rules", "the game's rules (a variant of the game itself)"),
    ("claim", "the claim under test (a variant of the claimed solver)"),
    ("max", "the size bound, in the game's own form (HxW, nodes, cells, stones, …)"),
    ("size", "exactly one size, in the game's own form"),
    ("piles", "Nim family: how many piles"),
    ("heaps", "Nim family: single heaps up to this size"),
    ("sequence", "sequence.csv up to this heap"),
    ("random", "this many random positions instead of every one"),
    ("seed", "the seed of the random choices"),
    ("shrink", "shrink every counterexample to a minimal one"),
    ("force", "run even when the estimate says it takes more than a day or more memory than is available"),
    ("out", "where the output goes"),
    ("out-dir", "table: the directory of the whole table's files"),
    ("csv-max", "table: the CSV's extent, at most --max"),
    ("threads", "how many things run at once"),
    ("quiet", "no progress shown (bars on a terminal, a line a minute in a log)"),
    ("shard", "only shard K of N of the positions"),
    ("resume", "continue an unfinished run in --out"),
    ("budget", "time to spend, in seconds"),
    ("shrink-budget", "time to spend shrinking what failed (stress), in seconds, after --budget"),
    ("search-budget", "time to spend searching for smaller failing inputs (stress), in seconds, after shrinking; 0: none"),
    ("answer", "what the program under test prints (stress): move, or absent for the problem's own answer"),
    ("timeout", "stress: time limit of one run of the program under test, in seconds"),
    ("game-cmd", "custom: the game program, in any language"),
    ("game-timeout", "custom and serve: time limit of one answer of the game program, in seconds (--timeout in stress is the program under test's)"),
    ("convention", "normal or misère play"),
    ("components", "table custom: trust the game program's components (a position that splits is worth the XOR of its parts)"),
    ("max-positions", "custom: the most positions explored in all"),
    ("max-moves", "custom: the most moves from one position"),
    ("failures", "stress: stop after this many failures"),
    ("memory", "stress: address-space limit of the program under test, in MiB"),
    ("memory-limit", "the memory a run may plan for, in bytes (default: what is available); a run estimated to need more is refused"),
    ("cmd", "stress: the program under test"),
    ("generator", "stress: which input generators"),
    ("ref", "stress problem: the reference program whose output is the trusted answer"),
    ("gen", "stress problem: the input generator, {seed} where the seed goes"),
    ("validator", "stress problem: the program that says whether an input is legal"),
    ("checker", "stress problem: the testlib-style program that judges an answer"),
    ("float-tolerance", "stress problem: how far numbers in an answer may be off, absolute or relative"),
    ("slowest", "stress: search for the N inputs on which the program is slowest"),
    ("save-tests", "stress: the failures or slowest inputs as NNN.in/NNN.ans in a test folder"),
    ("overwrite", "stress: --save-tests may replace numbered tests"),
    ("maximize", "search: what to maximize"),
    ("evaluations", "search: boards evaluated per round"),
    ("rounds", "search: rounds to run (seeds seed … seed + N - 1), whatever the time they take"),
    ("results", "report: the results directory to read"),
    ("binary", "table octal: the values as u16 little endian, 2 bytes each, instead of CSV"),
    ("stats", "table octal: the directory of the statistics of the values"),
    ("stats-from", "table octal: the earlier run (its --out) whose values the statistics describe"),
];

/// The values of `--engine`.
pub const ENGINES: [&str; 2] = ["claim", "naive"];

/// Old `--engine` values, still accepted: `dp` (wall, cards), `brute` (dagame, footholds, cards)
/// and `retro` (kings).
pub const ENGINE_ALIASES: &[(&str, &str)] = &[("dp", "claim"), ("brute", "naive"), ("retro", "naive")];

/// `--quiet`, the same in every command that shows progress.
pub const QUIET: OptSpec =
    OptSpec::flag("quiet", "Show no progress (bars on a terminal; in a log, a line every SPRAGUE_PROGRESS_EVERY seconds, default 60).").short('q');

/// The values of `--format`.
pub const FORMATS: [&str; 2] = ["text", "json"];

/// `--engine` with the game's own help for `claim` and `naive` (`choices`, in that order).
pub const fn engine(choices: &'static [(&'static str, &'static str)]) -> OptSpec {
    OptSpec::value("engine", "ENGINE", "Engine that answers.").default("claim").choices(choices).value_aliases(ENGINE_ALIASES)
}

/// True when `--engine naive` was asked for.
pub fn naive(args: &Args) -> bool {
    args.text("engine") == Some("naive")
}

/// `--format text|json` (`choices`: the game's help for each, in that order) and the old
/// `--json` flag, hidden, meaning `--format json`.
pub const fn format(choices: &'static [(&'static str, &'static str)]) -> [OptSpec; 2] {
    [
        OptSpec::value("format", "FORMAT", "Output format.").default("text").choices(choices),
        OptSpec::flag("json", "Old spelling of --format json.").hidden(),
    ]
}

/// True when the answer is asked for as JSON (`--format json`, or the old `--json`).
pub fn json(args: &Args) -> bool {
    args.text("format") == Some("json") || args.flag("json")
}

/// A two-part bound `AxB` (e.g. `--max 3x7` of kings: bridges × length), or `A` alone with
/// `default_b`; `what` names the parts for the error.
pub fn pair(text: &str, what: &str, default_b: Option<u64>) -> std::result::Result<(u64, u64), String> {
    let bad = || format!("invalid value {text:?}: expected {what}, e.g. 3x7");
    match (text.contains(['x', 'X']), default_b) {
        (true, _) => split_pair(text).ok_or_else(bad),
        (false, Some(b)) => Ok((text.parse::<u64>().map_err(|_| bad())?, b)),
        (false, None) => Err(bad()),
    }
}

/// The two numbers of `AxB` (or `AXB`), if the text is exactly that; the one reader of every
/// two-part size (board sizes `HxW` included).
pub fn split_pair(text: &str) -> Option<(u64, u64)> {
    let (a, b) = text.split_once(['x', 'X'])?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Option `max` read with [`pair`], then each part replaced by the old single option that
/// gives it (`old[0]` the first part, `old[1]` the second), as older command lines and
/// manifests wrote them.
pub fn max_pair(args: &Args, what: &str, default_b: Option<u64>, old: [&str; 2]) -> Result<(u64, u64)> {
    let text = args.text("max").ok_or_else(|| Error::Usage("--max is required".into()))?;
    let (a, b) = pair(text, what, default_b).map_err(|e| Error::Usage(format!("--max: {e}")))?;
    Ok((args.get(old[0])?.unwrap_or(a), args.get(old[1])?.unwrap_or(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_old_options() {
        assert_eq!(pair("3x7", "BxL", None), Ok((3, 7)));
        assert_eq!(pair("9", "LENxVALUE", Some(4)), Ok((9, 4)));
        assert_eq!(pair("9", "BxL", None).unwrap_err(), "invalid value \"9\": expected BxL, e.g. 3x7");
        assert!(pair("3x", "BxL", None).is_err() && pair("x3", "BxL", None).is_err());
        let args = Args::new().with("max", "3x7").with("max-length", "9");
        assert_eq!(max_pair(&args, "BxL", None, ["max-bridges", "max-length"]).unwrap(), (3, 9));
    }

    #[test]
    fn old_json_flag_means_format_json() {
        assert!(json(&Args::new().with_flag("json")) && json(&Args::new().with("format", "json")));
        assert!(!json(&Args::new().with("format", "text")));
    }
}
