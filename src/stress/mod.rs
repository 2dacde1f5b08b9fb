//! Stress-testing someone's contest program: run it on generated inputs, judge it against the
//! trusted solver, shrink what fails and save it. Names no game: games plug in through
//! [`Contest`] and [`Generator`].

pub mod answer;
pub mod command;
pub mod contest;
pub mod cpu;
pub mod failures;
pub mod moves;
pub mod numbers;
pub mod order;
pub mod outcome;
mod pipes;
pub mod pool;
pub mod problem;
pub mod process;
pub mod run;
pub mod shell;
pub mod shrink;
pub mod slow_files;
pub mod slowest;
pub mod smallest;
pub mod start;
pub mod tally;
pub mod test_folder;

pub use command::CommandLine;
pub use contest::{Cases, Contest, Generator, Parts, Source, ADVERSARIAL_AFTER};
pub use failures::{FailureFiles, FailureLog, FailureRow};
pub use outcome::{classify, FailureKind, Fault, Verdict};
pub use pool::{judge, Found, Judged, Plan, Pool, Progress, StreamReport};
pub use process::{Exit, Limits, RunOutput, Runner};
pub use run::{stress, StressConfig, StressSummary, MANIFEST};
pub use shrink::{shrink, ShrinkLimits, Shrunk};
pub use slow_files::{slowest, SlowRow, SlowestSummary};
pub use tally::GeneratorTally;
