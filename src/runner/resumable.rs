//! Running a verification: its jobs in order, each shard range in parallel waves, checkpointed and resumable.

use super::checkpoint::{Checkpoint, Position, RunParams};
use super::parallel::evaluate_range;
use super::progress::Progress;
use super::shard::Shard;
use super::tally::RunResults;
use super::verification::{check_totals, Evaluate, Job, Verification};
use crate::error::{Error, Result};
use crate::output::atomic::remove_stale_temps;
use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

/// A verification with its jobs listed, restricted to one shard.
pub struct Plan<'a> {
    pub verification: &'a dyn Verification,
    pub jobs: Vec<Job>,
    pub shard: Shard,
    /// Where each job's positions start among every job's laid end to end, and (last) how many
    /// there are in all: what [`Plan::range`] slices.
    starts: Vec<u128>,
}

impl<'a> Plan<'a> {
    /// The jobs of `verification`, each chunked to about [`super::cost::CHUNK_SECONDS`] of work
    /// when the game knows its rate (so that progress moves several times a second).
    pub fn new(verification: &'a dyn Verification, shard: Shard) -> Result<Plan<'a>> {
        let mut jobs = verification.jobs()?;
        for (index, job) in jobs.iter_mut().enumerate() {
            job.chunk = super::cost::chunk_for(verification.seconds_per_position(index), job.chunk);
        }
        let mut starts = vec![0u128];
        for job in &jobs {
            starts.push(starts[starts.len() - 1] + u128::from(job.total));
        }
        Ok(Plan { jobs, verification, shard, starts })
    }

    /// What a checkpoint must match to be resumed by this plan.
    pub fn params(&self) -> RunParams {
        RunParams {
            game: self.verification.game().into(),
            rule: self.verification.rule(),
            mode: self.verification.mode().into(),
            sizes: self.jobs.iter().map(|j| j.label.clone()).collect(),
            shard: self.shard.to_string(),
            version: env!("CARGO_PKG_VERSION").into(),
            identity: self.verification.identity(),
        }
    }

    /// The positions of job `index` this shard owns: its part of the shard's slice of every
    /// job's positions laid end to end ([`Shard::part`]).
    pub fn range(&self, index: usize) -> Range<u64> {
        let all = self.starts.last().copied().unwrap_or(0);
        self.shard.part(all, self.starts[index], self.jobs[index].total)
    }

    /// [`check_totals`] of the first `finished` jobs, for an unsharded plan (a shard's share of
    /// a symmetry-reduced job is only known once all shards are merged).
    pub fn check_totals(&self, results: &RunResults, finished: usize) -> std::result::Result<(), String> {
        if self.shard == Shard::ALL {
            check_totals(&self.jobs, finished, results)
        } else {
            Ok(())
        }
    }

    /// The same check on the final results of this process's own run: a failure is a bug.
    fn check_final(&self, results: &RunResults) -> Result<()> {
        self.check_totals(results, self.jobs.len()).map_err(|message| {
            Error::Usage(format!("internal check failed after the run ({message}); no files were written, please report it"))
        })
    }

    /// Results of this run's game and rule with no sizes at all (cheap, whatever the size count).
    fn blank_results(&self) -> RunResults {
        RunResults::new(self.verification.game(), self.verification.rule()).with_columns(self.verification.columns())
    }

    /// Results with nothing counted yet but every job's sizes present.
    fn empty_results(&self) -> RunResults {
        let mut results = self.blank_results();
        for &(rows, cols) in self.jobs.iter().flat_map(|j| &j.sizes) {
            results.size_mut(rows, cols);
        }
        results
    }

    /// Where a fresh run starts.
    fn start(&self) -> Checkpoint {
        let next = if self.jobs.is_empty() { 0 } else { self.range(0).start };
        let position = Position { job: 0, next };
        Checkpoint { params: self.params(), position, covered: vec![0; self.jobs.len()], results: self.empty_results(), seconds: 0.0 }
    }
}

/// Evaluates every job of `plan` in this process, without a checkpoint (recomputations, tests).
pub fn run_in_memory(plan: &Plan, progress: &dyn Progress) -> Result<RunResults> {
    let mut results = plan.empty_results();
    for index in 0..plan.jobs.len() {
        results.merge(&evaluate_job(plan, index, &plan.blank_results(), progress)?);
    }
    plan.check_final(&results)?;
    Ok(results)
}

/// Evaluates job `index` of `plan` (this shard's range) in this process: the results of its
/// positions, with every size of the plan present (`check` recomputes a run job by job).
pub fn run_job_in_memory(plan: &Plan, index: usize, progress: &dyn Progress) -> Result<RunResults> {
    evaluate_job(plan, index, &plan.empty_results(), progress)
}

/// Job `index` of `plan` (this shard's range) counted into a copy of `empty`.
fn evaluate_job(plan: &Plan, index: usize, empty: &RunResults, progress: &dyn Progress) -> Result<RunResults> {
    let job = &plan.jobs[index];
    let range = plan.range(index);
    progress.start(&job.label, Some(range.end - range.start), 0);
    let evaluator = plan.verification.prepare(index)?;
    let results = evaluate_range(&*evaluator, empty, range, job.chunk, progress)?;
    progress.finish();
    Ok(results)
}

/// How a run paces itself.
#[derive(Debug, Clone)]
pub struct Options {
    /// Longest time between two checkpoints (besides the one at the end of every job).
    pub checkpoint_every: Duration,
    /// Positions per block, the unit of checkpointed progress (at least one chunk).
    pub block_positions: u64,
    /// Testing: stop (as if killed) after writing the first checkpoint once this many blocks ran.
    pub stop_after_blocks: Option<u64>,
    /// Testing: sleep this long per block evaluated (makes runs slow enough to kill).
    pub block_delay: Duration,
    /// Checkpoint at the end of every job; false: only every `checkpoint_every` (runs of many
    /// jobs of a millisecond each, which would otherwise spend their time writing checkpoints).
    pub save_every_job: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            checkpoint_every: Duration::from_secs(30),
            block_positions: 1 << 20,
            stop_after_blocks: None,
            block_delay: Duration::ZERO,
            save_every_job: true,
        }
    }
}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every job is done; the wall seconds the earlier sittings spent (0 for a fresh run).
    Finished(RunResults, f64),
    /// Stopped by `stop_after_blocks`; the checkpoint holds the state.
    Stopped,
}

/// Runs `plan` with its checkpoint in `dir`: fresh (refusing a directory that holds an
/// unfinished run) or, with `resume`, from the checkpoint there. The checkpoint is left in
/// place; remove it with [`Checkpoint::remove`] once the final files are written.
pub fn run(dir: &Path, plan: &Plan, options: &Options, resume: bool, progress: &dyn Progress) -> Result<Outcome> {
    let state = initial_state(dir, plan, resume)?;
    remove_stale_temps(dir)?;
    let (earlier, sitting) = (state.seconds, Instant::now());
    let mut runner = Runner { dir, plan, options, progress, state, earlier, sitting, last_save: sitting, blocks: 0, rate: None };
    while runner.state.position.job < plan.jobs.len() {
        if !runner.run_job()? {
            return Ok(Outcome::Stopped);
        }
    }
    plan.check_final(&runner.state.results)?;
    Ok(Outcome::Finished(runner.state.results, earlier))
}

/// Refuses a run that is not `resume`d into `dir` while it holds a checkpoint (an unfinished
/// run), and one resumed where there is none; checks nothing in the checkpoint (creating
/// nothing, before any work as under the lock).
pub fn refuse_unresumed(dir: &Path, resume: bool) -> Result<()> {
    let path = Checkpoint::path(dir);
    match (resume, path.symlink_metadata().is_ok()) {
        (false, true) => Err(Error::Usage(format!(
            "{} holds an unfinished run ({}): continue it with --resume, or delete that file to start over",
            dir.display(),
            path.display()
        ))),
        (true, false) => Err(Error::Usage(format!("nothing to resume: {} does not exist", path.display()))),
        _ => Ok(()),
    }
}

/// The checkpoint a run starts from: a fresh one, or the one in `dir` when resuming.
fn initial_state(dir: &Path, plan: &Plan, resume: bool) -> Result<Checkpoint> {
    let path = Checkpoint::path(dir);
    refuse_unresumed(dir, resume)?;
    match (resume, Checkpoint::load(dir)?) {
        (false, _) => Ok(plan.start()),
        (true, None) => Err(Error::Usage(format!("nothing to resume: {} does not exist", path.display()))),
        (true, Some(saved)) => {
            let differences = saved.params.differences(&plan.params());
            if !differences.is_empty() {
                let list = differences.join("; ");
                return Err(Error::Usage(format!(
                    "cannot resume {}: parameters differ ({list}); resume with the options and environment of the run that wrote it, or choose another --out",
                    path.display()
                )));
            }
            check_coverage(plan, &saved).map_err(|message| Error::malformed(&path, message))?;
            plan.check_totals(&saved.results, saved.position.job).map_err(|message| Error::malformed(&path, message))?;
            let columns = plan.verification.columns();
            let unfit = saved.results.mismatches.iter().find_map(|row| columns.check_answer(row).err().map(|why| (row, why)));
            if let Some((row, why)) = unfit {
                let message = format!("mismatch at {} {}: {why} (written by another sprague version?); delete it to start the run over", columns.position, row.board);
                return Err(Error::malformed(&path, message));
            }
            Ok(Checkpoint { results: saved.results.with_columns(columns), ..saved })
        }
    }
}

/// Every job's covered count must be exactly what the position says is done.
fn check_coverage(plan: &Plan, saved: &Checkpoint) -> std::result::Result<(), String> {
    let Position { job, next } = saved.position;
    if job > plan.jobs.len() || saved.covered.len() != plan.jobs.len() {
        return Err(format!("position is job {job} of {} with {} coverage counts", plan.jobs.len(), saved.covered.len()));
    }
    for (index, (spec, &covered)) in plan.jobs.iter().zip(&saved.covered).enumerate() {
        let range = plan.range(index);
        let expected = match index.cmp(&job) {
            std::cmp::Ordering::Less => range.end - range.start,
            std::cmp::Ordering::Equal if range.contains(&next) || next == range.end => next - range.start,
            std::cmp::Ordering::Equal => return Err(format!("next position {next} is outside {range:?}")),
            std::cmp::Ordering::Greater => 0,
        };
        if covered != expected {
            return Err(format!("{} has {covered} positions covered but {expected} done", spec.label));
        }
    }
    Ok(())
}

/// The state of a run in progress.
struct Runner<'a> {
    dir: &'a Path,
    plan: &'a Plan<'a>,
    options: &'a Options,
    progress: &'a dyn Progress,
    state: Checkpoint,
    /// Wall seconds of the earlier sittings (from the checkpoint resumed).
    earlier: f64,
    /// When this process started running.
    sitting: Instant,
    last_save: Instant,
    /// Blocks evaluated by this process.
    blocks: u64,
    /// Positions per second of the last wave.
    rate: Option<f64>,
}

impl Runner<'_> {
    /// Finishes the current job; false when stopped by `stop_after_blocks`.
    fn run_job(&mut self) -> Result<bool> {
        let index = self.state.position.job;
        let (job, range) = (&self.plan.jobs[index], self.plan.range(index));
        if self.state.position.next < range.end {
            self.progress.start(&format!("{}: preparing", job.label), None, 0);
            let evaluator = self.plan.verification.prepare(index)?;
            self.progress.start(&job.label, Some(range.end - range.start), self.state.position.next - range.start);
            while self.state.position.next < range.end {
                self.run_wave(&*evaluator, range.end)?;
                if self.stop_reached() {
                    self.save()?;
                    return Ok(false);
                }
            }
        }
        let next_job = index + 1;
        let next = if next_job < self.plan.jobs.len() { self.plan.range(next_job).start } else { 0 };
        self.state.position = Position { job: next_job, next };
        if self.options.save_every_job || self.last_save.elapsed() >= self.options.checkpoint_every {
            self.save()?;
        }
        self.progress.finish();
        Ok(true)
    }

    /// Evaluates the next wave of blocks (up to `end`) in parallel and checkpoints when due.
    fn run_wave(&mut self, evaluator: &dyn Evaluate, end: u64) -> Result<()> {
        let index = self.state.position.job;
        let start = self.state.position.next;
        let block = self.options.block_positions.max(1);
        let blocks = self.wave_blocks(block).min((end - start).div_ceil(block));
        let wave_end = start.saturating_add(blocks.saturating_mul(block)).min(end);
        let clock = Instant::now();
        // The state already has every size: a wave's part only needs the sizes it counts.
        let part = evaluate_range(evaluator, &self.plan.blank_results(), start..wave_end, self.plan.jobs[index].chunk, self.progress)?;
        self.rate = Some((wave_end - start) as f64 / clock.elapsed().as_secs_f64().max(1e-6));
        self.state.results.merge(&part);
        self.state.covered[index] += wave_end - start;
        self.state.position.next = wave_end;
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
        self.state.seconds = self.earlier + self.sitting.elapsed().as_secs_f64();
        self.state.save(self.dir)?;
        self.last_save = Instant::now();
        Ok(())
    }
}
