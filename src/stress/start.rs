//! Telling a command that never ran the program (a usage error: exit 2) from a program that
//! failed (exit 1): the shell could not find or run a command, or a language runtime could
//! not find the program it was given.

use super::process::{Exit, RunOutput};

/// What language runtimes print when the program they were given does not exist, and what the
/// dynamic loader prints when it cannot load the program.
const RUNTIME_NOT_FOUND: &[&str] = &[
    "Could not find or load main class", // java Main without Main.class
    "can't open file",                   // python3 missing.py
    "Cannot find module",                // node missing.js
    "error while loading shared libraries", // ld.so: a library missing, or --memory too small to map it
];

/// The message of a failed run that shows `command` did not start its program, if it does:
/// sh's own message (a line starting `sh:`) or its status 126/127 when the command runs
/// `via_shell`, or a
/// runtime's "not found" above. Judged on the first run only: a program that started once is
/// the program's fault afterwards.
pub fn not_started(via_shell: bool, run: &RunOutput<'_>) -> Option<String> {
    let stderr = String::from_utf8_lossy(run.stderr);
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let shell_says = lines().filter(|l| l.starts_with("sh:") || l.starts_with("/bin/sh:")).collect::<Vec<_>>();
    if via_shell && !shell_says.is_empty() {
        return Some(shell_says.join("; "));
    }
    if via_shell && matches!(run.exit, Exit::Code(126 | 127)) {
        return Some(lines().next_back().map_or_else(|| "sh could not run the command".to_string(), str::to_string));
    }
    let failed = matches!(run.exit, Exit::Code(c) if c != 0);
    lines().find(|l| failed && RUNTIME_NOT_FOUND.iter().any(|m| l.contains(m))).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(exit: Exit, stderr: &str) -> RunOutput<'_> {
        RunOutput { exit, stdout: b"", stderr: stderr.as_bytes(), stderr_cut: 0, elapsed: Duration::ZERO, cpu: Duration::ZERO, cut_by_signal: false }
    }

    #[test]
    fn shell_and_runtime_messages_are_recognised() {
        let (shell, java) = (true, false);
        assert_eq!(not_started(shell, &run(Exit::Code(0), "sh: 1: nosuch: not found\n")).unwrap(), "sh: 1: nosuch: not found");
        assert!(not_started(shell, &run(Exit::Code(127), "")).is_some());
        let missing = "Error: Could not find or load main class Main\nCaused by: java.lang.ClassNotFoundException: Main\n";
        assert!(not_started(java, &run(Exit::Code(1), missing)).unwrap().contains("Could not find or load main class Main"));
        assert!(not_started(java, &run(Exit::Code(1), "Traceback\nValueError: bad\n")).is_none());
        assert!(not_started(java, &run(Exit::Code(127), "")).is_none(), "a direct program's own status");
        assert!(not_started(shell, &run(Exit::Code(1), "ValueError: x\n")).is_none());
        let loader = "./fast: error while loading shared libraries: libc.so.6: failed to map segment from shared object\n";
        assert!(not_started(java, &run(Exit::Code(127), loader)).unwrap().contains("failed to map segment"));
    }
}
