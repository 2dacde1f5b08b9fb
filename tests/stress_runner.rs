//! The stress harness's single run: stdin fed, stdout/stderr captured and bounded, exit
//! status, time limit killing the process group, private working directory.

use sprague::stress::{CommandLine, Exit, Limits, Runner};
use std::time::{Duration, Instant};

fn runner(cmd: &str, limits: Limits) -> Runner {
    Runner::new(CommandLine::parse(cmd).unwrap(), limits).unwrap()
}

fn quick() -> Limits {
    Limits { timeout: Duration::from_millis(300), output_cap: 4096, memory: None }
}

#[test]
fn feeds_stdin_and_captures_both_streams() {
    let mut r = runner("sh -c 'cat; echo oops >&2; exit 3'", quick());
    let (out, meanwhile) = r.run(b"hello\n", || 42).unwrap();
    assert_eq!(meanwhile, 42);
    assert_eq!(out.stdout, b"hello\n");
    assert_eq!(out.stderr, b"oops\n");
    assert_eq!(out.exit, Exit::Code(3));
}

#[test]
fn big_input_to_a_program_that_reads_nothing_is_no_error() {
    let mut r = runner("true", quick());
    let input = vec![b'x'; 4 << 20];
    let (out, ()) = r.run(&input, || ()).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    let mut r = runner("wc -c", quick());
    let (out, ()) = r.run(&input, || ()).unwrap();
    assert_eq!(String::from_utf8_lossy(out.stdout).trim(), (4 << 20).to_string());
}

#[test]
fn signals_are_reported() {
    let mut r = runner("sh -c 'kill -SEGV $$'", quick());
    assert_eq!(r.run(b"", || ()).unwrap().0.exit, Exit::Signal(11));
}

#[test]
fn time_limit_kills_the_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    // A background child spinning: its CPU time counts, as the process group's.
    let cmd = format!("sh -c '(while :; do :; done) & echo $! > {}; wait'", pidfile.display());
    let mut r = runner(&cmd, quick());
    let started = Instant::now();
    let (out, ()) = r.run(b"", || ()).unwrap();
    assert_eq!(out.exit, Exit::TimedOut);
    assert!(out.cpu >= quick().timeout, "{:?}", out.cpu);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_string();
    std::thread::sleep(Duration::from_millis(100));
    let alive = std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default().contains(") Z ");
    assert!(!alive, "the background child {pid} survived the time limit");
}

#[test]
fn a_program_that_waits_is_killed_at_the_wall_clock_cap() {
    let mut r = runner("sleep 30", quick());
    let started = Instant::now();
    let (out, ()) = r.run(b"", || ()).unwrap();
    assert_eq!(out.exit, Exit::TimedOut);
    assert!(out.cpu < quick().timeout && out.elapsed >= quick().wall_cap(), "{out:?}");
    assert!(started.elapsed() < quick().wall_cap() + Duration::from_secs(2));
}

#[test]
fn a_program_that_keeps_writing_stderr_still_times_out() {
    let mut r = runner("yes", Limits { output_cap: usize::MAX, ..quick() });
    let mut r2 = runner("sh -c 'yes >&2'", quick());
    assert_eq!(r.run(b"", || ()).unwrap().0.exit, Exit::TimedOut);
    let (out, ()) = r2.run(b"", || ()).unwrap();
    assert_eq!(out.exit, Exit::TimedOut);
    assert_eq!(out.stderr.len(), 4096);
}

#[test]
fn stdout_past_the_cap_kills_the_program() {
    let mut r = runner("yes", quick());
    let started = Instant::now();
    let (out, ()) = r.run(b"", || ()).unwrap();
    assert_eq!(out.exit, Exit::OutputLimit);
    assert_eq!(out.stdout.len(), 4096);
    assert!(started.elapsed() < Duration::from_millis(250));
}

#[test]
fn runs_in_a_private_emptied_directory() {
    let mut r = runner("sh -c 'ls; pwd; touch made-here'", quick());
    let (out, ()) = r.run(b"", || ()).unwrap();
    let text = String::from_utf8_lossy(out.stdout).to_string();
    let cwd = std::env::current_dir().unwrap();
    assert!(!text.contains(&*cwd.to_string_lossy()) && text.contains("sprague-stress-"), "{text}");
    let (out, ()) = r.run(b"", || ()).unwrap();
    assert!(!String::from_utf8_lossy(out.stdout).contains("made-here"), "files of the last run are removed");
    assert!(!cwd.join("made-here").exists());
}

#[test]
fn memory_limit_applies_to_the_program() {
    let limits = Limits { memory: Some(64 << 20), ..quick() };
    let mut r = runner("sh -c 'ulimit -v'", limits);
    let (out, ()) = r.run(b"", || ()).unwrap();
    assert_eq!(String::from_utf8_lossy(out.stdout).trim(), (64 << 10).to_string());
}

/// True when process `pid` still runs (not gone, not a zombie).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| !stat.contains(") Z "))
}

#[test]
#[cfg(target_os = "linux")]
fn children_that_left_the_process_group_end_with_the_run() {
    let dir = tempfile::tempdir().unwrap();
    // A child starts a session of its own (leaving the program's process group), with a child
    // of its own, and prints both ids from there; the program then ends, or spins to its limit.
    let leave = "{ setsid sh -c 'sleep 30 & echo $$ $!; exec sleep 31 >/dev/null' & } | head -n 1";
    for (name, rest, exit) in [("exits", "", Exit::Code(0)), ("spins", "while :; do :; done", Exit::TimedOut)] {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{leave}\n{rest}\n")).unwrap();
        let mut r = runner(&format!("sh {}", path.display()), quick());
        let (out, ()) = r.run(b"", || ()).unwrap();
        assert_eq!(out.exit, exit);
        let pids = String::from_utf8(out.stdout.to_vec()).unwrap();
        let pids: Vec<&str> = pids.split_whitespace().collect();
        assert_eq!(pids.len(), 2, "{pids:?}");
        for pid in pids {
            assert!(!running(pid), "{pid} left the process group and survived the run ({name})");
        }
    }
}
