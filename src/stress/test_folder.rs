//! `--save-tests DIR`: inputs and their trusted answers as a problem package's test folder —
//! `DIR/001.in`, `DIR/001.ans`, `002.in`, … (the layout testlib, oj and rbx users keep),
//! written atomically. Numbered files already there are refused unless overwriting is asked.

use crate::error::{Error, Result};
use crate::output::atomic::{create_dir, write_bytes_atomic};
use std::path::{Path, PathBuf};

/// The files of test `number` (1-based) in `dir`: its input and its answer.
fn files(dir: &Path, number: usize) -> [PathBuf; 2] {
    ["in", "ans"].map(|ext| dir.join(format!("{number:03}.{ext}")))
}

/// Refuses (a usage error) when any of the files of tests 1..=`count` exists in `dir`, unless
/// `overwrite`.
pub fn check_free(dir: &Path, count: usize, overwrite: bool) -> Result<()> {
    if overwrite {
        return Ok(());
    }
    match (1..=count).flat_map(|n| files(dir, n)).find(|f| f.exists()) {
        Some(taken) => Err(Error::Usage(format!("--save-tests: {} already exists (--overwrite replaces the numbered tests)", taken.display()))),
        None => Ok(()),
    }
}

/// Writes `tests` (input, answer) as tests 001, 002, … in `dir` (created if needed); an answer
/// gets a final line end. The paths of the inputs.
pub fn save(dir: &Path, tests: &[(Vec<u8>, String)], overwrite: bool) -> Result<Vec<PathBuf>> {
    check_free(dir, tests.len(), overwrite)?;
    create_dir(dir)?;
    let mut inputs = Vec::new();
    for (i, (input, answer)) in tests.iter().enumerate() {
        let [in_file, ans_file] = files(dir, i + 1);
        let answer = if answer.ends_with('\n') { answer.clone() } else { format!("{answer}\n") };
        write_bytes_atomic(&ans_file, answer.as_bytes())?;
        write_bytes_atomic(&in_file, input)?;
        inputs.push(in_file);
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_from_one_and_never_over_existing_files() {
        let dir = tempfile::tempdir().unwrap();
        let tests = dir.path().join("tests");
        let saved = save(&tests, &[(b"1 2\n".to_vec(), "3".into()), (b"5\n".to_vec(), "5\n".into())], false).unwrap();
        assert_eq!(saved, [tests.join("001.in"), tests.join("002.in")]);
        assert_eq!(std::fs::read(tests.join("001.ans")).unwrap(), b"3\n");
        assert_eq!(std::fs::read(tests.join("002.in")).unwrap(), b"5\n");
        let refused = save(&tests, &[(b"9\n".to_vec(), "9".into())], false).unwrap_err().to_string();
        assert!(refused.contains("001.in already exists") && refused.contains("--overwrite"), "{refused}");
        assert_eq!(std::fs::read(tests.join("001.in")).unwrap(), b"1 2\n", "left alone");
        assert!(check_free(&tests, 3, true).is_ok() && check_free(&dir.path().join("none"), 3, false).is_ok());
        save(&tests, &[(b"9\n".to_vec(), "9".into())], true).unwrap();
        assert_eq!(std::fs::read(tests.join("001.in")).unwrap(), b"9\n");
    }
}
