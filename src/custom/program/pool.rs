//! A pool of persistent copies of one game program: the handshake, and requests spread over the copies in batches, answers kept in order.

use super::process::{Blame, Copy, Held, Wait};
use super::protocol::{self, Verb, Verbs, VERSION};
use super::Ask;
use crate::error::{Error, Result};
use crate::output::text::shorten;
use crate::stress::CommandLine;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Most requests in one batch (one write, then one `flush`).
pub const BATCH: usize = 512;

/// Time a copy may take to start and answer the handshake, at least.
const STARTUP: Duration = Duration::from_secs(30);

/// The handshake's wait: `--game-timeout`, or the start-up limit (named so) when that is longer.
fn handshake_wait(timeout: Duration, named: &str) -> Wait<'_> {
    if timeout >= STARTUP { Wait::game_timeout(timeout) } else { Wait { each: STARTUP, named } }
}

/// How long a copy may take to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramLimits {
    /// Time allowed for each answer line (counted from the previous one, or from the batch).
    pub timeout: Duration,
    /// Bytes of answer lines held at once, over the copies answering one list of requests.
    pub answer_bytes: u64,
    /// The option that makes the run smaller, named past the limit ([`super::advice`]).
    pub smaller: Option<&'static str>,
}

impl Default for ProgramLimits {
    fn default() -> Self {
        ProgramLimits { timeout: Duration::from_secs(10), answer_bytes: u64::MAX, smaller: super::SMALLER }
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
        let startup = format!("the start-up limit: --game-timeout, but at least {} s to start", STARTUP.as_secs());
        for copy in &program.copies {
            let wait = handshake_wait(limits.timeout, &startup);
            let answer = lock(copy).answer(std::slice::from_ref(&hello), wait, &Held::new(limits.answer_bytes, limits.smaller), None);
            answers.push(answer.map_err(|(_, why)| program.failed(&hello, why))?.remove(0));
        }
        program.verbs = Verbs::parse(&answers[0]).map_err(|why| program.failed(&hello, why))?;
        if let Some(other) = answers.iter().find(|a| Verbs::parse(a) != Ok(program.verbs)) {
            return Err(program.failed(&hello, format!("answered {:?} and {other:?} in two copies (non-deterministic)", answers[0])));
        }
        for copy in &program.copies {
            lock(copy).close_batches_with(hello.clone(), answers[0].clone());
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
        Error::Usage(format!("game program {}: request `{}`: {why}", self.command.display(), shorten(request)))
    }

    /// The error for requests of `batch` that got no proper answer: the one to blame, or the
    /// batch as a whole (its size, first and last request) when which one cannot be told.
    fn failed_in(&self, batch: &[String], blame: Blame, why: String) -> Error {
        let which = match (blame, batch) {
            (Blame::Request(index), _) => return self.failed(&batch[index], why),
            (Blame::Batch, [one]) => format!("the batch of request `{}`", shorten(one)),
            (Blame::Batch, [first, .., last]) => format!("a batch of {} requests (`{}` to `{}`)", batch.len(), shorten(first), shorten(last)),
            (Blame::Batch, []) => "an empty batch".to_string(),
        };
        Error::Usage(format!("game program {}: {which}: {why}", self.command.display()))
    }

    /// Answers a list of requests over all copies, each answer awaited until `deadline` at
    /// most; the first failure stops the rest.
    fn answer_all(&self, requests: &[String], deadline: Option<Instant>) -> Result<Vec<String>> {
        let size = requests.len().div_ceil(self.copies.len()).clamp(1, BATCH);
        let batches: Vec<&[String]> = requests.chunks(size).collect();
        let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let answers: Vec<Mutex<Option<Vec<String>>>> = batches.iter().map(|_| Mutex::new(None)).collect();
        let failure: Mutex<Option<Error>> = Mutex::new(None);
        let held = Held::new(self.limits.answer_bytes, self.limits.smaller);
        let work = |copy: &Mutex<Copy>| {
            let mut copy = lock(copy);
            while !stop.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(index) else { return };
                match copy.answer(batch, Wait::game_timeout(self.limits.timeout), &held, deadline) {
                    Ok(lines) => *lock(&answers[index]) = Some(lines),
                    Err((blame, why)) => {
                        stop.store(true, Ordering::Relaxed);
                        lock(&failure).get_or_insert(self.failed_in(batch, blame, why));
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
        self.ask_until(verb, args, None)
    }

    fn ask_until(&self, verb: Verb, args: &[&str], deadline: Option<Instant>) -> Result<Vec<String>> {
        if !self.verbs.has(verb) {
            return Err(Error::Usage(format!("game program {}: it does not answer `{verb}` (its handshake lists: {})", self.command.display(), self.verbs.names())));
        }
        let requests: Vec<String> = args.iter().map(|arg| protocol::request(verb, arg)).collect();
        self.answer_all(&requests, deadline)
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

    /// A handshake waits at least the start-up limit, named so; a longer --game-timeout is
    /// waited and named as itself.
    #[test]
    fn a_handshake_wait_names_the_limit_it_waited() {
        let short = handshake_wait(Duration::from_secs(2), "start-up");
        assert_eq!((short.each, short.named), (STARTUP, "start-up"));
        let long = handshake_wait(Duration::from_secs(40), "start-up");
        assert_eq!((long.each, long.named), (Duration::from_secs(40), "--game-timeout"));
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

    /// A program given as Python source, started with `copies` copies.
    fn python(source: &str, copies: usize) -> (tempfile::TempDir, Result<GameProgram>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game.py"), source).unwrap();
        let command = CommandLine::parse(&format!("python3 {}", dir.path().join("game.py").display())).unwrap();
        let limits = ProgramLimits { timeout: Duration::from_secs(5), ..ProgramLimits::default() };
        (dir, GameProgram::start(command, copies, limits))
    }

    const LOOP: &str = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n";

    #[test]
    fn an_extra_or_missing_line_is_caught_before_it_shifts_the_answers() {
        let source = format!("{LOOP}    if verb == 'sprague': print('positions moves')\n    elif verb == 'moves': print(''); print('debug')\n    elif verb == 'flush': sys.stdout.flush()\n");
        let (_dir, program) = python(&source, 1);
        let program = program.unwrap();
        let err = program.ask(Verb::Moves, &["a", "b"]).unwrap_err().to_string();
        assert!(err.contains("a batch of 2 requests (`moves a` to `moves b`): wrote more lines than requests"), "{err}");
        assert!(err.contains("one of the batch's requests got more than one line"), "{err}");
        let source = format!("{LOOP}    if verb == 'sprague': print('positions moves')\n    elif verb == 'moves' and arg != 'b': print('')\n    elif verb == 'flush': sys.stdout.flush()\n");
        let (_dir, program) = python(&source, 1);
        let err = program.unwrap().ask(Verb::Moves, &["a", "b", "c"]).unwrap_err().to_string();
        assert!(err.contains("a batch of 3 requests (`moves a` to `moves c`): answered 2 lines for 3 requests"), "{err}");
        let source = format!("said = []\n{LOOP}    if verb == 'sprague': said.append(1); print('positions moves' if len(said) == 1 else 'positions')\n    elif verb == 'moves': print('')\n    elif verb == 'flush': sys.stdout.flush()\n");
        let (_dir, program) = python(&source, 1);
        let err = program.unwrap().ask(Verb::Moves, &["a", "b"]).unwrap_err().to_string();
        assert!(err.contains("a batch of 2 requests (`moves a` to `moves b`): the handshake's answer changed: answered `sprague 1` closing the batch with \"positions\""), "{err}");
    }

    #[test]
    fn a_crash_names_the_request_and_quotes_stderr() {
        let source = format!("{LOOP}    if verb == 'sprague': print('positions moves', flush=True)\n    elif verb == 'moves': raise ValueError('no moves for ' + arg)\n");
        let (_dir, program) = python(&source, 2);
        let err = program.unwrap().ask(Verb::Moves, &["x1", "x2", "x3"]).unwrap_err().to_string();
        assert!(err.contains("request `moves x") && err.contains("exited (status 1)") && err.contains("ValueError: no moves for x"), "{err}");
    }

    #[test]
    fn a_hang_is_stopped_at_the_time_limit() {
        let source = format!("import time\n{LOOP}    if verb == 'sprague': print('positions moves', flush=True)\n    elif verb == 'moves': time.sleep(60)\n");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game.py"), source).unwrap();
        let command = CommandLine::parse(&format!("python3 {}", dir.path().join("game.py").display())).unwrap();
        let program = GameProgram::start(command, 1, ProgramLimits { timeout: Duration::from_millis(300), ..ProgramLimits::default() }).unwrap();
        let started = std::time::Instant::now();
        let err = program.ask(Verb::Moves, &["7"]).unwrap_err().to_string();
        assert!(err.contains("request `moves 7`") && err.contains("no answer within 0.3 s"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_program_that_does_not_speak_the_protocol_is_refused() {
        let (_dir, program) = python("print('hello')\n", 1);
        let err = program.err().expect("refused").to_string();
        assert!(err.contains("request `sprague 1`") && err.contains("\"hello\""), "{err}");
    }
}
