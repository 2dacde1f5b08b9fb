//! `table octal … --stats DIR`, `--binary` and `--stats-from FILE`: the statistics equal a
//! direct computation from the `n,grundy` file; the binary file holds the same values; a stopped
//! run's statistics equal those derived from its checkpoint, and a stopped-and-resumed run's
//! those of an uninterrupted one; bad sources are refused with exit 2.

mod common;
use common::{read, sprague};

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use sha2::{Digest, Sha256};
use std::path::Path;

const MAX: &str = "60000";

fn table(code: &str, args: &[&str], dir: &Path) -> Command {
    let mut cmd = sprague();
    cmd.current_dir(dir).args(["table", "octal", code, "-q"]).args(args);
    cmd
}

/// The three statistics files of `dir`, concatenated.
fn stats(dir: &Path) -> String {
    ["summary.csv", "values.csv", "rare.csv"].map(|f| read(&dir.join(f))).concat()
}

fn values_of_csv(path: &Path) -> Vec<u16> {
    read(path).lines().skip(1).enumerate().map(|(n, line)| {
        let (heap, value) = line.split_once(',').unwrap();
        assert_eq!(heap.parse::<usize>().unwrap(), n);
        value.parse().unwrap()
    }).collect()
}

/// The statistics files, computed here from the values by brute force (every mask tried, with
/// and, where the code's splits all remove tokens of parity t, without the heap's parity).
fn expected_stats(code: &str, g: &[u16]) -> String {
    let t = match code {
        "0.6" => Some(1),
        "grundy" => Some(0),
        _ => None,
    };
    // (mask, Some(t) for the domain type): heap n is rare when parity(g(n) & mask) is even,
    // or (domain type) equals the parity of n − t.
    let rare_under = |(mask, domain): (u16, Option<usize>), n: usize, v: u16| (v & mask).count_ones() as usize % 2 == domain.map_or(0, |t| (n + t) % 2);
    let from = g.len() / 2;
    let top = g.iter().copied().max().unwrap();
    let masks = || (0..(u32::from(top) + 1).next_power_of_two()).map(|m| m as u16);
    let rules = masks().map(|m| (m, None)).chain(t.into_iter().flat_map(|t| masks().map(move |m| (m, Some(t)))));
    let rule = rules.min_by_key(|&r| ((from..g.len()).filter(|&n| rare_under(r, n, g[n])).count(), r.1.is_some(), r.0)).unwrap();
    let (mask, split) = (rule.0, if rule.1.is_some() { "domain" } else { "range" });
    let rare: Vec<usize> = (0..g.len()).filter(|&n| rare_under(rule, n, g[n])).collect();
    let mut values = String::from("value,count,first_heap,last_heap,rare_heaps\n");
    for v in 0..=top {
        let heaps: Vec<usize> = (0..g.len()).filter(|&n| g[n] == v).collect();
        if let (Some(first), Some(last)) = (heaps.first(), heaps.last()) {
            values += &format!("{v},{},{first},{last},{}\n", heaps.len(), heaps.iter().filter(|&&n| rare_under(rule, n, v)).count());
        }
    }
    let bytes: Vec<u8> = g.iter().flat_map(|v| v.to_le_bytes()).collect();
    let sha: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    let distinct = values.lines().count() - 1;
    let first_top = g.iter().position(|&v| v == top).unwrap();
    let summary = format!(
        "code,heaps,largest_value,largest_first_heap,distinct_values,mask,split,rare_heaps,last_rare_heap,rare_listed,sha256\n{code},{},{top},{first_top},{distinct},{mask},{split},{},{},{},{sha}\n",
        g.len(),
        rare.len(),
        rare.last().unwrap(),
        rare.len()
    );
    let rare_rows: String = rare.iter().map(|&n| format!("{n},{}\n", g[n])).collect();
    format!("{summary}{values}n,grundy\n{rare_rows}")
}

#[test]
fn the_statistics_equal_a_direct_computation_and_bin_holds_the_same_values() {
    let dir = tempfile::tempdir().unwrap();
    // A directory per code: another code's statistics are another game's run, not replaced.
    for code in ["0.6", "grundy", "0.77"] {
        let d = &dir.path().join(code);
        std::fs::create_dir(d).unwrap();
        table(code, &["--max", "3000", "--out", "v.csv", "--stats", "s"], d).assert().success().stderr(contains("statistics in s: 3001 values"));
        let g = values_of_csv(&d.join("v.csv"));
        assert_eq!(stats(&d.join("s")), expected_stats(code, &g), "{code}");
        table(code, &["--max", "3000", "--out", "v.bin", "--binary", "--stats", "b"], d).assert().success();
        let bytes: Vec<u8> = g.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(std::fs::read(d.join("v.bin")).unwrap(), bytes, "{code}");
        assert_eq!(stats(&d.join("b")), stats(&d.join("s")), "{code}");
        table(code, &["--stats-from", "v.bin", "--binary", "--stats", "f"], d).assert().success();
        table(code, &["--stats-from", "v.csv", "--stats", "c"], d).assert().success();
        assert_eq!(stats(&d.join("f")), stats(&d.join("s")), "{code}");
        assert_eq!(stats(&d.join("c")), stats(&d.join("s")), "{code}");
    }
}

#[test]
fn stopped_and_resumed_runs_give_the_same_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    table("0.6", &["--max", MAX, "--out", "whole.bin", "--binary", "--stats", "whole"], d).assert().success();
    let step = ["--max", MAX, "--out", "part.bin", "--binary", "--budget", "0", "--checkpoint-heaps", "20000"];
    table("0.6", &[&step[..], &["--stats", "stopped"]].concat(), d).assert().code(3).stderr(contains("statistics in stopped: 20000 values"));
    // The statistics of a stopped run: from its checkpoint, and as a run to 19999 writes them.
    let note = "0.6: g(0..4096) recomputed and equal; the values of heaps 4096..=19999 are read from the checkpoint beside part.bin (its digest checked), not recomputed";
    table("0.6", &["--stats-from", "part.bin", "--stats", "derived"], d).assert().success().stderr(contains(note));
    table("0.6", &["--max", "19999", "--out", "short.csv", "--stats", "short"], d).assert().success();
    assert_eq!(stats(&d.join("derived")), stats(&d.join("stopped")));
    assert_eq!(stats(&d.join("short")), stats(&d.join("stopped")));
    table("0.6", &[&step[..], &["--resume"]].concat(), d).assert().code(3);
    table("0.6", &["--max", MAX, "--out", "part.bin", "--binary", "--resume", "--threads", "2", "--stats", "resumed"], d).assert().success();
    assert_eq!(stats(&d.join("resumed")), stats(&d.join("whole")));
    // A bare file: only its first 4096 heaps are recomputed, and the report says so.
    let note = format!("0.6: g(0..4096) recomputed and equal; the values of heaps 4096..={MAX} are read from whole.bin, not recomputed");
    table("0.6", &["--stats-from", "whole.bin", "--binary", "--stats", "again"], d).assert().success().stderr(contains(note));
    assert_eq!(stats(&d.join("again")), stats(&d.join("whole")));
    assert_eq!(std::fs::read(d.join("part.bin")).unwrap(), std::fs::read(d.join("whole.bin")).unwrap());
    assert!(read(&d.join("whole/summary.csv")).contains(&format!("0.6,{},", 60001)));
}

#[test]
fn bad_sources_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    table("0.6", &["--stats-from", "none.csv"], d).assert().code(2).stderr(contains("--stats-from needs --stats DIR"));
    table("0.6", &["--stats-from", "none.csv", "--stats", "s"], d).assert().code(2).stderr(contains("none.csv"));
    std::fs::write(d.join("odd.bin"), [1u8, 0, 2]).unwrap();
    table("0.6", &["--stats-from", "odd.bin", "--binary", "--stats", "s"], d).assert().code(2).stderr(contains("odd.bin: 3 bytes: not a values file"));
    std::fs::write(d.join("gap.csv"), "n,grundy\n0,0\n2,1\n").unwrap();
    table("0.6", &["--stats-from", "gap.csv", "--stats", "s"], d).assert().code(2).stderr(contains("gap.csv: line 3: heap 2 where heap 1 was due"));
    std::fs::write(d.join("raw.bin"), [0u8, 0, 1, 0]).unwrap();
    table("0.6", &["--stats-from", "raw.bin", "--stats", "s"], d).assert().code(2).stderr(contains("needs --binary"));
    table("0.6", &["--max", "5000", "--out", "p.csv", "--budget", "0", "--checkpoint-heaps", "1000"], d).assert().code(3);
    table("0.7", &["--stats-from", "p.csv", "--stats", "s"], d).assert().code(2).stderr(contains("is a checkpoint of 0.6 (sparse), not of 0.7"));
    table("0.6", &["--max", "10", "--binary"], d).assert().code(2).stderr(contains("need --out"));
    assert!(!d.join("s").exists());
}

#[test]
fn values_of_another_code_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    table("0.6", &["--max", "1000", "--binary", "--out", "g.bin"], d).assert().success();
    table("0.6", &["--max", "1000", "--out", "g.csv"], d).assert().success();
    let refused = "heap 1 has value 0, but g(1) = 1 for 0.77: not the values of 0.77";
    table("0.77", &["--stats-from", "g.bin", "--binary", "--stats", "s"], d).assert().code(2).stderr(contains(format!("g.bin: {refused}")));
    table("0.77", &["--stats-from", "g.csv", "--stats", "s"], d).assert().code(2).stderr(contains(format!("g.csv: {refused}")));
    assert!(!d.join("s").exists());
    // A value changed within the heaps checked is named.
    let mut g = std::fs::read(d.join("g.bin")).unwrap();
    g[2 * 700] ^= 1;
    std::fs::write(d.join("g.bin"), &g).unwrap();
    table("0.6", &["--stats-from", "g.bin", "--binary", "--stats", "s"], d).assert().code(2).stderr(contains("g.bin: heap 700 has value"));
}

#[test]
fn the_stats_directory_is_locked_and_admitted_like_any_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A finished verify run's directory is another kind of run: refused, its files kept.
    common::verify(&d.join("vs"), &["--max", "2x3"], 0);
    let summary = read(&d.join("vs/summary.csv"));
    table("0.6", &["--max", "100", "--stats", "vs", "--out", "/dev/null"], d)
        .assert()
        .code(2)
        .stderr(contains("vs holds the results of another kind of run (`sprague verify wall"));
    assert_eq!(read(&d.join("vs/summary.csv")), summary);
    // An unfinished run's directory is refused.
    std::fs::create_dir(d.join("un")).unwrap();
    std::fs::write(d.join("un/checkpoint.json"), "{}").unwrap();
    table("0.6", &["--max", "100", "--stats", "un"], d).assert().code(2).stderr(contains("un holds an unfinished verify or census run"));
    // A directory another run holds is refused, the holder named.
    std::fs::create_dir(d.join("held")).unwrap();
    let holder = std::process::Command::new("flock")
        .args(["-o", "held/.sprague.lock", "-c", "echo held; sleep 30"])
        .current_dir(d)
        .stdout(std::process::Stdio::piped())
        .spawn();
    if let Ok(mut child) = holder {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
        assert_eq!(line, "held\n", "flock holds the lock");
        table("0.6", &["--max", "10", "--stats", "held"], d).assert().code(2).stderr(contains("held is in use by another run"));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    // An earlier statistics directory is replaced.
    table("0.6", &["--max", "100", "--stats", "s"], d).assert().success();
    table("0.6", &["--max", "200", "--stats", "s"], d).assert().success();
    assert!(read(&d.join("s/summary.csv")).contains("0.6,201,"));
}

/// Another code's statistics are another game's run: refused (exit 2) naming both codes, the
/// files kept; the same code with another --max replaces them, saying so; `--stats-from` the
/// same; and `prove octal` refuses another code's proof the same way.
#[test]
fn another_codes_run_is_refused_and_the_same_codes_replaced_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    table("0.07", &["--max", "100", "--stats", "s"], d).assert().success();
    let kept = stats(&d.join("s"));
    let refused = "s holds the results of a run of `octal 0.07` (`sprague table octal 0.07 -q --max 100 --stats s`, manifest.json), not of `octal 0.137`";
    table("0.137", &["--max", "100", "--stats", "s"], d).assert().code(2).stderr(contains(refused));
    assert_eq!(stats(&d.join("s")), kept, "the refused run changed nothing");
    let mut again = sprague();
    again.current_dir(d).args(["table", "octal", "0.07", "--max", "200", "--stats", "s"]);
    let replaced = "replaced the run of 101 heaps in s (`sprague table octal 0.07 -q --max 100 --stats s`) by one of 201 heaps";
    again.assert().success().stderr(contains(replaced));
    assert!(read(&d.join("s/summary.csv")).contains("0.07,201,"));
    // --stats-from the values of another code: refused the same way; of the same code, of
    // another number of heaps replaced with a line, of the same number admitted without one.
    for code in ["0.137", "0.07"] {
        sprague().current_dir(d).args(["table", "octal", code, "-q", "--max", "300", "--out", &format!("v{code}.csv")]).assert().success();
    }
    let refused = "s holds the results of a run of `octal 0.07` (`sprague table octal 0.07 --max 200 --stats s`, manifest.json), not of `octal 0.137`";
    table("0.137", &["--stats-from", "v0.137.csv", "--stats", "s"], d).assert().code(2).stderr(contains(refused));
    assert!(read(&d.join("s/summary.csv")).contains("0.07,201,"), "the refused run changed nothing");
    let replaced = "replaced the run of 201 heaps in s (`sprague table octal 0.07 --max 200 --stats s`) by one of 301 heaps";
    table("0.07", &["--stats-from", "v0.07.csv", "--stats", "s"], d).assert().success().stderr(contains(replaced));
    table("0.07", &["--stats-from", "v0.07.csv", "--stats", "s"], d).assert().success().stderr(contains("replaced").not());
    let prove = |code: &str| {
        let mut cmd = sprague();
        cmd.current_dir(d).args(["prove", "octal", code, "--out", "p"]);
        cmd
    };
    prove("0.07").assert().success();
    prove("0.137").assert().code(2).stderr(contains("p holds the results of a run of `octal 0.07` (`sprague prove octal 0.07 --out p`, manifest.json), not of `octal 0.137`"));
}
