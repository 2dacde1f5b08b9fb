//! A contest side whose own options (a game program's, a problem's) go into the manifest under
//! one key of the stress parameters, the stress and slowest runs delegated to the contest.

use super::StressSide;
use crate::error::Result;
use crate::stress::{self, CommandLine, Generator, SlowestSummary, Source, StressConfig, StressSummary};
use serde_json::Value;

/// Larger inputs than a case, checked `jobs` at a time, for `--slowest` to climb to.
pub type Larger<G> = fn(&G, &<G as stress::Contest>::Case, usize) -> Vec<<G as stress::Contest>::Case>;

/// `contest` with `options` recorded under `key` of [`StressConfig::parameters`].
pub struct Recorded<G: Generator> {
    contest: G,
    key: &'static str,
    options: Value,
    larger: Option<Larger<G>>,
}

impl<G: Generator> Recorded<G> {
    /// `contest` recording `options` under `key`; `--slowest` keeps to generated inputs.
    pub fn new(contest: G, key: &'static str, options: Value) -> Self {
        Recorded { contest, key, options, larger: None }
    }

    /// The same, `--slowest` climbing from slow inputs to the `larger` ones.
    pub fn growing(self, larger: Larger<G>) -> Self {
        Recorded { larger: Some(larger), ..self }
    }

    /// `config` with the options recorded.
    fn recording(&self, config: &StressConfig) -> StressConfig {
        let mut config = config.clone();
        config.parameters.insert(self.key.to_string(), self.options.clone());
        config
    }
}

impl<G: Generator> StressSide for Recorded<G> {
    fn stress(&self, command: &CommandLine, config: &StressConfig, progress: &dyn Fn(&stress::Progress)) -> Result<StressSummary> {
        stress::stress(&self.contest, command, &self.recording(config), progress)
    }

    fn answers_moves(&self) -> bool {
        StressSide::answers_moves(&self.contest)
    }

    fn samples(&self, source: Source, seed: u64, count: usize) -> Vec<(Vec<u8>, String)> {
        StressSide::samples(&self.contest, source, seed, count)
    }

    fn slowest(&self, command: &CommandLine, config: &StressConfig, count: (usize, bool), progress: &dyn Fn(&stress::Progress)) -> Result<SlowestSummary> {
        let jobs = config.jobs;
        let grow = self.larger.map(|larger| move |case: &G::Case| larger(&self.contest, case, jobs));
        let grow = grow.as_ref().map(|grow| grow as stress::slowest::Grow<'_, G::Case>);
        stress::slowest(&self.contest, command, &self.recording(config), count, grow, progress)
    }
}
