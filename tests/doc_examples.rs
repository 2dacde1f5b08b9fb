//! Every ```console block of README.md and docs/*.md is run here, so the documentation stays
//! true. The convention (also stated in README.md, "Documentation"):
//!
//! - a line beginning with `$ ` is a command; the lines after it, up to the next `$ ` line or
//!   the end of the block, are what it prints (stdout and stderr together, in order);
//! - a command runs through `bash -c` and must exit 0, so a command that is expected to fail
//!   shows its status itself (`...; echo "exit $?"`);
//! - in the expected output, a line that is exactly `...` matches any number of lines, and
//!   `[..]` inside a line matches any text (times, rates, paths);
//! - `sprague` is the binary under test; the commands of one file run one after another in a
//!   fresh directory that holds a copy of results/, links to the repository's other files and
//!   `target/release` (the binary and the examples/ programs that `cargo test` builds), so
//!   outputs (`out/` by default) never land in the repository;
//! - a transcript that must not run (hours of work) goes in a ```text block right after a line
//!   saying "not run by the tests" and naming where its figures come from.
//!
//! Trailing blanks are ignored.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fenced block: the info string, the line after the opening fence (1-based) and its lines.
struct Block {
    info: String,
    line: usize,
    body: Vec<String>,
    /// The last non-empty line before the opening fence.
    before: String,
}

/// One command of a console block and what it must print.
struct Example {
    place: String,
    command: String,
    expected: Vec<String>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, sorted.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    docs.insert(0, repo().join("README.md"));
    docs
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut before = String::new();
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some(Block { info: info.trim().to_string(), line: index + 2, body: Vec::new(), before: before.clone() })
            }
            (Some(_), Some(_)) => blocks.push(open.take().unwrap()),
            (Some(block), None) => block.body.push(line.trim_end().to_string()),
            (None, None) if !line.trim().is_empty() => before = line.to_string(),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    blocks
}

fn examples(doc: &Path, block: &Block) -> Vec<Example> {
    let name = doc.strip_prefix(repo()).unwrap().display().to_string();
    let mut examples: Vec<Example> = Vec::new();
    for (offset, line) in block.body.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            let place = format!("{name}:{}", block.line + offset);
            examples.push(Example { place, command: command.to_string(), expected: Vec::new() });
        } else {
            let example = examples.last_mut().unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` command", block.line));
            example.expected.push(line.clone());
        }
    }
    examples
}

/// `pattern` against one line: `[..]` matches any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap();
    let Some(mut rest) = line.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        if index + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// `expected` against the lines printed: a line `...` matches any number of lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.split_first().is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

/// A fresh directory that looks like the repository to the commands (see the module comment).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(repo()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if ["target", "out", ".git", "results"].iter().any(|skip| name == *skip) {
            continue;
        }
        std::os::unix::fs::symlink(&path, dir.path().join(name)).unwrap();
    }
    copy_tree(&repo().join("results"), &dir.path().join("results"));
    let binary = assert_cmd::cargo::cargo_bin("sprague");
    std::fs::create_dir(dir.path().join("target")).unwrap();
    std::os::unix::fs::symlink(binary.parent().unwrap(), dir.path().join("target/release")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs one command in `dir` and returns what it printed, stdout and stderr in one stream.
fn run(example: &Example, dir: &Path) -> String {
    let binary = assert_cmd::cargo::cargo_bin("sprague");
    let path = format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1; {}", example.command))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("SPRAGUE_ENGINE")
        .env_remove("SPRAGUE_SYMMETRY")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}: `{}` exited with {}:\n{printed}", example.place, example.command, output.status);
    printed
}

#[test]
fn every_console_example_prints_what_the_docs_say() {
    let mut failures = Vec::new();
    let mut count = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let console: Vec<Block> = blocks(&text).into_iter().filter(|block| block.info == "console").collect();
        if console.is_empty() {
            continue;
        }
        let dir = workspace();
        for example in console.iter().flat_map(|block| examples(&doc, block)) {
            count += 1;
            let printed = run(&example, dir.path());
            let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
            if !output_matches(&example.expected, &lines) {
                failures.push(format!("{}: `{}`\nexpected:\n{}\nprinted:\n{printed}", example.place, example.command, example.expected.join("\n")));
            }
        }
    }
    assert!(count >= 10, "only {count} console examples found");
    assert!(failures.is_empty(), "{} example(s) differ from the docs:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn transcripts_outside_console_blocks_say_they_are_not_run() {
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for block in blocks(&text).iter().filter(|block| block.info != "console") {
            if block.body.iter().any(|line| line.starts_with("$ ")) {
                assert!(
                    block.info == "text" && block.before.contains("not run by the tests"),
                    "{}:{}: a transcript outside a ```console block must be a ```text block after a line saying \"not run by the tests\"",
                    doc.display(),
                    block.line
                );
            }
        }
    }
}

#[test]
fn the_wildcards_match_what_they_say_and_nothing_more() {
    let lines = |text: &'static str| text.lines().map(String::from).collect::<Vec<_>>();
    assert!(output_matches(&lines("stress: 26 runs in [..] s\n...\nfiles in out"), &["stress: 26 runs in 0.1 s", "a", "b", "files in out"]));
    assert!(output_matches(&lines("...\nlast"), &["last"]));
    assert!(line_matches("[..] ms", "1.3 ms") && line_matches("a[..]b[..]c", "aXbYc") && line_matches("[..]", ""));
    assert!(!output_matches(&lines("First"), &["Second"]));
    assert!(!output_matches(&lines("First"), &["First", "extra"]));
    assert!(!output_matches(&lines("...\nlast"), &["last", "more"]));
    assert!(!line_matches("a[..]b", "aXbc") && !line_matches("[..] ms", "1.3 s"));
}
