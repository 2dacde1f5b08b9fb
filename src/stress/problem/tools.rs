//! The user's own programs around the one under test — generator, reference, validator,
//! checker — each run with the stress run's process machinery (CPU-time limit, private
//! directory, the end of stderr kept; trusted: a first Ctrl-C lets a run finish), from a pool
//! of runners shared by the workers.

use crate::error::{Error, Result};
use crate::output::text::{escaped, last_lines};
use crate::stress::outcome::exit_text;
use crate::stress::start::not_started;
use crate::stress::process::{Exit, Limits, Runner};
use crate::stress::CommandLine;
use std::path::PathBuf;
use std::sync::Mutex;

/// Where the seed goes in a `--gen` command.
pub const SEED: &str = "{seed}";

/// One run of a helper program.
#[derive(Debug, Clone)]
pub struct ToolRun {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    /// How it ended and the end of its stderr, for messages: `exit 1: ValueError: …`, or the
    /// last lines of a longer stderr each on a line of its own, indented (a traceback).
    pub said: String,
    /// Set when the run shows the command never started its program (the shell's message).
    pub not_started: Option<String>,
}

impl ToolRun {
    pub fn ok(&self) -> bool {
        self.exit == Exit::Code(0)
    }
}

/// A helper program (`--ref`, `--validator`, `--checker`), started again and again.
pub struct Tool {
    /// The option that named it, for messages (`--ref`).
    pub option: &'static str,
    /// The command as the user typed it.
    text: String,
    command: CommandLine,
    limits: Limits,
    /// Files written before each run and named after the command's own arguments (a
    /// checker's `input output answer`).
    files: &'static [&'static str],
    idle: Mutex<Vec<Slot>>,
}

/// A runner and the folder of its files.
struct Slot {
    runner: Runner,
    folder: Option<tempfile::TempDir>,
}

impl Tool {
    /// The helper `text` names (refused as `--cmd` would be: a usage error naming `option`).
    pub fn new(option: &'static str, text: &str, limits: Limits, files: &'static [&'static str]) -> Result<Tool> {
        let command = parse(option, text)?;
        Ok(Tool { option, text: text.to_string(), command, limits, files, idle: Mutex::new(Vec::new()) })
    }

    /// The command as typed, for messages.
    pub fn display(&self) -> &str {
        &self.text
    }

    /// Runs the helper on `input` (stdin) with `files` written under its file names first.
    pub fn run(&self, input: &[u8], files: &[&[u8]]) -> Result<ToolRun> {
        let taken = self.idle.lock().expect("no panics while holding").pop();
        let mut slot = match taken {
            Some(slot) => slot,
            None => self.slot()?,
        };
        if let Some(folder) = &slot.folder {
            for (name, bytes) in self.files.iter().zip(files) {
                let path = folder.path().join(name);
                std::fs::write(&path, bytes).map_err(|e| Error::io(path, e))?;
            }
        }
        let run = run_on(&mut slot.runner, input);
        self.idle.lock().expect("no panics while holding").push(slot);
        run
    }

    fn slot(&self) -> Result<Slot> {
        if self.files.is_empty() {
            return Ok(Slot { runner: Runner::trusted(self.command.clone(), self.limits)?, folder: None });
        }
        let folder = tempfile::Builder::new().prefix("sprague-files-").tempdir().map_err(|e| Error::io("temporary directory", e))?;
        let paths: Vec<PathBuf> = self.files.iter().map(|f| folder.path().join(f)).collect();
        let runner = Runner::trusted(with_args(&self.command, &paths), self.limits)?;
        Ok(Slot { runner, folder: Some(folder) })
    }
}

/// Runs `runner` once on `input`; its output kept.
pub fn run_on(runner: &mut Runner, input: &[u8]) -> Result<ToolRun> {
    let via_shell = runner.command().via_shell();
    let (run, ()) = runner.run(input, || ())?;
    let said = format!("{}{}", exit_text(&run), last_lines(&escaped(run.stderr), "    "));
    Ok(ToolRun { exit: run.exit, stdout: run.stdout.to_vec(), said, not_started: not_started(via_shell, &run) })
}

/// `text` as a command line, errors naming `option`.
pub fn parse(option: &str, text: &str) -> Result<CommandLine> {
    CommandLine::parse_option(option, text)
}

/// The generator command for `seed`: `{seed}` replaced in `template` (which must hold it).
pub fn generator(template: &str, seed: u64) -> Result<CommandLine> {
    if !template.contains(SEED) {
        return Err(Error::Usage(format!("--gen {template:?} has no {SEED}: write where the seed goes, e.g. 'python3 gen.py {SEED}'")));
    }
    parse("--gen", &template.replace(SEED, &seed.to_string()))
}

/// `command` with `paths` appended as arguments (quoted in a shell command).
fn with_args(command: &CommandLine, paths: &[PathBuf]) -> CommandLine {
    let words = paths.iter().map(|p| p.to_string_lossy().into_owned());
    match command {
        CommandLine::Direct { program, args } => CommandLine::Direct { program: program.clone(), args: args.iter().cloned().chain(words).collect() },
        CommandLine::Shell { text } => {
            let quoted: Vec<String> = words.map(|w| shlex::try_quote(&w).map_or(w.clone(), |q| q.into_owned())).collect();
            CommandLine::Shell { text: format!("{text} {}", quoted.join(" ")) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_need_their_seed_and_helpers_start() {
        let e = generator("echo 1", 3).unwrap_err().to_string();
        assert!(e.contains("has no {seed}"), "{e}");
        assert!(generator("echo {seed}", 3).unwrap().display().ends_with("echo 3"));
        assert!(parse("--ref", "no-such-program-xyz").unwrap_err().to_string().starts_with("--ref"));
        let cat = Tool::new("--checker", "cat", Limits::default(), &["input", "output"]).unwrap();
        let run = cat.run(b"", &[b"in\n", b"out\n"]).unwrap();
        assert!(run.ok() && run.stdout == b"in\nout\n", "{run:?}");
        let failing = Tool::new("--ref", "sh -c 'echo oops >&2; exit 3'", Limits::default(), &[]).unwrap();
        let run = failing.run(b"", &[]).unwrap();
        assert!(!run.ok() && run.said == "exit 3: oops", "{run:?}");
    }
}
