//! manifest.json: provenance of a run (tool, commit, command, threads, times, memory, digests).

use super::atomic::{sha256_file, sha256_hex, write_bytes_atomic};
use super::lock::DirLock;
use crate::error::{Error, Result};
use crate::sys;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// What is wrong with a manifest that has no digest.
pub const NO_DIGEST: &str = "no digest (written by an older sprague, or its \"digest\" key was damaged); rerun the command it records";

/// The manifest written beside every set of result files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub git_commit: Option<String>,
    pub command_line: Vec<String>,
    pub threads: usize,
    /// RFC 3339 times.
    pub started: String,
    pub finished: String,
    pub wall_seconds: f64,
    /// A resumed run's wall seconds over every sitting (each stopped process up to its last
    /// checkpoint, and the last one's `wall_seconds`): what the whole run cost. Absent for a run
    /// of one sitting, and in manifests of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_all_sittings: Option<f64>,
    pub peak_memory_bytes: Option<u64>,
    /// File name → SHA-256 (hex) of every result file of the run.
    pub files: BTreeMap<String, String>,
    /// Remarks a reader needs (e.g. "nothing was cross-checked").
    #[serde(default)]
    pub notes: Vec<String>,
    /// Run-specific facts (sizes, shard, rule, ...).
    #[serde(default)]
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// The device that counted the run when it was not the CPU (`gpu`): its wall time then
    /// says nothing of what recomputing it on the CPU costs. A field, not a parameter, so that
    /// CPU and GPU shards of one run still merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// A merge's cost: the thread-seconds of its shards together (each shard's wall seconds over
    /// every sitting × its threads), since the merge's own `wall_seconds` is only the merge's.
    /// Absent for a run that is no merge, and in merges of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards_seconds: Option<f64>,
    /// SHA-256 of this manifest as written without this field, so that a change to the
    /// manifest itself is noticed too (absent in manifests of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// Measures a run from its start; [`RunClock::finish`] produces the manifest.
#[derive(Clone)]
pub struct RunClock {
    started: chrono::DateTime<chrono::Utc>,
    instant: Instant,
    command_line: Vec<String>,
    threads: usize,
    /// Wall seconds of the earlier sittings of a resumed run.
    earlier: Option<f64>,
    /// The subdirectories of its output directory the run writes into or clears
    /// ([`RunClock::writing_into`]).
    subdirs: &'static [&'static str],
}

impl RunClock {
    /// Starts the clock for a run invoked as `command_line` on `threads` threads.
    pub fn start(command_line: Vec<String>, threads: usize) -> Self {
        RunClock { started: chrono::Utc::now(), instant: Instant::now(), command_line, threads, earlier: None, subdirs: &[] }
    }

    /// The same clock for a run resumed after earlier sittings that spent `earlier` wall
    /// seconds: its manifest records their sum with this one ([`Manifest::seconds_all_sittings`]).
    pub fn resumed(&self, earlier: f64) -> RunClock {
        RunClock { earlier: Some(earlier), ..self.clone() }
    }

    /// The same clock for a run that writes into, or clears, the `subdirs` of its output
    /// directory as well as its top (`stress`'s `failures/`): their files, like those at the
    /// top, make a directory no run recorded one to refuse ([`super::takeover::refuse_unrecorded`]).
    pub fn writing_into(self, subdirs: &'static [&'static str]) -> RunClock {
        RunClock { subdirs, ..self }
    }

    /// Locks output directory `dir` for this run of `game` (see [`DirLock`]), naming it by its
    /// command line, and admits the run into what `dir` holds ([`super::takeover::admit`]).
    pub fn lock(&self, dir: &Path, game: &str) -> Result<DirLock> {
        self.lock_as(dir, &self.verb(), game)
    }

    /// The command's verb (`verify`, `census`, …: the kind of run it makes).
    pub fn verb(&self) -> String {
        self.command_line.get(1).cloned().unwrap_or_default()
    }

    /// [`RunClock::lock`] for a run of `kind` ([`Manifest::kind`]): a merge is of the kind of
    /// the runs it merges ([`merged_kind`]). A directory of files no sprague run recorded is
    /// refused before the lock is made in it ([`super::takeover::refuse_unrecorded`]).
    pub fn lock_as(&self, dir: &Path, kind: &str, game: &str) -> Result<DirLock> {
        super::takeover::refuse_unrecorded(dir, self.subdirs)?;
        let lock = DirLock::acquire(dir, &self.command_line.join(" "))?;
        super::takeover::admit(dir, &self.command_line, kind, game)?;
        Ok(lock)
    }

    /// Some of what [`RunClock::lock_as`] refuses, checked before any work, whatever the game,
    /// and creating nothing (so that a run whose preparation takes long, a game program asked
    /// its positions, is refused at once): files no run recorded, a run holding the lock, a
    /// directory another command's unfinished run holds.
    pub fn admits_now(&self, dir: &Path) -> Result<()> {
        super::takeover::refuse_unrecorded(dir, self.subdirs)?;
        super::lock::refuse_held(dir)?;
        super::takeover::refuse_unfinished(dir, &self.command_line)
    }

    /// Marks `dir` as holding this command's unfinished run until the run finishes
    /// ([`super::takeover::mark_unfinished`]): for a resumable run whose state is files of its
    /// own, which no checkpoint.json announces.
    pub fn mark_unfinished(&self, dir: &Path) -> Result<()> {
        super::takeover::mark_unfinished(dir, &self.command_line)
    }

    /// A manifest for the finished run covering `files` (paths inside `dir`).
    pub fn finish(&self, dir: &Path, files: &[&str]) -> Result<Manifest> {
        let digests = files
            .iter()
            .map(|name| Ok((name.to_string(), sha256_file(&dir.join(name))?)))
            .collect::<Result<_>>()?;
        Ok(Manifest {
            tool: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: sys::git_commit().map(str::to_string),
            command_line: self.command_line.clone(),
            threads: self.threads,
            started: self.started.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            finished: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            wall_seconds: milliseconds(self.instant.elapsed().as_secs_f64()),
            seconds_all_sittings: self.earlier.map(|earlier| milliseconds(earlier + self.instant.elapsed().as_secs_f64())),
            peak_memory_bytes: sys::peak_rss_bytes(),
            files: digests,
            notes: Vec::new(),
            parameters: BTreeMap::new(),
            device: None,
            shards_seconds: None,
            digest: None,
        })
    }
}

/// `seconds` rounded to the millisecond.
fn milliseconds(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

impl Manifest {
    /// Writes the manifest as pretty JSON with its digest, atomically, over the manifest of an
    /// earlier run in the same directory, whose files the new run does not list are removed
    /// ([`super::takeover::remove_stale`]).
    pub fn write(&self, path: &Path) -> Result<()> {
        let earlier = path.exists().then(|| Manifest::read_unsealed(path)).transpose().ok().flatten();
        let sealed = Manifest { digest: Some(self.own_digest()), ..self.clone() };
        write_bytes_atomic(path, sealed.text().as_bytes())?;
        match (earlier, path.parent()) {
            (Some((earlier, _)), Some(dir)) => super::takeover::remove_stale(dir, &earlier, self),
            _ => Ok(()),
        }
    }

    /// The kind of run this manifest records, as its command's verb (`verify`, `census`,
    /// `stress`, `prove`, …); a merge counts as the verification it merged (its `mode`).
    pub fn kind(&self) -> Option<String> {
        let verb = self.command_line.get(1)?;
        if verb != "merge" {
            return Some(verb.clone());
        }
        Some(merged_kind(&self.parameters))
    }

    /// Reads a manifest written by [`Manifest::write`]; a digest that does not match the
    /// content is an error.
    pub fn read(path: &Path) -> Result<Self> {
        let (manifest, seal) = Self::read_unsealed(path)?;
        match seal {
            Some(problem) => Err(Error::malformed(path, problem)),
            None => Ok(manifest),
        }
    }

    /// [`Manifest::read`], refusing a manifest without a digest: every manifest this version
    /// writes has one, and without it a change to any byte would go unnoticed (a damaged
    /// `"digest"` key reads as none).
    pub fn read_digested(path: &Path) -> Result<Self> {
        let manifest = Self::read(path)?;
        if manifest.digest.is_none() {
            return Err(Error::malformed(path, NO_DIGEST));
        }
        Ok(manifest)
    }

    /// Reads a manifest and says, apart, what is wrong with its seal: a digest that does not
    /// match the content, or text not in the form sprague writes. Unreadable JSON is an error.
    pub fn read_unsealed(path: &Path) -> Result<(Self, Option<String>)> {
        let bytes = super::atomic::read_regular(path).map_err(|e| Error::io(path, e))?;
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| Error::malformed(path, format!("line {}: {e}", e.line())))?;
        let problem = match &manifest.digest {
            Some(digest) if *digest != manifest.own_digest() => {
                Some("content does not match its digest (the manifest was changed or damaged)")
            }
            Some(_) if manifest.text().as_bytes() != bytes => Some("not in the form sprague writes (the manifest was edited)"),
            _ => None,
        };
        Ok((manifest, problem.map(str::to_string)))
    }

    /// Estimated seconds to recompute the run on `threads` CPU threads: its wall time (over
    /// every sitting of a resumed run) × its threads / `threads`, for a merge its shards'
    /// ([`Manifest::shards_seconds`]); infinite where that is unknown: a run a device counted
    /// (see [`Manifest::device`]), a merge of an older version.
    pub fn cpu_seconds_on(&self, threads: f64) -> f64 {
        if self.device.is_some() {
            return f64::INFINITY;
        }
        match (self.shards_seconds, self.parameters.contains_key("merged_from")) {
            (Some(seconds), _) => seconds / threads,
            (None, true) => f64::INFINITY,
            (None, false) => self.seconds_all_sittings.unwrap_or(self.wall_seconds) * self.threads.max(1) as f64 / threads,
        }
    }

    /// The SHA-256 of the manifest's text without the digest field.
    fn own_digest(&self) -> String {
        sha256_hex(Manifest { digest: None, ..self.clone() }.text().as_bytes())
    }

    fn text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("manifest serializes");
        text.push('\n');
        text
    }
}


/// The kind of a merge of runs with `parameters`: their `mode` (`verify` when they name none).
pub fn merged_kind(parameters: &BTreeMap<String, serde_json::Value>) -> String {
    parameters.get("mode").and_then(serde_json::Value::as_str).unwrap_or("verify").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_note_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let mut manifest = RunClock::start(vec!["sprague".into()], 1).finish(dir.path(), &[]).unwrap();
        manifest.notes.push("nothing was cross-checked".into());
        let path = dir.path().join("manifest.json");
        manifest.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("nothing was", "nothing wasn")).unwrap();
        assert!(Manifest::read(&path).unwrap_err().to_string().contains("does not match its digest"));
    }

    #[test]
    fn round_trips_with_digests() {
        let dir = tempfile::tempdir().unwrap();
        write_bytes_atomic(&dir.path().join("a.csv"), b"abc").unwrap();
        let clock = RunClock::start(vec!["sprague".into(), "verify".into()], 2);
        let manifest = clock.finish(dir.path(), &["a.csv"]).unwrap();
        let path = dir.path().join("manifest.json");
        manifest.write(&path).unwrap();
        let back = Manifest::read(&path).unwrap();
        assert_eq!(Manifest { digest: None, ..back.clone() }, manifest);
        assert_eq!(back.digest.as_ref().map(String::len), Some(64));
        assert_eq!(back.files["a.csv"].len(), 64);
    }
}
