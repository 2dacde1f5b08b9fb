//! A pool of persistent copies of one game program: the handshake, and requests spread over the copies in batches, answers kept in order.

use super::process::Copy;
use super::protocol::{self, Verb, Verbs, VERSION};
use super::Ask;
use crate::error::{Error, Result};
use crate::stress::CommandLine;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// Most requests in one batch (one write, then one `flush`).
pub const BATCH: usize = 512;

/// How long a copy may take to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramLimits {
    /// Time allowed for each answer line (counted from the previous one, or from the batch).
    pub timeout: Duration,
}

impl Default for ProgramLimits {
    fn default() -> Self {
        ProgramLimits { timeout: Duration::from_secs(10) }
    }
}

/// The game program, running as `copies` persistent processes.
pub struct GameProgram {
    command: CommandLine,
    copies: Vec<Mutex<Copy>>,
    verbs: Verbs,
    limits: ProgramLimits,
}

impl GameProgram {
    /// Starts `copies` copies of `command` and asks each which requests it answers (they must
    /// all answer the same).
    pub fn start(command: CommandLine, copies: usize, limits: ProgramLimits) -> Result<GameProgram> {
        let started = (0..copies.max(1)).map(|_| Copy::start(&command).map(Mutex::new)).collect::<Result<Vec<_>>>()?;
        let mut program = GameProgram { command, copies: started, verbs: Verbs::default(), limits };
        let hello = format!("sprague {VERSION}");
        let mut answers = Vec::new();
        for copy in &program.copies {
            let answer = lock(copy).answer(std::slice::from_ref(&hello), limits.timeout);
            answers.push(answer.map_err(|(_, why)| program.failed(&hello, why))?.remove(0));
        }
        program.verbs = Verbs::parse(&answers[0]).map_err(|why| program.failed(&hello, why))?;
        if let Some(other) = answers.iter().find(|a| Verbs::parse(a) != Ok(program.verbs)) {
            return Err(program.failed(&hello, format!("answered {:?} and {other:?} in two copies (non-deterministic)", answers[0])));
        }
        Ok(program)
    }

    /// The command, as the user would type it.
    pub fn command(&self) -> &CommandLine {
        &self.command
    }

    /// Number of running copies.
    pub fn copies(&self) -> usize {
        self.copies.len()
    }

    /// The error for a request that got no proper answer.
    pub fn failed(&self, request: &str, why: String) -> Error {
        Error::Usage(format!("game program {}: request `{request}`: {why}", self.command.display()))
    }

    /// Answers a list of requests over all copies; the first failure stops the rest.
    fn answer_all(&self, requests: &[String]) -> Result<Vec<String>> {
        let size = requests.len().div_ceil(self.copies.len()).clamp(1, BATCH);
        let batches: Vec<&[String]> = requests.chunks(size).collect();
        let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let answers: Vec<Mutex<Option<Vec<String>>>> = batches.iter().map(|_| Mutex::new(None)).collect();
        let failure: Mutex<Option<Error>> = Mutex::new(None);
        let work = |copy: &Mutex<Copy>| {
            let mut copy = lock(copy);
            while !stop.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(index) else { return };
                match copy.answer(batch, self.limits.timeout) {
                    Ok(lines) => *lock(&answers[index]) = Some(lines),
                    Err((index, why)) => {
                        stop.store(true, Ordering::Relaxed);
                        lock(&failure).get_or_insert(self.failed(&batch[index], why));
                    }
                }
            }
        };
        std::thread::scope(|s| {
            let used = self.copies.iter().take(batches.len());
            used.map(|copy| s.spawn(move || work(copy))).collect::<Vec<_>>().into_iter().for_each(|h| h.join().expect("a pool thread"))
        });
        if let Some(error) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(error);
        }
        Ok(answers.into_iter().flat_map(|a| a.into_inner().unwrap_or_else(PoisonError::into_inner).unwrap_or_default()).collect())
    }
}

impl Ask for GameProgram {
    fn verbs(&self) -> Verbs {
        self.verbs
    }

    fn ask(&self, verb: Verb, args: &[&str]) -> Result<Vec<String>> {
        if !self.verbs.has(verb) {
            return Err(Error::Usage(format!("game program {}: it does not answer `{verb}` (its handshake lists: {})", self.command.display(), self.verbs.names())));
        }
        let requests: Vec<String> = args.iter().map(|arg| protocol::request(verb, arg)).collect();
        self.answer_all(&requests)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::custom::program::{Explorer, GraphLimits};
    use crate::impartial::Convention;

    /// docs/custom-programs.md's Kayles program, as written there.
    fn kayles() -> (tempfile::TempDir, CommandLine) {
        let doc = include_str!("../../../docs/custom-programs.md");
        let code = doc.split("```python\n").nth(1).and_then(|rest| rest.split("```").next()).expect("the doc's Python program");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("kayles.py"), code).unwrap();
        let command = CommandLine::parse(&format!("python3 {}", dir.path().join("kayles.py").display())).unwrap();
        (dir, command)
    }

    #[test]
    fn the_documented_kayles_program_gives_the_published_values() {
        let (_dir, command) = kayles();
        let program = std::sync::Arc::new(GameProgram::start(command, 2, ProgramLimits::default()).unwrap());
        assert_eq!(program.verbs().names(), "positions moves components");
        let sizes: Vec<String> = (0..=24).map(|n| n.to_string()).collect();
        let args: Vec<&str> = sizes.iter().map(String::as_str).collect();
        let starts = program.ask(Verb::Positions, &args).unwrap();
        let mut explorer = Explorer::new(program.clone(), Convention::Normal, GraphLimits::default());
        let roots: Vec<u32> = starts.iter().map(|s| explorer.intern(s, "test").unwrap()).collect();
        // Kayles, OEIS A002186.
        let published = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4];
        assert_eq!(explorer.values(&roots).unwrap(), published);
        assert!(program.ask(Verb::Claim, &["3"]).unwrap_err().to_string().contains("does not answer `claim`"));
    }
}
