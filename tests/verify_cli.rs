//! `sprague verify wall` and `sprague merge` end to end: file schemas, determinism across
//! threads and shards, checkpoints and resume (also after SIGKILL), exit codes (guard rails: tests/guard_rails.rs).

mod common;

use common::{assert_same_csvs, merge, read, sprague, verify};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use sprague::games::wall::{Rule, Shape};
use sprague::output::manifest::Manifest;
use sprague::runner::files::read_verify_files;
use sprague::games::wall::verify::engine::ReferenceEngine;
use sprague::runner::Evaluate;
use sprague::runner::RunResults;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The per-board reference verifier's results on every pattern of every size up to `max`.
fn reference(max: Shape, rule: Rule) -> RunResults {
    let mut results = RunResults::new("wall", rule.name());
    for rows in 1..=max.rows {
        for cols in 1..=max.cols {
            let shape = Shape::new(rows, cols);
            ReferenceEngine { shape, rule }.evaluate(0..1 << shape.cells(), &mut results).unwrap();
        }
    }
    results
}

/// Runs all three shards of `args` into `root/1..3` and returns their directories.
fn run_shards(root: &Path, args: &[&str], code: i32) -> Vec<PathBuf> {
    (1..=3)
        .map(|k| {
            let dir = root.join(k.to_string());
            let shard = format!("{k}/3");
            verify(&dir, &[args, &["--shard", &shard]].concat(), code);
            dir
        })
        .collect()
}

#[test]
fn files_have_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    verify(dir.path(), &["--max", "2x3"], 0);
    let summary = read(&dir.path().join("summary.csv"));
    let mut lines = summary.lines();
    assert_eq!(lines.next(), Some("game,rule,rows,cols,patterns,mismatches,p_positions,max_grundy"));
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let (rows, cols): (u32, u32) = (fields[2].parse().unwrap(), fields[3].parse().unwrap());
        assert_eq!(fields[..2], ["wall", "standard"]);
        assert_eq!(fields[4].parse::<u64>().unwrap(), 1 << (rows * cols), "{line}");
        assert_eq!(fields[5], "0");
    }
    let distribution = read(&dir.path().join("distribution.csv"));
    assert!(distribution.starts_with("game,rule,rows,cols,xs,grundy,patterns\nwall,standard,1,1,"), "{distribution}");
    assert_eq!(read(&dir.path().join("mismatches.csv")), "game,rule,rows,cols,board,dp_grundy,naive_grundy,naive_outcome\n");
    let manifest = Manifest::read(&dir.path().join("manifest.json")).unwrap();
    assert_eq!(manifest.files.keys().collect::<Vec<_>>(), ["distribution.csv", "mismatches.csv", "summary.csv"]);
    for (key, value) in [("game", "wall"), ("rule", "standard"), ("shard", "1/1"), ("sizes", "max 2x3")] {
        assert_eq!(manifest.parameters[key], value, "{key}");
    }
    assert!(manifest.command_line.contains(&"--max".to_string()) && manifest.threads >= 1 && manifest.wall_seconds >= 0.0);
    assert!(!dir.path().join("checkpoint.json").exists(), "a finished run leaves no checkpoint");
}

#[test]
fn results_equal_the_per_board_reference() {
    for (rule, code) in [(Rule::Standard, 0), (Rule::XBlocks, 1)] {
        let dir = tempfile::tempdir().unwrap();
        verify(dir.path(), &["--max", "3x4", "--rule", rule.name()], code);
        let mut expected = reference(Shape::new(3, 4), rule);
        expected.mismatches = expected.mismatch_rows();
        assert_eq!(read_verify_files(dir.path()).unwrap(), expected, "{rule}");
    }
}

#[test]
fn threads_do_not_change_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("1"), dir.path().join("2"));
    verify(&one, &["--max", "3x4", "--rule", "x-blocks", "--threads", "1"], 1);
    verify(&two, &["--max", "3x4", "--rule", "x-blocks", "--threads", "2"], 1);
    assert_same_csvs(&one, &two);
    assert_eq!(Manifest::read(&one.join("manifest.json")).unwrap().threads, 1);
}

#[test]
fn merged_shards_equal_one_run() {
    for (rule, code) in [("standard", 0), ("x-blocks", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole");
        verify(&whole, &["--max", "3x4", "--rule", rule], code);
        let mut shards = run_shards(dir.path(), &["--max", "3x4", "--rule", rule], code);
        shards.reverse();
        let merged = dir.path().join("merged");
        merge(&shards, &merged, code);
        assert_same_csvs(&whole, &merged);
        let manifest = Manifest::read(&merged.join("manifest.json")).unwrap();
        assert_eq!(manifest.parameters["shard"], "1/1");
        assert_eq!(manifest.parameters["sizes"], "max 3x4");
        assert_eq!(manifest.parameters["merged_from"].as_array().unwrap().len(), 3);
        assert_eq!(manifest.parameters["merged_from"][0]["shard"], "3/3");
    }
}

/// A shard owns a slice of every size's positions laid end to end: three shards of a run of
/// many small sizes (Nim up to 4 piles: 16 sizes, 69 positions, none with more than 10) count
/// 23 positions each (they used to leave each size of fewer than 3 positions to the last
/// shard), and merge into the unsharded run's files.
#[test]
fn shards_share_out_many_small_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, shard: &str| {
        let out = dir.path().join(name);
        sprague().args(["verify", "nim", "--max", "4", "-q", "--shard", shard, "--out"]).arg(&out).assert().success();
        out
    };
    let shards: Vec<PathBuf> = (1..=3).map(|k| run(&k.to_string(), &format!("{k}/3"))).collect();
    for shard in &shards {
        assert_eq!(read_verify_files(shard).unwrap().sizes.values().map(|t| t.patterns).sum::<u64>(), 23, "{}", shard.display());
    }
    let merged = dir.path().join("merged");
    merge(&shards, &merged, 0);
    assert_same_csvs(&run("whole", "1/1"), &merged);
}

#[test]
fn merge_refuses_bad_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let shards = run_shards(root, &["--max", "2x3"], 0);
    let out = root.join("out");
    let refuse = |dirs: Vec<PathBuf>, message: &str| {
        merge(&dirs, &out, 2).stderr(contains(message));
    };
    refuse(vec![shards[0].clone(), shards[2].clone()], "missing shard(s) 2/3 of the 3");
    refuse(vec![shards[0].clone(), shards[1].clone(), shards[1].clone(), shards[2].clone()], "shard 2/3 given twice");
    let half = root.join("half");
    verify(&half, &["--max", "2x3", "--shard", "1/2"], 0);
    refuse(vec![shards[0].clone(), half], "shards of different splits");
    let t_split = root.join("t-split");
    verify(&t_split, &["--max", "2x3", "--rule", "t-split", "--shard", "2/3"], 0);
    refuse(vec![shards[0].clone(), t_split, shards[2].clone()], "rule is \"standard\" vs \"t-split\"");
    let smaller = root.join("smaller");
    verify(&smaller, &["--max", "2x2", "--shard", "2/3"], 0);
    refuse(vec![shards[0].clone(), smaller, shards[2].clone()], "sizes is \"max 2x3\" vs \"max 2x2\"");
    refuse(vec![shards[0].clone(), root.join("missing"), shards[2].clone()], "missing: no such directory");
    refuse(vec![shards[0].clone(), shards[1].join("summary.csv"), shards[2].clone()], "summary.csv: not a directory");
    std::fs::create_dir(root.join("empty")).unwrap();
    refuse(vec![shards[0].clone(), root.join("empty"), shards[2].clone()], "no manifest.json; not the output of a finished verify or census run");
    let unfinished = root.join("unfinished");
    verify(&unfinished, &["--max", "2x3", "--shard", "2/3", "--block-patterns", "2", "--stop-after-blocks", "2"], 3);
    refuse(vec![shards[0].clone(), unfinished, shards[2].clone()], "unfinished run");
    let manifest = shards[1].join("manifest.json");
    let sealed = read(&manifest);
    std::fs::write(&manifest, sealed.replace("\"sizes\": \"max 2x3\"", "\"sizes\": \"max 4x5\"")).unwrap();
    refuse(shards.clone(), "content does not match its digest");
    std::fs::write(&manifest, sealed).unwrap();
    std::fs::write(shards[1].join("summary.csv"), "tampered").unwrap();
    refuse(shards.clone(), "summary.csv: sha256 ");
    assert!(!out.exists(), "no refused merge writes files");
}

/// Shards written by another version are refused, naming both; the commit each shard was
/// built from is recorded in the merged manifest.
#[test]
fn merge_refuses_other_versions_and_records_each_commit() {
    let dir = tempfile::tempdir().unwrap();
    let shards = run_shards(dir.path(), &["--max", "2x3"], 0);
    let merged = dir.path().join("merged");
    merge(&shards, &merged, 0);
    let manifest = Manifest::read(&merged.join("manifest.json")).unwrap();
    let first = Manifest::read(&shards[0].join("manifest.json")).unwrap();
    assert_eq!(manifest.parameters["merged_from"][0].get("git_commit").and_then(|c| c.as_str()), first.git_commit.as_deref());
    let path = shards[1].join("manifest.json");
    let mut older = Manifest::read(&path).unwrap();
    older.version = "0.0.1".into();
    older.git_commit = Some("deadbeef".into());
    older.write(&path).unwrap();
    let message = format!("{} and {} were written by different versions of sprague: {} vs 0.0.1", shards[0].display(), shards[1].display(), first.version);
    merge(&shards, &dir.path().join("other"), 2).stderr(contains(message));
}

/// A merge replaces only a run of the kind it merges: verify shards never over a census run,
/// census shards never over a verify run (the earlier run's files untouched).
#[test]
fn merge_refuses_to_replace_another_kind_of_run() {
    let dir = tempfile::tempdir().unwrap();
    let census = dir.path().join("census");
    sprague().args(["census", "wall", "--max", "2x3", "-q", "--out"]).arg(&census).assert().success();
    let before = read(&census.join("manifest.json"));
    let shards = run_shards(dir.path(), &["--max", "2x3"], 0);
    merge(&shards, &census, 2).stderr(contains("holds the results of another kind of run (`sprague census wall"));
    assert_eq!(read(&census.join("manifest.json")), before);
    let census_shards: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let out = dir.path().join(format!("c{k}"));
            sprague().args(["census", "wall", "--max", "2x3", "-q", "--shard", &format!("{k}/2"), "--out"]).arg(&out).assert().success();
            out
        })
        .collect();
    let whole = dir.path().join("whole");
    merge(&shards, &whole, 0);
    merge(&census_shards, &whole, 2).stderr(contains("holds the results of another kind of run"));
    merge(&census_shards, &census, 0);
    merge(&shards, &whole, 0);
}

/// A finished `verify nim` run in `dir`/nim, which a wall run must not replace.
fn nim_run(dir: &Path) -> PathBuf {
    let nim = dir.join("nim");
    sprague().args(["verify", "nim", "--max", "2", "--piles", "2", "-q", "--out"]).arg(&nim).assert().success();
    nim
}

/// How a wall run is refused over [`nim_run`]'s directory.
const NIM_RUN_HELD: &str = "holds the results of a run of `nim` (`sprague verify nim --max 2 --piles 2";
const NOT_OF_WALL: &str = "not of `wall`: this run of `wall` would replace them; choose another --out";

/// A merge replaces only a run of the game it merges: wall shards never over a nim run.
#[test]
fn merge_refuses_to_replace_another_games_run() {
    let dir = tempfile::tempdir().unwrap();
    let nim = nim_run(dir.path());
    let before = read(&nim.join("manifest.json"));
    let shards = run_shards(dir.path(), &["--max", "2x3"], 0);
    merge(&shards, &nim, 2)
        .stderr(contains(NIM_RUN_HELD)).stderr(contains(NOT_OF_WALL));
    assert_eq!(read(&nim.join("manifest.json")), before);
}

/// A merge over a finished run of its game with other sizes replaces it as verify does (the
/// same kind and game), and both say so, naming both size ranges; the same sizes again, silently.
#[test]
fn a_run_of_other_sizes_is_replaced_with_a_word_by_merge_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let shards = run_shards(dir.path(), &["--max", "2x3"], 0);
    verify(&out, &["--max", "3x4"], 0);
    let replaced = format!("replaced the run of sizes 1x1..3x4 in {} (`sprague verify wall -q --out {} --max 3x4`) by one of sizes 1x1..2x3", out.display(), out.display());
    merge(&shards, &out, 0).stderr(contains(replaced.as_str()));
    let reference = dir.path().join("reference");
    verify(&reference, &["--max", "2x3"], 0);
    assert_same_csvs(&out, &reference);
    merge(&shards, &out, 0).stderr(contains("replaced").not());
    verify(&out, &["--max", "2x2"], 0).stderr(contains(format!("replaced the run of sizes 1x1..2x3 in {} (`sprague merge ", out.display()))).stderr(contains("by one of sizes 1x1..2x2"));
}

/// A run of the same sizes but another shard or rule in the same directory (a loop over the
/// shards that forgot its --out) is replaced with a word naming what differs.
#[test]
fn a_run_of_another_shard_or_rule_is_replaced_with_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    verify(&out, &["--max", "3x3", "--shard", "1/3"], 0).stderr(contains("replaced").not());
    let line = format!("replaced the run of sizes 1x1..3x3, shard 1/3 in {} (`sprague verify wall -q --out {} --max 3x3 --shard 1/3`) by one of sizes 1x1..3x3, shard 2/3", out.display(), out.display());
    verify(&out, &["--max", "3x3", "--shard", "2/3"], 0).stderr(contains(line.as_str()));
    verify(&out, &["--max", "3x3", "--shard", "2/3"], 0).stderr(contains("replaced").not());
    verify(&out, &["--max", "3x3", "--shard", "2/3", "--rules", "misere"], 1).stderr(contains(", rule standard in ").and(contains("by one of sizes 1x1..3x3, rule misere")));
}

/// sprague's own kings solver, as a `--cmd` for stress.
fn kings_solver() -> String {
    format!("{} solve kings", assert_cmd::cargo::cargo_bin("sprague").display())
}

/// A one-second `stress kings` of [`kings_solver`] into `out`.
fn stress_kings(out: &Path) -> assert_cmd::assert::Assert {
    sprague().args(["stress", "kings", "--cmd", &kings_solver(), "--budget", "1", "-q", "--out"]).arg(out).assert()
}

/// verify and stress, like merge, replace only a run of their own game: wall never over nim
/// (nor over kings), the earlier run's files intact.
#[test]
fn verify_and_stress_refuse_to_replace_another_games_run() {
    let dir = tempfile::tempdir().unwrap();
    let nim = nim_run(dir.path());
    let before = (read(&nim.join("manifest.json")), read(&nim.join("summary.csv")));
    sprague().args(["verify", "wall", "--max", "2x2", "-q", "--out"]).arg(&nim).assert().code(2)
        .stderr(contains(NIM_RUN_HELD)).stderr(contains(NOT_OF_WALL));
    assert_eq!((read(&nim.join("manifest.json")), read(&nim.join("summary.csv"))), before);
    let kings = dir.path().join("kings");
    stress_kings(&kings).success();
    let before = read(&kings.join("manifest.json"));
    sprague().args(["stress", "wall", "--cmd", &kings_solver(), "--budget", "1", "-q", "--out"]).arg(&kings).assert().code(2)
        .stderr(contains("holds the results of a run of `kings` (`sprague stress kings --cmd "));
    assert_eq!(read(&kings.join("manifest.json")), before);
}

/// A directory of the user's own files, which no sprague run recorded, is refused by every
/// command that writes a run directory (verify, merge, stress, census), its files untouched and
/// no lock left in it; a subdirectory of other runs (out/stress) is no reason to refuse, and a
/// run killed before its manifest (its lock left behind) is replaced as before.
#[test]
fn a_directory_of_files_no_run_recorded_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("summary.csv"), "my own table\n").unwrap();
    let refused = format!("{} holds files no sprague run recorded (summary.csv; no manifest.json)", mine.display());
    verify(&mine, &["--max", "2x2"], 2).stderr(contains(refused.as_str()));
    sprague().args(["census", "wall", "--max", "2x2", "-q", "--out"]).arg(&mine).assert().code(2).stderr(contains(refused.as_str()));
    let shards = run_shards(dir.path(), &["--max", "2x3"], 0);
    merge(&shards, &mine, 2).stderr(contains(refused.as_str()));
    stress_kings(&mine).code(2).stderr(contains(refused.as_str()));
    assert_eq!(read(&mine.join("summary.csv")), "my own table\n");
    let left: Vec<_> = std::fs::read_dir(&mine).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["summary.csv"], "nothing written beside the user's file");

    let theirs = dir.path().join("theirs");
    std::fs::create_dir_all(theirs.join("failures")).unwrap();
    std::fs::write(theirs.join("failures/001.in"), "1 1\n.\n").unwrap();
    let refused = format!("{} holds files no sprague run recorded (failures/001.in; no manifest.json)", theirs.display());
    stress_kings(&theirs).code(2).stderr(contains(refused.as_str()));
    assert_eq!(read(&theirs.join("failures/001.in")), "1 1\n.\n", "stress clears no numbered file it did not save");

    let out = dir.path().join("out");
    stress_kings(&out.join("stress")).success();
    verify(&out, &["--max", "2x2"], 0);
    std::fs::remove_file(out.join("manifest.json")).unwrap();
    verify(&out, &["--max", "2x2"], 0);
}

#[test]
fn stopped_runs_resume_to_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    verify(&whole, &["--max", "3x4", "--rule", "x-blocks"], 1);
    let resumed = dir.path().join("resumed");
    let args = ["--max", "3x4", "--rule", "x-blocks", "--block-patterns", "100", "--checkpoint-secs", "0"];
    verify(&resumed, &[&args[..], &["--stop-after-blocks", "9"]].concat(), 3);
    let mut stops = 1;
    while sprague()
        .args(["verify", "wall", "-q", "--resume", "--stop-after-blocks", "9", "--out"])
        .arg(&resumed)
        .args(args)
        .assert()
        .get_output()
        .status
        .code()
        == Some(3)
    {
        stops += 1;
        assert!(resumed.join("checkpoint.json").exists());
    }
    assert!(stops >= 5, "only {stops} interruptions");
    assert_same_csvs(&whole, &resumed);
    assert!(!resumed.join("checkpoint.json").exists());
    let manifest = Manifest::read(&resumed.join("manifest.json")).unwrap();
    assert!(manifest.notes.iter().any(|n| n.contains("resumed")), "{:?}", manifest.notes);
}

#[test]
fn resume_after_sigkill_gives_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, killed) = (dir.path().join("whole"), dir.path().join("killed"));
    verify(&whole, &["--max", "4x4"], 0);
    let args = ["--max", "4x4", "--block-patterns", "256", "--checkpoint-secs", "0.05"];
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"))
        .args(["verify", "wall", "-q", "--block-delay-ms", "10", "--out"])
        .arg(&killed)
        .args(args)
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !killed.join("checkpoint.json").exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(700));
    assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
    child.kill().unwrap();
    child.wait().unwrap();
    let stale = read(&killed.join(".sprague.lock"));
    assert!(stale.contains(&format!("pid {}", child.id())), "the killed run's lock stays behind: {stale}");
    assert!(!killed.join("summary.csv").exists(), "killed before the end");
    verify(&killed, &["--max", "4x4"], 2).stderr(contains("--resume"));
    verify(&killed, &[&args[..], &["--resume"]].concat(), 0);
    assert_same_csvs(&whole, &killed);
    let names: Vec<String> =
        std::fs::read_dir(&killed).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(names.iter().all(|n| !n.contains(".tmp.") && n != "checkpoint.json"), "{names:?}");
}

#[test]
fn resume_refuses_other_parameters_and_missing_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    verify(dir.path(), &["--max", "2x3", "--resume"], 2).stderr(contains("nothing to resume"));
    verify(dir.path(), &["--max", "2x3", "--block-patterns", "4", "--stop-after-blocks", "3"], 3);
    verify(dir.path(), &["--max", "2x3", "--resume", "--rule", "misere"], 2)
        .stderr(contains("parameters differ (rule: checkpoint has standard, this run has misere)"));
    verify(dir.path(), &["--max", "3x3", "--resume"], 2).stderr(contains("parameters differ (sizes:"));
    verify(dir.path(), &["--max", "2x3", "--resume", "--shard", "1/2"], 2).stderr(contains("shard: checkpoint has 1/1"));
    verify(dir.path(), &["--max", "2x3"], 2).stderr(contains("holds an unfinished run"));
    verify(dir.path(), &["--max", "2x3", "--resume"], 0);
}

#[test]
fn resume_refuses_other_engine_settings_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)], extra: &[&str]| {
        let mut cmd = sprague();
        cmd.args(["verify", "wall", "-q", "--max", "2x3", "--out"]).arg(dir.path()).args(extra);
        cmd.env_remove("SPRAGUE_ENGINE").env_remove("SPRAGUE_SYMMETRY").envs(env.iter().copied());
        cmd.assert()
    };
    let stop = ["--block-patterns", "4", "--stop-after-blocks", "3"];
    run(&[], &stop).code(3);
    let checkpoint = read(&dir.path().join("checkpoint.json"));
    run(&[("SPRAGUE_SYMMETRY", "off")], &["--resume"])
        .code(2)
        .stderr(contains("parameters differ (SPRAGUE_SYMMETRY: checkpoint has none, this run has \"off\"); resume with the options and environment"));
    run(&[("SPRAGUE_ENGINE", "reference")], &["--resume"]).code(2).stderr(contains("SPRAGUE_ENGINE: checkpoint has none, this run has \"reference\""));
    assert_eq!(read(&dir.path().join("checkpoint.json")), checkpoint, "the checkpoint is kept");
    run(&[], &["--resume"]).code(0);
    // A run under a setting records it, and resumes only under it.
    run(&[("SPRAGUE_SYMMETRY", "off")], &stop).code(3);
    run(&[], &["--resume"]).code(2).stderr(contains("SPRAGUE_SYMMETRY: checkpoint has \"off\", this run has none"));
    run(&[("SPRAGUE_SYMMETRY", "off")], &["--resume"]).code(0);
}

#[test]
fn exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    verify(dir.path(), &["--size", "2x2"], 0);
    verify(dir.path(), &["--rule", "x-blocks", "--size", "1x3"], 1);
    assert!(read(&dir.path().join("mismatches.csv")).lines().count() > 1);
    verify(dir.path(), &["--size", "9x9"], 2).stderr(contains("81 cells; a run over every pattern (verify, census) handles at most 63"));
    // The option's check and the run name one limit: 64 cells are refused as 81 are.
    verify(dir.path(), &["--size", "8x8"], 2).stderr(contains("size 8x8 has 64 cells; a run over every pattern (verify, census) handles at most 63 (2^63 patterns)"));
    // A side past the DP's 20, wide or tall, in verify and census alike (1x21 panicked).
    for args in [&["--size", "1x21"][..], &["--max", "2x21"], &["--size", "33x1", "--force"]] {
        verify(dir.path(), args, 2).stderr(contains("has a side of ").and(contains("the claim's DP takes sides up to 20")));
    }
    sprague().args(["census", "wall", "--size", "1x21", "-q", "--out"]).arg(dir.path().join("c")).assert().code(2).stderr(contains("a side of 21"));
    verify(dir.path(), &["--size", "2x2", "--shard", "4/3"], 2).stderr(contains("invalid shard"));
    verify(dir.path(), &["--size", "2x2", "--max", "2x2"], 2);
    sprague().args(["merge", "--out"]).arg(dir.path()).assert().code(2);
}

/// An empty --out would write into the current directory: refused for every path option.
#[test]
fn an_empty_output_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["verify", "wall", "--max", "2x2", "--out", "", "-q"][..], &["table", "wall-empty", "--max", "2x2", "--out-dir", ""], &["prove", "wall-empty", "--max", "2", "--out", ""]] {
        sprague().current_dir(dir.path()).args(args).assert().code(2).stderr(contains("empty path"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written into the current directory");
}

/// Every one-byte change of a shard's manifest (each byte's lowest bit flipped, `"digest"`
/// becoming `"digesu"` among them) is refused by merge, which writes nothing.
#[test]
fn no_single_byte_flip_in_a_shard_manifest_merges() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(k.to_string())).collect();
    for (k, shard) in shards.iter().enumerate() {
        let split = format!("{}/2", k + 1);
        sprague().args(["census", "wall", "--size", "3x3", "-q", "--shard", &split, "--out"]).arg(shard).assert().code(0);
    }
    let (manifest, out) = (shards[0].join("manifest.json"), dir.path().join("out"));
    let sealed = std::fs::read(&manifest).unwrap();
    for at in 0..sealed.len() {
        let mut flipped = sealed.clone();
        flipped[at] ^= 1;
        std::fs::write(&manifest, &flipped).unwrap();
        let shown = String::from_utf8_lossy(&flipped[at.saturating_sub(12)..(at + 12).min(sealed.len())]).into_owned();
        let refused = merge(&shards, &out, 2).get_output().stderr.clone();
        assert!(String::from_utf8_lossy(&refused).contains("manifest.json"), "byte {at} ({shown:?}): {}", String::from_utf8_lossy(&refused));
        assert!(!out.exists(), "byte {at} ({shown:?}): a flipped manifest merged");
    }
    std::fs::write(&manifest, &sealed).unwrap();
    merge(&shards, &out, 0);
}

/// A resumed run's manifest adds up the time of every sitting, and check estimates from it.
#[test]
fn a_resumed_run_records_the_time_of_every_sitting() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let args = ["--max", "2x3", "--block-patterns", "16", "--block-delay-ms", "100", "--checkpoint-secs", "0", "--stop-after-blocks", "3"];
    verify(&run, &args, 3);
    verify(&run, &[&args[..], &["--resume"]].concat(), 3);
    verify(&run, &["--max", "2x3", "--resume"], 0);
    let manifest = Manifest::read(&run.join("manifest.json")).unwrap();
    let all = manifest.seconds_all_sittings.expect("a resumed run records the time of its sittings");
    // Two stopped sittings of 3 blocks of 100 ms each, then the last one.
    assert!(all >= 0.6 + manifest.wall_seconds - 0.002, "{all} s over every sitting, {} s in the last", manifest.wall_seconds);
    let threads = manifest.threads as f64;
    assert_eq!(manifest.cpu_seconds_on(threads), all);
    // A run of one sitting records none.
    let once = dir.path().join("once");
    verify(&once, &["--max", "2x2"], 0);
    assert_eq!(Manifest::read(&once.join("manifest.json")).unwrap().seconds_all_sittings, None);
}

/// `--size 2X03` is recorded as `2x3`: its shards merge with those of `--size 2x3`.
#[test]
fn sizes_are_recorded_in_one_form() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(k.to_string())).collect();
    verify(&shards[0], &["--size", "2X03", "--shard", "1/2"], 0);
    verify(&shards[1], &["--size", "2x3", "--shard", "2/2"], 0);
    let manifest = Manifest::read(&shards[0].join("manifest.json")).unwrap();
    assert_eq!(manifest.parameters["options"]["size"], "2x3");
    merge(&shards, &dir.path().join("out"), 0);
}

/// Under misère the claim is about the winner only: a counterexample whose values agree names
/// the winners that differ.
#[test]
fn a_misere_counterexample_names_the_winners() {
    let dir = tempfile::tempdir().unwrap();
    verify(dir.path(), &["--max", "2x2", "--rules", "misere"], 1)
        .stderr(contains("first counterexample: rows 1, cols 1, board . — misère winner: claim first player wins, naive second player wins"));
}

/// `merge` of shards with mismatches says how many and prints the first, as `verify` does.
#[test]
fn a_merge_with_mismatches_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(k.to_string())).collect();
    for (k, shard) in shards.iter().enumerate() {
        let args = ["verify", "wall", "-q", "--max", "2x2", "--rules", "misere", "--shard", if k == 0 { "1/2" } else { "2/2" }, "--out"];
        sprague().args(args).arg(shard).output().unwrap();
    }
    merge(&shards, &dir.path().join("merged"), 1)
        .stderr(contains(" mismatches; files in "))
        .stderr(contains("first counterexample: rows 1, cols 1, board . — misère winner: claim first player wins, naive second player wins"));
}

/// A shard count near 2^64 (a resealed edit) cannot wrap round to the right total: merge and
/// check refuse it where the sums once wrapped back to 512 and the merge exited 0.
#[test]
fn a_count_that_would_wrap_is_refused_by_merge_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    verify(&a, &["--max", "3x3", "--shard", "1/2"], 0);
    verify(&b, &["--max", "3x3", "--shard", "2/2"], 0);
    common::edit_and_reseal(&b, "distribution.csv", "\nwall,standard,3,3,4,1,1\n", "\nwall,standard,3,3,4,1,18446744073709551615\n");
    common::edit_and_reseal(&b, "distribution.csv", "\nwall,standard,3,3,5,1,1\n", "\nwall,standard,3,3,5,1,3\n");
    merge(&[a.clone(), b.clone()], &dir.path().join("m"), 2).stderr(contains("3x3 says patterns/p_positions/max_grundy").and(contains("18446744073709551615")));
    assert!(!dir.path().join("m").exists());
    sprague().args(["check", "--budget", "0", "--results"]).arg(dir.path()).assert().code(1).stdout(contains("distribution.csv sums to 18446744073709551615/"));
}

/// A merge that fails while it writes (here past a file-size limit) withdraws the earlier run's
/// manifest first: no manifest lists files it changed, check names the directory, and the
/// merge run again completes it.
#[test]
fn a_merge_that_fails_while_writing_leaves_no_manifest_over_changed_files() {
    let dir = tempfile::tempdir().unwrap();
    let shards = run_shards(dir.path(), &["--max", "4x4"], 0);
    let out = dir.path().join("out");
    verify(&out, &["--max", "3x3"], 0);
    let binary = assert_cmd::cargo::cargo_bin("sprague");
    let limited = format!("ulimit -f 4; exec {} merge {} {} {} --out {}", binary.display(), shards[0].display(), shards[1].display(), shards[2].display(), out.display());
    let failed = std::process::Command::new("sh").arg("-c").arg(&limited).output().unwrap();
    assert_eq!(failed.status.code(), Some(2), "{}", String::from_utf8_lossy(&failed.stderr));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("File too large"));
    assert!(!out.join("manifest.json").exists(), "the 3x3 run's manifest would list files the merge changed");
    let check = sprague().args(["check", "--results"]).arg(&out).assert().code(1);
    check.stdout(contains("but no manifest, so none of them can be checked"));
    merge(&shards, &out, 0);
    let reference = dir.path().join("reference");
    verify(&reference, &["--max", "4x4"], 0);
    assert_same_csvs(&out, &reference);
}
