//! Time limits judged by CPU time, as judges do: a right program that needs 0.2 s of CPU per
//! input is not a time-limit failure under a 0.5 s limit while CPU burners make every run take
//! much longer by the clock on the wall; a program that is too slow still is one, confirmed.

mod common;
use common::{example_binary, sprague};

use sprague::output::csv::read_csv;
use sprague::stress::FailureRow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The two tests run one after the other: the burners of the first would otherwise starve the
/// second's program of CPU until the wall-clock cap ends it (not what the second test is about).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// `stress wall --cmd PROGRAM` on the smallest boards with a 0.5 s limit.
fn stress(name: &str, out: &std::path::Path) -> assert_cmd::assert::Assert {
    sprague()
        .args(["stress", "wall", "--cmd"])
        .arg(example_binary(name))
        .args(["--generator", "exhaustive", "--max", "1x2", "--timeout", "0.5", "--budget", "30", "--shrink-budget", "20", "--threads", "2", "-q", "--out"])
        .arg(out)
        .assert()
}

#[test]
fn a_slowish_right_program_is_no_time_limit_failure_on_a_loaded_machine() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let stop = AtomicBool::new(false);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let tmp = tempfile::tempdir().unwrap();
    let started = Instant::now();
    std::thread::scope(|scope| {
        // Three burners per core: each run of the program gets a quarter of a core or less.
        for _ in 0..3 * cores {
            scope.spawn(|| {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            });
        }
        let assert = stress("wall_slowish", tmp.path());
        stop.store(true, Ordering::Relaxed);
        let out = assert.get_output();
        let summary = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{summary}{}", String::from_utf8_lossy(&out.stderr));
        assert!(summary.contains("every input judged") && summary.contains("no failure"), "{summary}");
    });
    assert!(started.elapsed() > Duration::from_millis(600), "six runs of 0.2 s CPU on a loaded machine");
}

#[test]
fn a_program_over_the_cpu_limit_is_a_confirmed_time_limit_failure() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    // A shell command whose child spins forever: its CPU time counts (the process group's).
    let out = tmp.path().join("spin");
    sprague()
        .args(["stress", "wall", "--cmd", "yes > /dev/null", "--generator", "exhaustive", "--max", "1x1", "--timeout", "0.3", "--budget", "5", "--shrink-budget", "5", "-q", "--out"])
        .arg(&out)
        .assert()
        .code(1);
    let rows: Vec<FailureRow> = read_csv(&out.join("failures.csv")).unwrap();
    assert_eq!(rows[0].kind.name(), "time-limit");
    assert!(rows[0].exit_status.starts_with("time limit: ") && rows[0].seconds >= 0.3, "{rows:?}");
}
