//! The command line of a program under test: split shell-like, or run by `sh -c` when it needs a shell.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Characters that only a shell understands; a command containing any of them runs via `sh -c`.
const SHELL_SYNTAX: &[char] = &['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[', ']', '{', '}', '~', '!', '#', '\n'];

/// How the program under test is started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandLine {
    /// Started directly: the program (an absolute path) and its arguments.
    Direct { program: PathBuf, args: Vec<String> },
    /// Started by `/bin/sh -c TEXT` (the text uses shell syntax).
    Shell { text: String },
}

impl CommandLine {
    /// Parses `text`. A command without shell syntax is split like a shell would (quotes and
    /// backslashes), its program looked up on PATH, and arguments naming existing files made
    /// absolute (the program runs in a private directory); a shell command's plain words that
    /// name files are made absolute too ([`super::shell`]). Unknown or non-executable
    /// programs are refused here, before any run.
    pub fn parse(text: &str) -> Result<Self> {
        Self::parse_option("--cmd", text)
    }

    /// [`CommandLine::parse`] of the command given with `option` (e.g. `--game-cmd`), which
    /// its errors name.
    pub fn parse_option(option: &str, text: &str) -> Result<Self> {
        let bad = |m: String| Error::Usage(format!("{option} {text:?}: {m}"));
        if text.trim().is_empty() {
            return Err(bad("empty command".into()));
        }
        if text.contains(SHELL_SYNTAX) {
            return Ok(CommandLine::Shell { text: super::shell::absolute_words(text) });
        }
        let words = shlex::split(text).ok_or_else(|| bad("unbalanced quotes".into()))?;
        let (first, rest) = words.split_first().ok_or_else(|| bad("empty command".into()))?;
        let program = resolve_program(first).map_err(bad)?;
        let args = rest.iter().map(|a| absolute_if_file(a)).collect();
        Ok(CommandLine::Direct { program, args })
    }

    /// A `std::process::Command` for this command line (stdio and directory not yet set), with
    /// the user's directory on Java's class path ([`class_path`]).
    pub fn command(&self) -> std::process::Command {
        let mut command = match self {
            CommandLine::Direct { program, args } => {
                let mut c = std::process::Command::new(program);
                c.args(args);
                c
            }
            CommandLine::Shell { text } => {
                let mut c = std::process::Command::new("/bin/sh");
                c.arg("-c").arg(text);
                c
            }
        };
        if let Some(path) = class_path() {
            command.env("CLASSPATH", path);
        }
        command
    }

    /// True when the command runs via `sh -c`.
    pub fn via_shell(&self) -> bool {
        matches!(self, CommandLine::Shell { .. })
    }

    /// The command as a user would type it (for manifests and messages).
    pub fn display(&self) -> String {
        match self {
            CommandLine::Direct { program, args } => {
                let words = std::iter::once(program.to_string_lossy().into_owned()).chain(args.iter().cloned());
                let quoted: Vec<String> =
                    words.map(|w| shlex::try_quote(&w).map(|q| q.into_owned()).unwrap_or(w)).collect();
                quoted.join(" ")
            }
            CommandLine::Shell { text } => text.clone(),
        }
    }
}

/// The absolute path of an executable file: `name` itself when it contains a '/', else the
/// first match on PATH.
fn resolve_program(name: &str) -> std::result::Result<PathBuf, String> {
    let candidates: Vec<PathBuf> = if name.contains('/') {
        vec![std::path::absolute(name).map_err(|e| format!("{name}: {e}"))?]
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path).map(|dir| dir.join(name)).collect()
    };
    if let Some(found) = candidates.iter().find(|p| is_executable(p)) {
        return Ok(found.clone());
    }
    match candidates.first() {
        Some(p) if name.contains('/') && p.is_file() => Err(format!("{} is not executable", p.display())),
        Some(p) if name.contains('/') && p.exists() => Err(format!("{} is not a file", p.display())),
        _ if name.contains('/') => Err(format!("{name}: no such file")),
        _ => Err(format!("command {name:?} not found on PATH")),
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// CLASSPATH for the program under test: Java's default class path is the current directory,
/// which for the program is its private one, so `java Main` gets the user's directory instead
/// (relative entries of a CLASSPATH already set are made absolute). Computed once.
fn class_path() -> Option<&'static std::ffi::OsStr> {
    static PATH: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let user = std::env::current_dir().ok()?;
        let Some(set) = std::env::var_os("CLASSPATH") else { return Some(user.into_os_string()) };
        let entries = std::env::split_paths(&set).map(|p| if p.as_os_str().is_empty() { user.clone() } else { user.join(p) });
        std::env::join_paths(entries).ok()
    })
    .as_deref()
}

/// `arg` as an absolute path when it names an existing file or directory relative to the
/// current directory, unchanged otherwise.
pub(super) fn absolute_if_file(arg: &str) -> String {
    let path = Path::new(arg);
    if arg.starts_with('-') || path.is_absolute() || !path.exists() {
        return arg.to_string();
    }
    std::path::absolute(path).map_or_else(|_| arg.to_string(), |p| p.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_resolves_on_path() {
        let c = CommandLine::parse("sh -e 'a b'").unwrap();
        let CommandLine::Direct { program, args } = &c else { panic!("{c:?}") };
        assert!(program.is_absolute() && program.ends_with("sh"));
        assert_eq!(args, &["-e", "a b"]);
        assert!(c.display().ends_with("sh -e 'a b'"), "{}", c.display());
    }

    #[test]
    fn shell_syntax_goes_to_sh() {
        let c = CommandLine::parse("cat | wc -l").unwrap();
        assert_eq!(c, CommandLine::Shell { text: "cat | wc -l".into() });
        let CommandLine::Shell { text } = CommandLine::parse("cat Cargo.toml | wc -l").unwrap() else { panic!() };
        assert!(text.starts_with("cat /") && text.ends_with("/Cargo.toml | wc -l"), "{text}");
    }

    #[test]
    fn refuses_missing_and_non_executable_programs() {
        let err = |t: &str| CommandLine::parse(t).unwrap_err().to_string();
        assert!(err("no-such-program-xyz 1").contains("not found on PATH"));
        assert!(err("./no/such/file").contains("no such file"));
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "not a program").unwrap();
        assert!(err(&plain.to_string_lossy()).contains("is not executable"));
        assert!(err(&dir.path().to_string_lossy()).contains("is not a file"));
        assert!(err("   ").contains("empty command"));
        assert!(err("sh 'open").contains("unbalanced quotes"));
    }

    #[test]
    fn existing_relative_files_become_absolute() {
        let c = CommandLine::parse("cat Cargo.toml -n").unwrap();
        let CommandLine::Direct { args, .. } = c else { panic!() };
        assert!(Path::new(&args[0]).is_absolute() && args[0].ends_with("Cargo.toml"));
        assert_eq!(args[1], "-n");
    }
}
