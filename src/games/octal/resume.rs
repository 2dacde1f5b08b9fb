//! Long `table octal CODE --max N --out FILE` runs: stoppable (`--budget`, exit 3) and resumable
//! (`--resume`), killed or not. Beside FILE lie `FILE.values.bin` (every value so far, u16 little
//! endian, only ever appended to and synced) and `FILE.checkpoint.json` (code, method, the
//! sparse method's mask and next review, how many values count, their SHA-256; sealed under
//! the SHA-256 of its text: [`crate::output::sealed`]), written atomically after the values it
//! describes. A killed run leaves the last checkpoint and perhaps more values after them, which
//! are ignored; a resumed run refuses a checkpoint that was changed, of another code, holding
//! more values than `--max` asks for, or whose values do not match the digest (exit 2), and its
//! final FILE is the one an uninterrupted run writes, byte for byte.

use super::code::Code;
use super::split::Rule;
use super::values::{domain_parity, Engine, Method};
use super::compute::{check_fits, le_bytes, method};
use crate::error::{Error, Result};
use crate::game::{Args, Session};
use crate::output::atomic::{hex, remove_if_present, remove_stale_temps_of, write_bytes_atomic};
use crate::output::lock::{CHECKPOINT_JSON, VALUES_BIN};
use crate::output::sealed::{read_text, seal, unseal};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Format of `FILE.checkpoint.json` (2: sealed, every field under the digest; 1, unsealed, is
/// refused).
const FORMAT: u32 = 2;

/// The state of a run, as `FILE.checkpoint.json` records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub code: String,
    pub method: String,
    pub mask: u16,
    /// The sparse method's rule is of the domain type.
    pub domain: bool,
    pub review_at: usize,
    pub values: usize,
    pub sha256: String,
}

/// The checkpoint files of a run writing `out`, and the digest of the values saved so far.
pub struct Checkpoint {
    json: PathBuf,
    bin: PathBuf,
    saved: usize,
    hasher: Sha256,
}

impl Checkpoint {
    /// The checkpoint beside `out`; a fresh run refuses to overwrite one that exists.
    pub fn fresh(out: &Path) -> Result<Checkpoint> {
        let checkpoint = Checkpoint::beside(out);
        if checkpoint.json.exists() {
            return Err(Error::Usage(format!("{} exists: add --resume to continue that run, or delete it to start again", checkpoint.json.display())));
        }
        File::create(&checkpoint.bin).map_err(|e| Error::io(&checkpoint.bin, e))?;
        Ok(checkpoint)
    }

    fn beside(out: &Path) -> Checkpoint {
        let with = |suffix: &str| PathBuf::from(format!("{}{suffix}", out.display()));
        Checkpoint { json: with(CHECKPOINT_JSON), bin: with(VALUES_BIN), saved: 0, hasher: Sha256::new() }
    }

    /// Deletes the temporary files that killed runs writing `out` left beside it (those of FILE
    /// and of its checkpoint; `out` is locked by this run).
    fn remove_stale_temps(out: &Path) -> Result<()> {
        let Some(name) = out.file_name().and_then(|n| n.to_str()) else { return Ok(()) };
        let dir = out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        remove_stale_temps_of(dir, &[name, &format!("{name}{CHECKPOINT_JSON}")])
    }

    /// The checkpoint beside `out` and the engine it describes, checked against `code` and
    /// the digest.
    pub fn resume(out: &Path, code: &Code, method: Method, max: usize) -> Result<(Checkpoint, Engine)> {
        let (checkpoint, state, g) = Checkpoint::load(out, code, Some(method))?;
        if g.len() > max + 1 {
            let json = checkpoint.json.display();
            return Err(Error::Usage(format!("{json} holds g(0..={}), more than --max {max} asks for: resume with --max {} or more (the checkpoint is kept; --stats-from reads it as it is)", g.len() - 1, g.len() - 1)));
        }
        let engine = Rule::recorded(state.mask, state.domain, domain_parity(code)).and_then(|rule| Engine::resume(code, method, g, rule, state.review_at));
        let engine = engine.ok_or_else(|| {
            Error::Usage(format!("{}: the domain type of sparse space, but {code}'s splits remove tokens of both parities", checkpoint.json.display()))
        })?;
        Ok((checkpoint, engine))
    }

    /// The checkpoint beside `out`, its state and its values, checked against `code` (and
    /// `method` when given) and the digest.
    fn load(out: &Path, code: &Code, method: Option<Method>) -> Result<(Checkpoint, State, Vec<u16>)> {
        let mut checkpoint = Checkpoint::beside(out);
        let json = &checkpoint.json;
        let again = |e: Error| match e {
            Error::Malformed { .. } => Error::Usage(format!("{e}; delete it and {} to start again", checkpoint.bin.display())),
            other => other,
        };
        let text = read_text(json).map_err(again)?.ok_or_else(|| Error::Usage(format!("--resume: no checkpoint to continue at {}", json.display())))?;
        let state: State = unseal(json, &text, FORMAT).map_err(again)?;
        let wanted = method.map_or(state.method.clone(), |m| method_name(m).to_string());
        if state.code != code.to_string() || state.method != wanted {
            return Err(Error::Usage(format!("{} is a checkpoint of {} ({}), not of {code} ({wanted})", json.display(), state.code, state.method)));
        }
        let g = read_values(&checkpoint.bin, state.values, &mut checkpoint.hasher)?;
        let digest = hex(&checkpoint.hasher.clone().finalize());
        if digest != state.sha256 {
            return Err(Error::Usage(format!("{}: the first {} values have SHA-256 {digest}, not {} as {} records: refused", checkpoint.bin.display(), state.values, state.sha256, json.display())));
        }
        checkpoint.saved = g.len();
        Ok((checkpoint, state, g))
    }

    /// The values a stopped (or killed) run of `code` writing `out` saved, checked against the
    /// digest its checkpoint records; None when there is no checkpoint beside `out`.
    pub fn saved_values(out: &Path, code: &Code) -> Result<Option<Vec<u16>>> {
        if !Checkpoint::beside(out).json.exists() {
            return Ok(None);
        }
        Checkpoint::load(out, code, None).map(|(_, _, g)| Some(g))
    }

    /// Appends the values computed since the last save, syncs them, then records the state.
    pub fn save(&mut self, code: &Code, engine: &Engine) -> Result<()> {
        let new = &engine.values()[self.saved..];
        let io = |e| Error::io(&self.bin, e);
        // Values a killed run appended after its last checkpoint are cut off first.
        let mut file = OpenOptions::new().write(true).open(&self.bin).map_err(io)?;
        file.set_len(2 * self.saved as u64).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        for chunk in new.chunks(CHUNK) {
            let bytes = le_bytes(chunk);
            file.write_all(&bytes).map_err(io)?;
            self.hasher.update(&bytes);
        }
        file.sync_all().map_err(io)?;
        self.saved = engine.values().len();
        let state = State {
            code: code.to_string(),
            method: method_name(engine.method()).to_string(),
            mask: engine.split().mask(),
            domain: engine.split().rule().domain.is_some(),
            review_at: engine.split().review_at(),
            values: self.saved,
            sha256: hex(&self.hasher.clone().finalize()),
        };
        write_bytes_atomic(&self.json, seal(&state, FORMAT).as_bytes())
    }

    /// Deletes the checkpoint once the output is written.
    pub fn remove(self) -> Result<()> {
        remove_if_present(&self.json)?;
        remove_if_present(&self.bin)
    }
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Plain => "plain",
        Method::Sparse => "sparse",
    }
}

/// Values per read or write of the values file (a chunk of bytes at a time, not a copy of all).
const CHUNK: usize = 1 << 20;

/// The first `count` values of a values file, their bytes fed to `hasher`.
fn read_values(path: &Path, count: usize, hasher: &mut Sha256) -> Result<Vec<u16>> {
    let mut file = crate::output::atomic::open_regular(path).map_err(|e| Error::io(path, e))?;
    let mut g = Vec::with_capacity(count);
    let mut bytes = vec![0u8; 2 * CHUNK];
    while g.len() < count {
        let want = 2 * CHUNK.min(count - g.len());
        file.read_exact(&mut bytes[..want]).map_err(|e| Error::Usage(format!("{}: fewer values than the checkpoint counts ({count}): {e}", path.display())))?;
        hasher.update(&bytes[..want]);
        g.extend(bytes[..want].chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])));
    }
    Ok(g)
}

/// Every value of a values file (`FILE.values.bin`, or a `--format bin` output): u16 little
/// endian, so an even number of bytes.
pub fn read_bin(path: &Path) -> Result<Vec<u16>> {
    // A pipe or device has no length to size the read by: refused, not read as no values.
    let bytes = crate::output::atomic::open_regular(path).and_then(|file| file.metadata()).map_err(|e| Error::io(path, e))?.len();
    if bytes % 2 == 1 {
        return Err(Error::malformed(path, format!("{bytes} bytes: not a values file (2 bytes per value)")));
    }
    read_values(path, (bytes / 2) as usize, &mut Sha256::new())
}

/// What a run of `table octal … --out FILE` ended with: the engine, and whether the budget
/// stopped it before `max` (its checkpoint saved).
pub struct Run {
    pub engine: Engine,
    pub stopped: bool,
    checkpoint: Checkpoint,
}

impl Run {
    /// Deletes the checkpoint of a finished run (after its output is written); its engine.
    pub fn finish(self) -> Result<Engine> {
        self.checkpoint.remove()?;
        Ok(self.engine)
    }
}

/// When a run looks at the clock, saves and stops.
#[derive(Clone, Copy)]
struct Pace {
    /// Stop after this long (`--budget`).
    budget: Option<Duration>,
    /// Save this often (`--checkpoint-secs`).
    every: Duration,
    /// Heaps between looks at the clock (`--checkpoint-heaps`).
    step: usize,
    /// Testing: sleep this long at each look (`--delay-ms`).
    delay: Duration,
}

/// Values up to `max` for the output `out`, fresh or resumed (`--resume`), saved every
/// `--checkpoint-secs` and stopped after `--budget` seconds. A fresh run that fails before
/// its first checkpoint deletes its values file.
pub fn run(code: &Code, max: usize, out: &Path, args: &Args, session: &mut Session) -> Result<Run> {
    check_fits(code, max, args, session.progress)?;
    let pace = Pace {
        budget: args.seconds("budget")?,
        every: args.seconds("checkpoint-secs")?.unwrap_or(Duration::from_secs(60)),
        step: args.get::<usize>("checkpoint-heaps")?.unwrap_or(1 << 16).max(1),
        delay: Duration::from_millis(args.get::<u64>("delay-ms")?.unwrap_or(0)),
    };
    Checkpoint::remove_stale_temps(out)?;
    let (mut checkpoint, mut engine) = if args.flag("resume") {
        Checkpoint::resume(out, code, method(args), max)?
    } else {
        (Checkpoint::fresh(out)?, Engine::new(code, method(args)))
    };
    engine.set_threads(rayon::current_num_threads());
    let fresh = !args.flag("resume");
    let run = extend(code, max, engine, &mut checkpoint, &pace, session);
    match run {
        Ok((engine, stopped)) => Ok(Run { engine, stopped, checkpoint }),
        // A fresh run that fails before its first checkpoint leaves nothing behind.
        Err(e) if fresh && checkpoint.saved == 0 => checkpoint.remove().and(Err(e)),
        Err(e) => Err(e),
    }
}

/// Extends `engine` to `max` as `pace` says; true when the budget stopped it (checkpoint saved).
fn extend(code: &Code, max: usize, mut engine: Engine, checkpoint: &mut Checkpoint, pace: &Pace, session: &mut Session) -> Result<(Engine, bool)> {
    let Pace { budget, every, step, delay } = *pace;
    let (started, mut saved) = (Instant::now(), Instant::now());
    let progress = session.progress;
    progress.start("values", Some(max as u64 + 1), engine.values().len() as u64);
    while engine.values().len() <= max {
        let next = (engine.values().len() + step - 1).min(max);
        engine.extend_to(next, &mut |done| progress.advance(done))?;
        std::thread::sleep(delay);
        if engine.values().len() > max {
            break;
        }
        if budget.is_some_and(|b| started.elapsed() >= b) {
            progress.finish();
            checkpoint.save(code, &engine)?;
            return Ok((engine, true));
        }
        if saved.elapsed() >= every {
            checkpoint.save(code, &engine)?;
            saved = Instant::now();
        }
    }
    progress.finish();
    Ok((engine, false))
}
