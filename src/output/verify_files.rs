//! The names of a run directory's files (summary.csv, distribution.csv, mismatches.csv,
//! manifest.json, checkpoint.json), their rows as read under the column names their headers
//! give, and the run directories of a tree.

use super::csv::{read_csv_headed, read_header};
use super::manifest::Manifest;
use super::records::{Columns, DistributionRow, MismatchRow, SummaryRow, ANSWER};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const SUMMARY: &str = "summary.csv";
pub const DISTRIBUTION: &str = "distribution.csv";
pub const MISMATCHES: &str = "mismatches.csv";
pub const MANIFEST: &str = "manifest.json";
/// The resumable state of an unfinished `verify` or `census` run (the parallel runner's).
pub const CHECKPOINT: &str = "checkpoint.json";
/// The mark of an unfinished run of a resumable command that keeps its state in files of its
/// own (`prove octal-family`'s rows/): the command line that goes on with it, as JSON.
pub const UNFINISHED: &str = "unfinished.json";

/// The rows of the verify files of one directory, as written, and the column names they were
/// read with.
#[derive(Debug, Clone)]
pub struct VerifyRows {
    pub columns: Columns,
    pub summary: Vec<SummaryRow>,
    pub distribution: Vec<DistributionRow>,
    pub mismatches: Vec<MismatchRow>,
}

impl VerifyRows {
    /// Reads summary.csv, distribution.csv and (when present) mismatches.csv of `dir` under the
    /// column names their headers give (for a caller that does not know the game): summary.csv
    /// names the size columns, which the other two must repeat; distribution.csv names the key
    /// and mismatches.csv the position column ([`Columns::BOARD`]'s when it is absent) and
    /// whether it ends with [`ANSWER`]. Every other column must be where the format has it; a
    /// summary without rows is an error.
    pub fn read(dir: &Path) -> Result<VerifyRows> {
        // A column a header lacks (or leaves blank) is expected under Columns::BOARD's name, so
        // that the error names a column rather than a blank.
        let name = |header: &[String], at: usize, default: &'static str| match header.get(at).filter(|n| !n.is_empty()) {
            Some(name) => Columns::intern(name),
            None => default,
        };
        let summary = read_header(&dir.join(SUMMARY))?;
        let mismatches = dir.join(MISMATCHES);
        let mismatches = if mismatches.exists() { read_header(&mismatches)? } else { Vec::new() };
        let [rows, cols] = Columns::BOARD.size;
        let columns = Columns {
            size: [name(&summary, 2, rows), name(&summary, 3, cols)],
            key: name(&read_header(&dir.join(DISTRIBUTION))?, 4, Columns::BOARD.key),
            position: name(&mismatches, 4, Columns::BOARD.position),
            answer: mismatches.get(8).is_some_and(|n| n == ANSWER),
        };
        Self::read_as(dir, columns)
    }

    /// Reads the files like [`VerifyRows::read`], each header checked against `columns` (the
    /// columns of the game the caller knows the directory holds).
    pub fn read_as(dir: &Path, columns: Columns) -> Result<VerifyRows> {
        let summary_path = dir.join(SUMMARY);
        let summary: Vec<SummaryRow> = read_csv_headed(&summary_path, &columns.summary())?;
        if summary.is_empty() {
            return Err(Error::malformed(&summary_path, "no rows"));
        }
        let mismatches_path = dir.join(MISMATCHES);
        Ok(VerifyRows {
            columns,
            summary,
            distribution: read_csv_headed(&dir.join(DISTRIBUTION), &columns.distribution())?,
            mismatches: if mismatches_path.exists() { read_mismatches(&mismatches_path, columns)? } else { Vec::new() },
        })
    }

    /// Whether the summary agrees with the distribution: each size's patterns, P-positions and
    /// largest value are what its distribution rows sum to, no size has two summary rows and
    /// every size of the distribution has one; `Err` names the first line that disagrees.
    pub fn consistency(&self) -> std::result::Result<(), String> {
        let mut sums: BTreeMap<(u32, u32), (u64, u64, u32)> = BTreeMap::new();
        for d in &self.distribution {
            let (patterns, zeros, max) = sums.entry((d.rows, d.cols)).or_default();
            *patterns = patterns.saturating_add(d.patterns);
            *zeros = zeros.saturating_add(if d.grundy == 0 { d.patterns } else { 0 });
            *max = (*max).max(d.grundy);
        }
        let mut seen: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for (i, row) in self.summary.iter().enumerate() {
            let (line, size) = (i + 2, (row.rows, row.cols));
            if let Some(first) = seen.insert(size, line) {
                return Err(format!("line {line}: {}x{} repeats the size of line {first}", row.rows, row.cols));
            }
            let derived = sums.get(&size).copied().unwrap_or_default();
            if derived != (row.patterns, row.p_positions, row.max_grundy) {
                return Err(format!(
                    "line {line}: {}x{} says patterns/p_positions/max_grundy {}/{}/{} but {DISTRIBUTION} sums to {}/{}/{}",
                    row.rows, row.cols, row.patterns, row.p_positions, row.max_grundy, derived.0, derived.1, derived.2
                ));
            }
        }
        match self.distribution.iter().enumerate().find(|(_, d)| !seen.contains_key(&(d.rows, d.cols))) {
            Some((i, d)) => Err(format!("{DISTRIBUTION} line {}: size {}x{} has no row in {SUMMARY}", i + 2, d.rows, d.cols)),
            None => Ok(()),
        }
    }

    /// [`VerifyRows::consistency`] as an error naming summary.csv of `dir`, the directory the
    /// rows were read from.
    pub fn check_consistent(&self, dir: &Path) -> Result<()> {
        self.consistency().map_err(|why| Error::malformed(dir.join(SUMMARY), why))
    }
}

/// The rows of mismatches.csv at `path` under `columns`: each must name an answer when the
/// columns have that column (a blank one is refused; an unknown one fails to read).
fn read_mismatches(path: &Path, columns: Columns) -> Result<Vec<MismatchRow>> {
    let rows: Vec<MismatchRow> = read_csv_headed(path, &columns.mismatches())?;
    for (i, row) in rows.iter().enumerate() {
        columns.check_answer(row).map_err(|why| Error::malformed(path, format!("line {}: {why}", i + 2)))?;
    }
    Ok(rows)
}

/// The game named by the first row of `dir`'s summary.csv (whose columns its files should
/// have), `None` when the file has no row to read it from.
pub fn first_game(dir: &Path) -> Result<Option<String>> {
    let path = dir.join(SUMMARY);
    let file = super::atomic::open_regular(&path).map_err(|e| Error::io(&path, e))?;
    let first = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(file).records().next();
    Ok(first.and_then(|row| row.ok()).and_then(|row| row.get(0).map(str::to_string)))
}

/// The kinds of run of the parallel runner ([`crate::runner`]), whose files are the verify
/// files (summary.csv, distribution.csv, mismatches.csv) and which alone continue a checkpoint;
/// a merge of their shards is of the kind it merged ([`Manifest::kind`]).
pub const RUNNER_KINDS: [&str; 2] = ["verify", "census"];

/// Whether `manifest` records a run of the parallel runner: its kind is one of
/// [`RUNNER_KINDS`] (or it names no command), or it records its shard as only the runner does
/// (a program using the library runs one under its own command line). Another command's
/// (`table octal --stats`, `prove`, `stress`) does not, whatever files lie beside it.
pub fn records_verify_run(manifest: &Manifest) -> bool {
    let kind = manifest.kind();
    kind.as_deref().is_none_or(|kind| RUNNER_KINDS.contains(&kind)) || manifest.parameters.contains_key("shard")
}

/// Directories under `root` (itself included, as `.`) holding a manifest.json, relative and
/// '/'-separated, each with whether it holds a verify run: a summary.csv beside a manifest that
/// records one ([`records_verify_run`]) or that cannot be read (what is wrong with it is then
/// the run's damage). Another command's output is not one, though it may hold a summary.csv.
pub fn manifest_dirs(root: &Path) -> Vec<(String, bool)> {
    let holds_run = |dir: &Path| {
        let recorded = Manifest::read_unsealed(&dir.join(MANIFEST)).map(|(manifest, _)| records_verify_run(&manifest));
        dir.join(SUMMARY).is_file() && recorded.unwrap_or(true)
    };
    (tree_dirs(root).into_iter()).filter(|(_, dir)| dir.join(MANIFEST).is_file()).map(|(rel, dir)| (rel, holds_run(&dir))).collect()
}

/// Whether `dir` holds neither a manifest.json nor a checkpoint.json: nothing in it is sealed,
/// nor is a run in progress there, so a run's files in it (summary.csv) cannot be checked.
pub fn unsealed(dir: &Path) -> bool {
    !dir.join(MANIFEST).exists() && !dir.join(CHECKPOINT).exists()
}

/// Every directory under `root` (itself first, as `.`), relative and '/'-separated, with its
/// path, depth first in name order ([`walk_tree`]'s directories).
pub fn tree_dirs(root: &Path) -> Vec<(String, PathBuf)> {
    walk_tree(root).dirs
}

/// The path of directory `rel` under `root`, as [`tree_dirs`] names it: `root` itself for `.`
/// (so that its files are named `run/summary.csv`, not `run/./summary.csv`).
pub fn dir_under(root: &Path, rel: &str) -> PathBuf {
    if rel == "." { root.to_path_buf() } else { root.join(rel) }
}

/// What [`walk_tree`] found under a root.
#[derive(Debug, Default)]
pub struct Walk {
    /// Every directory reached (the root first, as `.`), relative and '/'-separated, with its path.
    pub dirs: Vec<(String, PathBuf)>,
    /// Directories the walk could not list in full, with why: one that cannot be read, or one
    /// holding an entry out of reach (a path longer than the system allows, PATH_MAX).
    pub unreachable: Vec<(PathBuf, std::io::Error)>,
}

/// Why directory `dir` could not be walked in full (`error`, from [`Walk::unreachable`]):
/// `cannot be walked in full: …`, saying when a path under it is too long (PATH_MAX).
pub fn unwalked_text(dir: &Path, error: std::io::Error) -> String {
    let too_long = error.raw_os_error() == Some(libc::ENAMETOOLONG);
    let why = crate::error::Error::io(dir, error).describe();
    let hint = if too_long { " (a path under it is longer than the system allows, PATH_MAX)" } else { "" };
    format!("cannot be walked in full: {why}{hint}")
}

/// Walks every directory under `root`, depth first in name order, and names those it could not
/// list in full (or whose name is not UTF-8) rather than skipping what lies under them. Symbolic links to directories are
/// not followed, so a link back up the tree (`a/up -> ..`) is not walked again and again.
pub fn walk_tree(root: &Path) -> Walk {
    let mut walk = walk_tree_with(root, |_, meta| if meta.is_dir() { Visit::Descend } else { Visit::Pass });
    // A directory whose name is not UTF-8: its runs could be named (and found again) only
    // lossily, so it is named as not walked, and nothing under it is taken.
    let (named, unnamed): (Vec<_>, Vec<_>) = walk.dirs.into_iter().partition(|(_, dir)| dir.to_str().is_some());
    walk.dirs = named;
    let first = unnamed.into_iter().filter(|(_, dir)| dir.parent().is_some_and(|parent| parent.to_str().is_some()));
    walk.unreachable.extend(first.map(|(_, dir)| (dir, std::io::Error::new(std::io::ErrorKind::InvalidData, "its name is not UTF-8 (rename it)"))));
    walk
}

/// What [`walk_tree_with`] does after showing its visitor an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Walk into it (a directory) once its parent has been read.
    Descend,
    /// Go on to the next entry without walking into this one.
    Pass,
    /// End the whole walk here.
    Stop,
}

/// [`walk_tree`] with `visit` shown each entry's path and metadata (a symlink's own) as its
/// directory is read, saying which directories to walk into and when to stop: a directory it
/// does not walk into is neither reached nor named unreachable.
pub fn walk_tree_with(root: &Path, mut visit: impl FnMut(&Path, &std::fs::Metadata) -> Visit) -> Walk {
    /// Walks `dir`; false once `visit` has stopped the walk.
    fn walk(root: &Path, dir: &Path, out: &mut Walk, visit: &mut dyn FnMut(&Path, &std::fs::Metadata) -> Visit) -> bool {
        let rel = dir.strip_prefix(root).expect("walk stays under root");
        let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        out.dirs.push((if parts.is_empty() { ".".to_string() } else { parts.join("/") }, dir.to_path_buf()));
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                out.unreachable.push((dir.to_path_buf(), e));
                return true;
            }
        };
        let mut subdirs = Vec::new();
        let mut unreachable = None;
        let mut going = true;
        for entry in entries {
            // An entry whose path the system refuses (too long) is not read by anything later.
            match entry.and_then(|entry| std::fs::symlink_metadata(entry.path()).map(|meta| (entry, meta))) {
                Ok((entry, meta)) => match visit(&entry.path(), &meta) {
                    Visit::Descend if meta.is_dir() => subdirs.push(entry.path()),
                    Visit::Descend | Visit::Pass => {}
                    Visit::Stop => {
                        going = false;
                        break;
                    }
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => unreachable = unreachable.or(Some(e)),
            }
        }
        out.unreachable.extend(unreachable.map(|e| (dir.to_path_buf(), e)));
        subdirs.sort();
        going && subdirs.iter().all(|sub| walk(root, sub, out, visit))
    }
    let mut out = Walk::default();
    walk(root, root, &mut out, &mut visit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_a_header_lacks_is_expected_under_the_board_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SUMMARY), "game,rule\nsome,standard,1,1,1,0,0,1\n").unwrap();
        std::fs::write(dir.path().join(DISTRIBUTION), "game,rule\n").unwrap();
        let message = VerifyRows::read(dir.path()).unwrap_err().to_string();
        assert!(message.contains(r#"expected ["game", "rule", "rows", "cols", "patterns","#), "{message}");
        assert_eq!(first_game(dir.path()).unwrap().as_deref(), Some("some"));
    }

    #[test]
    fn an_answer_column_is_read_from_the_header_and_required_in_every_row() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SUMMARY), "game,rule,rows,size,patterns,mismatches,p_positions,max_grundy\nc,e,1,2,1,1,0,0\n").unwrap();
        std::fs::write(dir.path().join(DISTRIBUTION), "game,rule,rows,size,parts,grundy,patterns\nc,e,1,2,0,0,1\n").unwrap();
        let header = "game,rule,rows,size,position,dp_grundy,naive_grundy,naive_outcome,answer\n";
        std::fs::write(dir.path().join(MISMATCHES), format!("{header}c,e,1,2,2,0,2,First,components\n")).unwrap();
        let rows = VerifyRows::read(dir.path()).unwrap();
        assert!(rows.columns.answer && rows.columns.to_string().ends_with(",answer"));
        assert_eq!(rows.mismatches[0].answer, Some(crate::output::records::Answer::Components));
        std::fs::write(dir.path().join(MISMATCHES), format!("{header}c,e,1,2,2,0,2,First,\n")).unwrap();
        let message = VerifyRows::read(dir.path()).unwrap_err().to_string();
        assert!(message.contains("mismatches.csv: line 2: no answer (expected claim or components)"), "{message}");
        let without = Columns { size: ["rows", "size"], key: "parts", position: "position", answer: false };
        let message = VerifyRows::read_as(dir.path(), without).unwrap_err().to_string();
        assert!(message.contains(r#"line 1: header is ["game", "rule", "rows", "size", "position", "dp_grundy", "naive_grundy", "naive_outcome", "answer"], expected"#), "{message}");
    }

    /// A summary.csv beside a manifest is a verify run's only when the manifest records one
    /// (or cannot be read): `table octal --stats` writes a summary.csv of its own.
    #[test]
    fn a_run_is_told_by_the_command_its_manifest_records() {
        let dir = tempfile::tempdir().unwrap();
        let seal = |name: &str, command: &str, shard: bool| {
            let run = dir.path().join(name);
            std::fs::create_dir(&run).unwrap();
            std::fs::write(run.join(SUMMARY), "x\n").unwrap();
            let line = command.split(' ').map(str::to_string).collect();
            let mut manifest = super::super::manifest::RunClock::start(line, 1).finish(&run, &[SUMMARY]).unwrap();
            if shard {
                manifest.parameters.insert("shard".into(), "1/1".into());
            }
            manifest.write(&run.join(MANIFEST)).unwrap();
        };
        seal("census", "sprague census wall --size 2x2", false);
        seal("library", "./subtraction 50 out", true);
        seal("merged", "sprague merge a b", false);
        seal("stats", "sprague table octal 0.07 --max 100 --stats stats", false);
        seal("stress", "sprague stress nim --cmd c", false);
        seal("verify", "sprague verify nim --max 2", false);
        std::fs::create_dir(dir.path().join("unreadable")).unwrap();
        std::fs::write(dir.path().join("unreadable").join(MANIFEST), "{").unwrap();
        std::fs::write(dir.path().join("unreadable").join(SUMMARY), "x\n").unwrap();
        let runs: Vec<String> = manifest_dirs(dir.path()).into_iter().filter(|(_, run)| *run).map(|(rel, _)| rel).collect();
        assert_eq!(runs, ["census", "library", "merged", "unreadable", "verify"]);
    }

    /// The visitor decides what is walked into, and a stop ends the whole walk.
    #[test]
    fn the_visitor_chooses_the_directories_and_stops_the_walk() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["a/x", "b", ".hidden/y"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let names = |walk: Walk| walk.dirs.into_iter().map(|(rel, _)| rel).collect::<Vec<_>>();
        let not_hidden = walk_tree_with(dir.path(), |path, meta| match path.file_name().unwrap().to_string_lossy().starts_with('.') {
            false if meta.is_dir() => Visit::Descend,
            _ => Visit::Pass,
        });
        assert_eq!(names(not_hidden), [".", "a", "a/x", "b"]);
        let mut seen = 0;
        let stopped = walk_tree_with(dir.path(), |_, _| {
            seen += 1;
            if seen == 4 { Visit::Stop } else { Visit::Descend }
        });
        assert_eq!(seen, 4, "nothing is shown after the stop");
        assert_eq!(stopped.dirs.len(), 2, "the root and the first directory in name order: {:?}", stopped.dirs);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_back_up_the_tree_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("a/run");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join(MANIFEST), "{}").unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("a/up")).unwrap();
        assert_eq!(manifest_dirs(dir.path()), [("a/run".to_string(), false)]);
        let names: Vec<String> = tree_dirs(dir.path()).into_iter().map(|(rel, _)| rel).collect();
        assert_eq!(names, [".", "a", "a/run"]);
    }
}
