//! Machine facts for run manifests and memory checks (Linux /proc, `None` elsewhere).

use std::fs;

/// Peak resident memory of this process in bytes (VmHWM).
pub fn peak_rss_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// Memory the kernel says is available for new allocations, in bytes (MemAvailable).
pub fn available_memory_bytes() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemAvailable:")
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

/// Human-readable byte count, e.g. `1.50 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_bytes() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
    }

    #[test]
    fn reads_proc_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_bytes().unwrap() > 0);
            assert!(available_memory_bytes().unwrap() > 0);
        }
    }
}
