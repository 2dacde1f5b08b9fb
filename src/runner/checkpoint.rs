//! checkpoint.json: the resumable state of an unfinished run in its output directory.

use super::tally::{RunResults, SizeTally};
use crate::error::{Error, Result};
use crate::output::atomic::write_bytes_atomic;
use crate::output::sealed::{read_text, seal, unseal};
use crate::output::records::MismatchRow;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::output::verify_files::CHECKPOINT;

/// What must be equal for `--resume` to continue a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunParams {
    pub game: String,
    pub rule: String,
    /// `verify` (claim against the naive oracle) or `census` (claim only).
    #[serde(default = "verify_mode")]
    pub mode: String,
    /// Every job of the run, in order (e.g. board sizes `HxW`).
    pub sizes: Vec<String>,
    pub shard: String,
    pub version: String,
    /// [`crate::runner::Verification::identity`] (absent when empty).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub identity: BTreeMap<String, serde_json::Value>,
}

fn verify_mode() -> String {
    "verify".into()
}

impl RunParams {
    /// The fields that differ from `other`, as `name: mine vs theirs`.
    pub fn differences(&self, other: &RunParams) -> Vec<String> {
        let fields = |p: &RunParams| {
            [
                ("game", p.game.clone()),
                ("rule", p.rule.clone()),
                ("mode", p.mode.clone()),
                ("sizes", p.sizes.join(",")),
                ("shard", p.shard.clone()),
                ("version", p.version.clone()),
            ]
        };
        let mut differences: Vec<String> = fields(self)
            .into_iter()
            .zip(fields(other))
            .filter(|(a, b)| a.1 != b.1)
            .map(|((name, a), (_, b))| match name {
                "sizes" => sizes_difference(&self.sizes, &other.sizes),
                _ => format!("{name}: checkpoint has {a}, this run has {b}"),
            })
            .collect();
        let keys: BTreeSet<&String> = self.identity.keys().chain(other.identity.keys()).collect();
        let shown = |value: Option<&serde_json::Value>| value.map_or("none".to_string(), ToString::to_string);
        for key in keys.into_iter().filter(|key| self.identity.get(*key) != other.identity.get(*key)) {
            differences.push(format!("{key}: checkpoint has {}, this run has {}", shown(self.identity.get(key)), shown(other.identity.get(key))));
        }
        differences
    }
}

/// Lists of sizes that differ, each as `1x0..1x40 (41 sizes)` when long, in full when that
/// would not tell them apart.
fn sizes_difference(saved: &[String], now: &[String]) -> String {
    let short = |sizes: &[String]| match sizes {
        [first, .., last] if sizes.len() > 6 => format!("{first}..{last} ({} sizes)", sizes.len()),
        _ => sizes.join(","),
    };
    let (a, b) = match (short(saved), short(now)) {
        (a, b) if a == b => (saved.join(","), now.join(",")),
        shown => shown,
    };
    format!("sizes: checkpoint has {a}, this run has {b}")
}

/// How far a run got: jobs before `job` are complete; that job is done up to (not including)
/// position `next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub job: usize,
    pub next: u64,
}

/// The saved state of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub params: RunParams,
    pub position: Position,
    /// Positions of each job's range evaluated so far (a symmetry-reduced engine counts more
    /// patterns than it visits, so this is kept apart from the tallies).
    pub covered: Vec<u64>,
    /// Results of every finished job and of the finished blocks of the current one.
    pub results: RunResults,
    /// Wall seconds the run has spent up to this checkpoint, over every sitting (a resumed
    /// run's manifest adds them up; 0 in checkpoints of older versions).
    pub seconds: f64,
}

/// One size's tally as stored in the file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredSize {
    rows: u32,
    cols: u32,
    patterns: u64,
    mismatches: u64,
    /// (xs, grundy, patterns).
    distribution: Vec<(u32, u32, u64)>,
}

/// The checkpoint's content.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    params: RunParams,
    position: Position,
    covered: Vec<u64>,
    sizes: Vec<StoredSize>,
    mismatches: Vec<MismatchRow>,
    #[serde(default)]
    extra_rows: Vec<String>,
    #[serde(default)]
    seconds: f64,
}

/// Format 6: a shard owns a slice of every job's positions laid end to end
/// ([`crate::runner::Shard::part`]); format 5 sliced each job apart, which is the same slice
/// for an unsharded run or a run of one job (so those are still resumed, [`Checkpoint::load`]).
/// In format 5 the census engine numbered its positions by middle-row pattern (a format 4
/// census checkpoint counted other positions, so resuming it would be wrong); format 4 put the
/// content under a digest, format 3 had none, format 2 kept positions per board size.
const FORMAT: u32 = 6;

/// The last format that sliced each job apart.
const SLICED_PER_JOB: u32 = 5;

impl Checkpoint {
    /// The checkpoint path of run directory `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(CHECKPOINT)
    }

    /// True when `dir` holds a checkpoint (an unfinished run).
    pub fn exists(dir: &Path) -> bool {
        Self::path(dir).exists()
    }

    /// Writes the checkpoint into `dir` atomically, sealed under its digest.
    pub fn save(&self, dir: &Path) -> Result<()> {
        write_bytes_atomic(&Self::path(dir), seal(&self.to_stored(), FORMAT).as_bytes())
    }

    /// Reads the checkpoint of `dir`, `None` when there is none.
    pub fn load(dir: &Path) -> Result<Option<Checkpoint>> {
        let path = Self::path(dir);
        let over = |e| match e {
            Error::Malformed { path, message } => Error::Malformed { path, message: format!("{message}; delete it to start the run over") },
            other => other,
        };
        let Some(text) = read_text(&path).map_err(over)? else { return Ok(None) };
        let stored: Stored = match unseal(&path, &text, FORMAT) {
            Ok(stored) => stored,
            Err(error) => match unseal::<Stored>(&path, &text, SLICED_PER_JOB) {
                Ok(old) if old.params.shard == "1/1" || old.params.sizes.len() <= 1 => old,
                Ok(old) => {
                    let message = format!(
                        "its shard {} of a run of {} jobs was sliced job by job (format {SLICED_PER_JOB}, an older sprague); this version slices the jobs' positions laid end to end, so its positions are not this shard's",
                        old.params.shard,
                        old.params.sizes.len()
                    );
                    return Err(over(Error::malformed(&path, message)));
                }
                Err(_) => return Err(over(error)),
            },
        };
        Self::from_stored(stored, &path).map(Some)
    }

    /// Deletes the checkpoint of `dir` (a finished run); no error when there is none.
    pub fn remove(dir: &Path) -> Result<()> {
        crate::output::atomic::remove_if_present(&Self::path(dir))
    }

    fn to_stored(&self) -> Stored {
        let sizes = self
            .results
            .sizes
            .values()
            .map(|t| StoredSize {
                rows: t.rows,
                cols: t.cols,
                patterns: t.patterns,
                mismatches: t.mismatches,
                distribution: t.distribution.iter().map(|(&(xs, g), &n)| (xs, g, n)).collect(),
            })
            .collect();
        Stored {
            params: self.params.clone(),
            position: self.position,
            covered: self.covered.clone(),
            sizes,
            mismatches: self.results.mismatch_rows(),
            extra_rows: self.results.extra_rows.clone(),
            seconds: self.seconds,
        }
    }

    fn from_stored(stored: Stored, path: &Path) -> Result<Checkpoint> {
        let mut results = RunResults::new(stored.params.game.clone(), stored.params.rule.clone());
        for s in stored.sizes {
            let tally: &mut SizeTally = results.size_mut(s.rows, s.cols);
            for (xs, grundy, n) in s.distribution {
                tally.record(xs, grundy, n);
            }
            tally.mismatches = s.mismatches;
            if tally.patterns != s.patterns {
                let message = format!(
                    "{}x{}: distribution sums to {} patterns, not {}",
                    s.rows, s.cols, tally.patterns, s.patterns
                );
                return Err(Error::malformed(path, message));
            }
        }
        results.mismatches = stored.mismatches;
        results.extra_rows = stored.extra_rows;
        let seconds = stored.seconds;
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(Error::malformed(path, format!("seconds spent {seconds} is not a number of seconds")));
        }
        Ok(Checkpoint { params: stored.params, position: stored.position, covered: stored.covered, results, seconds })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let mut results = RunResults::new("toy", "standard");
        results.size_mut(1, 2).record(1, 1, 2);
        results.size_mut(1, 2).record(0, 2, 1);
        results.size_mut(1, 3);
        let params = RunParams {
            game: "toy".into(),
            rule: "standard".into(),
            mode: "verify".into(),
            sizes: vec!["1x2".into(), "1x3".into()],
            shard: "1/1".into(),
            version: "0.1.0".into(),
            identity: BTreeMap::new(),
        };
        Checkpoint { params, position: Position { job: 1, next: 0 }, covered: vec![3, 0], results, seconds: 1.5 }
    }

    /// Long lists of sizes are named by their ends and length, short ones (or long ones those
    /// would not tell apart) in full.
    #[test]
    fn differing_sizes_are_named_briefly() {
        let sizes = |n: u32| (0..=n).map(|k| format!("1x{k}")).collect::<Vec<String>>();
        assert_eq!(sizes_difference(&sizes(40), &sizes(41)), "sizes: checkpoint has 1x0..1x40 (41 sizes), this run has 1x0..1x41 (42 sizes)");
        assert_eq!(sizes_difference(&sizes(2), &sizes(3)), "sizes: checkpoint has 1x0,1x1,1x2, this run has 1x0,1x1,1x2,1x3");
        let mut other = sizes(9);
        other[4] = "2x2".into();
        assert!(sizes_difference(&sizes(9), &other).contains("1x3,2x2,1x5"));
    }

    #[test]
    fn round_trips() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), None);
        sample().save(dir.path()).unwrap();
        assert!(Checkpoint::exists(dir.path()));
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), Some(sample()));
        Checkpoint::remove(dir.path()).unwrap();
        assert!(!Checkpoint::exists(dir.path()));
        Checkpoint::remove(dir.path()).unwrap();
    }

    /// A checkpoint of the last format that sliced each job apart is resumed where its slices
    /// are this version's (an unsharded run, a run of one job) and refused, saying why, where
    /// they are not (a shard of several jobs).
    #[test]
    fn an_older_checkpoint_is_resumed_only_where_its_slices_are_this_versions() {
        let dir = tempfile::tempdir().unwrap();
        let write_old = |checkpoint: &Checkpoint| std::fs::write(Checkpoint::path(dir.path()), seal(&checkpoint.to_stored(), SLICED_PER_JOB)).unwrap();
        write_old(&sample());
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), Some(sample()));
        let mut one_job = sample();
        (one_job.params.sizes, one_job.params.shard, one_job.position, one_job.covered) = (vec!["1x2".into()], "2/3".into(), Position { job: 1, next: 0 }, vec![3]);
        write_old(&one_job);
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), Some(one_job));
        let mut shard = sample();
        shard.params.shard = "2/3".into();
        write_old(&shard);
        let err = Checkpoint::load(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("checkpoint.json: its shard 2/3 of a run of 2 jobs was sliced job by job (format 5, an older sprague); this version slices the jobs' positions laid end to end, so its positions are not this shard's; delete it to start the run over"), "{err}");
        std::fs::write(Checkpoint::path(dir.path()), seal(&sample().to_stored(), 4)).unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("format 4 is not 6 (written by another sprague version); delete it to start the run over"), "{err}");
    }

    #[test]
    fn names_differences() {
        let a = sample().params;
        let mut b = a.clone();
        b.rule = "misere".into();
        assert_eq!(a.differences(&b), vec!["rule: checkpoint has standard, this run has misere".to_string()]);
        assert!(a.differences(&a).is_empty());
        let mut c = a.clone();
        c.identity.insert("program".into(), "python3 other.py".into());
        assert_eq!(a.differences(&c), vec![r#"program: checkpoint has none, this run has "python3 other.py""#.to_string()]);
    }

    #[test]
    fn an_edited_count_is_refused_by_the_digest() {
        let dir = tempfile::tempdir().unwrap();
        sample().save(dir.path()).unwrap();
        let path = Checkpoint::path(dir.path());
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("[1,1,2]", "[1,1,3]").replace("\"patterns\":3", "\"patterns\":4")).unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("does not match its sha256"), "{err}");
    }

    #[test]
    fn malformed_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(Checkpoint::path(dir.path()), "{\"format\":1,").unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("checkpoint.json: line 1"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_utf8_is_named_as_damaged() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(Checkpoint::path(dir.path()), b"{\"format\":1,\xff}").unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("checkpoint.json: unreadable: not UTF-8 text (the file is damaged); delete it to start the run over"), "{err}");
    }
}
