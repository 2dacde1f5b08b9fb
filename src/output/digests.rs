//! The digests a results tree records of its files — each run's manifest.json and the tree's
//! SHA256SUMS — and the check of a file against its digest before it is read (`check`,
//! `merge` and `report` all check files here).

use super::atomic::sha256_file;
use super::manifest::Manifest;
use super::verify_files::MANIFEST;
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The digests of a results tree's files no manifest lists, in `sha256sum` form (`HEX  PATH`,
/// PATH relative to the tree), so that `cd results && sha256sum -c SHA256SUMS` checks it too.
pub const SUMS: &str = "SHA256SUMS";

/// An error naming `path` unless its SHA-256 is `expected`, the digest `source` records.
pub fn check_digest(path: &Path, expected: &str, source: &str) -> Result<()> {
    let actual = sha256_file(path)?;
    if actual != expected {
        return Err(Error::malformed(path, format!("sha256 {actual} differs from {expected} in {source} (the file was changed)")));
    }
    Ok(())
}

/// The lines of a SHA256SUMS text: (digest, path) each, or what is wrong with a line, naming
/// its number (from 1): not in the form `HEX  PATH`, or a PATH that leads out of the tree
/// (absolute, or through `..`), whose file the tree's digests cannot vouch for.
pub fn sums_lines(text: &str) -> impl Iterator<Item = std::result::Result<(&str, &str), String>> {
    text.lines().enumerate().map(|(number, line)| {
        let number = number + 1;
        let (digest, name) = line.split_once("  ").filter(|(d, n)| d.len() == 64 && !n.is_empty()).ok_or_else(|| format!("line {number}: not HEX  PATH"))?;
        let inside = Path::new(name).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        match inside {
            true => Ok((digest, name)),
            false => Err(format!("line {number}: path {name:?} leads out of the tree (absolute, or through ..); refusing to read it")),
        }
    })
}

/// Whether game `game`'s committed results may lack file `name` that a manifest of its runs
/// lists (the game registry answers: `crate::games::omitted_by_design`).
pub type Omitted = fn(game: &str, name: &str) -> bool;

/// Whether a file `manifest` lists may be absent from the committed results: the large binary
/// files (`*.bin`, in .gitignore), whose digest the game's own check recomputes, and those the
/// manifest's game leaves out by design (`omitted`).
pub fn omitted_by_design(manifest: &Manifest, name: &str, omitted: Omitted) -> bool {
    name.ends_with(".bin") || manifest.parameters.get("game").and_then(|g| g.as_str()).is_some_and(|game| omitted(game, name))
}

/// The digests recorded under one results tree, for checking each file before it is read.
pub struct Recorded {
    root: PathBuf,
    /// SHA256SUMS of the root, by path (empty when it has none).
    sums: BTreeMap<PathBuf, String>,
    /// The digests each manifest read so far lists, by the manifest's directory (`None`: it
    /// has no manifest), so that a directory's manifest is read and its seal checked once.
    manifests: Mutex<BTreeMap<PathBuf, Option<BTreeMap<String, String>>>>,
    /// Which listed files a game leaves out by design ([`omitted_by_design`]).
    omitted: Omitted,
}

impl Recorded {
    /// The digests of the tree at `root`: its SHA256SUMS when it has one (a line not in the
    /// form is an error naming it); the manifests are read as files are checked, and `omitted`
    /// says which listed files a game leaves out by design.
    pub fn read(root: &Path, omitted: Omitted) -> Result<Self> {
        let path = root.join(SUMS);
        let mut sums = BTreeMap::new();
        if path.exists() {
            let text = super::atomic::read_regular(&path).map_err(|e| Error::io(&path, e))?;
            let text = String::from_utf8(text).map_err(|_| Error::malformed(&path, "not UTF-8 text"))?;
            for line in sums_lines(&text) {
                let (digest, name) = line.map_err(|why| Error::malformed(&path, why))?;
                sums.insert(root.join(name), digest.to_string());
            }
        }
        Ok(Recorded { root: root.to_path_buf(), sums, manifests: Mutex::default(), omitted })
    }

    /// Checks `file` against its digest: the one the manifest.json of its directory or of one
    /// above it (up to the root) lists, else the one SHA256SUMS lists. A file with neither, or
    /// whose SHA-256 differs, is an error naming it; so is a manifest that cannot be read or
    /// whose own seal is broken.
    pub fn check(&self, file: &Path) -> Result<()> {
        for dir in file.ancestors().skip(1).take_while(|dir| dir.starts_with(&self.root)) {
            let name = file.strip_prefix(dir).map(|rel| rel.to_string_lossy().replace('\\', "/")).unwrap_or_default();
            if let Some(digest) = self.listed(dir, &name)? {
                return check_digest(file, &digest, &dir.join(MANIFEST).display().to_string());
            }
        }
        match self.sums.get(file) {
            Some(digest) => check_digest(file, digest, &self.root.join(SUMS).display().to_string()),
            None => Err(Error::malformed(file, format!("protected by no digest (no {MANIFEST} of its directory or one above lists it, nor {SUMS}); refusing to read it"))),
        }
    }

    /// The digest of `name` the manifest.json of `dir` lists (`None`: it lists none, or `dir`
    /// has no manifest); each manifest is read once.
    fn listed(&self, dir: &Path, name: &str) -> Result<Option<String>> {
        let mut manifests = self.manifests.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !manifests.contains_key(dir) {
            let path = dir.join(MANIFEST);
            let files = if path.is_file() { Some(Manifest::read(&path)?.files) } else { None };
            manifests.insert(dir.to_path_buf(), files);
        }
        Ok(manifests[dir].as_ref().and_then(|files| files.get(name).cloned()))
    }

    /// Checks the files `manifest` (of run directory `dir`) lists, each against its digest,
    /// and those of `required` it does not list but that exist ([`Recorded::check_existing`]). A listed file
    /// that is missing is an error unless it is left out by design ([`omitted_by_design`]).
    pub fn check_run(&self, dir: &Path, manifest: &Manifest, required: &[&str]) -> Result<()> {
        for (name, digest) in &manifest.files {
            let path = dir.join(name);
            if !path.is_file() && omitted_by_design(manifest, name, self.omitted) {
                continue;
            }
            check_digest(&path, digest, &dir.join(MANIFEST).display().to_string())?;
        }
        let unlisted: Vec<&str> = required.iter().copied().filter(|name| !manifest.files.contains_key(*name)).collect();
        self.check_existing(dir, &unlisted)
    }

    /// Checks each of the files `names` of `dir` that exists ([`Recorded::check`]); one that
    /// does not is left to the reader, which names it.
    pub fn check_existing(&self, dir: &Path, names: &[&str]) -> Result<()> {
        names.iter().map(|name| dir.join(name)).filter(|path| path.exists()).try_for_each(|path| self.check(&path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_checked_against_its_manifest_or_the_sums() {
        let root = tempfile::tempdir().unwrap();
        let run = root.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::write(run.join("a.csv"), "a\n").unwrap();
        std::fs::write(run.join("b.csv"), "b\n").unwrap();
        std::fs::write(run.join("c.csv"), "c\n").unwrap();
        let manifest = crate::output::manifest::RunClock::start(vec!["sprague".into(), "verify".into()], 1).finish(&run, &["a.csv"]).unwrap();
        manifest.write(&run.join(MANIFEST)).unwrap();
        let b = sha256_file(&run.join("b.csv")).unwrap();
        std::fs::write(root.path().join(SUMS), format!("{b}  run/b.csv\n")).unwrap();
        let recorded = Recorded::read(root.path(), |_, _| false).unwrap();
        recorded.check(&run.join("a.csv")).unwrap();
        recorded.check(&run.join("b.csv")).unwrap();
        assert!(recorded.check(&run.join("c.csv")).unwrap_err().to_string().contains("c.csv: protected by no digest"));
        std::fs::write(run.join("a.csv"), "A\n").unwrap();
        std::fs::write(run.join("b.csv"), "B\n").unwrap();
        assert!(recorded.check(&run.join("a.csv")).unwrap_err().to_string().contains("a.csv: sha256 "));
        assert!(recorded.check(&run.join("b.csv")).unwrap_err().to_string().contains("in ") );
        assert!(recorded.check_run(&run, &manifest, &["b.csv"]).is_err());
    }

    #[test]
    fn a_listed_file_is_left_out_only_when_its_game_says_so() {
        let root = tempfile::tempdir().unwrap();
        let run = root.path().join("run");
        std::fs::create_dir_all(run.join("values")).unwrap();
        std::fs::write(run.join("a.csv"), "a\n").unwrap();
        std::fs::write(run.join("values/v.csv"), "v\n").unwrap();
        let mut manifest = crate::output::manifest::RunClock::start(vec!["sprague".into(), "prove".into()], 1).finish(&run, &["a.csv", "values/v.csv"]).unwrap();
        std::fs::remove_file(run.join("values/v.csv")).unwrap();
        let toy_values: Omitted = |game, name| game == "toy" && name.starts_with("values/");
        let mut check = |game: &str, omitted: Omitted| {
            manifest.parameters.insert("game".into(), game.into());
            Recorded::read(root.path(), omitted).unwrap().check_run(&run, &manifest, &[])
        };
        check("toy", toy_values).unwrap();
        assert!(check("toy", |_, _| false).is_err());
        assert!(check("other", toy_values).is_err());
    }

    #[test]
    fn a_sums_path_that_leads_out_of_the_tree_is_refused() {
        let digest = "0".repeat(64);
        let text = format!("{digest}  ./run/a.csv\n{digest}  run/../../b.csv\n{digest}  /etc/hostname\nnot a line\n");
        let lines: Vec<_> = sums_lines(&text).collect();
        assert_eq!(lines[0], Ok((digest.as_str(), "./run/a.csv")));
        assert_eq!(lines[1], Err("line 2: path \"run/../../b.csv\" leads out of the tree (absolute, or through ..); refusing to read it".to_string()));
        assert!(lines[2].as_ref().is_err_and(|why| why.starts_with("line 3: path \"/etc/hostname\" leads out")));
        assert_eq!(lines[3], Err("line 4: not HEX  PATH".to_string()));
        // merge and report, which read the digests through Recorded, refuse the tree.
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join(SUMS), format!("{digest}  ../b.csv\n")).unwrap();
        let error = Recorded::read(root.path(), |_, _| false).err().expect("refused").to_string();
        assert!(error.ends_with("SHA256SUMS: line 1: path \"../b.csv\" leads out of the tree (absolute, or through ..); refusing to read it"), "{error}");
    }
}
