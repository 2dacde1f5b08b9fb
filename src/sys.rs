//! Machine facts for run manifests and memory checks (Linux /proc, `None` elsewhere); the signal setup of the process.

use std::fs;

/// Ignores SIGXFSZ, so that a write past the file-size limit (`ulimit -f`) fails with EFBIG
/// and takes the normal error path (a message, exit 2, temporary files removed) instead of
/// killing the process without a word.
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal to SIG_IGN installs no handler; it runs before any thread starts.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Writes `line` and a line end to standard error, ignoring a failure: a closed or full
/// stderr (`2>/dev/full`, a reader gone) must not turn a message into a panic, as
/// `eprintln!` would.
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Peak resident memory of this process in bytes (VmHWM).
pub fn peak_rss_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// Memory available for new allocations, in bytes: the kernel's MemAvailable, or less when
/// this process's cgroup (a Slurm job's `--mem`, a Kubernetes `limits.memory`) or its
/// address-space limit (`ulimit -v`) leaves less room.
pub fn available_memory_bytes() -> Option<u64> {
    let system = proc_kib("/proc/meminfo", "MemAvailable:");
    let cgroup = fs::read_to_string("/proc/self/cgroup").ok().and_then(|text| cgroup_room(&text));
    [system, cgroup, address_space_room()].into_iter().flatten().min()
}

/// The room under this process's address-space limit (`ulimit -v`): the limit minus the
/// address space in use (VmSize); `None` without a limit.
fn address_space_room() -> Option<u64> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::As).current?;
    Some(limit.saturating_sub(proc_kib("/proc/self/status", "VmSize:")?))
}

/// The room under the tightest memory limit of the cgroups named in `membership` (the text of
/// /proc/self/cgroup), v2 (`memory.max`) or v1 (`memory.limit_in_bytes`); `None` without one.
fn cgroup_room(membership: &str) -> Option<u64> {
    let mut dirs = Vec::new();
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next(), fields.next().unwrap_or(""), fields.next().unwrap_or("/"));
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            dirs.push((format!("/sys/fs/cgroup{path}"), CgroupFiles::V2));
            dirs.push(("/sys/fs/cgroup".to_string(), CgroupFiles::V2));
        } else if controllers.split(',').any(|c| c == "memory") {
            dirs.push((format!("/sys/fs/cgroup/memory{path}"), CgroupFiles::V1));
            dirs.push(("/sys/fs/cgroup/memory".to_string(), CgroupFiles::V1));
        }
    }
    dirs.iter()
        .filter_map(|(dir, files)| {
            let read = |name: &str| fs::read_to_string(format!("{dir}/{name}")).ok();
            let stat = read(files.stat).unwrap_or_default();
            room_under_limit(&read(files.limit)?, &read(files.usage)?, &stat, files.inactive)
        })
        .min()
}

/// The files of one cgroup version: limit, usage, statistics and its reclaimable-cache key.
struct CgroupFiles {
    limit: &'static str,
    usage: &'static str,
    stat: &'static str,
    inactive: &'static str,
}

impl CgroupFiles {
    const V2: CgroupFiles = CgroupFiles { limit: "memory.max", usage: "memory.current", stat: "memory.stat", inactive: "inactive_file" };
    const V1: CgroupFiles =
        CgroupFiles { limit: "memory.limit_in_bytes", usage: "memory.usage_in_bytes", stat: "memory.stat", inactive: "total_inactive_file" };
}

/// Limit minus the usage that cannot be reclaimed (usage minus inactive file cache); `None`
/// when there is no limit (`max`, or v1's near-2^63 "unlimited").
fn room_under_limit(limit: &str, usage: &str, stat: &str, inactive_key: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok().filter(|&l| l < 1 << 60)?;
    let usage: u64 = usage.trim().parse().ok()?;
    let inactive = stat
        .lines()
        .find_map(|line| line.strip_prefix(inactive_key)?.strip_prefix(' ')?.trim().parse::<u64>().ok())
        .unwrap_or(0);
    Some(limit.saturating_sub(usage.saturating_sub(inactive)))
}

fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// The git commit this binary was built from, when known.
pub fn git_commit() -> Option<&'static str> {
    option_env!("SPRAGUE_GIT_COMMIT")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup_limits_leave_room_for_reclaimable_cache() {
        let stat = "anon 100\ninactive_file 300\nactive_file 7\n";
        assert_eq!(room_under_limit("1000\n", "600\n", stat, "inactive_file"), Some(700));
        assert_eq!(room_under_limit("max\n", "600", stat, "inactive_file"), None);
        assert_eq!(room_under_limit("9223372036854771712", "600", "", "total_inactive_file"), None);
        assert_eq!(room_under_limit("500", "900", "", "inactive_file"), Some(0));
        // A membership without a memory controller names no limit.
        assert_eq!(cgroup_room("3:cpuset:/\n"), None);
    }

    #[test]
    fn reads_proc_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_bytes().unwrap() > 0);
            assert!(available_memory_bytes().unwrap() > 0);
        }
    }
}
