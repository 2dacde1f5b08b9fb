//! Guard rails of long runs: directory locks, merge into its own input, damaged checkpoints,
//! memory and time refusals before any work.

mod common;

use common::{assert_same_csvs, flip_bit, merge, read, start_slow_run, verify};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::{Path, PathBuf};

#[test]
fn a_second_run_into_a_locked_directory_is_refused_and_the_first_keeps_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let (shared, alone) = (dir.path().join("shared"), dir.path().join("alone"));
    verify(&alone, &["--max", "3x4"], 0);
    let mut first = start_slow_run(&shared, &["--max", "3x4"]);
    let holder = format!("pid {}", first.id());
    for args in [&["--max", "3x4", "--rules", "misere"][..], &["--max", "3x4"], &["--max", "3x4", "--resume"]] {
        verify(&shared, args, 2)
            .stderr(contains("is in use by another run").and(contains(holder.as_str())).and(contains("command ")).and(contains("started ")));
    }
    merge(std::slice::from_ref(&alone), &shared, 2).stderr(contains("is in use by another run"));
    assert!(first.wait().unwrap().success());
    assert_same_csvs(&alone, &shared);
    let rule = read(&shared.join("summary.csv"));
    assert!(rule.contains(",standard,") && !rule.contains("misere"), "{rule}");
}

#[test]
fn merge_refuses_to_write_into_one_of_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(k.to_string())).collect();
    for (k, shard) in shards.iter().enumerate() {
        verify(shard, &["--max", "2x3", "--shard", &format!("{}/2", k + 1)], 0);
    }
    let before = read(&shards[0].join("summary.csv"));
    let input_again = dir.path().join("2/../1");
    merge(&shards, &input_again, 2).stderr(contains("is one of the shard directories being merged"));
    assert_eq!(read(&shards[0].join("summary.csv")), before);
}

/// A seeded stream of indices below `n` (xorshift; reproducible).
fn positions(seed: u64, n: usize) -> impl Iterator<Item = usize> {
    let mut state = seed;
    std::iter::repeat_with(move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    })
}

#[test]
fn no_single_bit_flip_in_a_checkpoint_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (run, whole) = (dir.path().join("run"), dir.path().join("whole"));
    let args = ["--max", "3x3", "--block-patterns", "16", "--stop-after-blocks", "20"];
    verify(&run, &args, 3);
    let checkpoint = run.join("checkpoint.json");
    let saved = std::fs::read(&checkpoint).unwrap();
    for bit in positions(0x5eed, saved.len() * 8).take(100) {
        std::fs::write(&checkpoint, &saved).unwrap();
        flip_bit(&checkpoint, bit);
        verify(&run, &["--max", "3x3", "--resume"], 2).stderr(contains("checkpoint.json"));
        assert!(!run.join("summary.csv").exists(), "bit {bit}: a flipped checkpoint produced results");
    }
    std::fs::write(&checkpoint, &saved).unwrap();
    verify(&run, &["--max", "3x3", "--resume"], 0);
    verify(&whole, &["--max", "3x3"], 0);
    assert_same_csvs(&run, &whole);
}

#[test]
fn memory_refusal_names_size_and_amounts() {
    let dir = tempfile::tempdir().unwrap();
    verify(dir.path(), &["--max", "2x3", "--memory-limit", "1000"], 2)
        .stderr(contains("size ").and(contains("needs an estimated")).and(contains("only 1000 B is available")));
    verify(dir.path(), &["--max", "2x3", "--memory-limit", "0"], 2).stderr(contains("--memory-limit must be at least 1 byte, not 0"));
    assert!(!dir.path().join("summary.csv").exists());
}

/// Catalogue and minimax games whose brute-force memo grows with the size have a memory
/// estimate: --memory-limit refuses a run that will not fit, naming the run, not its job label.
#[test]
fn growing_brute_forces_are_refused_by_the_memory_limit() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    for args in [
        &["cross", "--max", "24", "--claim", "solver", "--threads", "2"][..],
        &["grundy", "--max", "60", "--threads", "2"],
        &["nim", "--piles", "8", "--max", "32", "--threads", "2"],
        &["divisor", "--max", "100000000", "--threads", "2"],
    ] {
        verify_game(&out, &[args, &["--memory-limit", "100000000"]].concat(), 2)
            .stderr(contains("needs an estimated").and(contains("GiB of memory on 2 threads")).and(contains("only 95.37 MiB is available")));
    }
    verify_game(&out, &["cross", "--max", "24", "--claim", "solver", "--memory-limit", "100000000"], 2)
        .stderr(contains("this run needs an estimated"));
    assert!(!out.exists(), "a refused run creates nothing");
    // Small sizes fit in the same limit.
    verify_game(&out, &["cross", "--max", "12", "--memory-limit", "100000000"], 1);
}

/// Runs that would take years are refused before any work, with the estimate and what to do
/// instead (`--force` is the way past a time estimate, not past a memory one).
#[test]
fn hopeless_runs_are_refused_before_they_start() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    verify(&out, &["--size", "7x9"], 2)
        .stderr(contains("would take an estimated").and(contains("years")).and(contains("--shard K/N")).and(contains("--force")));
    verify(&out, &["--rules", "x-blocks", "--size", "5x6"], 2).stderr(contains("days"));
    // All 2^49 7x7 boards: about 2 days on 2 cores, so shards or --force.
    let census = |args: &[&str]| common::sprague().args(["census", "wall", "-q", "--out"]).arg(&out).args(args).assert();
    census(&["--size", "7x7", "--threads", "2"]).code(2).stderr(contains("would take an estimated").and(contains("days")));
    assert!(!out.exists(), "a refused run creates nothing");
}

/// `verify GAME ARGS -q --out DIR`, expecting exit code `code`.
fn verify_game(dir: &Path, args: &[&str], code: i32) -> assert_cmd::assert::Assert {
    common::sprague().arg("verify").args(args).args(["-q", "--out"]).arg(dir).assert().code(code)
}

/// Random and sequence runs have estimates too: years of work are refused up front.
#[test]
fn hopeless_random_and_sequence_runs_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    for args in [
        &["nim", "--max", "3", "--sequence", "100000000"][..],
        &["dagame", "--max", "128", "--random", "18446744073709551615"],
        &["footholds", "--random", "1000000000000"],
        &["cards", "--random", "1000000000000"],
    ] {
        verify_game(&out, args, 2).stderr(contains("would take an estimated").and(contains("--force")));
    }
    assert!(!out.exists(), "a refused run creates nothing");
}

/// A run that checks no position would report success having verified nothing: refused,
/// unless only this shard of it is empty.
#[test]
fn a_run_with_no_position_to_check_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    for args in [
        &["nim", "--max", "0"][..],
        &["nim", "--max", "10", "--piles", "0"],
        &["cross", "--max", "0"],
        &["footholds", "--random", "0"],
        &["dagame", "--max", "128", "--random", "0"],
    ] {
        verify_game(&out, args, 2).stderr(contains("no position to check"));
    }
    assert!(!out.exists(), "a refused run creates nothing");
    verify_game(&out, &["dagame", "--max", "10", "--random", "1", "--shard", "1/2"], 0);
    assert!(read(&out.join("summary.csv")).lines().count() >= 1);
}


#[test]
fn an_output_file_is_written_through_links_and_into_streams_never_replacing_them() {
    let dir = tempfile::tempdir().unwrap();
    let (target, link) = (dir.path().join("target.csv"), dir.path().join("link.csv"));
    std::fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let table = |out: &Path, extra: &[&str]| common::sprague().args(["table", "octal", "0.77", "--max", "3", "--out"]).arg(out).args(extra).assert();
    table(&link, &[]).code(0);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(read(&target), "n,grundy\n0,0\n1,1\n2,2\n3,3\n");
    // A FIFO stands for a device or /dev/stdout: the values are streamed into it.
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || std::fs::read_to_string(fifo).unwrap()
    });
    table(&fifo, &[]).code(0);
    assert_eq!(reader.join().unwrap(), "n,grundy\n0,0\n1,1\n2,2\n3,3\n");
    table(&fifo, &["--budget", "10"]).code(2).stderr(contains("not a regular file"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 3, "nothing beside the FIFO: {names:?}");
}

/// `sprague ARGS…` into `out` (given as `--out`), exiting with `code`.
fn run_into(out: &Path, args: &[&str], code: i32) -> assert_cmd::assert::Assert {
    common::sprague().args(args).arg("--out").arg(out).arg("-q").assert().code(code)
}

#[test]
fn a_directory_holding_another_kind_of_run_or_an_unfinished_one_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("proof");
    run_into(&proof, &["prove", "wall-empty", "--max", "4"], 0);
    let before = read(&proof.join("zeros.csv"));
    common::sprague().args(["table", "wall-empty", "--max", "5x5", "--out-dir"]).arg(&proof).assert().code(2).stderr(contains("holds the results of another kind of run (`sprague prove wall-empty"));
    run_into(&proof, &["verify", "wall", "--max", "2x2"], 2);
    assert_eq!(read(&proof.join("zeros.csv")), before);
    // An unfinished verify run: only verify --resume continues it; a merge or a search is refused.
    let unfinished = dir.path().join("unfinished");
    run_into(&unfinished, &["verify", "wall", "--max", "3x3", "--block-patterns", "64", "--stop-after-blocks", "1", "--checkpoint-secs", "0"], 3);
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        verify(shard, &["--max", "3x3", "--shard", &format!("{}/2", k + 1)], 0);
    }
    merge(&shards, &unfinished, 2).stderr(contains("holds an unfinished verify or census run"));
    run_into(&unfinished, &["search", "wall", "--size", "3x3", "--budget", "1"], 2).stderr(contains("holds an unfinished"));
    run_into(&unfinished, &["verify", "wall", "--max", "3x3", "--resume"], 0);
}

#[test]
fn a_run_of_the_same_kind_replaces_the_earlier_one_and_removes_its_extra_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run_into(&out, &["verify", "wall", "--size", "1x3", "--rules", "x-blocks", "--shrink"], 1);
    assert!(out.join("counterexamples.csv").exists());
    run_into(&out, &["verify", "wall", "--size", "1x3"], 0);
    assert!(!out.join("counterexamples.csv").exists(), "no file of the earlier run is left unlisted");
    let manifest = sprague::output::manifest::Manifest::read(&out.join("manifest.json")).unwrap();
    let mut listed: Vec<&str> = manifest.files.keys().map(String::as_str).collect();
    listed.push("manifest.json");
    listed.sort();
    let mut present: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| !n.starts_with('.')).collect();
    present.sort();
    assert_eq!(present, listed);
}

/// Every time option is bounded (below 10^9 s, about 31 years): a huge, negative or NaN
/// value is refused with exit 2, never a panic in the clock arithmetic.
#[test]
fn time_options_out_of_range_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let out = out.to_str().unwrap();
    let table = format!("{out}/t.csv");
    let cases: [(&[&str], &str); 9] = [
        // --timeout: verify custom's old name of --game-timeout, still accepted.
        (&["verify", "custom", "--game-cmd", "sh -c true", "--max", "1", "--timeout", "1e300", "--out", out], "--game-timeout must be a positive number of seconds below 1000000000"),
        (&["stress", "custom", "--game-cmd", "sh -c true", "--cmd", "true", "--game-timeout", "1e300", "--out", out], "--game-timeout must be a positive"),
        (&["verify", "nim", "--max", "2", "--checkpoint-secs", "1e300", "--out", out], "--checkpoint-secs must be a non-negative number of seconds below"),
        (&["table", "octal", "0.07", "--max", "100", "--out", &table, "--budget", "1e300"], "--budget must be a non-negative number of seconds below 1000000000 (about 31 years), not 1e300"),
        (&["prove", "octal-family", "--digits", "1", "--max", "1024", "--budget", "-1", "--out", out], "not -1"),
        (&["prove", "octal-family", "--digits", "1", "--max", "1024", "--budget", "1.8e19", "--out", out], "--budget must be a non-negative number of seconds below 1000000000 (about 31 years), not 1.8e19"),
        (&["prove", "wall-empty", "--max", "10", "--budget", "NaN", "--out", out], "not NaN"),
        (&["search", "wall", "--size", "3x3", "--budget", "0", "--out", out], "--budget must be a positive"),
        (&["stress", "problem", "--cmd", "true", "--ref", "true", "--gen", "true", "--timeout", "nan", "--out", out], "--timeout must be a positive number of seconds below 1000000000 (about 31 years), not nan"),
    ];
    for (args, message) in cases {
        common::sprague().args(args).assert().code(2).stderr(contains(message));
    }
    assert!(!root.path().join("out").exists(), "a refused run creates nothing");
}

/// RAYON_NUM_THREADS is held to the bound of --threads (a manifest would record the threads,
/// and check divide its estimates by them); --threads, which rayon prefers, still decides.
#[test]
fn too_many_threads_in_the_environment_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        common::sprague().env("RAYON_NUM_THREADS", "100000").args(["verify", "wall", "--size", "2x2", "-q", "--out"]).arg(&out).args(extra).assert()
    };
    run(&[]).code(2).stderr(contains("RAYON_NUM_THREADS=100000 is more than this machine can use"));
    assert!(!out.exists());
    run(&["--threads", "1"]).code(0);
    common::sprague().env("RAYON_NUM_THREADS", "100000").args(["check", "--results"]).arg(&out).assert().code(2).stderr(contains("RAYON_NUM_THREADS"));
    common::sprague().env("RAYON_NUM_THREADS", "2").args(["check", "--budget", "1", "--results"]).arg(&out).assert().code(0);
}

#[test]
fn a_locked_output_file_is_refused_by_every_table_that_writes_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let lock = dir.path().join("t.csv.lock");
    std::fs::write(&lock, "").unwrap();
    let Ok(mut holder) = std::process::Command::new("flock").arg("-o").arg(&lock).args(["sleep", "60"]).spawn() else {
        return common::skip("no flock(1) to hold a lock");
    };
    let held = || std::process::Command::new("flock").arg("-n").arg(&lock).arg("true").status().is_ok_and(|s| !s.success());
    let started = std::time::Instant::now();
    while !held() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "flock(1) never took the lock");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let refused = format!("{} is in use by another run", out.display());
    let game = format!("python3 {}", Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games/subtraction.py").display());
    let tables: [&[&str]; 3] = [
        &["table", "octal", "0.6", "--max", "100", "--out"],
        &["table", "wall-empty", "--max", "3x3", "--out"],
        &["table", "custom", "--game-cmd", &game, "--max", "5", "--out"],
    ];
    for args in tables {
        common::sprague().args(args).arg(&out).assert().code(2).stderr(contains(refused.as_str()));
    }
    assert!(!out.exists(), "nothing written");
    holder.kill().unwrap();
    holder.wait().unwrap();
}

/// `sprague ARGS` with `input` on stdin and stdout (and stderr too, with `stderr_full`) on
/// /dev/full: its exit code and what it wrote to stderr.
fn into_full(args: &[&str], input: &str, stderr_full: bool) -> (Option<i32>, String) {
    use std::io::Write;
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_sprague"));
    command.args(args).stdin(std::process::Stdio::piped()).stdout(full());
    command.stderr(if stderr_full { full().into() } else { std::process::Stdio::piped() });
    let mut child = command.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes()); // it may not read it all
    let output = child.wait_with_output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// An answer that cannot be written (a full disk: /dev/full) is an error naming standard
/// output, exit 2, in every `solve` game (its help examples' inputs), never lost with exit 0;
/// and a full standard error turns no message into a panic.
#[test]
fn an_answer_that_cannot_be_written_is_an_error_in_every_solve() {
    for solve in sprague::games::commands(sprague::game::Verb::Solve) {
        let spec = solve.spec();
        let mut inputs = spec.examples.iter().filter_map(|e| e.strip_prefix("printf '")?.split_once("' |").map(|(text, _)| text.replace("\\n", "\n")));
        let input = inputs.next().unwrap_or_else(|| panic!("solve {} has a printf example", spec.name));
        let (code, stderr) = into_full(&["solve", spec.name], &input, false);
        assert_eq!(code, Some(2), "solve {}: {stderr}", spec.name);
        assert!(stderr.contains("<stdout>: No space left on device"), "solve {}: {stderr}", spec.name);
        assert_eq!(into_full(&["solve", spec.name], &input, true).0, Some(2), "solve {}", spec.name);
    }
    assert_eq!(into_full(&["solve", "wall", "/nonexistent"], "", true).0, Some(2));
}

/// Help or a version that cannot be written is an error (exit 2) too; a usage error whose
/// message cannot be written still exits 2, and help written in full exits 0.
#[test]
fn help_that_cannot_be_written_is_an_error() {
    for args in [&["--help"][..], &["verify", "wall", "--help"], &["--version"]] {
        let (code, stderr) = into_full(args, "", false);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        let what = if args == ["--version"] { "the version" } else { "the help" };
        assert!(stderr.contains(&format!("cannot write {what} to standard output: No space left on device")), "{args:?}: {stderr}");
    }
    assert_eq!(into_full(&["verify", "wall", "--bogus"], "", true).0, Some(2));
    // check's report too names standard output.
    let (code, stderr) = into_full(&["check", "--budget", "0", "--results", "results/nim"], "", false);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("<stdout>: No space left on device"), "{stderr}");
    common::sprague().args(["verify", "wall", "--help"]).assert().success().stdout(contains("--max"));
}

/// A device (a link to /dev/zero) or a pipe where sprague reads one of its files is refused,
/// naming it, never read without end (memory) nor sized as empty (`--stats-from` a pipe once
/// gave the statistics of 0 values, exit 0).
#[cfg(target_os = "linux")]
#[test]
fn a_device_or_pipe_in_place_of_a_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let refused = "not a regular file (a device, FIFO or socket)";
    let table = |args: &[&str]| common::sprague().current_dir(dir.path()).args(["table", "octal"]).args(args).assert();
    table(&["0.77", "--stats-from", "/dev/zero", "--stats", "st"]).code(2).stderr(contains(refused));
    table(&["0.77", "--max", "100", "--binary", "-q", "--out", "v.bin"]).success();
    let piped = std::process::Command::new("bash").current_dir(dir.path()).arg("-c").arg(format!("{} table octal 0.77 --stats-from <(cat v.bin) --stats st --binary", env!("CARGO_BIN_EXE_sprague"))).output().unwrap();
    assert_eq!(piped.status.code(), Some(2), "{}", String::from_utf8_lossy(&piped.stderr));
    assert!(String::from_utf8_lossy(&piped.stderr).contains(refused));
    std::os::unix::fs::symlink("/dev/zero", at("o.csv.checkpoint.json")).unwrap();
    std::fs::write(at("o.csv.values.bin"), b"").unwrap();
    table(&["0.6", "--max", "1000", "-q", "--out", "o.csv", "--resume"]).code(2).stderr(contains(format!("o.csv.checkpoint.json: {refused}")));
    let proof = at("p");
    common::sprague().args(["prove", "wall-empty", "--max", "30", "-q", "--out"]).arg(&proof).assert().success();
    std::fs::remove_file(proof.join("manifest.json")).unwrap();
    std::fs::remove_file(proof.join("proof.bin")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", proof.join("proof.bin")).unwrap();
    common::sprague().args(["prove", "wall-empty", "--max", "40", "--resume", "-q", "--out"]).arg(&proof).assert().code(2).stderr(contains(format!("proof.bin: {refused}")));
}
