//! The resumable `verify wall` runner: sizes in order, each shard range in blocks, checkpoints.

use super::checkpoint::{Checkpoint, Position, RunParams, CHECKPOINT};
use crate::games::wall::shrink::COUNTEREXAMPLES;
use crate::output::atomic::remove_stale_temps;
use crate::output::verify_files::{DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use crate::games::wall::census;
use crate::games::wall::engine::{estimate_peak_bytes, prepare, SizeEngine};
use super::shard::Shard;
use super::tally::RunResults;
use crate::games::wall::verify::evaluate_range;
use crate::error::{Error, Result};
use crate::games::wall::{Rule, Shape};
use crate::sys;
use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every file a run writes into its directory (whose temporary files a kill may leave).
const RUN_FILES: [&str; 6] = [CHECKPOINT, SUMMARY, DISTRIBUTION, MISMATCHES, MANIFEST, COUNTEREXAMPLES];

/// What a run checks: every pattern of `shapes` (in order) in `shard`, under `rule`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub rule: Rule,
    pub shapes: Vec<Shape>,
    pub shard: Shard,
    /// Census: evaluate the claim only, no naive oracle (for sizes beyond its reach).
    pub census: bool,
}

impl Plan {
    /// A plan for `shapes`; refuses sizes whose patterns cannot be counted in 64 bits.
    pub fn new(rule: Rule, shapes: Vec<Shape>, shard: Shard) -> Result<Plan> {
        if let Some(big) = shapes.iter().find(|s| s.cells() > 63) {
            return Err(Error::Usage(format!(
                "size {big} has {} cells; exhaustive verification handles at most 63 (2^63 patterns)",
                big.cells()
            )));
        }
        Ok(Plan { rule, shapes, shard, census: false })
    }

    /// A census plan: the claimed values of every pattern, nothing cross-checked. Standard rule.
    pub fn census(shapes: Vec<Shape>, shard: Shard) -> Result<Plan> {
        if let Some(&bad) = shapes.iter().find(|&&s| !census::supports(s)) {
            return Err(census::unsupported(bad));
        }
        Ok(Plan { census: true, ..Plan::new(Rule::Standard, shapes, shard)? })
    }

    fn prepare(&self, shape: Shape) -> Box<dyn SizeEngine> {
        if self.census {
            Box::new(census::CensusEngine::build(shape))
        } else {
            prepare(shape, self.rule)
        }
    }

    fn estimate_peak_bytes(&self, shape: Shape) -> u64 {
        if self.census {
            census::estimate_peak_bytes(shape)
        } else {
            estimate_peak_bytes(shape, self.rule)
        }
    }

    /// What a checkpoint must match to be resumed by this plan.
    pub fn params(&self) -> RunParams {
        RunParams {
            game: "wall".into(),
            rule: self.rule.name().into(),
            mode: if self.census { "census" } else { "verify" }.into(),
            sizes: self.shapes.iter().map(Shape::to_string).collect(),
            shard: self.shard.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// The patterns of size `index` this shard owns.
    pub fn range(&self, index: usize) -> Range<u64> {
        self.shard.slice(1u64 << self.shapes[index].cells())
    }

    /// Where a fresh run starts.
    fn start_position(&self) -> Position {
        let next_pattern = if self.shapes.is_empty() { 0 } else { self.range(0).start };
        Position { size_index: 0, next_pattern }
    }
}

/// How a run paces itself.
#[derive(Debug, Clone)]
pub struct Options {
    /// Longest time between two checkpoints (besides the one at the end of every size).
    pub checkpoint_every: Duration,
    /// Patterns per block, the unit of checkpointed progress.
    pub block_patterns: u64,
    /// Testing: stop (as if killed) after writing the first checkpoint once this many blocks ran.
    pub stop_after_blocks: Option<u64>,
    /// Testing: sleep this long per block evaluated (makes runs slow enough to kill).
    pub block_delay: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            checkpoint_every: Duration::from_secs(30),
            block_patterns: 1 << 20,
            stop_after_blocks: None,
            block_delay: Duration::ZERO,
        }
    }
}

/// Progress reports of a run (the CLI draws bars; tests ignore them).
pub trait Progress: Sync {
    /// The engine of `shape` is being built (may take seconds).
    fn preparing(&self, _shape: Shape) {}
    /// `shape` starts with `done` of its `total` patterns already counted (by a resumed run).
    fn size_started(&self, _shape: Shape, _total: u64, _done: u64) {}
    /// `patterns` more patterns were evaluated (called from worker threads).
    fn advanced(&self, _patterns: u64) {}
    /// `shape` is complete.
    fn size_finished(&self, _shape: Shape) {}
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every size is done.
    Finished(RunResults),
    /// Stopped by `stop_after_blocks`; the checkpoint holds the state.
    Stopped,
}

/// Runs `plan` with its checkpoint in `dir`: fresh (refusing a directory that holds an
/// unfinished run) or, with `resume`, from the checkpoint there. The checkpoint is left in
/// place; remove it with [`Checkpoint::remove`] once the final files are written.
pub fn run(dir: &Path, plan: &Plan, options: &Options, resume: bool, progress: &dyn Progress) -> Result<Outcome> {
    let state = initial_state(dir, plan, resume)?;
    remove_stale_temps(dir, &RUN_FILES)?;
    let mut runner =
        Runner { dir, plan, options, progress, state, last_save: Instant::now(), blocks: 0, rate: None };
    while runner.state.position.size_index < plan.shapes.len() {
        if !runner.run_size()? {
            return Ok(Outcome::Stopped);
        }
    }
    Ok(Outcome::Finished(runner.state.results))
}

/// The checkpoint a run starts from: a fresh one, or the one in `dir` when resuming.
fn initial_state(dir: &Path, plan: &Plan, resume: bool) -> Result<Checkpoint> {
    let path = Checkpoint::path(dir);
    match (resume, Checkpoint::load(dir)?) {
        (false, None) => {
            let results = RunResults::new("wall", plan.rule.name());
            Ok(Checkpoint { params: plan.params(), position: plan.start_position(), results })
        }
        (false, Some(_)) => Err(Error::Usage(format!(
            "{} holds an unfinished run ({}): continue it with --resume, or delete that file to start over",
            dir.display(),
            path.display()
        ))),
        (true, None) => Err(Error::Usage(format!("nothing to resume: {} does not exist", path.display()))),
        (true, Some(saved)) => {
            let differences = saved.params.differences(&plan.params());
            if !differences.is_empty() {
                let list = differences.join("; ");
                return Err(Error::Usage(format!("cannot resume {}: parameters differ ({list})", path.display())));
            }
            check_counts(plan, &saved).map_err(|message| Error::malformed(&path, message))?;
            Ok(saved)
        }
    }
}

/// Every size's covered pattern count must be exactly what the position says is done.
fn check_counts(plan: &Plan, saved: &Checkpoint) -> std::result::Result<(), String> {
    let Position { size_index, next_pattern } = saved.position;
    if size_index > plan.shapes.len() {
        return Err(format!("position is size {size_index} of {}", plan.shapes.len()));
    }
    for (index, shape) in plan.shapes.iter().enumerate() {
        let range = plan.range(index);
        let expected = match index.cmp(&size_index) {
            std::cmp::Ordering::Less => range.end - range.start,
            std::cmp::Ordering::Equal if range.contains(&next_pattern) || next_pattern == range.end => {
                next_pattern - range.start
            }
            std::cmp::Ordering::Equal => return Err(format!("next pattern {next_pattern} is outside {range:?}")),
            std::cmp::Ordering::Greater => 0,
        };
        let key = (shape.rows as u32, shape.cols as u32);
        let covered = saved.results.sizes.get(&key).map_or(0, |t| t.covered);
        if covered != expected {
            return Err(format!("{shape} has {covered} patterns covered but {expected} done"));
        }
    }
    Ok(())
}

/// The state of a run in progress.
struct Runner<'a> {
    dir: &'a Path,
    plan: &'a Plan,
    options: &'a Options,
    progress: &'a dyn Progress,
    state: Checkpoint,
    last_save: Instant,
    /// Blocks evaluated by this process.
    blocks: u64,
    /// Patterns per second of the last wave.
    rate: Option<f64>,
}

impl Runner<'_> {
    /// Finishes the current size; false when stopped by `stop_after_blocks`.
    fn run_size(&mut self) -> Result<bool> {
        let index = self.state.position.size_index;
        let (shape, range) = (self.plan.shapes[index], self.plan.range(index));
        self.state.results.size_mut(shape.rows as u32, shape.cols as u32);
        if self.state.position.next_pattern < range.end {
            self.progress.preparing(shape);
            let engine = self.plan.prepare(shape);
            self.progress.size_started(shape, range.end - range.start, self.state.position.next_pattern - range.start);
            while self.state.position.next_pattern < range.end {
                self.run_wave(shape, &*engine, range.end)?;
                if self.stop_reached() {
                    self.save()?;
                    return Ok(false);
                }
            }
        } else {
            self.progress.size_started(shape, range.end - range.start, range.end - range.start);
        }
        let next_index = index + 1;
        let next_pattern = if next_index < self.plan.shapes.len() { self.plan.range(next_index).start } else { 0 };
        self.state.position = Position { size_index: next_index, next_pattern };
        self.save()?;
        self.progress.size_finished(shape);
        Ok(true)
    }

    /// Evaluates the next wave of blocks (up to `end`) in parallel and checkpoints when due.
    fn run_wave(&mut self, shape: Shape, engine: &dyn crate::games::wall::engine::SizeEngine, end: u64) -> Result<()> {
        let start = self.state.position.next_pattern;
        let block = self.options.block_patterns.max(1);
        let blocks = self.wave_blocks(block).min((end - start).div_ceil(block));
        let wave_end = start.saturating_add(blocks.saturating_mul(block)).min(end);
        let clock = Instant::now();
        let part = evaluate_range(shape, self.plan.rule, engine, start..wave_end, &|n| self.progress.advanced(n));
        self.rate = Some((wave_end - start) as f64 / clock.elapsed().as_secs_f64().max(1e-6));
        self.state.results.merge(&part);
        self.state.position.next_pattern = wave_end;
        self.blocks += blocks;
        std::thread::sleep(self.options.block_delay * blocks as u32);
        if self.last_save.elapsed() >= self.options.checkpoint_every {
            self.save()?;
        }
        Ok(())
    }

    /// Blocks in the next wave: about a quarter of the checkpoint interval (at most 5 s) at the
    /// last wave's rate, at least one, and never past `stop_after_blocks`.
    fn wave_blocks(&self, block: u64) -> u64 {
        let target = (self.options.checkpoint_every / 4).min(Duration::from_secs(5)).as_secs_f64();
        let by_rate = self.rate.map_or(1, |rate| (rate * target / block as f64) as u64).max(1);
        match self.options.stop_after_blocks {
            Some(stop) => by_rate.min(stop.saturating_sub(self.blocks).max(1)),
            None => by_rate,
        }
    }

    fn stop_reached(&self) -> bool {
        self.options.stop_after_blocks.is_some_and(|stop| self.blocks >= stop)
    }

    fn save(&mut self) -> Result<()> {
        self.state.save(self.dir)?;
        self.last_save = Instant::now();
        Ok(())
    }
}

/// Refuses a plan whose largest size needs more memory than `limit` (default: what the
/// system reports available; no check when unknown).
pub fn check_memory(plan: &Plan, limit: Option<u64>) -> Result<()> {
    let Some(available) = limit.or_else(sys::available_memory_bytes) else {
        return Ok(());
    };
    let largest = plan.shapes.iter().map(|&s| (plan.estimate_peak_bytes(s), s)).max();
    match largest {
        Some((needed, shape)) if needed > available => Err(Error::Usage(format!(
            "size {shape} needs an estimated {} of memory but only {} is available; \
             run smaller sizes or on a bigger machine",
            sys::format_bytes(needed),
            sys::format_bytes(available)
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(shard: Shard) -> Plan {
        let shapes = vec![Shape::new(1, 1), Shape::new(2, 3), Shape::new(3, 3)];
        Plan::new(Rule::Standard, shapes, shard).unwrap()
    }

    fn small_blocks(stop: Option<u64>) -> Options {
        Options { checkpoint_every: Duration::ZERO, block_patterns: 7, stop_after_blocks: stop, ..Options::default() }
    }

    fn finished(outcome: Outcome) -> RunResults {
        match outcome {
            Outcome::Finished(results) => results,
            Outcome::Stopped => panic!("run stopped"),
        }
    }

    #[test]
    fn stopped_and_resumed_runs_equal_one_run() {
        let dir = tempfile::tempdir().unwrap();
        let whole = finished(run(dir.path(), &plan(Shard::ALL), &Options::default(), false, &Silent).unwrap());
        Checkpoint::remove(dir.path()).unwrap();
        assert_eq!(whole.sizes[&(3, 3)].patterns, 512);
        let mut resume = false;
        loop {
            match run(dir.path(), &plan(Shard::ALL), &small_blocks(Some(5)), resume, &Silent).unwrap() {
                Outcome::Stopped => resume = true,
                Outcome::Finished(results) => {
                    assert_eq!(results, whole);
                    break;
                }
            }
        }
    }

    #[test]
    fn shards_add_up() {
        let dir = tempfile::tempdir().unwrap();
        let whole = finished(run(dir.path(), &plan(Shard::ALL), &small_blocks(None), false, &Silent).unwrap());
        let mut merged = RunResults::new("wall", "standard");
        for index in 1..=3 {
            let sub = dir.path().join(index.to_string());
            let shard = Shard { index, count: 3 };
            merged.merge(&finished(run(&sub, &plan(shard), &small_blocks(None), false, &Silent).unwrap()));
        }
        assert_eq!(merged, whole);
    }

    #[test]
    fn refuses_bad_starts() {
        let dir = tempfile::tempdir().unwrap();
        let err = run(dir.path(), &plan(Shard::ALL), &small_blocks(None), true, &Silent).unwrap_err();
        assert!(err.to_string().starts_with("nothing to resume"), "{err}");
        let stopped = run(dir.path(), &plan(Shard::ALL), &small_blocks(Some(1)), false, &Silent).unwrap();
        assert!(matches!(stopped, Outcome::Stopped));
        let err = run(dir.path(), &plan(Shard::ALL), &small_blocks(None), false, &Silent).unwrap_err();
        assert!(err.to_string().contains("continue it with --resume"), "{err}");
        let other = Shard { index: 1, count: 2 };
        let err = run(dir.path(), &plan(other), &small_blocks(None), true, &Silent).unwrap_err();
        assert!(err.to_string().contains("shard: checkpoint has 1/1, this run has 1/2"), "{err}");
    }

    #[test]
    fn refuses_tampered_counts() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), &plan(Shard::ALL), &small_blocks(Some(3)), false, &Silent).unwrap();
        let mut saved = Checkpoint::load(dir.path()).unwrap().unwrap();
        saved.position.next_pattern += 7;
        saved.save(dir.path()).unwrap();
        let err = run(dir.path(), &plan(Shard::ALL), &small_blocks(None), true, &Silent).unwrap_err();
        assert!(err.to_string().contains("patterns covered but"), "{err}");
    }

    #[test]
    fn memory_check_names_size() {
        let p = plan(Shard::ALL);
        assert!(check_memory(&p, Some(u64::MAX)).is_ok());
        let err = check_memory(&p, Some(1)).unwrap_err().to_string();
        assert!(err.starts_with("size ") && err.contains("only 1 B is available"), "{err}");
        assert!(Plan::new(Rule::Standard, vec![Shape::new(8, 8)], Shard::ALL).is_err());
    }
}
