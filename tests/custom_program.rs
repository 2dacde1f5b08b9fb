//! `verify custom --game-cmd`: a game given as a program (tiny Python programs written by the tests), through the CLI.

mod common;

use common::{assert_same_csvs, copy_dir, edit_and_reseal, read, sprague, CSVS};
use predicates::str::contains;
use std::path::{Path, PathBuf};

/// Serves requests with `answer(verb, arg)`; the handshake answers `verbs`.
const PRELUDE: &str = r#"import sys, time

def serve(answer, verbs="positions moves"):
    for line in sys.stdin:
        verb, _, arg = line.strip().partition(" ")
        if verb == "flush":
            sys.stdout.flush()
            continue
        print(verbs if verb == "sprague" else answer(verb, arg))

def chain(verb, arg):
    """One heap; a move takes one or two."""
    n = int(arg)
    return arg if verb == "positions" else " ".join(str(n - k) for k in (1, 2) if k <= n)
"#;

/// Two heaps `a.b` (a <= b) of take-one-or-two; the claim (a + b) mod 3 is wrong (the value is
/// (a mod 3) xor (b mod 3)), the components (the heaps) are right; shrinks to smaller heaps.
const PAIRS: &str = r#"
def canon(a, b):
    return "%d.%d" % (min(a, b), max(a, b))

def answer(verb, arg):
    if verb == "positions":
        n = int(arg)
        return " ".join(canon(a, n - a) for a in range(n // 2 + 1))
    a, b = map(int, arg.split("."))
    if verb == "moves":
        return " ".join(sorted({canon(a - k, b) for k in (1, 2) if a >= k} | {canon(a, b - k) for k in (1, 2) if b >= k}))
    if verb == "claim":
        return (a + b) % 3
    if verb == "components":
        return "0.%d 0.%d" % (a, b)
    if verb == "size":
        return a + b
    return " ".join(canon(x, y) for x in range(a + 1) for y in range(b + 1) if (x, y) != (a, b))

serve(answer, "positions moves claim components size smaller")
"#;

/// One heap of take-one-or-two: the claim n mod 3 is right, the components (heaps 1 and n - 1)
/// are wrong wherever 1 xor ((n - 1) mod 3) is not n mod 3: at 2, 3, 5, 6, never at 4 or 7.
const SPLIT_WRONG: &str = r#"
def answer(verb, arg):
    n = int(arg)
    if verb == "claim":
        return n % 3
    if verb == "components":
        return "1 %d" % (n - 1) if n >= 2 else "-"
    return chain(verb, arg)

serve(answer, "positions moves claim components")
"#;

/// Writes `PRELUDE + body` as `dir/name` and returns the command that runs it.
fn program(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("{PRELUDE}\n{body}")).unwrap();
    format!("python3 {}", path.display())
}

fn kayles() -> String {
    format!("python3 {}", Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/kayles_doc.py").display())
}

/// `verify custom --game-cmd GAME -q --out OUT ARGS`.
fn verify(out: &Path, game: &str, args: &[&str]) -> assert_cmd::Command {
    let mut command = sprague();
    command.args(["verify", "custom", "-q", "--game-cmd", game, "--out"]).arg(out).args(args);
    command
}

/// Everything in `dir` but the lock file.
fn left_in(dir: &Path) -> Vec<String> {
    let names = std::fs::read_dir(dir).map(|d| d.map(|e| e.unwrap().file_name().into_string().unwrap()).collect()).unwrap_or_else(|_| Vec::new());
    names.into_iter().filter(|n: &String| n != ".sprague.lock").collect()
}

#[test]
fn the_docs_kayles_program_is_the_example_file() {
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/custom-programs.md"));
    let code = doc.split("```python\n").nth(1).and_then(|rest| rest.split("```").next()).unwrap();
    assert_eq!(read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/kayles_doc.py")), code);
}

#[test]
fn a_right_program_agrees_and_a_wrong_claim_is_shrunk() {
    let dir = tempfile::tempdir().unwrap();
    let right = dir.path().join("right");
    verify(&right, &kayles(), &["--max", "20"]).assert().code(0).stderr(contains("21 sizes, 21 positions, 0 mismatches"));
    assert!(read(&right.join("summary.csv")).contains("custom,exhaustive,1,20,1,0,0,1\n"), "Kayles 20 has value 1");
    let manifest: serde_json::Value = serde_json::from_str(&read(&right.join("manifest.json"))).unwrap();
    assert_eq!(manifest["parameters"]["verbs"], "positions moves components");
    assert_eq!(manifest["parameters"]["program_files"].as_object().unwrap().len(), 1);
    let wrong = dir.path().join("wrong");
    let pairs = program(dir.path(), "pairs.py", PAIRS);
    verify(&wrong, &pairs, &["--max", "6"]).assert().code(1).stderr(contains("first counterexample: rows 1, size 2, position 1.1 — claim 2, naive 0"));
    let mismatches = read(&wrong.join("mismatches.csv"));
    assert!(mismatches.starts_with("game,rule,rows,size,position,"), "{mismatches}");
    assert!(mismatches.starts_with("game,rule,rows,size,position,dp_grundy,naive_grundy,naive_outcome,answer\n"), "{mismatches}");
    assert!(mismatches.lines().skip(1).all(|l| l.ends_with(",1.1,2,0,Second,claim")), "every failure shrinks to 1.1, a wrong claim: {mismatches}");
    assert!(read(&wrong.join("summary.csv")).contains("custom,exhaustive,1,6,4,2,"), "6: 0.6 and 3.3 right, 1.5 and 2.4 wrong");
}

/// A right claim beside wrong components: every row and the message name the components, not
/// the claim, with the XOR of the parts' values.
#[test]
fn wrong_components_beside_a_right_claim_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let game = program(dir.path(), "split.py", SPLIT_WRONG);
    let out = dir.path().join("out");
    let first = "first counterexample: rows 1, size 2, position 2 — components: XOR of the parts' values 0, naive 2\n";
    verify(&out, &game, &["--max", "7"]).assert().code(1).stderr(contains("8 positions, 4 mismatches")).stderr(contains(first));
    let rows: Vec<String> = read(&out.join("mismatches.csv")).lines().skip(1).map(str::to_string).collect();
    let expected = ["1,2,2,0,2,First,components", "1,3,3,3,0,Second,components", "1,5,5,0,2,First,components", "1,6,6,3,0,Second,components"];
    assert_eq!(rows, expected.map(|r| format!("custom,exhaustive,{r}")));
    sprague().args(["check", "--results"]).arg(&out).assert().code(0).stdout(contains(": 0 differences"));
    // Under misère only the claim is checked (n mod 3 read as an outcome: wrong unless n mod 3 is 2).
    let misere = dir.path().join("misere");
    verify(&misere, &game, &["--max", "7", "--convention", "misere"]).assert().code(1);
    assert!(read(&misere.join("mismatches.csv")).lines().skip(1).all(|l| l.ends_with(",claim")), "{}", read(&misere.join("mismatches.csv")));
}

/// merge (and every reader of mismatches.csv) refuses an answer column that is blank, unknown
/// or missing, naming the file and the line, even with the manifest's digest made to fit.
#[test]
fn a_damaged_answer_column_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = program(dir.path(), "split.py", SPLIT_WRONG);
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let code = verify(shard, &game, &["--max", "7", "--shard", &format!("{}/2", k + 1)]).output().unwrap().status.code();
        assert!(matches!(code, Some(0 | 1)), "shard {}: {code:?}", k + 1);
    }
    sprague().arg("merge").args(&shards).arg("--out").arg(dir.path().join("merged")).assert().code(1);
    let (k, text) = shards.iter().map(|s| read(&s.join("mismatches.csv"))).enumerate().find(|(_, t)| t.lines().count() > 1).unwrap();
    let line = text.lines().nth(1).unwrap();
    let cut = line.strip_suffix("components").unwrap();
    let cases = [
        (text.replacen(line, cut, 1), "line 2: no answer (expected claim or components)"),
        (text.replacen(line, &format!("{cut}claims"), 1), "unknown variant `claims`, expected `claim` or `components`"),
        (text.replacen(line, cut.strip_suffix(',').unwrap(), 1), "found record with 8 fields"),
        (text.replacen(",answer\n", "\n", 1).replace(",components\n", "\n"), "the custom game's rows,size,parts,position,answer"),
    ];
    for (i, (damaged, why)) in cases.into_iter().enumerate() {
        let copy = dir.path().join(format!("damaged{i}"));
        copy_dir(&shards[k], &copy);
        edit_and_reseal(&copy, "mismatches.csv", &text, &damaged);
        let others = shards.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, s)| s);
        let assert = sprague().arg("merge").arg(&copy).args(others).arg("--out").arg(dir.path().join(format!("out{i}"))).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("mismatches.csv") || stderr.contains("summary.csv"), "{damaged}: {stderr}");
        assert!(stderr.contains(why), "{damaged}: {stderr}");
    }
}

/// A checkpoint keeps each mismatch's answer; one whose rows lack it (another version's) is
/// refused by --resume, naming the position, instead of mixing rows with and without it.
#[test]
fn resume_keeps_the_answer_and_refuses_a_checkpoint_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let game = program(dir.path(), "split.py", SPLIT_WRONG);
    let out = dir.path().join("run");
    let pacing = ["--max", "7", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "5"];
    verify(&out, &game, &pacing).assert().code(3);
    let path = out.join("checkpoint.json");
    let mut envelope: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    let rows = envelope["content"]["mismatches"].as_array_mut().unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|r| r["answer"] == "components"), "{rows:?}");
    rows.iter_mut().for_each(|r| drop(r.as_object_mut().unwrap().remove("answer")));
    let content = serde_json::to_string(&envelope["content"]).unwrap();
    let digest = sprague::output::atomic::sha256_hex(content.as_bytes());
    std::fs::write(&path, format!("{{\"format\":{},\"sha256\":\"{digest}\",\"content\":{content}}}\n", envelope["format"])).unwrap();
    let resumed = verify(&out, &game, &[&pacing[..6], &["--resume"]].concat()).assert().code(2);
    let stderr = String::from_utf8_lossy(&resumed.get_output().stderr).into_owned();
    assert!(stderr.contains("checkpoint.json: mismatch at position 2: no answer (expected claim or components)"), "{stderr}");
}

#[test]
fn copies_shards_and_resumption_give_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = program(dir.path(), "pairs.py", PAIRS);
    let one = dir.path().join("one");
    verify(&one, &pairs, &["--max", "14", "--threads", "1"]).assert().code(1);
    let two = dir.path().join("two");
    verify(&two, &pairs, &["--max", "14", "--threads", "2"]).assert().code(1);
    assert_same_csvs(&one, &two);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.path().join(format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        verify(shard, &pairs, &["--max", "14", "--shard", &format!("{}/3", k + 1)]).assert().code(1);
    }
    // merge never runs the program.
    std::fs::rename(dir.path().join("pairs.py"), dir.path().join("away.py")).unwrap();
    let merged = dir.path().join("merged");
    sprague().arg("merge").args(&shards).arg("--out").arg(&merged).assert().code(1);
    assert_same_csvs(&one, &merged);
    std::fs::rename(dir.path().join("away.py"), dir.path().join("pairs.py")).unwrap();
    let resumed = dir.path().join("resumed");
    let pacing = ["--max", "14", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "7"];
    verify(&resumed, &pairs, &pacing).assert().code(3);
    let mut stops = 1;
    while verify(&resumed, &pairs, &[&pacing[..], &["--resume"]].concat()).assert().get_output().status.code() == Some(3) {
        stops += 1;
    }
    assert!(stops >= 4, "only {stops} interruptions");
    assert_same_csvs(&one, &resumed);
}

/// A checkpoint records the program's command and files: resuming it with another program, or
/// with the same file edited, is refused (the results would mix two games), and the checkpoint
/// is kept for the right program.
#[test]
fn resuming_with_another_or_a_changed_program_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = program(dir.path(), "pairs.py", PAIRS);
    let out = dir.path().join("run");
    let pacing = ["--max", "10", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "2", "--resume"];
    verify(&out, &pairs, &pacing[..pacing.len() - 1]).assert().code(3);
    verify(&out, &kayles(), &pacing).assert().code(2).stderr(contains("program: checkpoint has")).stderr(contains("pairs.py"));
    std::fs::write(dir.path().join("pairs.py"), format!("{PRELUDE}\n{PAIRS}\n# changed\n")).unwrap();
    verify(&out, &pairs, &pacing).assert().code(2).stderr(contains("program_files: checkpoint has"));
    assert!(out.join("checkpoint.json").is_file());
}

/// A fresh run into a directory holding an unfinished run (this game's, or another game's) is
/// refused and leaves that checkpoint for the `--resume` the message advises.
#[test]
fn a_fresh_run_over_a_checkpoint_is_refused_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = program(dir.path(), "pairs.py", PAIRS);
    let out = dir.path().join("run");
    let pacing = ["--max", "10", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "2"];
    verify(&out, &pairs, &pacing).assert().code(3);
    let saved = read(&out.join("checkpoint.json"));
    verify(&out, &pairs, &["--max", "10"]).assert().code(2).stderr(contains("continue it with --resume"));
    assert_eq!(read(&out.join("checkpoint.json")), saved);
    let wall = dir.path().join("wall");
    let mut stopped = sprague();
    stopped.args(["verify", "wall", "-q", "--max", "3x3", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "1", "--out"]);
    stopped.arg(&wall).assert().code(3);
    let saved = read(&wall.join("checkpoint.json"));
    verify(&wall, &pairs, &["--max", "10"]).assert().code(2);
    assert_eq!(read(&wall.join("checkpoint.json")), saved);
    sprague().args(["verify", "wall", "-q", "--max", "3x3", "--resume", "--out"]).arg(&wall).assert().code(0);
}

#[test]
fn check_reruns_the_program_and_refuses_a_changed_one() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = program(dir.path(), "pairs.py", PAIRS);
    let tree = dir.path().join("tree");
    verify(&tree.join("pairs"), &pairs, &["--max", "8"]).assert().code(1);
    verify(&tree.join("kayles"), &kayles(), &["--max", "12", "--convention", "normal"]).assert().code(0);
    sprague().args(["check", "--results"]).arg(&tree).assert().code(0).stdout(contains("recomputed 22 units")).stdout(contains(": 0 differences"));
    std::fs::write(dir.path().join("pairs.py"), format!("{PRELUDE}\n{PAIRS}\n# changed\n")).unwrap();
    sprague().args(["check", "--results"]).arg(&tree).assert().code(2).stderr(contains("pairs.py: its SHA-256 is"));
}

/// A command that names its program by a relative path is rerun by `check` from the directory
/// the run was started in; from another one, check says so (the file is there, not missing).
#[test]
fn check_from_another_directory_names_where_to_run_it() {
    let dir = tempfile::tempdir().unwrap();
    program(dir.path(), "pairs.py", PAIRS);
    let mut run = sprague();
    run.current_dir(dir.path()).args(["verify", "custom", "-q", "--game-cmd", "python3 pairs.py", "--out", "run", "--max", "6"]);
    run.assert().code(1);
    sprague().current_dir(dir.path()).args(["check", "--results", "run"]).assert().code(0);
    sprague().args(["check", "--results"]).arg(dir.path().join("run")).assert().code(2).stderr(contains("is not named by the command from this directory")).stderr(contains("run from there"));
}

/// Runs `game` and expects exit 2, a message with every one of `expected`, and nothing left in
/// the output directory.
fn refused(name: &str, body: &str, args: &[&str], expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let game = program(dir.path(), name, body);
    let assert = verify(&out, &game, &[&["--max", "8"], args].concat()).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    for text in expected {
        assert!(stderr.contains(text), "{name}: no {text:?} in {stderr}");
    }
    assert_eq!(left_in(&out), Vec::<String>::new(), "{name} left files");
}

#[test]
fn a_crash_a_hang_and_an_early_exit_stop_the_run() {
    let crash = "def answer(verb, arg):\n    if verb == 'moves' and arg == '5':\n        sys.stderr.write('boom at 5\\n')\n        sys.exit(7)\n    return chain(verb, arg)\nserve(answer)\n";
    refused("crash.py", crash, &[], &["request `moves 5`", "exited (status 7)", "boom at 5"]);
    let hang = "def answer(verb, arg):\n    if verb == 'moves' and arg == '5':\n        time.sleep(60)\n    return chain(verb, arg)\nserve(answer)\n";
    refused("hang.py", hang, &["--game-timeout", "1"], &["request `moves 5`", "no answer within 1 s (--game-timeout)"]);
    let early = "def answer(verb, arg):\n    if verb == 'moves' and arg == '4':\n        sys.exit(0)\n    return chain(verb, arg)\nserve(answer)\n";
    refused("early.py", early, &[], &["request `moves 4`", "exited (status 0) before answering"]);
}

#[test]
fn an_exit_is_reported_while_a_child_it_left_holds_the_output_open() {
    let dir = tempfile::tempdir().unwrap();
    let exits = "def answer(verb, arg):\n    if verb == 'moves' and arg == '5':\n        sys.stdout.flush()\n        sys.exit(3)\n    return chain(verb, arg)\nserve(answer)\n";
    let python = program(dir.path(), "exits.py", exits);
    std::fs::write(dir.path().join("game.sh"), format!("sleep 30 &\nexec {python}\n")).unwrap();
    let game = format!("sh {}", dir.path().join("game.sh").display());
    let started = std::time::Instant::now();
    let out = verify(&dir.path().join("out"), &game, &["--max", "8"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("request `moves 5`") && stderr.contains("exited (status 3) before answering"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(8), "seen before the 10 s time limit: {:?}", started.elapsed());
}

#[test]
fn a_changed_handshake_is_named_and_numbers_are_canonical() {
    let changed = "said = []\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'flush':\n        sys.stdout.flush()\n    elif verb == 'sprague':\n        said.append(1)\n        print('positions moves' if len(said) == 1 else 'positions moves claim')\n    else:\n        print(chain(verb, arg))\n";
    refused("changed.py", changed, &[], &["answered `sprague 1` closing the batch with \"positions moves claim\", not \"positions moves\""]);
    for (name, claim) in [("plus.py", "+0"), ("zeros.py", "00"), ("blanks.py", " 0 ")] {
        let body = format!("def answer(verb, arg):\n    return ({claim:?} if arg == '3' else int(arg) % 3) if verb == 'claim' else chain(verb, arg)\nserve(answer, 'positions moves claim')\n");
        refused(name, &body, &[], &["request `claim 3`", &format!("{claim:?} is not a number"), "decimal digits only"]);
    }
}

#[test]
fn long_tokens_are_refused_within_the_memory_budget() {
    // 200 moves of 4000-byte tokens, each with 2000 moves of 3000-byte tokens (6 MB a line).
    let fat = "pad = 'x' * 4000\ndef answer(verb, arg):\n    if verb == 'positions':\n        return 'r' if arg == '1' else ''\n    if arg == 'r':\n        return ' '.join('a%d%s' % (i, pad) for i in range(200))\n    if arg.startswith('a'):\n        return ' '.join('b%s_%d%s' % (arg[:4], j, pad[:3000]) for j in range(2000))\n    return ''\nserve(answer)\n";
    refused("fat.py", fat, &["--memory-limit", "200000000"], &["request `moves a", "take more than 95.37 MiB of memory", "--memory-limit"]);
}

#[test]
fn malformed_loopy_and_changing_answers_stop_the_run() {
    let malformed = "def answer(verb, arg):\n    return ('x' if arg == '3' else int(arg) % 3) if verb == 'claim' else chain(verb, arg)\nserve(answer, 'positions moves claim')\n";
    refused("malformed.py", malformed, &[], &["request `claim 3`", "\"x\" is not a number"]);
    let cycle = "def answer(verb, arg):\n    return {'3': '4', '4': '3'}.get(arg, '') if verb == 'moves' and arg in '34' else chain(verb, arg)\nserve(answer)\n";
    refused("cycle.py", cycle, &[], &["cycle of 2 positions: 3 -> 4 -> 3"]);
    let changing = "asked = {}\ndef answer(verb, arg):\n    asked[verb, arg] = asked.get((verb, arg), 0) + 1\n    if verb == 'positions':\n        return str(int(arg) + 2)\n    return chain(verb, arg) if asked[verb, arg] == 1 else ''\nserve(answer)\n";
    refused("changing.py", changing, &["--threads", "1"], &["request `moves 2`", "non-deterministic"]);
}

#[test]
fn a_small_game_dropping_a_move_once_is_non_deterministic_not_a_counterexample() {
    // Position 5 loses its move to 3 the first time it is asked: every position of a small
    // game is asked twice, so this is caught (exit 2) and no false mismatch is reported.
    let dropping = "asked = set()\ndef answer(verb, arg):\n    if verb == 'moves' and arg == '5' and arg not in asked:\n        asked.add(arg)\n        return '4'\n    return (int(arg) % 3) if verb == 'claim' else chain(verb, arg)\nserve(answer, 'positions moves claim')\n";
    refused("dropping.py", dropping, &["--threads", "1"], &["request `moves 5`", "non-deterministic"]);
}

#[test]
fn absurdly_many_moves_or_positions_are_refused() {
    let wide = "def answer(verb, arg):\n    if verb == 'moves':\n        return ' '.join('w%d' % i for i in range(50)) if arg == '3' else ''\n    return arg\nserve(answer)\n";
    refused("wide.py", wide, &["--max-moves", "10"], &["request `moves 3`", "50 moves from one position (at most 10"]);
    refused("many.py", wide, &["--max-positions", "20"], &["more than 20 positions", "`moves 3`", "takes about 4.88 KiB and more"]);
    let dir = tempfile::tempdir().unwrap();
    let out = verify(&dir.path().join("out"), &kayles(), &["--max", "4000000000"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("expected a whole number from 0 to 1000000"), "{stderr}");
}

#[test]
fn the_program_writes_only_into_its_own_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (out, cwd) = (dir.path().join("out"), dir.path().join("cwd"));
    std::fs::create_dir(&cwd).unwrap();
    let game = program(dir.path(), "litter.py", "open('junk.txt', 'w').write('x')\nserve(chain)\n");
    verify(&out, &game, &["--max", "5"]).current_dir(&cwd).assert().code(0);
    let mut names = left_in(&out);
    names.sort();
    assert_eq!(names, [CSVS[1], "manifest.json", CSVS[2], CSVS[0]]);
    assert!(!cwd.join("junk.txt").exists() && !dir.path().join("junk.txt").exists());
}

#[test]
fn misere_reads_claims_as_outcomes_and_refuses_components_alone() {
    let dir = tempfile::tempdir().unwrap();
    // Misère take-one-or-two: the player to move loses exactly at heaps 1 mod 3.
    let outcome = "def answer(verb, arg):\n    return (0 if int(arg) % 3 == 1 else 7) if verb == 'claim' else chain(verb, arg)\nserve(answer, 'positions moves claim')\n";
    let game = program(dir.path(), "misere.py", outcome);
    verify(&dir.path().join("misere"), &game, &["--max", "12", "--convention", "misere"]).assert().code(0);
    verify(&dir.path().join("normal"), &game, &["--max", "12"]).assert().code(1);
    verify(&dir.path().join("kayles"), &kayles(), &["--max", "5", "--convention", "misere"]).assert().code(2).stderr(contains("components are not used under misère"));
}
