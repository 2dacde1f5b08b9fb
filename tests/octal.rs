//! Take-and-break games (`octal`): published sequences (OEIS) and Grundy's game
//! through the same engine, the commands' answers, proofs, files and errors.

mod common;
use common::sprague;

use predicates::prelude::*;
use predicates::str::contains;
use sprague::games::octal::code::Code;
use sprague::games::octal::values::{values, Method};

/// OEIS A002186 (Kayles, 0.77), n = 0..=104.
const A002186: [u16; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3,
    1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2,
    1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// OEIS A002187 (Dawson's chess, 0.137), n = 0..=89; 0.07 has values a(n − 1).
const A002187: [u16; 90] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3,
    1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2,
    2, 4, 4, 5, 5, 9, 3, 3, 0, 1,
];

fn sparse(code: &str, max: usize) -> Vec<u16> {
    values(&Code::parse(code).unwrap(), max, Method::Sparse).unwrap()
}

#[test]
fn published_sequences_and_other_engines() {
    assert_eq!(sparse("0.77", 104), A002186);
    assert_eq!(sparse("0.137", 89), A002187);
    assert_eq!(sparse("0.07", 90)[1..], A002187);
    // Grundy's game, by plain mex too. (The catalogue's polygon claim and Grundy's game's claim
    // now come from 0.07 and grundy themselves; their tests check the recurrences they replaced.)
    assert_eq!(sparse("grundy", 3000), values(&Code::parse("grundy").unwrap(), 3000, Method::Plain).unwrap());
    // Kayles is 4.4 shifted by one heap (A002186's comment), subtraction {1,3,4} has period 7.
    assert_eq!(sparse("4.4", 105)[1..], A002186);
    assert_eq!(sparse("s:1,3,4", 20), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
}

#[test]
fn table_writes_the_values() {
    sprague().args(["table", "octal", "0.77", "--max", "5"]).assert().success().stdout("n,grundy\n0,0\n1,1\n2,2\n3,3\n4,1\n5,4\n");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kayles.csv");
    sprague().args(["table", "octal", "0.77", "--max", "104", "--out"]).arg(&out).assert().success().stderr(contains("largest value 8"));
    let text = std::fs::read_to_string(&out).unwrap();
    let read: Vec<u16> = text.lines().skip(1).map(|l| l.split_once(',').unwrap().1.parse().unwrap()).collect();
    assert_eq!(read, A002186);
    let plain = dir.path().join("plain.csv");
    sprague().args(["table", "octal", "0.77", "--max", "104", "--method", "plain", "--out"]).arg(&plain).assert().success();
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), text);
}

#[test]
fn prove_finds_and_proves_periods() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kayles");
    let proved = sprague().args(["prove", "octal", "0.77", "-q", "--out"]).arg(&out).assert().success();
    let stdout = String::from_utf8(proved.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("0.77 (t = 2): period 12 from n0 = 71 (last exception at n = 70)\n"), "{stdout}");
    assert!(stdout.contains("for 71 ≤ n < 2·n0 + p + t = 2·71 + 12 + 2 = 156"), "{stdout}");
    let digest = sprague::output::atomic::sha256_file(&out.join("values.csv")).unwrap();
    assert!(stdout.contains(&format!("168 values, sha256 {digest}")), "{stdout}");
    let manifest = sprague::output::manifest::Manifest::read(&out.join("manifest.json")).unwrap();
    assert_eq!((manifest.parameters["period"].as_u64(), manifest.parameters["preperiod"].as_u64()), (Some(12), Some(71)));
    assert_eq!(manifest.files["values.csv"], digest);
    // 0.177: period 20 after 496 (A071435) needs 1037 values: not within 1000 (exit 3).
    let short = dir.path().join("short");
    sprague().args(["prove", "octal", "0.177", "--max", "1000", "-q", "--out"]).arg(&short).assert().code(3).stdout(contains("no period proved"));
    sprague().args(["prove", "octal", "0.177", "--max", "1100", "-q", "--out"]).arg(&short).assert().success().stdout(contains("period 20 from n0 = 497"));
    // Another code is another game's run: a directory of its own.
    sprague().args(["prove", "octal", "{1,3,4}", "-q", "--out"]).arg(dir.path().join("subtraction")).assert().success().stdout(contains("for 1 ≤ n < n0 + t = 1 + 4 = 5"));
    sprague().args(["prove", "octal", "grundy", "-q", "--out"]).arg(&short).assert().code(2).stderr(contains("no periodicity theorem"));
}

#[test]
fn solve_answers_and_bad_codes_are_refused() {
    let solve = |input: &str| sprague().args(["solve", "octal"]).write_stdin(input).assert();
    solve("0.77\n2\n3 5\n").success().stdout("First\n");
    solve("0.77\n2\n4 4\n").success().stdout("Second\n");
    solve("s:1,3,4\n1\n7\n").success().stdout("Second\n");
    solve("0.07\n2\n5 9\n").success().stdout("Second\n");
    let naive = |input: &str| sprague().args(["solve", "octal", "--engine", "naive"]).write_stdin(input).assert();
    naive("0.137\n3\n2 5 9\n").success().stdout("First\n"); // g = 1, 3, 3 (A002187)
    naive("0.137\n3\n2 5 11\n").success().stdout("Second\n"); // g = 1, 3, 2
    naive("0.77\n2\n30 30\n").code(2).stderr(contains("at most 40 stones"));
    solve("0.78\n1\n3\n").code(2).stderr(contains("<stdin>:1:1: take-and-break code \"0.78\": character '8' at position 4 is not an octal digit (0-7)"));
    sprague().args(["table", "octal", "{1,3,,4}"]).assert().code(2).stderr(contains("position 6: expected a number"));
    sprague().args(["table", "octal", "0x0.8", "--max", "100000"]).assert().code(2).stderr(contains("three-heap moves"));
    sprague().args(["table", "octal", "0.6", "--max", "100000000", "--memory-limit", "1000000"]).assert().code(2).stderr(contains("need about"));
}

/// A split removing 253 tokens or more leaves 2 or 3 at heap 256, where the sparse method
/// starts: every command that computes values answers (it panicked, exit 101).
#[test]
fn splits_of_nearly_whole_heaps_answer_in_every_command() {
    // Only d253 = 4: g(n) = 0 up to 254 (no move), 1 from 255 (every split leaves two heaps of 0).
    let code = format!("0.{}4", "0".repeat(252));
    let solve = |input: String| sprague().args(["solve", "octal"]).write_stdin(input).assert();
    solve(format!("{code}\n1\n256\n")).success().stdout("First\n");
    solve(format!("{code}\n3\n256 300 254\n")).success().stdout("Second\n");
    let table = sprague().args(["table", "octal", &code, "--max", "300", "-q"]).assert().success();
    let expected: String = (0..=300).map(|n| format!("{n},{}\n", u8::from(n >= 255))).collect();
    assert_eq!(String::from_utf8(table.get_output().stdout.clone()).unwrap(), format!("n,grundy\n{expected}"));
    let dense = format!("0.{}", "7".repeat(256));
    assert_eq!(sparse(&dense, 600), values(&Code::parse(&dense).unwrap(), 600, Method::Plain).unwrap());
    let dir = tempfile::tempdir().unwrap();
    sprague().args(["prove", "octal", &dense, "--max", "600", "-q", "--out"]).arg(dir.path().join("p")).assert().code(predicates::ord::eq(0).or(predicates::ord::eq(3)));
}

/// `solve` estimates codes with three-heap moves as `table` does and refuses more than about a
/// minute, naming the estimate (--force answers anyway); an empty code line is named.
#[test]
fn solve_refuses_a_long_three_heap_run_and_names_a_missing_code() {
    let long = format!("0x0.{}\n1\n2000\n", "f".repeat(2000));
    let refused = sprague().args(["solve", "octal"]).write_stdin(long).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("<stdin>: 0x0.fff") && stderr.contains("three-heap moves (plain mex, about 1.1e11 steps up to heap 2000, estimated 3.7 min)") && stderr.contains("--force"), "{stderr}");
    sprague().args(["solve", "octal"]).write_stdin("0x0.8\n2\n2000 1999\n").assert().success();
    sprague().args(["solve", "octal", "--force"]).write_stdin("0x0.8\n1\n4\n").assert().success().stdout("First\n");
    let missing = "<stdin>:1:1: the take-and-break code (e.g. 0.07) is missing: line 1 is empty (the input starts with \"1\" on line 3)";
    sprague().args(["solve", "octal"]).write_stdin("\n\n1\n3\n").assert().code(2).stderr(contains(missing));
}

#[test]
fn verify_agrees_and_the_sum_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // A directory per code: another code's run is another game's, refused.
    for (i, code) in ["0.77", "0.6", "{1,3,4}", "grundy"].into_iter().enumerate() {
        let out = dir.path().join(format!("ok{i}"));
        sprague().args(["verify", "octal", code, "--max", "16", "-q", "--out"]).arg(&out).assert().success().stderr(contains("0 mismatches"));
    }
    let bad = dir.path().join("bad");
    let first = "first counterexample: totals 1, stones 2, heap_sizes 1 1 — claim 2, naive 0";
    sprague().args(["verify", "octal", "0.77", "--max", "6", "--claim", "sum", "-q", "--out"]).arg(&bad).assert().code(1).stderr(contains(first));
    let mismatches = std::fs::read_to_string(bad.join("mismatches.csv")).unwrap();
    assert!(mismatches.contains("octal,exhaustive:code=0.77:claim=sum,1,2,1 1,2,0,Second"), "{mismatches}");
    sprague().args(["verify", "octal", "0.77", "--max", "41", "--out"]).arg(dir.path().join("x")).assert().code(2);
}

/// A run that would take more than an hour is refused with the estimate before it starts:
/// 0.026 has 140,000 rare heaps among the first 2^18 (each value costs about as many steps as
/// there are rare heaps: days); Treblecross 0.007's rare heaps thin out after 2^17, which the
/// probe sees, so it is estimated at hours, not years. With --budget it runs, stops and can be
/// resumed.
#[test]
fn a_run_of_days_is_refused_with_its_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dense.bin");
    let refused = sprague().args(["table", "octal", "0.026", "--max", "1073741823", "--binary", "-q", "--out"]).arg(&out).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("0.026 up to 1073741823: estimated") && stderr.contains("rare heaps among the first") && stderr.contains("--budget"), "{stderr}");
    assert!(!out.exists() && std::fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing written");
    let treblecross = dir.path().join("treblecross.bin");
    let refused = sprague().args(["table", "octal", "0.007", "--max", "1073741823", "--binary", "-q", "--out"]).arg(&treblecross).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("0.007 up to 1073741823: estimated") && stderr.contains("thinning out"), "{stderr}");
    sprague().args(["table", "octal", "0.007", "--max", "1073741823", "--binary", "-q", "--budget", "1", "--out"]).arg(&treblecross).assert().code(3);
    // A sparse code to the same bound is estimated within the hour: Kayles runs (to 2^18 here).
    sprague().args(["table", "octal", "0.77", "--max", "262143", "-q", "--out"]).arg(dir.path().join("kayles.csv")).assert().success();
    // Heaps past 2^32 − 1 are refused before anything starts by every command that takes them
    // (prove octal and prove octal-family once started and stopped only at 2^32).
    let past = "--max: heaps up to 2^32 − 1 = 4294967295 at most";
    for args in [&["table", "octal", "0.6", "--max", "100000000000", "--out"][..], &["prove", "octal", "0.6", "--max", "100000000000", "--out"], &["prove", "octal-family", "--digits", "1", "--max", "4294967296", "--out"]] {
        let out = dir.path().join("past");
        sprague().args(args).arg(&out).arg("-q").assert().code(2).stderr(predicates::str::contains(past));
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}
