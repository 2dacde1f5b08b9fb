//! Any problem, not only sprague's games: inputs from the user's generator (`--gen`, one per
//! seed), the trusted answer from the user's reference (`--ref`), answers compared token by
//! token (numbers within `--float-tolerance`) or by a testlib-style `--checker`, inputs kept
//! legal by a `--validator`, and any text input shrunk ([`text`]).
//!
//! The user's generator is the run's `random` source: seeds `--seed`, `--seed + 1`, … A
//! generated input the validator refuses, or on which the reference fails, stops the run with
//! an error naming the seed; a shrink candidate refused that way is not judged (so not kept).

pub mod compare;
pub mod text;
pub mod tools;

use crate::error::{Error, Result};
use crate::output::text::{escaped, last_lines};
use crate::stress::contest::{Cases, Contest, Generator, Source};
use crate::stress::process::{Exit, Limits, Runner};
use std::fmt;
use std::sync::{Arc, Mutex};
use tools::{Tool, ToolRun};

/// One input: the seed its generated ancestor came from and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextCase {
    pub seed: u64,
    pub input: Arc<[u8]>,
    /// True for a shrink candidate (not the generator's own output).
    pub derived: bool,
}

/// An answer: the reference's output or the program's (trailing blanks cut), and the case.
#[derive(Debug, Clone)]
pub struct Reply {
    pub text: String,
    case: TextCase,
    /// Why the case is not judged: the validator refused it or the reference failed on it.
    refused: Option<String>,
}

impl PartialEq for Reply {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.refused == other.refused
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The user's problem: generator, reference, and optionally a validator and a checker.
pub struct Problem {
    /// `--gen` with `{seed}` where the seed goes.
    generator: String,
    tool_limits: Limits,
    reference: Tool,
    validator: Option<Tool>,
    checker: Option<Tool>,
    tolerance: Option<f64>,
    /// The first error of a helper program; the run stops and reports it (exit 2).
    failure: Mutex<Option<Error>>,
}

/// The helpers' commands and settings.
#[derive(Debug, Clone, Default)]
pub struct ProblemSpec {
    pub generator: String,
    pub reference: String,
    pub validator: Option<String>,
    pub checker: Option<String>,
    pub tolerance: Option<f64>,
    /// The helpers' limits (CPU time, output).
    pub limits: Limits,
}

impl Problem {
    /// The problem `spec` describes; a helper that cannot be found is a usage error.
    pub fn new(spec: &ProblemSpec) -> Result<Problem> {
        tools::generator(&spec.generator, 1)?;
        let tool = |option, text: &Option<String>, files| text.as_deref().map(|t| Tool::new(option, t, spec.limits, files)).transpose();
        Ok(Problem {
            generator: spec.generator.clone(),
            tool_limits: spec.limits,
            reference: Tool::new("--ref", &spec.reference, spec.limits, &[])?,
            validator: tool("--validator", &spec.validator, &[])?,
            checker: tool("--checker", &spec.checker, &["input", "output", "answer"])?,
            tolerance: spec.tolerance,
            failure: Mutex::new(None),
        })
    }

    fn failed(&self) -> bool {
        self.failure.lock().expect("no panics while holding").is_some()
    }

    fn fail(&self, error: Error) {
        self.failure.lock().expect("no panics while holding").get_or_insert(error);
    }

    /// The generator's input for `seed`.
    pub fn generate(&self, seed: u64) -> Result<Vec<u8>> {
        let mut runner = Runner::trusted(tools::generator(&self.generator, seed)?, self.tool_limits)?;
        let run = tools::run_on(&mut runner, b"")?;
        if let Some(why) = run.not_started {
            return Err(Error::Usage(format!("--gen {:?} did not start its program (seed {seed}): {why}", self.generator)));
        }
        match run.ok() {
            true => Ok(run.stdout),
            false => Err(Error::Usage(format!("--gen {:?} failed on seed {seed}: {}", self.generator, run.said))),
        }
    }

    /// Why `input` is not legal (the validator's refusal), if it is not.
    pub fn refusal(&self, input: &[u8]) -> Result<Option<String>> {
        let Some(validator) = &self.validator else { return Ok(None) };
        let run = validator.run(input, &[])?;
        Ok((!run.ok()).then(|| format!("the validator `{}` refused it ({})", validator.display(), run.said)))
    }

    /// Larger inputs than `case` that the validator accepts (none without a validator: the
    /// slowest-input search then keeps to generated inputs), checked `jobs` at a time.
    pub fn larger(&self, case: &TextCase, jobs: usize) -> Vec<TextCase> {
        if self.validator.is_none() {
            return Vec::new();
        }
        let all = text::larger(&case.input);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let legal: Vec<Mutex<bool>> = all.iter().map(|_| Mutex::new(false)).collect();
        std::thread::scope(|scope| {
            for _ in 0..jobs.clamp(1, all.len().max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(input) = all.get(i) else { break };
                    *legal[i].lock().expect("no panics while holding") = matches!(self.refusal(input), Ok(None));
                });
            }
        });
        let keep = all.into_iter().zip(legal).filter(|(_, ok)| *ok.lock().expect("no panics while holding"));
        keep.map(|(input, _)| TextCase { seed: case.seed, input: input.into(), derived: true }).collect()
    }

    /// The reference's answer to `case`, or why there is none (an error for a generated case).
    fn reference_answer(&self, case: &TextCase) -> Result<std::result::Result<String, String>> {
        if let Some(refused) = self.refusal(&case.input)? {
            return Ok(Err(refused));
        }
        let run: ToolRun = self.reference.run(&case.input, &[])?;
        match run.ok() {
            true => Ok(Ok(String::from_utf8_lossy(&run.stdout).trim_end().to_string())),
            false => Ok(Err(format!("the reference `{}` failed on it ({})", self.reference.display(), run.said))),
        }
    }

    /// True when the checker accepts `got` (its exit status 0); its own failure (exit 3, as
    /// testlib's `fail`, a crash or its time limit) is an error.
    fn checked(&self, checker: &Tool, expected: &Reply, got: &Reply) -> bool {
        match check(checker, expected, got) {
            Ok(run) if run.ok() => true,
            // testlib's statuses: 1 wrong answer, 2 presentation error, …; 3 its own failure.
            Ok(run) if matches!(run.exit, Exit::Code(c) if c != 3) => false,
            // A shrink candidate the checker cannot judge is not kept.
            Ok(_) if expected.case.derived => true,
            Ok(run) => self.error_then_pass(Error::Usage(format!("--checker `{}` failed on seed {}: {}", checker.display(), expected.case.seed, run.said))),
            Err(e) => self.error_then_pass(e),
        }
    }

    /// Why the checker refused `got`: its exit status, stderr and stdout.
    fn checker_says(&self, checker: &Tool, expected: &Reply, got: &Reply) -> String {
        match check(checker, expected, got) {
            Ok(run) => {
                let stdout = last_lines(&escaped(&run.stdout), "");
                format!("the checker `{}` says {}{}", checker.display(), run.said, if stdout.is_empty() { String::new() } else { format!("; its stdout{stdout}") })
            }
            Err(e) => e.to_string(),
        }
    }

    fn error_then_pass(&self, error: Error) -> bool {
        self.fail(error);
        true
    }
}

/// Runs `checker` on the input, `got` and the reference's answer (testlib's order).
fn check(checker: &Tool, expected: &Reply, got: &Reply) -> Result<ToolRun> {
    let files: [&[u8]; 3] = [&expected.case.input, got.text.as_bytes(), expected.text.as_bytes()];
    checker.run(&[], &files)
}

impl Contest for Problem {
    type Case = TextCase;
    type Answer = Reply;

    fn write_input(&self, case: &TextCase, out: &mut Vec<u8>) {
        out.extend_from_slice(&case.input);
    }

    fn answer(&self, case: &TextCase) -> Reply {
        let (text, refused) = match self.reference_answer(case) {
            Ok(Ok(text)) => (text, None),
            Ok(Err(why)) => (String::new(), Some(why)),
            Err(e) => (String::new(), Some(e.to_string())),
        };
        if let (Some(why), false) = (&refused, case.derived) {
            self.fail(Error::Usage(format!("seed {}: {why}; `{}` makes the input", case.seed, self.generator.replace(tools::SEED, &case.seed.to_string()))));
        }
        Reply { text, case: case.clone(), refused }
    }

    fn parse_output(&self, case: &TextCase, stdout: &str) -> std::result::Result<Reply, String> {
        Ok(Reply { text: stdout.trim_end().to_string(), case: case.clone(), refused: None })
    }

    fn accepts(&self, expected: &Reply, got: &Reply) -> bool {
        match (&expected.refused, &self.checker) {
            (Some(_), _) => true,
            (None, Some(checker)) => self.checked(checker, expected, got),
            (None, None) => compare::difference(&expected.text, &got.text, self.tolerance).is_none(),
        }
    }

    fn judges(&self, expected: &Reply) -> bool {
        expected.refused.is_none()
    }

    fn why_wrong(&self, _case: &TextCase, expected: &Reply, got: &Reply) -> String {
        self.checker.as_ref().map(|checker| self.checker_says(checker, expected, got)).unwrap_or_default()
    }

    fn describe(&self, case: &TextCase) -> String {
        format!("{} (seed {})", text::describe(&case.input), case.seed)
    }

    fn shrink_candidates(&self, case: &TextCase) -> Vec<TextCase> {
        let derived = |input: Vec<u8>| TextCase { seed: case.seed, input: input.into(), derived: true };
        text::candidates(&case.input).into_iter().map(derived).collect()
    }

    /// The error that stopped the run, if a helper failed.
    fn take_failure(&self) -> Option<Error> {
        self.failure.lock().expect("no panics while holding").take()
    }
}

impl Generator for Problem {
    /// The user's generator is the `random` source; the others are empty.
    fn cases(&self, source: Source, seed: u64) -> Cases<'_, TextCase> {
        if source != Source::Random {
            return Box::new(std::iter::empty());
        }
        Box::new((seed..).map_while(move |s| {
            if self.failed() {
                return None;
            }
            let input = self.generate(s).map_err(|e| self.fail(e)).ok()?;
            Some(TextCase { seed: s, input: input.into(), derived: false })
        }))
    }
}

#[cfg(test)]
mod tests;
