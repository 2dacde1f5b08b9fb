//! Runner tests on a toy verification: resume, shards, refusals, memory.

use super::checkpoint::Checkpoint;
use super::progress::Silent;
use super::cost;
use super::resumable::{run, run_in_memory, Options, Outcome, Plan};
use super::shard::Shard;
use super::tally::{Disagreement, RunResults};
use super::verification::{Evaluate, Job, Verification};
use crate::error::Result;
use std::ops::Range;
use std::time::Duration;

/// Positions 0..n of three jobs; a position's value is i mod 3, and the "claim" fails on
/// multiples of 17.
struct Toy;

impl Verification for Toy {
    fn game(&self) -> &str {
        "toy"
    }
    fn columns(&self) -> crate::output::records::Columns {
        crate::output::records::Columns::BOARD
    }
    fn rule(&self) -> String {
        "standard".into()
    }
    fn jobs(&self) -> Result<Vec<Job>> {
        Ok(vec![Job::new("a", vec![(1, 1)], 1, 1), Job::new("b", vec![(2, 3)], 64, 4), Job::new("c", vec![(3, 3)], 512, 16)])
    }
    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        let size = [(1, 1), (2, 3), (3, 3)][index];
        Ok(Box::new(move |range: Range<u64>, results: &mut RunResults| {
            for i in range {
                let failed = (i % 17 == 0).then(|| Disagreement {
                    position: format!("{index}:{i}"),
                    claimed: 1,
                    naive_value: Some(0),
                    naive_outcome: "Second",
                    answer: None,
                });
                results.check(size, ((i % 5) as u32, (i % 3) as u32), failed);
            }
        }))
    }
    fn peak_bytes(&self, index: usize, _threads: usize) -> u64 {
        1000 * (index as u64 + 1)
    }
    fn seconds_per_position(&self, index: usize) -> Option<f64> {
        // Job c is slow: 512 positions of 200 s, 28 hours on one thread.
        Some([1e-6, 1e-6, 200.0][index])
    }
}

fn plan(shard: Shard) -> Plan<'static> {
    Plan::new(&Toy, shard).unwrap()
}

fn small_blocks(stop: Option<u64>) -> Options {
    Options { checkpoint_every: Duration::ZERO, block_positions: 7, stop_after_blocks: stop, ..Options::default() }
}

fn finished(outcome: Outcome) -> RunResults {
    match outcome {
        Outcome::Finished(results, _) => results,
        Outcome::Stopped => panic!("run stopped"),
    }
}

#[test]
fn stopped_and_resumed_runs_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = finished(run(dir.path(), &plan(Shard::ALL), &Options::default(), false, &Silent).unwrap());
    Checkpoint::remove(dir.path()).unwrap();
    assert_eq!(whole.sizes[&(3, 3)].patterns, 512);
    assert_eq!(whole.mismatches.len(), 1 + 4 + 31);
    assert_eq!(whole, run_in_memory(&plan(Shard::ALL), &Silent).unwrap());
    let mut resume = false;
    loop {
        match run(dir.path(), &plan(Shard::ALL), &small_blocks(Some(5)), resume, &Silent).unwrap() {
            Outcome::Stopped => resume = true,
            Outcome::Finished(results, _) => {
                assert_eq!(results.summary_rows(), whole.summary_rows());
                assert_eq!(results.distribution_rows(), whole.distribution_rows());
                assert_eq!(results.mismatch_rows(), whole.mismatch_rows());
                break;
            }
        }
    }
}

#[test]
fn shards_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let whole = finished(run(dir.path(), &plan(Shard::ALL), &small_blocks(None), false, &Silent).unwrap());
    let mut merged = RunResults::new("toy", "standard");
    for index in 1..=3 {
        let sub = dir.path().join(index.to_string());
        let shard = Shard { index, count: 3 };
        merged.merge(&finished(run(&sub, &plan(shard), &small_blocks(None), false, &Silent).unwrap()));
    }
    assert_eq!(merged.summary_rows(), whole.summary_rows());
    assert_eq!(merged.distribution_rows(), whole.distribution_rows());
    assert_eq!(merged.mismatch_rows(), whole.mismatch_rows());
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
fn refuses_tampered_coverage() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), &plan(Shard::ALL), &small_blocks(Some(3)), false, &Silent).unwrap();
    let mut saved = Checkpoint::load(dir.path()).unwrap().unwrap();
    saved.position.next += 7;
    saved.save(dir.path()).unwrap();
    let err = run(dir.path(), &plan(Shard::ALL), &small_blocks(None), true, &Silent).unwrap_err();
    assert!(err.to_string().contains("positions covered but"), "{err}");
}

#[test]
fn memory_check_names_the_job() {
    let p = plan(Shard::ALL);
    assert!(cost::check(&p, Some(u64::MAX), false, 2).is_ok());
    let err = cost::check(&p, Some(2500), false, 2).unwrap_err().to_string();
    assert!(err.starts_with("job c needs an estimated 5.27 KiB") && err.contains("only 2.44 KiB is available"), "{err}");
}

#[test]
fn a_run_of_more_than_a_day_needs_force() {
    let p = plan(Shard::ALL);
    let err = cost::check(&p, Some(u64::MAX), false, 1).unwrap_err().to_string();
    assert!(err.starts_with("this run would take an estimated 28.4 h on 1 thread"), "{err}");
    assert!(cost::check(&p, Some(u64::MAX), true, 1).is_ok());
    assert!(cost::check(&p, Some(u64::MAX), false, 2).is_ok(), "14 hours on two threads");
    assert!(cost::check(&plan("1/2".parse().unwrap()), Some(u64::MAX), false, 1).is_ok(), "half of it");
    // The slow job is chunked one position at a time, so that progress moves.
    assert_eq!(p.jobs.iter().map(|j| j.chunk).collect::<Vec<_>>(), [1, 4, 1]);
}

/// [`Toy`] with no rate per position (nor memory), altered: with `rebuilding`, job c's chunks
/// each rebuild what the positions before them built (a brute force from an empty memo): 0.1 s
/// times its last position squared; with `fail_at`, its evaluator fails on the range holding
/// that position of job c (a device that failed mid-run).
struct Altered {
    rebuilding: bool,
    fail_at: Option<u64>,
}

impl Verification for Altered {
    fn game(&self) -> &str {
        Toy.game()
    }
    fn columns(&self) -> crate::output::records::Columns {
        Toy.columns()
    }
    fn rule(&self) -> String {
        Toy.rule()
    }
    fn jobs(&self) -> Result<Vec<Job>> {
        Toy.jobs()
    }
    fn prepare(&self, index: usize) -> Result<Box<dyn Evaluate + '_>> {
        struct Evaluator<'a>(Box<dyn Evaluate + 'a>, Option<u64>);
        impl Evaluate for Evaluator<'_> {
            fn evaluate(&self, range: Range<u64>, results: &mut RunResults) -> Result<()> {
                match self.1.filter(|at| range.contains(at)) {
                    Some(at) => Err(crate::error::Error::Usage(format!("the device failed at {at}"))),
                    None => self.0.evaluate(range, results),
                }
            }
        }
        Ok(Box::new(Evaluator(Toy.prepare(index)?, self.fail_at.filter(|_| index == 2))))
    }
    fn job_seconds(&self, index: usize, positions: Range<u64>, chunk: u64) -> Option<f64> {
        let ends = positions.clone().step_by(chunk as usize).map(|start| (start + chunk).min(positions.end));
        self.rebuilding.then(|| if index == 2 { ends.map(|end| 0.1 * (end * end) as f64).sum() } else { 0.0 })
    }
}

#[test]
fn a_job_estimated_as_a_whole_is_refused_over_a_day() {
    let rebuilding = Altered { rebuilding: true, fail_at: None };
    let whole = Plan::new(&rebuilding, Shard::ALL).unwrap();
    // 32 chunks of 16 positions: 0.1 · 16² · (1² + … + 32²) = 292,864 s.
    let err = cost::check(&whole, Some(u64::MAX), false, 1).unwrap_err().to_string();
    assert!(err.starts_with("this run would take an estimated 3.4 days on 1 thread"), "{err}");
    assert!(cost::check(&whole, Some(u64::MAX), true, 1).is_ok());
    // The first half of the 577 positions of jobs a, b, c laid end to end: a, b and c's
    // positions 0..223, 13 chunks of 16 and one ending at 223: 0.1 · (16² · (1² + … + 13²) + 223²).
    let half = Plan::new(&rebuilding, "1/2".parse().unwrap()).unwrap();
    let seconds = cost::check(&half, Some(u64::MAX), false, 1).unwrap().seconds.unwrap();
    assert!((seconds - 25_939.3).abs() < 1e-6, "{seconds}");
}

/// Past as many threads as chunks, more threads do not shorten a job: its longest chunk runs
/// on one of them.
#[test]
fn no_job_is_estimated_shorter_than_its_longest_chunk() {
    // Toy's job c: 512 chunks of one 200 s position; 10,000 threads share 102,400 s, 10.2 s each.
    let toy = cost::estimate(&plan(Shard::ALL), 10_000).seconds.unwrap();
    assert!((200.0..200.1).contains(&toy), "{toy}");
    assert!(cost::estimate(&plan(Shard::ALL), 2).seconds.unwrap() > 51_200.0, "two threads: the work divides");
    // The rebuilding job c: its last chunk (positions 496..512) takes 0.1 · 512² = 26,214.4 s,
    // the 292,864 s of all its chunks on 1,000 threads only 292.9 s.
    let rebuilding = Altered { rebuilding: true, fail_at: None };
    assert_eq!(cost::estimate(&Plan::new(&rebuilding, Shard::ALL).unwrap(), 1000).seconds, Some(26_214.4));
    // The first half's last chunk of job c (208..223): 0.1 · 223².
    let half = Plan::new(&rebuilding, "1/2".parse().unwrap()).unwrap();
    let seconds = cost::estimate(&half, 1000).seconds.unwrap();
    assert!((seconds - 4_972.9).abs() < 1e-6, "{seconds}");
}

#[test]
fn jobs_sharing_a_size_form_one_group() {
    let job = |sizes: &[(u32, u32)]| Job::new("j", sizes.to_vec(), 1, 1);
    let jobs = [job(&[(1, 5)]), job(&[(1, 1), (1, 2)]), job(&[(1, 3)]), job(&[(1, 2), (1, 4)]), job(&[(1, 4), (1, 5)]), job(&[])];
    assert_eq!(super::verification::size_groups(&jobs), [vec![0, 1, 3, 4], vec![2], vec![5]]);
    let many: Vec<Job> = (0..200_000).map(|n| job(&[(1, n)])).collect();
    assert_eq!(super::verification::size_groups(&many).len(), 200_000, "linear: a long run of one-size jobs");
}

#[test]
fn an_evaluator_that_fails_stops_the_run_and_its_checkpoint_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = finished(run(dir.path(), &plan(Shard::ALL), &Options::default(), false, &Silent).unwrap());
    Checkpoint::remove(dir.path()).unwrap();
    let failing = Plan::new(&Altered { rebuilding: false, fail_at: Some(300) }, Shard::ALL).unwrap();
    let err = run(dir.path(), &failing, &small_blocks(None), false, &Silent).unwrap_err();
    assert_eq!(err.to_string(), "the device failed at 300");
    let checkpoint = Checkpoint::load(dir.path()).unwrap();
    assert!(checkpoint.is_some(), "the positions counted before the failure are kept");
    let resumed = finished(run(dir.path(), &plan(Shard::ALL), &small_blocks(None), true, &Silent).unwrap());
    assert_eq!(resumed.summary_rows(), whole.summary_rows());
    assert_eq!(resumed.distribution_rows(), whole.distribution_rows());
    assert_eq!(resumed.mismatch_rows(), whole.mismatch_rows());
}
