//! The verification of a game program: one job per size, each size's starting positions explored and solved through the program, its claim and components checked.
//!
//! The program is started on first need (a `merge` of shards never starts it): `jobs` asks
//! `positions N` of every size once, or takes the counts from the manifest the run is rebuilt
//! from; `prepare` explores and judges a size's starting positions (judge.rs) and shrinks the
//! failing ones; the parallel evaluation only counts what `prepare` found. Result files: the
//! columns of [`crate::custom::COLUMNS`] (`rows` = 1, `size`, `parts`, `position` = the token,
//! `answer` = the answer that fails there: `claim` or `components`).

use super::judge::{confirm, judge, shrink};
use crate::custom::Verdict;
use super::{Ask, Explorer, GraphLimits, Verb};
use crate::custom::COLUMNS;
use crate::error::{Error, Result};
use crate::impartial::Convention;
use crate::output::records::Columns;
use crate::runner::{Evaluate, Job, RunResults, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Starts the game program (its copies, the handshake).
pub type Start = Box<dyn Fn() -> Result<Arc<dyn Ask>> + Send + Sync>;

/// Positions evaluated per parallel chunk (evaluating one is only counting it).
const CHUNK: u64 = 4096;

/// Every starting position of sizes 0..=max_size of a game program, verified.
pub struct ProgramRun {
    start: Start,
    convention: Convention,
    limits: GraphLimits,
    max_size: u32,
    /// Manifest parameters describing the program: its command and files (`program_files`).
    described: BTreeMap<String, Value>,
    /// The manifest parameters of the run this one was rebuilt from (`merge`, `check`).
    recorded: Option<BTreeMap<String, Value>>,
    engine: Mutex<Option<Engine>>,
    /// Starting positions per size.
    counts: OnceLock<Vec<u64>>,
}

/// The running program's move graph and the starting positions asked so far.
struct Engine {
    explorer: Explorer,
    starts: BTreeMap<u32, Vec<u32>>,
}

/// What `prepare` found about one starting position: its distribution key, and when the program
/// is wrong about it, the (shrunk) failing position and its verdict.
type Judged = ((u32, u32), Option<(String, Verdict)>);

impl ProgramRun {
    pub fn new(start: Start, convention: Convention, limits: GraphLimits, max_size: u32, described: BTreeMap<String, Value>) -> Self {
        ProgramRun { start, convention, limits, max_size, described, recorded: None, engine: Mutex::new(None), counts: OnceLock::new() }
    }

    /// Runs `f` on the engine, starting the program first if needed.
    fn with_engine<T>(&self, f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
        let mut engine = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        if engine.is_none() {
            self.check_files()?;
            let program = (self.start)()?;
            self.check_verbs(program.verbs())?;
            *engine = Some(Engine { explorer: Explorer::new(program, self.convention, self.limits), starts: BTreeMap::new() });
        }
        f(engine.as_mut().expect("started"))
    }

    /// Refuses a program that gives nothing to check under misère but its components.
    fn check_verbs(&self, verbs: super::Verbs) -> Result<()> {
        if self.convention == Convention::Misere && verbs.has(Verb::Components) && !verbs.has(Verb::Claim) {
            return Err(Error::Usage(
                "--convention misere: the game program answers `components` but no `claim`; components are not used under misère play (sums of misère games do not XOR), so there is nothing to check: give a `claim`, or verify under normal play".into(),
            ));
        }
        Ok(())
    }

    /// When rebuilt from a manifest: the files the command names must still be those the run
    /// used (same SHA-256).
    fn check_files(&self) -> Result<()> {
        let Some(recorded) = &self.recorded else { return Ok(()) };
        let files = |p: &BTreeMap<String, Value>| p.get("program_files").and_then(Value::as_object).cloned().unwrap_or_default();
        let (then, now) = (files(recorded), files(&self.described));
        for (path, digest) in &then {
            match now.get(path) {
                Some(current) if current == digest => {}
                Some(current) => {
                    return Err(Error::Usage(format!(
                        "game program file {path}: its SHA-256 is {current}, not the {digest} manifest.json records: the program changed since the run; rerun verify"
                    )))
                }
                None if std::path::Path::new(path).is_file() => {
                    return Err(Error::Usage(format!(
                        "game program file {path}, which manifest.json records, is not named by the command from this directory: the command's relative paths are read from the directory the run was started in; run from there"
                    )))
                }
                None => return Err(Error::Usage(format!("game program file {path}, which manifest.json records, is missing or no longer named by the command"))),
            }
        }
        match now.keys().find(|path| !then.contains_key(*path)) {
            Some(path) => Err(Error::Usage(format!("game program file {path} is named by the command but not recorded in manifest.json: not the program of the run"))),
            None => Ok(()),
        }
    }

    /// The starting positions of `sizes` not asked yet, asked in one batch.
    fn ask_starts(engine: &mut Engine, sizes: &[u32]) -> Result<()> {
        let missing: Vec<u32> = sizes.iter().copied().filter(|s| !engine.starts.contains_key(s)).collect();
        let texts: Vec<String> = missing.iter().map(u32::to_string).collect();
        let args: Vec<&str> = texts.iter().map(String::as_str).collect();
        let answers = if args.is_empty() { Vec::new() } else { engine.explorer.program().ask(Verb::Positions, &args)? };
        for ((&size, text), answer) in missing.iter().zip(&texts).zip(&answers) {
            let mut ids = engine.explorer.intern_all(answer, &format!("positions {text}"))?;
            let mut seen = std::collections::HashSet::new();
            ids.retain(|id| seen.insert(*id));
            engine.starts.insert(size, ids);
        }
        Ok(())
    }

    /// The number of starting positions of every size.
    fn counts(&self) -> Result<&[u64]> {
        if let Some(counts) = self.counts.get() {
            return Ok(counts);
        }
        let counts = self.with_engine(|engine| {
            Self::ask_starts(engine, &(0..=self.max_size).collect::<Vec<_>>())?;
            Ok(engine.starts.values().map(|ids| ids.len() as u64).collect::<Vec<_>>())
        })?;
        Ok(self.counts.get_or_init(|| counts))
    }

    /// Every starting position of `size` judged, the failing ones shrunk.
    fn judge_size(&self, size: u32, expected: u64) -> Result<Vec<Judged>> {
        self.with_engine(|engine| {
            Self::ask_starts(engine, &[size])?;
            let ids = engine.starts[&size].clone();
            if ids.len() as u64 != expected {
                return Err(Error::Usage(format!(
                    "game program: `positions {size}` now answers {} positions, but the run counted {expected}: not the program of the run",
                    ids.len()
                )));
            }
            let verdicts = judge(&mut engine.explorer, &ids)?;
            let mut judged = Vec::with_capacity(ids.len());
            for (&id, verdict) in ids.iter().zip(verdicts) {
                let failing = if verdict.fails(self.convention) {
                    let (shrunk, verdict) = shrink(&mut engine.explorer, id, verdict)?;
                    confirm(&mut engine.explorer, shrunk, verdict)?;
                    Some((shrunk, verdict))
                } else {
                    None
                };
                judged.push((verdict.key(), failing.map(|(id, v)| (engine.explorer.token(id).to_string(), v))));
            }
            Ok(judged)
        })
    }

    /// The request names the program answers: the running program's, else the manifest's.
    fn verbs(&self) -> Option<String> {
        let engine = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        let running = engine.as_ref().map(|e| e.explorer.program().verbs().names());
        running.or_else(|| self.recorded.as_ref()?.get("verbs")?.as_str().map(str::to_string))
    }

    fn convention_name(&self) -> &'static str {
        match self.convention {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        }
    }
}

impl Verification for ProgramRun {
    fn game(&self) -> &str {
        "custom"
    }

    fn rule(&self) -> String {
        match self.convention {
            Convention::Normal => "exhaustive".into(),
            Convention::Misere => "exhaustive:convention=misere".into(),
        }
    }

    fn columns(&self) -> Columns {
        COLUMNS
    }

    fn job_noun(&self) -> &'static str {
        "size"
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        let job = |(size, &count): (usize, &u64)| Job::new(format!("size={size}"), vec![(1, size as u32)], count, CHUNK).one_pattern_each();
        Ok(self.counts()?.iter().enumerate().map(job).collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let size = index as u32;
        let judged = self.judge_size(size, self.counts()?[index])?;
        let convention = self.convention;
        Ok(Box::new(move |range: Range<u64>, part: &mut RunResults| {
            for (key, failing) in &judged[range.start as usize..range.end as usize] {
                let failed = failing.iter().flat_map(|(token, verdict)| verdict.disagreements(token, convention));
                part.check((1, size), *key, failed);
            }
        }))
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        let mut parameters = self.described.clone();
        parameters.insert("max_size".into(), self.max_size.into());
        parameters.insert("convention".into(), self.convention_name().into());
        if let Some(counts) = self.counts.get() {
            parameters.insert("positions".into(), counts.clone().into());
        }
        if let Some(verbs) = self.verbs() {
            parameters.insert("verbs".into(), verbs.into());
        }
        parameters
    }

    fn identity(&self) -> BTreeMap<String, Value> {
        self.described.clone()
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        let mut notes = vec![
            "rows = 1, size = N of `positions N`, parts = number of components, grundy = the claim, else the XOR of the components' exact values, else the exact value".into(),
            match self.convention {
                Convention::Normal => "oracle: mex over the program's `moves`, each position asked once; it never asks `claim` or `components`".into(),
                Convention::Misere => "oracle: the outcome by minimax over the program's `moves` (1: the player to move wins); `components` is not used under misère".into(),
            },
        ];
        let explored = self.engine.lock().unwrap_or_else(PoisonError::into_inner).as_ref().map(|e| e.explorer.len());
        if let Some(explored) = explored {
            notes.push(format!("{explored} positions explored by this process (each asked `moves` once)"));
        }
        if self.verbs().is_some_and(|v| v.split(' ').any(|w| w == "smaller")) {
            notes.push("mismatches.csv: each failing starting position shrunk with `smaller` to a smallest failing position (by `size`, else token length), listed under the size it was found in".into());
        }
        notes
    }

    fn resumable_after_error(&self) -> bool {
        false
    }

    fn adopt_manifest(&mut self, parameters: &BTreeMap<String, Value>) -> Result<()> {
        let counts = parameters.get("positions").and_then(Value::as_array).and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>());
        let counts = counts.filter(|c| c.len() == self.max_size as usize + 1).ok_or_else(|| {
            Error::Usage(format!("the manifest of this custom run records no `positions` counts for sizes 0..={}", self.max_size))
        })?;
        self.counts = OnceLock::from(counts);
        self.recorded = Some(parameters.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests;
