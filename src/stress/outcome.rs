//! Classifying one run of the program under test: pass, or which way it failed.

use super::contest::Contest;
use super::process::{Exit, RunOutput};
use crate::output::text::{escaped, shorten, shorten_end};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The ways a program fails on an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// Exit 0 and a well-formed answer that differs from the trusted one.
    WrongAnswer,
    /// Ended by a signal (segmentation fault, abort, ...).
    Crash,
    /// Exited with a status other than 0.
    NonZeroExit,
    /// Still running at the time limit; killed with its children.
    TimeLimit,
    /// Exit 0, but stdout is not an answer in the problem's format (or passed the output cap).
    Format,
}

impl FailureKind {
    pub const ALL: [FailureKind; 5] =
        [FailureKind::WrongAnswer, FailureKind::Crash, FailureKind::NonZeroExit, FailureKind::TimeLimit, FailureKind::Format];

    /// The name in failures.csv and summaries.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::WrongAnswer => "wrong-answer",
            FailureKind::Crash => "crash",
            FailureKind::NonZeroExit => "non-zero-exit",
            FailureKind::TimeLimit => "time-limit",
            FailureKind::Format => "format",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict on one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail(Fault),
}

/// How a failing run failed: the kind, what the program printed (shortened) and details.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: FailureKind,
    /// The program's answer (stdout, trimmed and shortened).
    pub got: String,
    /// How the program ended, e.g. `exit 0`, `signal 11 (SIGSEGV)`, `time limit: 2.01 s CPU, 2.30 s wall`.
    pub exit: String,
    /// Why the output was refused, or the end of stderr for crashes and exits.
    pub detail: String,
    /// The program's stderr (its end, after a line saying how much was cut when it was long).
    pub stderr: Vec<u8>,
}

/// Judges a run against the trusted answer `expected`.
pub fn classify<G: Contest + ?Sized>(game: &G, case: &G::Case, expected: &G::Answer, run: &RunOutput<'_>) -> Verdict {
    let got = shorten(&escaped(run.stdout));
    let stderr = shorten_end(&escaped(run.stderr));
    let fault = |kind, detail: String| Verdict::Fail(Fault { kind, got: got.clone(), exit: exit_text(run), detail, stderr: stderr_kept(run) });
    match run.exit {
        Exit::TimedOut => fault(FailureKind::TimeLimit, String::new()),
        Exit::Signal(_) => fault(FailureKind::Crash, stderr),
        Exit::Code(c) if c != 0 => fault(FailureKind::NonZeroExit, stderr),
        Exit::OutputLimit => fault(FailureKind::Format, format!("stdout passed {} bytes", run.stdout.len())),
        Exit::Code(_) => match std::str::from_utf8(run.stdout) {
            Err(e) => fault(FailureKind::Format, format!("stdout is not UTF-8 ({e})")),
            Ok(text) => match game.parse_output(case, text) {
                Err(why) => fault(FailureKind::Format, shorten(&why)),
                Ok(answer) if game.accepts(expected, &answer) => Verdict::Pass,
                Ok(answer) => fault(FailureKind::WrongAnswer, shorten(&game.why_wrong(case, expected, &answer))),
            },
        },
    }
}

/// How the run ended, for people.
pub fn exit_text(run: &RunOutput<'_>) -> String {
    match run.exit {
        Exit::Code(c) => format!("exit {c}"),
        Exit::Signal(s) => match signal_name(s) {
            Some(name) => format!("signal {s} ({name})"),
            None => format!("signal {s}"),
        },
        Exit::TimedOut => format!("time limit: {:.2} s CPU, {:.2} s wall", run.cpu.as_secs_f64(), run.elapsed.as_secs_f64()),
        Exit::OutputLimit => "killed: output limit".to_string(),
    }
}

fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => return None,
    })
}

/// The stderr of a run as saved in `NNN.err`: a first line says how many bytes were cut.
fn stderr_kept(run: &RunOutput<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(run.stderr.len() + 64);
    if run.stderr_cut > 0 {
        out.extend_from_slice(format!("[sprague: the first {} bytes of stderr were cut; its end follows]\n", run.stderr_cut).as_bytes());
    }
    out.extend_from_slice(run.stderr);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct() {
        let names: std::collections::BTreeSet<_> = FailureKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), 5);
    }
}
