//! `sprague census wall` end to end: same distribution as a verified run, sharding, refusals.

mod common;
use common::{assert_same_csvs, read, sprague};

use predicates::str::contains;
use sprague::output::manifest::Manifest;
use std::path::Path;
use std::process::{Child, Stdio};

#[test]
fn census_equals_the_verified_distribution_and_says_nothing_was_checked() {
    let root = tempfile::tempdir().unwrap();
    let (census, verified) = (root.path().join("census"), root.path().join("verified"));
    sprague().args(["census", "wall", "--max", "4x4", "-q", "--out"]).arg(&census).assert().code(0);
    sprague().args(["verify", "wall", "--max", "4x4", "-q", "--out"]).arg(&verified).assert().code(0);
    assert_same_csvs(&census, &verified);
    let manifest = Manifest::read(&census.join("manifest.json")).unwrap();
    assert_eq!(manifest.parameters["mode"], "census");
    assert!(manifest.notes.iter().any(|n| n.contains("nothing was cross-checked")), "{:?}", manifest.notes);
}

#[test]
fn census_shards_merge_to_one_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    sprague().args(["census", "wall", "--size", "3x5", "-q", "--out"]).arg(&whole).assert().code(0);
    let shards: Vec<_> = (1..=3)
        .map(|k| {
            let dir = root.path().join(k.to_string());
            let shard = format!("{k}/3");
            sprague().args(["census", "wall", "--size", "3x5", "-q", "--shard", &shard, "--out"]).arg(&dir).assert().code(0);
            dir
        })
        .collect();
    let merged = root.path().join("merged");
    sprague().arg("merge").args(&shards).arg("--out").arg(&merged).assert().code(0);
    assert_eq!(read(&merged.join("distribution.csv")), read(&whole.join("distribution.csv")));
    assert_eq!(read(&merged.join("summary.csv")), read(&whole.join("summary.csv")));
}

/// Runs `sprague COMMAND wall --size SIZE` as 8 shards in 8 concurrent processes, merges them,
/// runs it once unsharded, and asserts the merged CSV files are byte-identical to that run's.
fn eight_processes_merge_to_one_run(command: &str, size: &str) {
    let root = tempfile::tempdir().unwrap();
    let run = |shard: &str, dir: &Path| {
        let mut process = std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"));
        process.args([command, "wall", "--size", size, "--shard", shard, "--threads", "1", "-q", "--out"]).arg(dir);
        process.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    };
    let finish = |process: Child, what: &str| {
        let output = process.wait_with_output().unwrap();
        assert!(output.status.success(), "{command} {what} failed: {}", String::from_utf8_lossy(&output.stderr));
    };
    let shards: Vec<_> = (1..=8).map(|k| root.path().join(format!("shards/{k}"))).collect();
    let running: Vec<_> = shards.iter().enumerate().map(|(k, dir)| run(&format!("{}/8", k + 1), dir)).collect();
    for (k, process) in running.into_iter().enumerate() {
        finish(process, &format!("shard {}/8", k + 1));
    }
    let whole = root.path().join("whole");
    finish(run("1/1", &whole), "unsharded run");
    let merged = root.path().join("merged");
    sprague().arg("merge").args(shards.iter().rev()).arg("--out").arg(&merged).assert().code(0);
    assert_same_csvs(&merged, &whole);
    let manifest = Manifest::read(&merged.join("manifest.json")).unwrap();
    assert_eq!(manifest.parameters["merged_from"].as_array().unwrap().len(), 8);
}

#[test]
fn eight_census_processes_merge_to_one_run() {
    eight_processes_merge_to_one_run("census", "5x4");
}

#[test]
fn eight_verify_processes_merge_to_one_run() {
    eight_processes_merge_to_one_run("verify", "4x5");
}

#[test]
fn census_refuses_what_it_cannot_count() {
    let root = tempfile::tempdir().unwrap();
    sprague()
        .args(["census", "wall", "--size", "3x9", "-q", "--out"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(contains("8 columns and 49 cells, not 3x9"));
    sprague()
        .args(["census", "wall", "--size", "8x6", "-q", "--out"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(contains("at most 7 rows (any rows up to 36 cells), 8 columns and 49 cells, not 8x6"));
    sprague()
        .args(["census", "wall", "--size", "6x6", "-q", "--memory-limit", "1000000", "--out"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(contains("size 6x6 needs an estimated"));
}

/// `--device gpu` counts exactly what the CPU engine counts, or (no GPU, no libcuda or no
/// libnvrtc, as in CI) exits 2 naming what is missing; `--device auto` always counts, on the
/// GPU or on the CPU, and says which on stderr. The engine is not among the recorded options.
#[test]
fn gpu_engine_counts_like_the_cpu_or_is_refused_and_auto_falls_back() {
    let root = tempfile::tempdir().unwrap();
    let dir = |name: &str| root.path().join(name);
    sprague().args(["census", "wall", "--size", "3x4", "-q", "--out"]).arg(dir("cpu")).assert().code(0);
    let gpu = sprague().args(["census", "wall", "--size", "3x4", "--device", "gpu", "-q", "--out"]).arg(dir("gpu")).output().unwrap();
    let stderr = String::from_utf8_lossy(&gpu.stderr);
    let auto = sprague().args(["census", "wall", "--size", "3x4", "--device", "auto", "-q", "--out"]).arg(dir("auto")).assert().code(0);
    let auto_stderr = String::from_utf8_lossy(&auto.get_output().stderr).to_string();
    let mut same = vec!["auto"];
    if gpu.status.code() == Some(0) {
        same.push("gpu");
        assert!(auto_stderr.contains("census: counting on the GPU"), "{auto_stderr}");
    } else {
        assert_eq!(gpu.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("error: --device gpu: ") && (stderr.contains("was not found") || stderr.contains("GPU")), "{stderr}");
        assert!(auto_stderr.contains("census: no GPU engine (") && auto_stderr.contains("counting on the CPU"), "{auto_stderr}");
    }
    for name in same {
        assert_same_csvs(&dir(name), &dir("cpu"));
        let manifest = Manifest::read(&dir(name).join("manifest.json")).unwrap();
        assert_eq!(manifest.parameters["options"], serde_json::json!({"size": "3x4"}));
    }
    sprague().args(["census", "wall", "--size", "3x4", "--device", "tpu", "-q", "--out"]).arg(dir("x")).assert().code(2);
}

/// A CUDA driver without the symbols the bindings expect (an older driver; here an empty
/// library of the same name): `--device gpu` is refused naming it, `auto` counts on the CPU,
/// and neither prints a panic. A size no engine takes is named before any library is tried.
#[test]
fn a_driver_without_the_expected_symbols_is_refused_without_a_panic() {
    let root = tempfile::tempdir().unwrap();
    let libs = root.path().join("lib");
    std::fs::create_dir(&libs).unwrap();
    std::fs::write(root.path().join("empty.c"), "").unwrap();
    for name in ["libcuda.so.1", "libcuda.so", "libnvrtc.so"] {
        let built = std::process::Command::new("cc").args(["-shared", "-o"]).arg(libs.join(name)).arg(root.path().join("empty.c")).status().unwrap();
        assert!(built.success(), "cc could not build {name}");
    }
    let census = |device: &str, size: &str| {
        let mut cmd = sprague();
        cmd.env("LD_LIBRARY_PATH", &libs).args(["census", "wall", "--size", size, "--device", device, "-q", "--out"]).arg(root.path().join(device));
        cmd
    };
    let gpu = census("gpu", "3x3").assert().code(2);
    let stderr = String::from_utf8_lossy(&gpu.get_output().stderr).to_string();
    assert!(stderr.contains("error: --device gpu: ") && !stderr.contains("panicked"), "{stderr}");
    let auto = census("auto", "3x3").assert().code(0);
    let stderr = String::from_utf8_lossy(&auto.get_output().stderr).to_string();
    assert!(stderr.contains("counting on the CPU") && !stderr.contains("panicked"), "{stderr}");
    census("gpu", "9x7").assert().code(2).stderr(contains("the GPU census handles sizes of at most 8 rows, 8 columns and 56 cells, not 9x7"));
    census("cpu", "7x8").assert().code(2).stderr(contains("not 7x8 (the GPU engine, --device gpu, takes it)"));
}

/// scripts/gpu-census.sh's bookkeeping, with a stand-in binary that counts `--device gpu` on
/// the CPU: a shard finished in results/ is skipped, one with only a checkpoint there is
/// resumed from it, the others run, and with the committed one they merge into the files of
/// one whole run, byte for byte. (On a GPU the script runs the real engine.)
#[test]
fn gpu_census_script_skips_finished_shards_and_resumes_a_checkpointed_one() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let path = |name: &str| root.path().join(name);
    let bin = assert_cmd::cargo::cargo_bin("sprague");
    let stand_in = path("sprague-gpu-on-cpu");
    std::fs::write(&stand_in, format!("#!/usr/bin/env bash\nexec {:?} \"${{@/#gpu/cpu}}\"\n", bin)).unwrap();
    std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    let shards = path("results/wall/census/4x5/shards");
    let census = |out: &Path, extra: &[&str], code: i32| {
        sprague().args(["census", "wall", "--size", "4x5", "-q", "--out"]).arg(out).args(extra).assert().code(code);
    };
    census(&shards.join("1"), &["--shard", "1/3"], 0);
    census(&shards.join("2"), &["--shard", "2/3", "--block-patterns", "1", "--checkpoint-secs", "0", "--stop-after-blocks", "1"], 3);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gpu-census.sh");
    let run = std::process::Command::new("bash")
        .arg(&script)
        .args(["shards", "4x5", "3", "600"])
        .env("SPRAGUE", &stand_in)
        .env("OUT", path("out"))
        .env("RESULTS", path("results"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let log = read(&path("out/log.txt"));
    assert!(log.contains("shard 1/3: finished earlier"), "{log}");
    assert!(!path("out/4x5/shards/1").exists());
    let resumed = Manifest::read(&path("out/4x5/shards/2/manifest.json")).unwrap();
    assert!(resumed.notes.iter().any(|n| n.contains("resumed from a checkpoint")), "{:?}", resumed.notes);
    let times = read(&path("out/times.tsv"));
    assert_eq!(times.lines().count(), 2, "{times}");
    assert!(times.lines().all(|l| l.ends_with("exit 0")), "{times}");
    let merged = path("merged");
    let parts = [shards.join("1"), path("out/4x5/shards/2"), path("out/4x5/shards/3")];
    sprague().arg("merge").args(&parts).arg("--out").arg(&merged).assert().code(0);
    census(&path("whole"), &[], 0);
    assert_same_csvs(&merged, &path("whole"));
}

#[test]
fn a_log_gets_a_progress_line_every_so_often_and_quiet_gets_none() {
    let root = tempfile::tempdir().unwrap();
    let census = |dir: &str, every: &str, quiet: bool| {
        let mut command = sprague();
        command.env("SPRAGUE_PROGRESS_EVERY", every).args(["census", "wall", "--size", "5x6", "--threads", "1", "--out"]);
        command.arg(root.path().join(dir)).args(quiet.then_some("-q")).output().unwrap()
    };
    let logged = census("logged", "0.02", false);
    assert_eq!(logged.status.code(), Some(0));
    let stderr = String::from_utf8(logged.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().filter(|line| !line.starts_with("wall (standard): 1 size")).collect();
    assert!(lines.len() >= 2, "a line every 20 ms of a run of about a second: {stderr}");
    // Counting lines, and those of the tables built before it (a heartbeat writes them too).
    let counting = |line: &str| line.contains("/1,073,741,824 (") && line.contains("/s, ETA ");
    for line in &lines {
        assert!(line.starts_with("[00:0") && line.contains("] 5x6: ") && (counting(line) || line.ends_with("5x6: preparing")), "{line}");
    }
    assert!(lines.iter().any(|line| counting(line)), "{stderr}");
    let quiet = census("quiet", "0.02", true);
    let stderr = String::from_utf8(quiet.stderr).unwrap();
    assert!(quiet.status.success() && stderr.lines().count() == 1 && stderr.starts_with("wall (standard)"), "{stderr}");
    let refused = census("refused", "0", false);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.starts_with("error: SPRAGUE_PROGRESS_EVERY=\"0\": seconds between progress lines must be more than 0"), "{stderr}");
    assert!(!root.path().join("refused").exists(), "refused before any work");
}
