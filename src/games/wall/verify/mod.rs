//! Verification of the wall game's decomposition claim on every X-pattern of each board shape (and the census).

pub mod cost;
pub mod engine;
pub mod shrink;
pub mod transposes;

use crate::games::wall::census::{self, gpu, CensusEngine};
use shrink::{write_counterexamples, COUNTEREXAMPLES};
use crate::games::wall::board::{dims::verifiable, rules::Rule, Shape};
use crate::error::{Error, Result};
use crate::runner::{run_in_memory, Evaluate, Job, Plan, RunResults, Shard, Silent, Verification};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Patterns per parallel chunk (verify), positions per chunk (census: whole middle patterns).
const CHUNK: u64 = 1 << 16;
const CENSUS_CHUNK: u64 = 1 << 24;

/// A wall verification: every X-pattern of each shape, claim vs naive oracle under `rule`, or
/// (census) the claim alone.
#[derive(Debug, Clone)]
pub struct WallRun {
    pub shapes: Vec<Shape>,
    pub rule: Rule,
    /// Claim only, nothing cross-checked (sizes beyond the oracle's reach).
    pub census: bool,
    /// Shrink every counterexample and write counterexamples.csv.
    pub shrink: bool,
    /// The `sizes` manifest parameter: `max HxW` or the one size.
    pub sizes_label: String,
    /// Where a census counts (not recorded: both give the same files).
    pub engine: Engine,
    /// The GPU engine's measurements, for the manifest's notes.
    pub gpu_timings: gpu::device::Timings,
}

/// The census's engine: the CPU's lanes, or the GPU kernel (`census::gpu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Cpu,
    Gpu,
}

/// Wall seconds per board of the GPU engine (one GPU, whatever the host's threads), for the
/// up-front estimate and the launches' size: a guess, 7× the
/// throw-away program's measured 7×7 rate (2^49 boards in 6.5 min on one H100) until
/// scripts/gpu-census.sh has timed this kernel.
const GPU_SECONDS_PER_BOARD: f64 = 5e-12;

impl WallRun {
    /// Claim vs oracle on `shapes`; refuses sizes whose patterns cannot be counted in 64 bits.
    pub fn verify(shapes: Vec<Shape>, rule: Rule, sizes_label: impl Into<String>) -> Result<WallRun> {
        for &shape in &shapes {
            verifiable(shape).map_err(Error::Usage)?;
        }
        Ok(WallRun { shapes, rule, census: false, shrink: false, sizes_label: sizes_label.into(), engine: Engine::Cpu, gpu_timings: Default::default() })
    }

    /// The claimed values of every pattern of `shapes`, nothing cross-checked. Standard rule.
    pub fn census(shapes: Vec<Shape>, sizes_label: impl Into<String>) -> Result<WallRun> {
        WallRun::census_on(shapes, sizes_label, Engine::Cpu)
    }

    /// The census on `engine`, which must take every shape.
    pub fn census_on(shapes: Vec<Shape>, sizes_label: impl Into<String>, engine: Engine) -> Result<WallRun> {
        let supports = match engine {
            Engine::Cpu => census::supports,
            Engine::Gpu => gpu::supports,
        };
        if let Some(&bad) = shapes.iter().find(|&&s| !supports(s)) {
            return Err(if engine == Engine::Gpu { gpu::unsupported(bad) } else { census::unsupported(bad) });
        }
        Ok(WallRun { census: true, engine, ..WallRun::verify(shapes, Rule::Standard, sizes_label)? })
    }

    fn on_gpu(&self) -> bool {
        self.census && self.engine == Engine::Gpu
    }
}

impl Verification for WallRun {
    fn game(&self) -> &str {
        "wall"
    }

    fn columns(&self) -> crate::output::records::Columns {
        crate::output::records::Columns::BOARD
    }

    fn rule(&self) -> String {
        self.rule.name().to_string()
    }

    fn mode(&self) -> &'static str {
        if self.census {
            "census"
        } else {
            "verify"
        }
    }

    fn job_noun(&self) -> &'static str {
        "size"
    }

    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(self
            .shapes
            .iter()
            .map(|s| {
                // The GPU: one launch per chunk, of about CHUNK_SECONDS at its rate (Plan::new).
                let chunk = if self.on_gpu() { 1 << 62 } else if self.census { CENSUS_CHUNK.max(1 << (2 * s.cols)) } else { CHUNK };
                Job::new(s.to_string(), vec![(s.rows as u32, s.cols as u32)], 1u64 << s.cells(), chunk).one_pattern_each()
            })
            .collect())
    }

    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let shape = self.shapes[index];
        if self.on_gpu() && shape.rows >= 2 {
            let device = gpu::device::probe().map_err(|why| Error::Usage(format!("GPU census: {why}")))?;
            return Ok(Box::new(gpu::device::GpuCensus::build(&device, shape, &self.gpu_timings)?));
        }
        Ok(if self.census { Box::new(CensusEngine::build(shape)) } else { engine::prepare(shape, self.rule) })
    }

    fn seconds_per_position(&self, index: usize) -> Option<f64> {
        let shape = self.shapes[index];
        if self.on_gpu() {
            return Some(GPU_SECONDS_PER_BOARD);
        }
        Some(if self.census { cost::census_seconds_per_pattern(shape) } else { engine::seconds_per_pattern(shape, self.rule) })
    }

    fn uses_host_threads(&self, _index: usize) -> bool {
        !self.on_gpu()
    }

    fn device(&self) -> Option<String> {
        self.on_gpu().then(|| "gpu".to_string())
    }

    /// The tables are shared by the threads: the same whatever their number.
    fn peak_bytes(&self, index: usize, _threads: usize) -> u64 {
        let shape = self.shapes[index];
        if self.on_gpu() {
            // The tables live on the GPU (checked against its free memory when built).
            crate::runner::verification::BASE_PEAK_BYTES
        } else if self.census {
            census::estimate_peak_bytes(shape)
        } else {
            engine::estimate_peak_bytes(shape, self.rule)
        }
    }

    fn parameters(&self) -> BTreeMap<String, Value> {
        let mut parameters = BTreeMap::from([("sizes".to_string(), Value::from(self.sizes_label.as_str()))]);
        if !self.census {
            parameters.insert("shrink".into(), self.shrink.into());
        }
        parameters
    }

    /// A verification's coverage depends on its engine settings ([`engine::Settings`]).
    fn identity(&self) -> BTreeMap<String, Value> {
        if self.census {
            return BTreeMap::new();
        }
        engine::Settings::from_env().identity()
    }

    fn notes(&self, _: &RunResults) -> Vec<String> {
        if !self.census {
            return Vec::new();
        }
        let mut notes = vec!["census: rectangle-DP values only; nothing was cross-checked against the naive oracle, \
              so the mismatches column is 0 by construction"
            .to_string()];
        if self.on_gpu() {
            notes.push("census: counted by the GPU engine (census/gpu, NVRTC)".to_string());
            notes.extend(self.gpu_timings.lines());
        }
        notes
    }

    fn write_extra(&self, dir: &Path, results: &RunResults) -> Result<Vec<&'static str>> {
        if !self.shrink {
            return Ok(Vec::new());
        }
        write_counterexamples(dir, results)?;
        Ok(vec![COUNTEREXAMPLES])
    }
}

/// Evaluates every X-pattern of `shape` (in `shard`) with the claimed engine and the naive
/// oracle, in parallel on the current rayon pool, in this process.
pub fn verify_shape(shape: Shape, rule: Rule, shard: Shard) -> Result<RunResults> {
    run_in_memory(&Plan::new(&WallRun::verify(vec![shape], rule, shape.to_string())?, shard)?, &Silent)
}

/// The census of one shape (in `shard`) in this process.
pub fn census_in_memory(shape: Shape, shard: Shard) -> Result<RunResults> {
    run_in_memory(&Plan::new(&WallRun::census(vec![shape], shape.to_string())?, shard)?, &Silent)
}

/// Recomputes one size of a committed wall result (for `check`): every pattern, same rule.
pub fn recompute_size(rule: &str, rows: u32, cols: u32) -> Result<RunResults> {
    let rule: Rule = rule.parse().map_err(Error::Usage)?;
    verify_shape(Shape::new(rows as usize, cols as usize), rule, Shard::ALL)
}

/// Recomputes one size of a committed census, or one shard of it (for `check`).
pub fn recompute_census(rule: &str, rows: u32, cols: u32, shard: Shard) -> Result<RunResults> {
    if rule != Rule::Standard.name() {
        return Err(Error::Usage(format!("census handles the standard rule only, not {rule}")));
    }
    census_in_memory(Shape::new(rows as usize, cols as usize), shard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recompute_size_takes_rule_names() {
        let fresh = recompute_size("standard", 2, 3).unwrap();
        assert_eq!(fresh.sizes[&(2, 3)].patterns, 64);
        assert!(recompute_size("chess", 2, 3).is_err());
        assert!(WallRun::verify(vec![Shape::new(8, 8)], Rule::Standard, "8x8").is_err());
    }

    #[test]
    fn the_gpu_estimate_is_one_device_whatever_the_host_threads() {
        use crate::runner::cost;
        let gpu = |size: Shape, shard: &str| {
            let run = WallRun::census_on(vec![size], size.to_string(), Engine::Gpu).unwrap();
            let plan = Plan::new(&run, shard.parse().unwrap()).unwrap();
            (1..=256).step_by(85).map(|threads| cost::check(&plan, Some(u64::MAX), false, threads).map_err(|e| e.to_string())).collect::<Vec<_>>()
        };
        // 7×7: 2^49 boards, within a day on one GPU on any host.
        assert!(gpu(Shape::new(7, 7), "1/1").iter().all(|e| e.as_ref().is_ok_and(|e| e.seconds == Some(GPU_SECONDS_PER_BOARD * 2f64.powi(49)))));
        // 7×8: 2^56 boards, refused however many host threads; a shard of 1024 is not.
        for refused in gpu(Shape::new(7, 8), "1/1") {
            let why = refused.unwrap_err();
            assert!(why.starts_with("this run would take an estimated") && why.contains("days on one device; run smaller sizes"), "{why}");
        }
        assert!(gpu(Shape::new(7, 8), "1/1024").iter().all(Result::is_ok));
        // The CPU census's estimate divides among threads; only the GPU's manifest names a device.
        let cpu = WallRun::census(vec![Shape::new(6, 7)], "6x7").unwrap();
        assert_eq!((cpu.device(), WallRun::census_on(vec![Shape::new(6, 7)], "6x7", Engine::Gpu).unwrap().device()), (None, Some("gpu".into())));
        let plan = Plan::new(&cpu, Shard::ALL).unwrap();
        let (one, two) = (cost::estimate(&plan, 1).seconds.unwrap(), cost::estimate(&plan, 2).seconds.unwrap());
        assert!((one / two - 2.0).abs() < 1e-9, "{one} {two}");
    }

    #[test]
    fn recompute_counts_every_pattern_and_refuses_other_rules() {
        let recomputed = recompute_census("standard", 3, 3, Shard::ALL).unwrap();
        let verified = engine::tests::run(&*engine::prepare(Shape::new(3, 3), Rule::Standard), Rule::Standard, 0..1 << 9);
        assert_eq!(recomputed.summary_rows(), verified.summary_rows());
        assert_eq!(recomputed.distribution_rows(), verified.distribution_rows());
        let mut halves = recompute_census("standard", 3, 3, Shard { index: 1, count: 2 }).unwrap();
        halves.merge(&recompute_census("standard", 3, 3, Shard { index: 2, count: 2 }).unwrap());
        assert_eq!(halves.distribution_rows(), verified.distribution_rows());
        assert!(recompute_census("misere", 3, 3, Shard::ALL).unwrap_err().to_string().contains("standard rule only, not misere"));
    }
}
