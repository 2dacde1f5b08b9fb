//! `sprague solve wall`: answers, formats, engines and every kind of bad input (exit 2).

mod common;
use common::sprague;

use predicates::prelude::*;

fn solve(args: &[&str], stdin: &str) -> assert_cmd::assert::Assert {
    sprague().args(["solve", "wall"]).args(args).write_stdin(stdin).assert()
}

#[test]
fn problem_samples() {
    solve(&[], "2 2\n..\n..\n").success().stdout("Second\n");
    solve(&[], "2 2\nX.\n..\n").success().stdout("First\n");
    solve(&[], "4 5\nX....\n...X.\n.....\n.....\n").success().stdout("First\n");
}

#[test]
fn reads_a_file_or_dash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, "2 2\nX.\n..\n").unwrap();
    solve(&[path.to_str().unwrap()], "").success().stdout("First\n");
    solve(&["-"], "2 2\n..\n..\n").success().stdout("Second\n");
}

#[test]
fn json_lists_winning_moves() {
    solve(&["--format", "json"], "2 2\nX.\n..\n")
        .success()
        .stdout("{\"rows\":2,\"cols\":2,\"grundy\":2,\"winner\":\"First\",\"winning_moves\":[[1,1]],\"engine\":\"claim\",\"exact\":true}\n");
}

#[test]
fn batch_answers_each_board_in_order() {
    let input = "2 2\n..\n..\n2 2\nX.\n..\n\n1 3\n...\n";
    solve(&["--batch"], input).success().stdout("Second\nFirst\nFirst\n");
    solve(&["--batch", "--engine", "naive"], input).success().stdout("Second\nFirst\nFirst\n");
}

#[test]
fn engines_agree_in_json() {
    let input = "4 5\nX....\n...X.\n.....\n.....\n";
    let claim = String::from_utf8(solve(&["--format", "json"], input).success().get_output().stdout.clone()).unwrap();
    let naive = claim.replace("\"engine\":\"claim\"", "\"engine\":\"naive\"");
    solve(&["--format", "json", "--engine", "naive"], input).success().stdout(naive);
}

#[test]
fn largest_board_is_fast_enough_to_answer() {
    let row = ".".repeat(20);
    let input = format!("20 20\n{}", format!("{row}\n").repeat(20));
    solve(&[], &input).success().stdout(predicate::str::is_match("^(First|Second)\n$").unwrap());
}

#[test]
fn naive_engine_refuses_boards_over_64_cells() {
    let input = format!("9 8\n{}", "........\n".repeat(9));
    solve(&["--engine", "naive"], &input)
        .code(2)
        .stderr(predicate::str::contains("at most 64 cells; this board is 9x8 (72 cells)"));
}

#[test]
fn crlf_and_trailing_whitespace_are_accepted() {
    solve(&[], "2 2 \r\nX. \r\n..\t\r\n").success().stdout("First\n");
}

fn rejects(input: &str, message: &str) {
    solve(&[], input)
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(message).and(predicate::str::contains("panicked").not()));
}

#[test]
fn bad_input_is_rejected_with_line_and_column() {
    rejects("", "<stdin>:1:1: empty input");
    rejects("   \n\n", "<stdin>:1:1: empty input");
    rejects("two 2\n", "<stdin>:1:1: expected H (rows) (a number), found \"two\"");
    rejects("2 -1\n", "<stdin>:1:3: W (columns) must be between 1 and 20, found -1");
    rejects("0 5\n", "<stdin>:1:1: H (rows) must be between 1 and 20, found 0");
    rejects("21 5\n", "<stdin>:1:1: H (rows) must be between 1 and 20, found 21");
    rejects("5 21\n", "<stdin>:1:3: W (columns) must be between 1 and 20, found 21");
    rejects("2\n", "<stdin>:1:2: expected W (columns), found end of input");
    rejects("3 2\n..\n..\n", "<stdin>:4:1: missing board row 3 of 3");
    rejects("1 2\n..\n..\n", "<stdin>:3:1: extra input after the board");
    rejects("2 3\n...\n....\n", "<stdin>:3:4: board row 2 has 4 cells, expected 3");
    rejects("2 3\n...\n..\n", "<stdin>:3:3: board row 2 has 2 cells, expected 3");
    rejects("2 2\n.#\n..\n", "<stdin>:2:2: '#' is not '.' or 'X'");
    rejects("2 2\n.x\n..\n", "<stdin>:2:2: 'x' is not '.' or 'X'");
    rejects("2 2\n. .\n..\n", "<stdin>:2:2: a space is not '.' or 'X'");
    rejects("2 2\n.\0\n..\n", "<stdin>:2:2: '\\0' is not '.' or 'X'");
    // A Unicode space looks like a space but a contest program would not skip it.
    rejects("2\u{a0}2\n..\n..\n", "<stdin>:1:2: a Unicode space (U+00A0), not a separator");
    rejects("2 2\n..\u{3000}\n..\n", "<stdin>:2:3: a Unicode space (U+3000) is not '.' or 'X'");
    rejects("1 2\n..\n\u{2003}\n", "<stdin>:3:1: extra input after the board");
}

#[test]
fn unreadable_file_and_non_utf8_input_exit_2() {
    solve(&["/nonexistent/board.txt"], "").code(2).stderr(predicate::str::contains("cannot read /nonexistent/board.txt"));
    sprague()
        .args(["solve", "wall"])
        .write_stdin(vec![b'1', b' ', b'1', b'\n', 0xff, b'\n'])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:2:1: not UTF-8 text"));
}

#[test]
fn usage_errors_exit_2() {
    solve(&["--format", "xml"], "").code(2);
    sprague().args(["solve", "chess"]).assert().code(2);
}

/// Arguments that are not UTF-8, in any place: a usage error, never a panic.
#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_exit_2() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xff.in");
    for args in [vec![bad], vec![std::ffi::OsStr::new("solve"), bad], vec![std::ffi::OsStr::new("solve"), std::ffi::OsStr::new("wall"), bad]] {
        sprague().args(&args).assert().code(2).stderr(predicate::str::contains("panicked").not());
    }
}

/// `sprague solve wall --batch ARGS` with every standard stream piped.
fn spawn_batch(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    std::process::Command::new(assert_cmd::cargo::cargo_bin("sprague"))
        .args(["solve", "wall", "--batch"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn batch_streams_answers_and_stops_at_a_bad_board_after_the_good_ones() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_batch(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"2 2\n..\n..\n").unwrap();
    stdin.flush().unwrap();
    // The answer arrives while standard input is still open (read_line would block forever
    // on a program that reads to the end first; the test harness's timeout catches that).
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "Second\n");
    stdin.write_all(b"\n1 2\nX.\n2 2\n..\n.Z\n1 1\n.\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(rest, "First\n");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("<stdin>:9:2: 'Z' is not '.' or 'X'"), "{stderr}");
}

#[test]
fn a_huge_token_is_quoted_in_part() {
    let row = "y".repeat(1 << 20);
    let assert = solve(&[], &format!("{row} 2\n")).code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.len() < 300 && stderr.contains("(1048576 bytes)"), "{} bytes of stderr", stderr.len());
}

#[test]
fn the_naive_engine_refuses_boards_beyond_the_machine() {
    let empty = |h: usize, w: usize| format!("{h} {w}\n{}", format!("{}\n", ".".repeat(w)).repeat(h));
    // 8x8: about 1.2e9 positions, 65 GiB (this machine has 24).
    solve(&["--engine", "naive"], &empty(8, 8)).code(2).stderr(predicate::str::contains("needs an estimated").and(predicate::str::contains("--engine claim")));
    solve(&["--engine", "naive"], &empty(4, 5)).success().stdout("First\n");
}

/// `sprague solve wall --batch boards | head -1`: when the reader closes the pipe, the run
/// stops quietly with exit 0 (no "Broken pipe" error).
#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    use std::io::{BufRead, Write};
    let mut child = spawn_batch(&["--format", "json"]);
    // 20,000 answers of about 60 bytes: more than a pipe buffers, so the writer meets the close.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all("1 1\n.\n".repeat(20_000).as_bytes()));
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("\"winner\":\"First\""), "{first}");
    let output = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// An endless input (`/dev/zero`) is refused at the input cap instead of filling memory.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_input_is_refused_at_the_cap() {
    for args in [&["solve", "wall", "/dev/zero"][..], &["solve", "wall", "--batch", "/dev/zero"]] {
        sprague()
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("/dev/zero: ").and(predicate::str::contains("is larger than 256 MiB; not a game input")));
    }
}
