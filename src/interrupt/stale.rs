//! Temporary directories left by a sprague process killed outright (SIGKILL: no handler ran to remove them), removed by a later one.

use rustix::process::{test_kill_process, Pid};
use std::path::Path;
use std::time::Duration;

/// A directory of a process that is gone is removed only once it is this old: a process in
/// another PID namespace sharing the directory would look gone while it still runs.
pub const STALE_AGE: Duration = Duration::from_secs(24 * 3600);

/// The name of a new temporary directory of this process: `prefix`, its pid, `-`, and a random
/// suffix (added by the caller), so that a later process can tell whether its maker lives.
pub fn prefix_of_this_process(prefix: &str) -> String {
    format!("{prefix}{}-", std::process::id())
}

/// Removes the directories in `parent` named `prefix` PID `-` … whose process is gone and that
/// were last changed at least `age` ago; those it cannot remove are left (another user's).
pub fn sweep(parent: &Path, prefix: &str, age: Duration) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(prefix)).and_then(|rest| rest.split('-').next()).and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        let gone = Pid::from_raw(pid).is_some_and(|pid| test_kill_process(pid) == Err(rustix::io::Errno::SRCH));
        let old = entry.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok()).is_some_and(|elapsed| elapsed >= age);
        if gone && old && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dead process's directory goes, a live one's stays, and so does a recent one's or a
    /// name of another form.
    #[test]
    fn only_old_directories_of_processes_that_are_gone_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        // Pid 2^22 + 1 is past Linux's largest (pid_max is at most 2^22): no process has it.
        let dead = tmp.path().join("sprague-game-4194305-abc");
        let live = tmp.path().join(format!("{}x", prefix_of_this_process("sprague-game-")));
        let other = tmp.path().join("sprague-game-notapid-abc");
        for dir in [&dead, &live, &other] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join("f"), "x").unwrap();
        }
        sweep(tmp.path(), "sprague-game-", Duration::from_secs(3600));
        assert!(dead.exists(), "too recent to be taken");
        sweep(tmp.path(), "sprague-game-", Duration::ZERO);
        assert!(!dead.exists() && live.exists() && other.exists());
    }
}
