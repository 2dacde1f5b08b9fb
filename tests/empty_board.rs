//! `sprague table wall-empty` and `sprague prove wall-empty` from the command line: the
//! committed 20×20 file byte for byte, the directory form, proofs resumed and stopped, bad
//! options (exit 2, one line), and `check` on a tampered empty-board file.

mod common;
use common::sprague_at_root;

use predicates::prelude::*;
use sprague::games::wall::empty::{compact, Table};
use sprague::output::manifest::Manifest;
use std::path::Path;

#[test]
fn the_20x20_file_is_byte_identical_to_the_committed_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("empty.csv");
    sprague_at_root().args(["table", "wall-empty", "--max", "20x20", "--out"]).arg(&out).assert().success();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/wall/standard/empty.csv");
    assert_eq!(std::fs::read(out).unwrap(), std::fs::read(committed).unwrap());
}

#[test]
fn the_directory_form_has_a_compact_table_with_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    sprague_at_root().args(["table", "wall-empty", "--max", "30x45", "--csv-max", "10x12", "-q", "--out-dir"]).arg(&out).assert().success();
    let manifest = Manifest::read(&out.join("manifest.json")).unwrap();
    let bin = out.join("empty.bin");
    assert_eq!(manifest.files["empty.bin"], sprague::output::atomic::sha256_file(&bin).unwrap());
    let table = compact::read(&bin).unwrap();
    assert_eq!(table, Table::compute(30, 45, false, &sprague::runner::Silent).unwrap());
    let csv = std::fs::read_to_string(out.join("empty.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 10 * 12);
    assert!(csv.lines().last().unwrap().starts_with("10,12,"));
    let zeros = std::fs::read_to_string(out.join("zeros.csv")).unwrap();
    assert_eq!(zeros, "rows,cols\n2,2\n4,4\n4,6\n6,4\n8,12\n10,10\n12,8\n");
    assert_eq!(std::fs::read_to_string(out.join("row-max.csv")).unwrap().lines().count(), 31);
}

#[test]
fn a_proof_resumes_and_stops_at_its_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let prove = |out: &Path, extra: &[&str]| {
        let mut cmd = sprague_at_root();
        cmd.args(["prove", "wall-empty", "-q", "--out"]).arg(out).args(extra);
        cmd
    };
    prove(&a, &["--max", "40"])
        .assert()
        .success()
        .stderr(predicate::str::contains("PROVEN for every X-free board with a side <= 40"));
    prove(&b, &["--max", "40", "--budget", "0.000001"]).assert().code(3).stderr(predicate::str::contains("stopped at the time limit"));
    // Without --resume the unfinished proof is refused, untouched.
    let bin = std::fs::read(b.join("proof.bin")).unwrap();
    let refusal = format!("{} holds an unfinished proof ({}, 1 of 40 rows proved): continue it with --resume", b.display(), b.join("proof.bin").display());
    prove(&b, &["--max", "10"]).assert().code(2).stderr(predicate::str::contains(refusal));
    assert_eq!(std::fs::read(b.join("proof.bin")).unwrap(), bin);
    // Temporary files of a killed writer (a dead pid) are removed by the next run.
    let stale = [".proof.bin.tmp.4194305", ".manifest.json.tmp.4194305"];
    for name in stale {
        std::fs::write(b.join(name), b"partial").unwrap();
    }
    prove(&b, &["--max", "25", "--resume"]).assert().success();
    assert!(stale.iter().all(|name| !b.join(name).exists()), "stale temporary files left");
    prove(&b, &["--max", "40", "--resume"]).assert().success();
    for file in ["rows.csv", "zeros.csv", "verdict.txt", "proof.bin"] {
        assert_eq!(std::fs::read(a.join(file)).unwrap(), std::fs::read(b.join(file)).unwrap(), "{file}");
    }
    let rows = std::fs::read_to_string(a.join("rows.csv")).unwrap();
    assert!(rows.starts_with("rows,constant,start,computed_to\n1,1,1,1\n2,2,3,3\n3,1,5,7\n4,4,7,11\n"), "{rows}");
    prove(&b, &["--max", "30", "--resume"]).assert().code(2).stderr(predicate::str::contains("more than --max 30"));
    // A finished proof is no unfinished one: a fresh run may replace it.
    prove(&b, &["--max", "20"]).assert().success();
    let none = dir.path().join("pwx");
    let message = format!("--resume: there is no proof to resume at {}", none.join("proof.bin").display());
    prove(&none, &["--max", "5", "--resume"]).assert().code(2).stderr(predicate::str::contains(message));
    assert!(!none.exists(), "no directory made");
}

#[test]
fn bad_options_get_exit_2_and_one_line() {
    let cases: &[&[&str]] = &[
        &["table", "wall-empty", "--max", "0x5", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "-3x5", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "tenxten", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "99999999x5", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "20000x20000", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "3000x3000", "--memory-limit", "1000000", "--out", "x.csv"],
        &["table", "wall-empty", "--max", "9x9", "--csv-max", "10x10", "--out-dir", "never"],
        &["prove", "wall-empty", "--max", "0"],
        &["prove", "wall-empty", "--max", "-4"],
        &["prove", "wall-empty", "--max", "many"],
        &["prove", "wall-empty", "--max", "5000000"],
        &["prove", "wall-empty", "--max", "9", "--budget", "-1"],
        &["prove", "wall-empty", "--max", "9", "--budget", "0"],
    ];
    for args in cases {
        let output = sprague_at_root().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more")).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("unexpected argument"), "{args:?}: the option's own check names what is wrong: {stderr}");
    }
    let refused = sprague_at_root().args(["table", "wall-empty", "--max", "3000x3000", "--memory-limit", "1000000", "--out", "x.csv"]).output().unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("needs about"), "memory refusal names the need");
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("never").exists());
}

/// A proof.bin rewritten with its own checksum fixed is not the proof the manifest records: a
/// resume is refused (it once resumed from the forged rows and printed REFUTED). A refused fresh
/// proof makes no directory; a resume while a run holds the directory names that run.
#[test]
fn a_forged_proof_is_not_resumed_and_a_refused_run_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p");
    let prove = |args: &[&str]| sprague_at_root().args(["prove", "wall-empty", "-q", "--out"]).arg(&out).args(args).assert();
    prove(&["--max", "8"]).success();
    let path = out.join("proof.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 32);
    bytes[0x1c] = 3;
    let checksum = <sha2::Sha256 as sha2::Digest>::digest(&bytes);
    bytes.extend_from_slice(&checksum);
    std::fs::write(&path, &bytes).unwrap();
    prove(&["--max", "10", "--resume"]).code(2).stderr(predicate::str::contains("not the proof the run recorded, so it is not resumed"));
    assert!(std::fs::read_to_string(out.join("rows.csv")).unwrap().lines().nth(2).is_some_and(|row| row.starts_with("2,") && !row.contains(",3,3,3")));
    let fresh = dir.path().join("fresh");
    // Its estimate in the words every refusal uses (years, not "3703778 days").
    let refused = predicate::str::is_match(r"error: the proof to height 100000 on \d+ threads would take an estimated [0-9.e]+ years; ask for a smaller size, or pass --force to run it anyway").unwrap();
    sprague_at_root().args(["prove", "wall-empty", "--max", "100000", "-q", "--out"]).arg(&fresh).assert().code(2).stderr(refused);
    sprague_at_root().args(["prove", "wall-empty", "--max", "5000", "-q", "--out"]).arg(&fresh).assert().code(2).stderr(predicate::str::contains("--force"));
    assert!(!fresh.exists(), "refused before the directory is made");
    sprague_at_root().args(["prove", "wall-empty", "--max", "5", "--resume", "-q", "--out"]).arg(&fresh).assert().code(2).stderr(predicate::str::contains("there is no proof to resume"));
    assert!(!fresh.exists());
}

/// `--out FILE` naming a file of another run's directory is refused, the file kept (`table
/// wall-empty --out pr/proof.bin` once replaced a proof's checkpoint with a CSV).
#[test]
fn an_output_file_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("pr");
    sprague_at_root().args(["prove", "wall-empty", "--max", "20", "-q", "--out"]).arg(&proof).assert().success();
    let before = std::fs::read(proof.join("proof.bin")).unwrap();
    sprague_at_root().args(["table", "wall-empty", "--max", "3x3", "-q", "--out"]).arg(proof.join("proof.bin")).assert().code(2).stderr(predicate::str::contains("a file of the run recorded in"));
    assert_eq!(std::fs::read(proof.join("proof.bin")).unwrap(), before, "kept");
    sprague_at_root().args(["table", "wall-empty", "--max", "3x3", "-q", "--out"]).arg(proof.join("other.csv")).assert().success();
}
