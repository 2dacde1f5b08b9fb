//! What an output directory already holds when a run takes it: files no sprague run recorded, another kind of run's results, another game's, or an unfinished run the command cannot continue, are refused; an earlier run of the same kind and game is replaced, and the files it listed that the new run does not write are removed.

use super::lock::LOCK_FILE;
use super::manifest::Manifest;
use super::verify_files::{walk_tree_with, Visit, CHECKPOINT, MANIFEST, RUNNER_KINDS, UNFINISHED};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Component, Path};

/// Admits a run of `kind` and `game` invoked as `command_line` (`sprague VERB GAME …`) into
/// `dir`, which it has locked: refuses an unfinished run it cannot continue, the results of
/// another kind of run (a merge is of the kind of the runs it merges: it may replace only one
/// of those) and those of another game ([`refuse_other_game`]).
pub fn admit(dir: &Path, command_line: &[String], kind: &str, game: &str) -> Result<()> {
    let Some(verb) = command_line.get(1).map(String::as_str) else { return Ok(()) };
    refuse_unfinished(dir, command_line)?;
    let checkpoint = dir.join(CHECKPOINT);
    if checkpoint.exists() && !RUNNER_KINDS.contains(&verb) {
        return Err(Error::Usage(format!(
            "{} holds an unfinished verify or census run ({}): continue it with that command and --resume, or choose another --out",
            dir.display(),
            checkpoint.display()
        )));
    }
    let path = dir.join(MANIFEST);
    if !path.exists() {
        return Ok(());
    }
    let (earlier, _) = Manifest::read_unsealed(&path).map_err(|e| {
        Error::Usage(format!("{} holds a manifest sprague cannot read ({e}); choose another --out, or delete it", dir.display()))
    })?;
    match earlier.kind() {
        Some(earlier_kind) if earlier_kind == kind => refuse_other_game(dir, game),
        _ => Err(Error::Usage(format!(
            "{} holds the results of another kind of run (`{}`, {MANIFEST}); choose another --out, or delete them first",
            dir.display(),
            earlier.command_line.join(" ")
        ))),
    }
}

/// The command (`sprague VERB GAME`) of a command line: what may go on with an unfinished run.
fn command_of(command_line: &[String]) -> &[String] {
    &command_line[..command_line.len().min(3)]
}

/// Refuses a run into `dir` holding the [`UNFINISHED`] mark of another command's run (a
/// stopped `prove octal-family`, whose rows no manifest lists yet): only that command goes on
/// with it. A mark that cannot be read is refused too.
pub fn refuse_unfinished(dir: &Path, command_line: &[String]) -> Result<()> {
    let path = dir.join(UNFINISHED);
    if path.symlink_metadata().is_err() {
        return Ok(());
    }
    let recorded: Option<Vec<String>> = std::fs::read(&path).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
    match recorded {
        Some(earlier) if command_of(&earlier) == command_of(command_line) => Ok(()),
        Some(earlier) => Err(Error::Usage(format!(
            "{} holds an unfinished run (`{}`, {UNFINISHED}): go on with it by running that command again, or choose another --out",
            dir.display(),
            earlier.join(" ")
        ))),
        None => Err(Error::Usage(format!("{} is not the mark of an unfinished run sprague can read; choose another --out, or delete the directory", path.display()))),
    }
}

/// Marks `dir` as holding the unfinished run of `command_line` ([`UNFINISHED`]) until
/// [`mark_finished`]: a run of another command is refused there meanwhile.
pub fn mark_unfinished(dir: &Path, command_line: &[String]) -> Result<()> {
    let json = serde_json::to_vec(command_line).map_err(|e| Error::Usage(format!("the command line cannot be written as JSON: {e}")))?;
    super::atomic::write_bytes_atomic(&dir.join(UNFINISHED), &json)
}

/// Removes the [`UNFINISHED`] mark of a run that has finished.
pub fn mark_finished(dir: &Path) -> Result<()> {
    super::atomic::remove_if_present(&dir.join(UNFINISHED))
}

/// How many of a directory's unrecorded files [`refuse_unrecorded`] names.
const NAMED_FILES: usize = 3;

/// Refuses, before a run locks `dir`, a directory that holds files of its own (not hidden)
/// while nothing says a sprague run wrote there: no manifest, no checkpoint and no lock left
/// by an earlier run ([`LOCK_FILE`], which a killed run leaves too). Their names may be the
/// ones this run writes (a user's own summary.csv, or the statistics of a sprague too old to
/// seal them), and nothing could tell them apart from its output after. The files at its top
/// count, and those in the `subdirs` the run writes into or clears (`stress`'s `failures/`),
/// named with their path (`failures/001.in`); other subdirectories are left alone: they are
/// other runs' (`out/stress` under `out`) or the user's, and a run writes its files beside
/// them. A `dir` not there yet, or one that cannot be listed, is left to the lock to create
/// or to refuse.
pub fn refuse_unrecorded(dir: &Path, subdirs: &[&str]) -> Result<()> {
    if [MANIFEST, CHECKPOINT, UNFINISHED, LOCK_FILE].iter().any(|name| dir.join(name).symlink_metadata().is_ok()) {
        return Ok(());
    }
    let mut files = top_files(dir);
    for sub in subdirs {
        tree_files(&dir.join(sub), &format!("{}/", sub.trim_end_matches('/')), MAX_DEPTH, &mut files);
    }
    if files.is_empty() {
        return Ok(());
    }
    files.sort();
    let more = files.len().saturating_sub(NAMED_FILES);
    let mut named = files[..files.len() - more].join(", ");
    if more > 0 {
        named.push_str(&format!(" and {more} more"));
    }
    Err(Error::Usage(format!(
        "{} holds files no sprague run recorded ({named}; no {MANIFEST}): this run would write its results among them and could overwrite them; choose another --out (a new or empty directory), or move them away first",
        dir.display()
    )))
}

/// How deep [`refuse_unrecorded`] looks into a subdirectory a run writes into.
const MAX_DEPTH: usize = 8;

/// The names of the entries at the top of `dir` that are neither hidden nor directories.
fn top_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.') && !dir.join(name).is_dir())
        .collect()
}

/// Pushes onto `files` the paths (after `prefix`) of what `dir` holds that is not hidden: its
/// files and links, and the entries of its real subdirectories down to `depth` more levels
/// (a subdirectory deeper down is one entry), found by the shared [`walk_tree_with`].
fn tree_files(dir: &Path, prefix: &str, depth: usize, files: &mut Vec<String>) {
    walk_tree_with(dir, |path, meta| {
        let Ok(rel) = path.strip_prefix(dir) else { return Visit::Pass };
        if path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.')) {
            return Visit::Pass;
        }
        if meta.is_dir() && rel.components().count() <= depth {
            return Visit::Descend;
        }
        files.push(format!("{prefix}{}", rel.to_string_lossy()));
        Visit::Pass
    });
}

/// Refuses an output file `out` (`--out FILE`) that lies in another run's directory: one that
/// a run holds now (its `.sprague.lock`), or one whose manifest lists a file of that name,
/// written by another command (the run's own command may write it again: `table octal --out
/// st/v.bin --stats st`). `table wall-empty --out pr/proof.bin` once replaced a proof's file.
pub fn refuse_run_file(out: &Path, command_line: &[String]) -> Result<()> {
    let dir = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if super::lock::is_held(&dir.join(LOCK_FILE)) {
        let holder = super::lock::recorded_command(&dir.join(LOCK_FILE)).map_or_else(String::new, |command| format!(" (`{command}`)"));
        return Err(Error::Usage(format!("{}: its directory {} is in use by another run{holder}; choose another --out", out.display(), dir.display())));
    }
    let Some(name) = out.file_name().and_then(|n| n.to_str()) else { return Ok(()) };
    let Ok((earlier, _)) = Manifest::read_unsealed(&dir.join(MANIFEST)) else { return Ok(()) };
    let command = |line: &[String]| line.iter().skip(1).take(2).cloned().collect::<Vec<_>>();
    if earlier.files.contains_key(name) && command(&earlier.command_line) != command(command_line) {
        return Err(Error::Usage(format!(
            "{}: a file of the run recorded in {} (`{}`); this run would replace it: choose another --out",
            out.display(),
            dir.join(MANIFEST).display(),
            earlier.command_line.join(" ")
        )));
    }
    Ok(())
}

/// Refuses to let a run of `game` replace the results of another game's run in `dir` (a
/// merge of nim shards must not overwrite a polygon verification), naming both. A game's
/// variant that its manifest records as `code` is a game of its own ([`recorded_game`]): a
/// `table octal 0.137` run does not replace the statistics of 0.07.
fn refuse_other_game(dir: &Path, game: &str) -> Result<()> {
    let path = dir.join(MANIFEST);
    let Ok((earlier, _)) = Manifest::read_unsealed(&path) else { return Ok(()) };
    match recorded_game(&earlier) {
        Some(other) if other != game => Err(Error::Usage(format!(
            "{} holds the results of a run of `{other}` (`{}`, {MANIFEST}), not of `{game}`: this run of `{game}` would replace them; choose another --out, or delete them first",
            dir.display(),
            earlier.command_line.join(" ")
        ))),
        _ => Ok(()),
    }
}

/// The game a manifest's run is of, as [`admit`] compares it ([`game_of`] its parameters).
fn recorded_game(manifest: &Manifest) -> Option<String> {
    game_of(&manifest.parameters)
}

/// The game of a run whose manifest records `parameters`: its `game`, followed by the variant
/// it records, its `code` or its `family` (`octal 0.137`, `octal 0.d1…d3`: [`game_of_code`]);
/// what a run passes to [`super::manifest::RunClock::lock`] when it has its parameters before
/// it runs.
pub fn game_of(parameters: &BTreeMap<String, serde_json::Value>) -> Option<String> {
    let text = |key: &str| parameters.get(key).and_then(|v| v.as_str());
    let game = text("game")?;
    Some(text("code").or_else(|| text("family")).map_or_else(|| game.to_string(), |code| game_of_code(game, code)))
}

/// The game of a run of `game`'s variant `code` (an octal game's code, or the family of codes
/// `0.d1…d3`): `octal 0.137`, what a command passes to [`super::manifest::RunClock::lock`] and
/// its manifest records as `game` and `code` (or `family`).
pub fn game_of_code(game: &str, code: &str) -> String {
    format!("{game} {code}")
}

/// What a run that records `key` = `now` in its manifest (a count: heaps, values) replaces in
/// `dir`, which holds a finished run of the same kind and game with another count, as a line
/// naming both: `replaced the run of 101 heaps in d (`sprague table octal 0.07 --max 100
/// --stats d`) by one of 201 heaps`; `None` when the count is the same or nothing finished is
/// there. Read before the new manifest is written.
pub fn replaced_count(dir: &Path, key: &str, now: u64, what: &str) -> Option<String> {
    replaced_run(dir, &format!("{now} {what}"), |earlier| Some(format!("{} {what}", earlier.get(key)?.as_u64()?)))
}

/// [`replaced_count`] for a run described by more than a count: `describe` says what the
/// earlier run's manifest parameters describe, in the words of `now` (this run's); the line
/// when they differ.
pub fn replaced_run(dir: &Path, now: &str, describe: impl Fn(&BTreeMap<String, serde_json::Value>) -> Option<String>) -> Option<String> {
    let (earlier, _) = Manifest::read_unsealed(&dir.join(MANIFEST)).ok()?;
    replaced_line(dir, &earlier, now, describe)
}

/// [`replaced_run`] for an `earlier` manifest already read (and perhaps [`withdraw`]n).
pub fn replaced_line(dir: &Path, earlier: &Manifest, now: &str, describe: impl Fn(&BTreeMap<String, serde_json::Value>) -> Option<String>) -> Option<String> {
    let before = describe(&earlier.parameters)?;
    (before != now).then(|| format!("replaced the run of {before} in {} (`{}`) by one of {now}", dir.display(), earlier.command_line.join(" ")))
}

/// Removes the manifest of the earlier run in `dir`, for a run that replaces that run's files
/// as it goes: a killed run then leaves no manifest listing files that have changed. Returns
/// it, for [`remove_stale`] once the new run is sealed.
pub fn withdraw(dir: &Path) -> Result<Option<Manifest>> {
    let path = dir.join(MANIFEST);
    if !path.exists() {
        return Ok(None);
    }
    let earlier = Manifest::read_unsealed(&path).ok().map(|(manifest, _)| manifest);
    std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
    Ok(earlier)
}

/// Removes from `dir` the files the `earlier` run listed that the `later` one does not (an
/// option that wrote an extra file, such as `--shrink`'s counterexamples.csv, not given again).
/// Names that leave the directory are never followed.
pub fn remove_stale(dir: &Path, earlier: &Manifest, later: &Manifest) -> Result<()> {
    let inside = |name: &str| Path::new(name).components().all(|c| matches!(c, Component::Normal(_)));
    for name in earlier.files.keys().filter(|name| !later.files.contains_key(*name) && inside(name)) {
        let path = dir.join(name);
        if path.is_file() {
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
            // A subdirectory the file leaves empty goes too (a report's `run/` of a run gone).
            let parents = path.ancestors().skip(1).take_while(|parent| *parent != dir);
            for parent in parents {
                if std::fs::remove_dir(parent).is_err() {
                    break;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::manifest::RunClock;

    fn command(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    fn sealed(dir: &Path, line: &str, files: &[&str]) -> Manifest {
        for name in files {
            std::fs::write(dir.join(name), name).unwrap();
        }
        let manifest = RunClock::start(command(line), 1).finish(dir, files).unwrap();
        manifest.write(&dir.join(MANIFEST)).unwrap();
        manifest
    }

    #[test]
    fn another_kind_of_run_is_refused_and_the_same_kind_admitted() {
        let dir = tempfile::tempdir().unwrap();
        admit(dir.path(), &command("sprague prove wall-empty"), "prove", "wall").unwrap();
        sealed(dir.path(), "sprague prove wall-empty --max 4", &["zeros.csv"]);
        let err = admit(dir.path(), &command("sprague table wall-empty --max 5x5"), "table", "wall").unwrap_err().to_string();
        assert!(err.contains("holds the results of another kind of run (`sprague prove wall-empty --max 4`"), "{err}");
        admit(dir.path(), &command("sprague prove wall-empty --max 8"), "prove", "wall").unwrap();
        sealed(dir.path(), "sprague verify wall --max 2x2", &["summary.csv"]);
        admit(dir.path(), &command("sprague merge a b"), "verify", "wall").unwrap();
        assert!(admit(dir.path(), &command("sprague merge a b"), "census", "wall").is_err(), "a merge of census shards over a verify run");
        assert!(admit(dir.path(), &command("sprague census wall"), "census", "wall").is_err());
        sealed(dir.path(), "sprague census wall --max 2x2", &["summary.csv"]);
        assert!(admit(dir.path(), &command("sprague merge a b"), "verify", "wall").is_err(), "a merge of verify shards over a census run");
        admit(dir.path(), &command("sprague merge a b"), "census", "wall").unwrap();
        std::fs::write(dir.path().join(MANIFEST), "{").unwrap();
        let err = admit(dir.path(), &command("sprague verify wall"), "verify", "wall").unwrap_err().to_string();
        assert!(err.contains("holds a manifest sprague cannot read"), "{err}");
    }

    #[test]
    fn files_no_run_recorded_are_refused_and_a_run_of_sprague_admitted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        refuse_unrecorded(&dir.join("new"), &[]).unwrap();
        std::fs::create_dir_all(dir.join("stress")).unwrap();
        std::fs::create_dir_all(dir.join("shards/1")).unwrap();
        std::fs::write(dir.join("shards/times.tsv"), "the user's").unwrap();
        std::fs::write(dir.join(".notes"), "hidden").unwrap();
        refuse_unrecorded(dir, &["failures"]).expect("subdirectories the run leaves alone and hidden files are not a run's names");
        std::fs::create_dir_all(dir.join("failures/deep")).unwrap();
        std::fs::write(dir.join("failures/001.in"), "mine").unwrap();
        refuse_unrecorded(dir, &[]).expect("a subdirectory the run does not write into");
        let err = refuse_unrecorded(dir, &["failures"]).unwrap_err().to_string();
        assert!(err.contains("holds files no sprague run recorded (failures/001.in; no manifest.json)"), "{err}");
        std::fs::rename(dir.join("failures/001.in"), dir.join("failures/deep/001.in")).unwrap();
        assert!(refuse_unrecorded(dir, &["failures"]).unwrap_err().to_string().contains("(failures/deep/001.in;"), "files deeper down count");
        std::fs::remove_dir_all(dir.join("failures")).unwrap();
        for name in ["summary.csv", "b.txt", "c", "d"] {
            std::fs::write(dir.join(name), "mine").unwrap();
        }
        let err = refuse_unrecorded(dir, &[]).unwrap_err().to_string();
        let expected = "holds files no sprague run recorded (b.txt, c, d and 1 more; no manifest.json): this run would write its results among them";
        assert!(err.contains(&format!("{} {expected}", dir.display())), "{err}");
        for marker in [LOCK_FILE, CHECKPOINT, MANIFEST] {
            std::fs::write(dir.join(marker), "").unwrap();
            refuse_unrecorded(dir, &[]).unwrap_or_else(|e| panic!("{marker} marks a sprague run: {e}"));
            std::fs::remove_file(dir.join(marker)).unwrap();
        }
        std::os::unix::fs::symlink("elsewhere", dir.join("link")).unwrap();
        std::fs::remove_file(dir.join("summary.csv")).unwrap();
        assert!(refuse_unrecorded(dir, &[]).unwrap_err().to_string().contains("(b.txt, c, d and 1 more;"), "a dangling link is a file of the directory");
    }

    #[test]
    fn another_games_run_of_the_same_kind_is_refused_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        let mut nim = RunClock::start(command("sprague verify nim --max 2"), 1).finish(dir.path(), &[]).unwrap();
        nim.parameters.insert("game".into(), "nim".into());
        nim.write(&dir.path().join(MANIFEST)).unwrap();
        let err = admit(dir.path(), &command("sprague verify wall"), "verify", "wall").unwrap_err().to_string();
        assert!(err.contains("holds the results of a run of `nim` (`sprague verify nim --max 2`, manifest.json), not of `wall`"), "{err}");
        admit(dir.path(), &command("sprague verify nim --max 3"), "verify", "nim").unwrap();
    }

    #[test]
    fn another_code_of_a_game_is_another_game_and_another_count_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut run = RunClock::start(command("sprague table octal 0.07 --max 100 --stats d"), 1).finish(dir.path(), &[]).unwrap();
        run.parameters = [("game", "octal".into()), ("code", "0.07".into()), ("heaps", 101.into())].into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        run.write(&dir.path().join(MANIFEST)).unwrap();
        let err = admit(dir.path(), &command("sprague table octal 0.137"), "table", &game_of_code("octal", "0.137")).unwrap_err().to_string();
        assert!(err.contains("holds the results of a run of `octal 0.07` (`sprague table octal 0.07 --max 100 --stats d`, manifest.json), not of `octal 0.137`"), "{err}");
        admit(dir.path(), &command("sprague table octal 0.07"), "table", &game_of_code("octal", "0.07")).unwrap();
        assert!(admit(dir.path(), &command("sprague table octal"), "table", "octal").is_err(), "a run of no code over one of a code");
        let line = replaced_count(dir.path(), "heaps", 201, "heaps").unwrap();
        assert_eq!(line, format!("replaced the run of 101 heaps in {} (`sprague table octal 0.07 --max 100 --stats d`) by one of 201 heaps", dir.path().display()));
        assert_eq!(replaced_count(dir.path(), "heaps", 101, "heaps"), None);
    }

    #[test]
    fn a_family_of_codes_is_a_game_of_its_own() {
        let parameters = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
        assert_eq!(game_of(&parameters(&[("game", "octal"), ("family", "0.d1…d3")])).as_deref(), Some("octal 0.d1…d3"));
        assert_eq!(game_of(&parameters(&[("game", "octal"), ("code", "0.07")])).as_deref(), Some("octal 0.07"));
        assert_eq!(game_of(&parameters(&[("game", "wall")])).as_deref(), Some("wall"));
    }

    #[test]
    fn a_new_manifest_removes_what_only_the_earlier_listed() {
        let dir = tempfile::tempdir().unwrap();
        sealed(dir.path(), "sprague verify wall --shrink", &["summary.csv", "counterexamples.csv"]);
        sealed(dir.path(), "sprague verify wall", &["summary.csv"]);
        assert!(!dir.path().join("counterexamples.csv").exists() && dir.path().join("summary.csv").exists());
    }

    #[test]
    fn an_unfinished_run_admits_only_the_commands_that_continue_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CHECKPOINT), "{}").unwrap();
        for verb in ["merge", "search", "prove", "stress"] {
            let err = admit(dir.path(), &command(&format!("sprague {verb} x")), verb, "wall").unwrap_err().to_string();
            assert!(err.contains("holds an unfinished verify or census run"), "{verb}: {err}");
        }
        admit(dir.path(), &command("sprague verify wall --resume"), "verify", "wall").unwrap();
    }

    #[test]
    fn files_only_the_earlier_run_listed_are_removed_and_nothing_outside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(tmp.path().join("outside.csv"), "keep").unwrap();
        let mut earlier = sealed(&dir, "sprague verify wall --shrink", &["summary.csv", "counterexamples.csv", "own.csv"]);
        earlier.files.insert("../outside.csv".into(), String::new());
        std::fs::write(dir.join("own.csv"), "not listed by the later run, but kept: not the earlier's").unwrap();
        earlier.files.remove("own.csv");
        let later = RunClock::start(command("sprague verify wall"), 1).finish(&dir, &["summary.csv"]).unwrap();
        remove_stale(&dir, &earlier, &later).unwrap();
        assert!(!dir.join("counterexamples.csv").exists());
        assert!(dir.join("summary.csv").exists() && dir.join("own.csv").exists() && tmp.path().join("outside.csv").exists());
    }
}
