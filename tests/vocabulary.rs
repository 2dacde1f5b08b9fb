//! One vocabulary across games, derived from the registry: every visible option of every
//! command is a name of `game::vocabulary::OPTIONS`, `--engine` and `--format` take its values,
//! options that do not apply are not offered; `solve` answers the game its options describe;
//! the old spellings still work (hidden).

mod common;
use common::sprague;

use predicates::str::contains;
use sprague::game::vocabulary::{ENGINES, FORMATS, OPTIONS};
use sprague::game::{Args, Command, OptSpec, Session, Verb};
use sprague::games::{commands, verification_from_manifest};
use sprague::games::REGISTRY;
use sprague::runner::Silent;
use sprague::stress::Source;
use std::collections::BTreeMap;

/// Every command of every game with its options: (`verb game`, options).
fn every_command() -> Vec<(String, Vec<OptSpec>)> {
    let all = REGISTRY.iter().flat_map(|g| g.commands());
    all.map(|c| (format!("{} {}", c.verb().name(), c.spec().name), c.spec().options)).collect()
}

#[test]
fn every_visible_option_has_its_one_name_and_meaning() {
    let names: Vec<&str> = OPTIONS.iter().map(|(name, _)| *name).collect();
    let commands = every_command();
    assert!(commands.len() > 30, "{} commands", commands.len());
    for (path, options) in commands {
        for option in options.iter().filter(|o| !o.hidden) {
            assert!(names.contains(&option.name), "{path}: --{} is not in the vocabulary", option.name);
            // One spelling of the size bound (--max); --max-positions and --max-moves are limits
            // on a game program's exploration, not size bounds.
            let size_bound = option.name.starts_with("max-") && !["max-positions", "max-moves"].contains(&option.name);
            assert!(!size_bound && !["json", "jobs", "rule"].contains(&option.name), "{path}: --{}", option.name);
        }
        for option in &options {
            let others = options.iter().filter(|o| o.name != option.name);
            for alias in option.aliases {
                assert!(others.clone().all(|o| o.name != *alias && !o.aliases.contains(alias)), "{path}: alias --{alias} twice");
            }
            for (old, new) in option.value_aliases {
                assert!(!option.choices.is_empty() && option.choices.iter().all(|(v, _)| v != old), "{path}: --{} {old}", option.name);
                assert!(option.choices.iter().any(|(v, _)| v == new) || !ENGINES.contains(new), "{path}: --{} {old} → {new}", option.name);
            }
        }
    }
}

#[test]
fn engines_formats_and_claims_take_the_same_values_everywhere() {
    for (path, options) in every_command() {
        let choices = |name: &str| options.iter().find(|o| o.name == name).map(|o| o.choices.iter().map(|(v, _)| *v).collect::<Vec<_>>());
        if let Some(engines) = choices("engine") {
            assert_eq!(engines, ENGINES, "{path}: --engine");
        }
        if let Some(formats) = choices("format") {
            assert_eq!(formats, FORMATS, "{path}: --format");
        }
        if let Some(claims) = choices("claim") {
            assert!(claims.len() >= 2, "{path}: --claim offered without variants: {claims:?}");
        }
        // A JSON answer with coordinates says how they count.
        let helps = options.iter().flat_map(|o| o.choices.iter().map(|(_, h)| *h).chain([o.help]));
        for help in helps.filter(|h| h.contains("[row, col]")) {
            assert!(help.contains("0-based") || help.contains("1-based"), "{path}: {help}");
        }
    }
}

/// `command`'s defaults as the command line fills them in, plus `extra`.
fn defaults(command: &dyn Command, extra: &[(&str, &str)]) -> Args {
    let set = command.spec().options.iter().filter_map(|o| o.default.map(|d| (o.name, d))).fold(Args::new(), |a, (k, v)| a.with(k, v));
    extra.iter().fold(set, |a, (k, v)| a.with(k, v))
}

/// What `solve` prints for `input` with `args`.
fn solve(command: &dyn Command, args: &Args, input: &[u8]) -> String {
    let mut stdin: &[u8] = input;
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut session = Session { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr, progress: &Silent, command_line: vec![] };
    command.run(args, &mut session).unwrap_or_else(|e| panic!("{}: {e}\n{}", command.spec().name, String::from_utf8_lossy(input)));
    String::from_utf8(stdout).unwrap()
}

/// Every game whose `solve` has an exact engine: on the smallest inputs of its stress
/// generator, the default answer is the exact one (so `solve` answers the true game).
#[test]
fn solve_answers_what_the_exact_engine_finds() {
    let stress = commands(Verb::Stress);
    let mut checked = Vec::new();
    for command in commands(Verb::Solve) {
        let name = command.spec().name;
        if !command.spec().options.iter().any(|o| o.name == "engine") {
            continue;
        }
        let side = stress.iter().find(|c| c.spec().name == name).expect("a stress command");
        let side = side.stress_side(&defaults(&**side, &[("cmd", "true")])).unwrap().unwrap();
        for (input, _) in side.samples(Source::Exhaustive, 1, 40) {
            let naive = solve(&*command, &defaults(&*command, &[("engine", "naive")]), &input);
            assert_eq!(solve(&*command, &defaults(&*command, &[]), &input), naive, "{name}: {}", String::from_utf8_lossy(&input));
        }
        checked.push(name);
    }
    assert_eq!(checked, ["wall", "dagame", "footholds", "cards", "kings", "grundy", "octal"]);
}

#[test]
fn options_that_do_not_apply_are_refused() {
    for args in [
        &["verify", "divisor", "--piles", "3", "--max", "100"][..],
        &["verify", "polygon", "--piles", "7", "--max", "10"],
        &["verify", "cross", "--heaps", "7", "--max", "10"],
        &["verify", "nim", "--claim", "solver", "--max", "3"],
        &["verify", "misere-nim", "--sequence", "3", "--max", "3"],
        &["verify", "cross", "--claim", "nope", "--max", "3"],
        &["verify", "footholds", "--max", "5", "--random", "3"],
    ] {
        sprague().args(args).arg("--out").arg("/nonexistent/never").assert().code(2);
    }
    // --force lifts the naive engine's limits: with the claim it would be ignored.
    sprague().args(["solve", "wall", "--force"]).write_stdin("1 1\n.\n").assert().code(2).stderr(contains("naive engine only"));
    sprague().args(["solve", "wall", "--force", "--rules", "misere"]).write_stdin("1 1\n.\n").assert().success().stdout("Second\n");
}

#[test]
fn old_spellings_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name);
    let solve = |args: &[&str], input: &str, want: &str| {
        sprague().arg("solve").args(args).write_stdin(input).assert().success().stdout(want.to_string());
    };
    solve(&["wall", "--rule", "misere", "--engine", "naive"], "1 1\n.\n", "Second\n");
    solve(&["wall", "--engine", "dp"], "2 2\n..\n..\n", "Second\n");
    solve(&["dagame", "--engine", "brute", "--json"], "2 1\n1 2\n1\n1 1\n", "{\"grundy\":1,\"winner\":\"Young\"}\n");
    solve(&["kings", "--engine", "retro"], "2\n3 3\nBlackking\n", "Whiteking\n");
    let verify = |args: &[&str], dir: &str| sprague().arg("verify").args(args).args(["-q", "--out"]).arg(out(dir)).assert().success();
    verify(&["wall", "--rule", "t-split", "--max", "2x2"], "w");
    assert!(std::fs::read_to_string(out("w/summary.csv")).unwrap().contains(",t-split,"));
    verify(&["cross", "--rule", "solver", "--max", "6"], "c");
    verify(&["kings", "--max-bridges", "2", "--max-length", "4"], "k");
    assert!(std::fs::read_to_string(out("k/summary.csv")).unwrap().ends_with("kings,exhaustive,2,4,6,0,2,3\n"), "bridges 2 of length 4 at most");
    verify(&["cards", "--max-len", "3", "--max-value", "2"], "cards");
    verify(&["dagame", "--max-nodes", "3"], "d");
    verify(&["grundy", "--max-total", "5"], "g");
    verify(&["footholds", "--max-cells", "4"], "f");
    sprague().args(["prove", "wall-empty", "--max-height", "3", "--time-limit", "100", "-q", "--out"]).arg(out("p")).assert().success();
}

/// A manifest written before the renames (`"rule"`, `"max-bridges"`) rebuilds its run.
#[test]
fn old_manifest_options_rebuild_the_same_run() {
    let rebuild = |game: &str, options: serde_json::Value| {
        let parameters = BTreeMap::from([("game".to_string(), game.into()), ("options".to_string(), options)]);
        verification_from_manifest(&parameters).unwrap()
    };
    let wall = rebuild("wall", serde_json::json!({"max": "2x2", "rule": "misere", "shrink": true}));
    assert_eq!(wall.rule(), "misere");
    assert_eq!(rebuild("cross", serde_json::json!({"max": "20", "rule": "solver", "piles": "4", "heaps": "0"})).rule(), "solver");
    let kings = rebuild("kings", serde_json::json!({"claim": "nim-minus-2", "max-bridges": "2", "max-length": "4"}));
    assert_eq!(kings.jobs().unwrap().len(), 2);
}

/// Shards of one run, one recorded before the renames (`"rule"`), merge with the others.
#[test]
fn shards_recorded_under_old_option_names_merge() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |k: &str| dir.path().join(k);
    for k in ["1", "2"] {
        let args = ["verify", "wall", "--rules", "standard", "--max", "2x3", "-q", "--shard"];
        sprague().args(args).arg(format!("{k}/2")).arg("--out").arg(shard(k)).assert().success();
    }
    let path = shard("2").join("manifest.json");
    let mut manifest = sprague::output::manifest::Manifest::read(&path).unwrap();
    assert_eq!(manifest.parameters["options"], serde_json::json!({"max": "2x3", "rules": "standard"}));
    manifest.parameters.insert("options".into(), serde_json::json!({"max": "2x3", "rule": "standard"}));
    manifest.write(&path).unwrap();
    sprague().arg("merge").arg(shard("1")).arg(shard("2")).arg("--out").arg(shard("m")).assert().success();
    assert!(std::fs::read_to_string(shard("m").join("summary.csv")).unwrap().contains("wall,standard,2,3,64,0,"));
}

#[test]
fn errors_say_what_and_where() {
    let err = |args: &[&str], input: &str, want: &str| {
        sprague().args(args).write_stdin(input).assert().code(2).stderr(contains(want));
    };
    err(&["solve", "nim"], "1\n10000000000\n", "pile size must be between 1 and 1000000000, found 10000000000");
    err(&["solve", "wall"], "1 3\n.\t.\n", "<stdin>:2:2: a tab is not '.' or 'X'");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    for args in [&["verify", "nim", "--max", "2"][..], &["prove", "wall-empty", "--max", "2"], &["search", "wall", "--size", "2x2", "--budget", "1"]] {
        sprague().args(args).arg("--out").arg(&file).assert().code(2).stderr(contains("plain is a file, not a directory"));
    }
}
