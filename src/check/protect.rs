//! What `check` verifies of a committed directory at no cost: digests, summary against distribution, totals.

use crate::error::{Error, Result};
use crate::output::digests::{check_digest, omitted_by_design, Omitted};
use crate::output::manifest::{Manifest, NO_DIGEST};
use crate::output::records::{DistributionRow, MismatchRow, SummaryRow};
use crate::output::records::Columns;
use crate::output::verify_files::{VerifyRows, DISTRIBUTION, MANIFEST, MISMATCHES, SUMMARY};
use crate::runner::files::read_verify_files_unchecked;
use crate::runner::{Plan as RunPlan, RunResults, Shard, Verification};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The committed verify files of one directory, as read.
pub struct Committed {
    pub(super) summary: Vec<SummaryRow>,
    pub(super) distribution: Vec<DistributionRow>,
    pub(super) mismatches: Vec<MismatchRow>,
    pub(super) manifest: Manifest,
}

impl Committed {
    /// Reads the files of `dir`, with what [`protect`] finds wrong with them.
    pub(super) fn read(dir: &Path, rebuild: Rebuild, omitted: Omitted) -> Result<(Self, Vec<Damage>)> {
        let (manifest, damage) = protect(dir, rebuild, omitted)?;
        Ok((Committed::with_manifest(dir, manifest, rebuild)?, damage))
    }

    /// Reads the three verify files of `dir` (each must exist) under their game's columns (those
    /// of the verification `rebuild` makes of the manifest; the headers' own when it cannot).
    pub(super) fn with_manifest(dir: &Path, manifest: Manifest, rebuild: Rebuild) -> Result<Self> {
        for name in [SUMMARY, DISTRIBUTION, MISMATCHES] {
            existing(dir, name)?;
        }
        let rows = match game_columns(&manifest, rebuild) {
            Some(columns) => VerifyRows::read_as(dir, columns)?,
            None => VerifyRows::read(dir)?,
        };
        let VerifyRows { summary, distribution, mismatches, .. } = rows;
        Ok(Committed { summary, distribution, mismatches, manifest })
    }
}

/// A committed file that is not what its manifest and the run it records say, found without
/// recomputing anything (a changed byte, a count that does not add up).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Damage {
    pub file: PathBuf,
    pub message: String,
}

impl Damage {
    /// The damage an error found reading `file` says, without repeating the file's name.
    pub(super) fn of_error(file: PathBuf, error: &Error) -> Damage {
        let message = match error {
            Error::Malformed { path, message } if *path == file => message.clone(),
            Error::Io { path, .. } if *path == file => error.describe(),
            other => other.to_string(),
        };
        Damage { file, message }
    }

    /// The damage an error found reading the files of `dir` says, on the file the error names
    /// (else `dir`'s manifest), so that the report names that file once.
    pub(super) fn in_dir(dir: &Path, error: &Error) -> Damage {
        Damage::of_error(error.path().map_or_else(|| dir.join(MANIFEST), Path::to_path_buf), error)
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

/// The manifest of a committed directory and what is wrong with it at no cost: its own digest,
/// and the SHA-256 of every file it lists; a listed file that is absent is damage unless it is
/// left out of results/ by design ([`omitted_by_design`], the game's answer from `omitted`).
/// Each of `required` must be listed and present (an error when absent). Unreadable manifests
/// are errors.
pub fn protect_files(dir: &Path, required: &[&str], omitted: Omitted) -> Result<(Manifest, Vec<Damage>)> {
    let manifest_path = existing(dir, MANIFEST)?;
    let (manifest, seal) = Manifest::read_unsealed(&manifest_path)?;
    let damaged = |path: &Path, message: String| Damage { file: path.to_path_buf(), message };
    let mut damage: Vec<Damage> = seal.into_iter().map(|m| damaged(&manifest_path, m)).collect();
    if manifest.digest.is_none() {
        damage.push(damaged(&manifest_path, NO_DIGEST.into()));
    }
    for name in required.iter().filter(|name| !manifest.files.contains_key(**name)) {
        damage.push(damaged(&manifest_path, format!("lists no digest of {name}")));
    }
    for (name, digest) in &manifest.files {
        let path = if required.contains(&name.as_str()) { existing(dir, name)? } else { dir.join(name) };
        if let Some(why) = not_a_file(&path) {
            if why != MISSING || !omitted_by_design(&manifest, name, omitted) {
                damage.push(damaged(&path, format!("{why} (listed in {MANIFEST})")));
            }
            continue;
        }
        match check_digest(&path, digest, MANIFEST) {
            Err(error @ Error::Malformed { .. }) => damage.push(Damage::of_error(path, &error)),
            other => other?,
        }
    }
    Ok((manifest, damage))
}

/// What `check` verifies of every committed verify directory at no cost, whatever the budget:
/// [`protect_files`] with the three verify files required, the summary against the
/// distribution (patterns, P-positions, largest value), and each size's patterns against the
/// total of the run the manifest describes (e.g. 2^(h·w) boards of h×w two-state cells), as
/// `rebuild` makes it from the manifest's parameters (not checked for a game `rebuild` does not
/// know, [`Error::UnknownGame`]). Returns the manifest and what was found
/// damaged; files that are missing or cannot be read as what they should hold are errors.
pub fn protect(dir: &Path, rebuild: Rebuild, omitted: Omitted) -> Result<(Manifest, Vec<Damage>)> {
    let (manifest, mut damage) = protect_files(dir, &[SUMMARY, DISTRIBUTION, MISMATCHES], omitted)?;
    let damaged = |path: &Path, message: String| Damage { file: path.to_path_buf(), message };
    let verification = rebuild(&manifest.parameters);
    let (results, consistency) = read_verify_files_unchecked(dir, verification.as_ref().ok().map(|v| v.columns()))?;
    let summary = dir.join(SUMMARY);
    damage.extend(consistency.err().map(|m| damaged(&summary, m)));
    match verification {
        Ok(verification) => damage.extend(totals(&*verification, &manifest, &results).err().map(|m| damaged(&summary, m))),
        // A game sprague does not have: its totals are unknown, which is no damage.
        Err(Error::UnknownGame { .. }) => {}
        Err(e) => damage.push(damaged(&dir.join(MANIFEST), format!("cannot rebuild the run it records: {e}"))),
    }
    Ok((manifest, damage))
}

/// Each size's patterns against the total of the run `manifest` records: of the whole run, or
/// none for one shard of it (a shard's share of a symmetry-reduced job is only known once all
/// shards are merged, [`RunPlan::check_totals`]).
fn totals(verification: &dyn Verification, manifest: &Manifest, results: &RunResults) -> std::result::Result<(), String> {
    let plan = RunPlan::new(verification, shard_of(manifest)?).map_err(|e| e.to_string())?;
    plan.check_totals(results, usize::MAX)
}

/// The shard a manifest records (`1/1` when it records none).
pub(super) fn shard_of(manifest: &Manifest) -> std::result::Result<Shard, String> {
    let text = manifest.parameters.get("shard").and_then(|v| v.as_str()).unwrap_or("1/1");
    text.parse().map_err(|e| format!("shard {text:?}: {e}"))
}

/// The column names of the game whose run `manifest` records, when `rebuild` can make it.
fn game_columns(manifest: &Manifest, rebuild: Rebuild) -> Option<Columns> {
    rebuild(&manifest.parameters).ok().map(|verification| verification.columns())
}

/// `dir/name`, or an error naming it when it is not a file: missing, something else (a
/// directory), or out of reach (the system's words, such as permission denied).
pub(super) fn existing(dir: &Path, name: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    match not_a_file(&path) {
        None => Ok(path),
        Some(why) => Err(Error::malformed(&path, format!("{why} (a results directory of this kind needs it)"))),
    }
}

/// What `path` is when it is not a file: `missing`, something else (a directory, a FIFO), or
/// out of reach (the system's words); `None` for a file.
fn not_a_file(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => None,
        Ok(meta) if meta.is_dir() => Some("a directory, not a file".to_string()),
        Ok(_) => Some("not a regular file".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(MISSING.to_string()),
        Err(e) => Some(format!("cannot be read: {}", Error::io(path, e).describe())),
    }
}

/// What [`not_a_file`] says of a path that does not exist.
const MISSING: &str = "missing";

/// The verification a manifest's parameters describe ([`crate::games::verification_from_manifest`]
/// for the registered games).
pub type Rebuild = fn(&BTreeMap<String, serde_json::Value>) -> Result<Box<dyn crate::runner::Verification>>;

