//! The children of started programs that left their process group: on Linux sprague is their subreaper, and those handed to it are killed and reaped; elsewhere only the process group is ended.

use std::collections::BTreeSet;

/// Rounds of a sweep: each kills the processes handed over so far and waits for them, which
/// hands over their own children.
#[cfg(target_os = "linux")]
const ROUNDS: usize = 64;

/// Makes sprague the subreaper of what it starts (once): a process whose parent exits becomes
/// sprague's child, not init's.
#[cfg(target_os = "linux")]
pub(super) fn adopt() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer and touches no memory.
    ONCE.call_once(|| unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    });
}

/// Kills and reaps sprague's children that are no registered program (processes handed over
/// by an ended parent): those of one program, whose environment holds `token` (but not the
/// program `pid` itself, which its caller reaps), or every one with `None`, and their process
/// groups; reaps those already ended.
#[cfg(target_os = "linux")]
pub(super) fn sweep(program: Option<(&str, i32)>) {
    // The program's orphans were handed over as their parents ended, before it was reaped, to
    // sprague's main thread: with no child there (programs start on other threads), none is left.
    if program.is_some() && orphans_go_to_the_main_thread() && main_thread_children().is_some_and(|pids| pids.is_empty()) {
        return;
    }
    // No program starts meanwhile: between its start and its registration it would look handed over.
    let _starting = super::STARTING.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    // A process of a group killed in an earlier round may still be exiting, its environment
    // already unreadable: it is waited for by its group, not its token.
    let mut killed_groups = BTreeSet::new();
    for _ in 0..ROUNDS {
        let mut killed = Vec::new();
        let mut reaped = false;
        for pid in children() {
            if super::live().groups.contains(&pid) || program.is_some_and(|(_, own)| own == pid) {
                continue;
            }
            match stat(pid) {
                Some(('Z', _)) => reaped |= reap(pid, libc::WNOHANG),
                Some((_, group)) if killed_groups.contains(&group) || program.is_none_or(|(token, _)| carries(pid, token)) => {
                    if kill(pid, group) {
                        killed_groups.insert(group);
                    }
                    killed.push(pid);
                }
                _ => {}
            }
        }
        for &pid in &killed {
            reap(pid, 0);
        }
        if killed.is_empty() && !reaped {
            return;
        }
    }
}

/// Kills every child of sprague but the `registered` programs, and their process groups
/// (when sprague is stopped: nothing is reaped).
#[cfg(target_os = "linux")]
pub(super) fn kill_all_but(registered: &BTreeSet<i32>) {
    for pid in children().into_iter().filter(|pid| !registered.contains(pid)) {
        if let Some((_, group)) = stat(pid) {
            kill(pid, group);
        }
    }
}

/// Kills `pid` and its process group (unless that is sprague's own); true when the group was killed.
#[cfg(target_os = "linux")]
fn kill(pid: i32, group: i32) -> bool {
    // SAFETY: kill and getpgrp are plain system calls.
    unsafe {
        let whole_group = group > 1 && group != libc::getpgrp();
        if whole_group {
            libc::kill(-group, libc::SIGKILL);
        }
        libc::kill(pid, libc::SIGKILL);
        whole_group
    }
}

/// Reaps the child `pid` (`flags`: `WNOHANG` or 0 to wait); true when it was reaped.
#[cfg(target_os = "linux")]
fn reap(pid: i32, flags: libc::c_int) -> bool {
    let mut status = 0;
    loop {
        // SAFETY: waitpid writes only into the local given.
        let got = unsafe { libc::waitpid(pid, &mut status, flags) };
        if got >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return got == pid;
        }
    }
}

/// sprague's children: those of each of its threads (`/proc/self/task/*/children`), or, on a
/// kernel without these files, every process whose parent it is.
#[cfg(target_os = "linux")]
fn children() -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return out };
    for task in tasks.flatten() {
        match task_children(&task.path()) {
            Ok(pids) => out.extend(pids),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return children_by_parent(),
            Err(_) => {}
        }
    }
    out
}

/// The children of sprague's main thread (`None` on a kernel without the file): those it
/// started, and every process handed over to sprague (the kernel gives an orphan to the first
/// live thread of its subreaper, the main one).
#[cfg(target_os = "linux")]
fn main_thread_children() -> Option<Vec<i32>> {
    task_children(std::path::Path::new(&format!("/proc/self/task/{}", std::process::id()))).ok()
}

/// The children of one of sprague's threads, from its `/proc/self/task/TID` folder.
#[cfg(target_os = "linux")]
fn task_children(task: &std::path::Path) -> std::io::Result<Vec<i32>> {
    let text = std::fs::read_to_string(task.join("children"))?;
    Ok(text.split_whitespace().filter_map(|p| p.parse::<i32>().ok()).collect())
}

/// True on Linux 4 and later, whose kernel hands an orphan to the first live thread of its
/// subreaper (before, to the thread that started its ancestor).
#[cfg(target_os = "linux")]
fn orphans_go_to_the_main_thread() -> bool {
    static LATER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LATER.get_or_init(|| {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        release.split('.').next().and_then(|major| major.parse::<u32>().ok()).is_some_and(|major| major >= 4)
    })
}

/// Every process whose parent is sprague, from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn children_by_parent() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let pids = entries.flatten().filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok());
    pids.filter(|&pid| stat_fields(pid).is_some_and(|f| f.get(1).and_then(|p| p.parse().ok()) == Some(me))).collect()
}

/// The state and process group of `pid`.
#[cfg(target_os = "linux")]
fn stat(pid: i32) -> Option<(char, i32)> {
    let fields = stat_fields(pid)?;
    Some((fields.first()?.chars().next()?, fields.get(2)?.parse().ok()?))
}

/// The fields of `/proc/PID/stat` after the command name: state, parent, process group, …
#[cfg(target_os = "linux")]
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(stat.get(stat.rfind(')')? + 2..)?.split(' ').map(str::to_string).collect())
}

/// True when `pid`'s environment holds `SPRAGUE_RUN=token`.
#[cfg(target_os = "linux")]
fn carries(pid: i32, token: &str) -> bool {
    let wanted = format!("{}={token}", super::RUN_VARIABLE);
    std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == wanted.as_bytes()))
}

#[cfg(not(target_os = "linux"))]
pub(super) fn adopt() {}

#[cfg(not(target_os = "linux"))]
pub(super) fn sweep(_program: Option<(&str, i32)>) {}

#[cfg(not(target_os = "linux"))]
pub(super) fn kill_all_but(_registered: &BTreeSet<i32>) {}
