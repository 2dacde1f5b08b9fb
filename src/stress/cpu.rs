//! CPU time of the program under test and its children, as judges count it: a CPU limit set
//! in the child (the kernel's backstop, whole seconds), the running total read from
//! `/proc/PID/stat` past the time limit, and the exact total from `wait4` when it ends.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

/// Sets RLIMIT_CPU of the just started child `pid` to the next whole second past `limit` plus
/// one: each process of the program is stopped by the kernel soon after the limit even if the
/// parent's watch misses it; `wait4` then says by how much. Set from outside (prlimit) rather
/// than between fork and exec, which would cost the fast spawn path.
pub fn limit(pid: u32, limit: Duration) {
    let soft = limit.as_secs() + 2;
    let rlimit = rustix::process::Rlimit { current: Some(soft), maximum: Some(soft + 1) };
    // A backstop only: a child that already ended has nothing to limit.
    let _ = rustix::process::prlimit(rustix::process::Pid::from_raw(pid as i32), rustix::process::Resource::Cpu, rlimit);
}

/// CPU time used so far by the processes of process group `group` and the children they
/// waited for (a shell's pipeline counts whole), read from /proc.
pub fn running(group: u32) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Duration::ZERO };
    let pids = entries.flatten().filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok());
    let ticks: u64 = pids.filter_map(|pid| group_ticks(pid, group)).sum();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Duration::from_secs_f64(ticks as f64 / per_second)
}

/// The CPU clock ticks of process `pid` and its waited-for children when it is in `group`.
fn group_ticks(pid: u32, group: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name in parentheses: state is field 3, the process group
    // field 5; utime, stime, cutime and cstime are fields 14 to 17, in clock ticks.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    if fields.get(2)?.parse::<u32>().ok()? != group {
        return None;
    }
    fields.get(11..15)?.iter().map(|f| f.parse::<u64>().ok()).sum()
}

/// True when the child `pid` has ended (it is not reaped: [`reap`] does that).
pub fn exited(pid: u32) -> std::io::Result<bool> {
    use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
    let Some(pid) = Pid::from_raw(pid as i32) else { return Ok(true) };
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    Ok(waitid(WaitId::Pid(pid), options)?.is_some())
}

/// Waits for the child `pid` to end and reaps it: its status, and the CPU time (user and
/// system) it and the children it waited for used.
pub fn reap(pid: u32) -> std::io::Result<(ExitStatus, Duration)> {
    let mut status = 0;
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 writes only into the two locals given.
        let got = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
        if got == pid as libc::pid_t {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let time = |t: libc::timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.clamp(0, 999_999) as u32) * 1000);
    Ok((ExitStatus::from_raw(status), time(usage.ru_utime) + time(usage.ru_stime)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    #[allow(clippy::zombie_processes, reason = "the children are reaped by `reap`, not `wait`")]
    fn counts_the_cpu_of_a_busy_child_not_its_sleep() {
        let busy = std::process::Command::new("sh").args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]).spawn().unwrap();
        let (status, cpu) = reap(busy.id()).unwrap();
        assert!(status.success() && cpu > Duration::from_millis(20), "{cpu:?}");
        let idle = std::process::Command::new("sleep").arg("0.3").process_group(0).spawn().unwrap();
        assert!(running(idle.id()) < Duration::from_millis(100));
        let (_, cpu) = reap(idle.id()).unwrap();
        assert!(cpu < Duration::from_millis(100), "sleeping is not CPU time: {cpu:?}");
    }
}
