//! Saving failures: `DIR/failures/NNN.in` (shrunk input), `NNN.ans` (trusted answer),
//! `NNN.orig.in` (input as generated), `NNN.err` (the program's stderr on the shrunk input)
//! and `DIR/failures.csv`, every file written atomically.

use super::outcome::FailureKind;
use crate::error::Result;
use crate::output::atomic::write_bytes_atomic;
use crate::output::csv::{write_csv, CsvRecord};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// File name of the failure list in a stress output directory.
pub const FAILURES_CSV: &str = "failures.csv";
/// Folder of the saved inputs and answers.
pub const FAILURES_DIR: &str = "failures";

/// One row of failures.csv.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRow {
    /// File stem in failures/ (`001`, `002`, ...).
    pub id: String,
    pub kind: FailureKind,
    /// Which generator produced the original input.
    pub source: String,
    pub size_before: String,
    pub size_after: String,
    /// The size shrinking reached; `size_after` is smaller when the search found a smaller
    /// failing input.
    pub size_shrunk: String,
    pub expected: String,
    pub got: String,
    pub exit_status: String,
    /// CPU seconds the program (and its children) used on the shrunk input.
    pub seconds: f64,
    /// Reductions taken while shrinking, and whether a fixpoint was reached.
    pub shrink_steps: usize,
    pub minimal: bool,
    /// True when every input smaller than the saved one (in the game's size order) was judged
    /// and passed; false when it is only locally minimal.
    pub smallest: bool,
    /// How the search for a smaller failing input went ([`super::smallest::Search::text`]).
    pub searched: String,
    /// Where the program first goes wrong ([`super::smallest::cause`]; empty when the game
    /// names no parts or the search was off).
    pub cause: String,
    /// Why the output was refused, or the end of stderr.
    pub detail: String,
}

impl CsvRecord for FailureRow {
    const HEADER: &'static [&'static str] = &[
        "id", "kind", "source", "size_before", "size_after", "size_shrunk", "expected", "got", "exit_status", "seconds",
        "shrink_steps", "minimal", "smallest", "searched", "cause", "detail",
    ];
}

/// The texts saved for one failure.
pub struct FailureFiles<'a> {
    pub original_input: &'a [u8],
    pub shrunk_input: &'a [u8],
    /// The trusted answer, as `sprague solve` prints it (a line end is added when missing).
    pub answer: &'a str,
    /// The program's stderr on the shrunk input.
    pub stderr: &'a [u8],
}

/// The failures of one stress run, saved as they are found.
pub struct FailureLog {
    dir: PathBuf,
    rows: Vec<FailureRow>,
}

impl FailureLog {
    /// A log writing into `dir` (the stress output directory); writes an empty failures.csv.
    /// The saved files of an earlier run in `dir` are removed first.
    pub fn create(dir: &Path) -> Result<Self> {
        let log = FailureLog { dir: dir.to_path_buf(), rows: Vec::new() };
        remove_saved(&dir.join(FAILURES_DIR))?;
        write_csv(&log.dir.join(FAILURES_CSV), &log.rows)?;
        Ok(log)
    }

    /// Saves the files of the next failure and rewrites failures.csv; `row.id` is assigned
    /// here. Returns the path of the saved `.in` file.
    pub fn save(&mut self, mut row: FailureRow, files: &FailureFiles<'_>) -> Result<PathBuf> {
        row.id = format!("{:03}", self.rows.len() + 1);
        let folder = self.dir.join(FAILURES_DIR);
        let answer = if files.answer.ends_with('\n') { files.answer.to_string() } else { format!("{}\n", files.answer) };
        write_bytes_atomic(&folder.join(format!("{}.orig.in", row.id)), files.original_input)?;
        write_bytes_atomic(&folder.join(format!("{}.ans", row.id)), answer.as_bytes())?;
        write_bytes_atomic(&folder.join(format!("{}.err", row.id)), files.stderr)?;
        let input = folder.join(format!("{}.in", row.id));
        write_bytes_atomic(&input, files.shrunk_input)?;
        self.rows.push(row);
        write_csv(&self.dir.join(FAILURES_CSV), &self.rows)?;
        Ok(input)
    }

    pub fn rows(&self) -> &[FailureRow] {
        &self.rows
    }

    /// The names of the files saved so far, relative to the output directory (for the manifest).
    pub fn files(&self) -> Vec<String> {
        let mut out = vec![FAILURES_CSV.to_string()];
        for row in &self.rows {
            out.extend(SAVED.map(|ext| format!("{FAILURES_DIR}/{}.{ext}", row.id)));
        }
        out
    }
}

/// The extensions of the files saved per failure.
const SAVED: [&str; 4] = ["in", "ans", "orig.in", "err"];

/// Removes the files a [`FailureLog`] saves (`NNN.in`, `.ans`, `.orig.in`, `.err`) from `folder`;
/// anything else there is left alone.
pub(super) fn remove_saved(folder: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stem = ["orig.in", "in", "ans", "err"].iter().find_map(|ext| name.strip_suffix(&format!(".{ext}")));
        if stem.is_some_and(|s| s.len() >= 3 && s.bytes().all(|b| b.is_ascii_digit())) {
            std::fs::remove_file(entry.path()).map_err(|e| crate::Error::io(entry.path(), e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::csv::read_csv;

    #[test]
    fn saves_numbered_files_and_csv() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = FailureLog::create(dir.path()).unwrap();
        assert!(read_csv::<FailureRow>(&dir.path().join(FAILURES_CSV)).unwrap().is_empty());
        let row = FailureRow {
            id: String::new(),
            kind: FailureKind::WrongAnswer,
            source: "random".into(),
            size_before: "3x3".into(),
            size_after: "1x3".into(),
            size_shrunk: "2x2".into(),
            expected: "Second".into(),
            got: "First".into(),
            exit_status: "exit 0".into(),
            seconds: 0.001,
            shrink_steps: 4,
            minimal: true,
            smallest: true,
            searched: "smallest: every smaller input passed (3 runs)".into(),
            cause: String::new(),
            detail: String::new(),
        };
        let files = FailureFiles { original_input: b"3 3\n...\n...\n...\n", shrunk_input: b"1 3\n.X.\n", answer: "Second", stderr: b"trace\n" };
        let path = log.save(row.clone(), &files).unwrap();
        assert!(path.ends_with("failures/001.in"));
        assert_eq!(std::fs::read(dir.path().join("failures/001.ans")).unwrap(), b"Second\n");
        assert_eq!(std::fs::read(dir.path().join("failures/001.orig.in")).unwrap(), files.original_input);
        assert_eq!(std::fs::read(dir.path().join("failures/001.err")).unwrap(), b"trace\n");
        log.save(row, &files).unwrap();
        let rows = read_csv::<FailureRow>(&dir.path().join(FAILURES_CSV)).unwrap();
        assert_eq!(rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["001", "002"]);
        assert_eq!(rows[0].kind, FailureKind::WrongAnswer);
        assert_eq!(log.files()[..2], ["failures.csv".to_string(), "failures/001.in".into()]);
        std::fs::write(dir.path().join("failures/notes.txt"), "mine").unwrap();
        let again = FailureLog::create(dir.path()).unwrap();
        assert!(again.rows().is_empty() && !dir.path().join("failures/002.ans").exists());
        assert!(dir.path().join("failures/notes.txt").exists(), "other files are kept");
    }
}
