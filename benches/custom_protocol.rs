//! The game-program protocol's overhead: the Python Kayles example (examples/games/kayles.py)
//! through sprague — a pool of copies, every position with at most MAX pins in all explored and
//! solved by `Explorer` — against the same Python functions called in a plain loop over the
//! same positions (examples/games/plain_loop.py), on one core, with no pipe.
//! `cargo bench --bench custom_protocol [-- MAX [COPIES]]` (defaults 30 pins, 2 copies:
//! 28,629 positions).
//!
//! Reported: positions per second both ways, CPU time (sprague's own threads, the programs,
//! the plain loop) and wall time, cores busy (CPU / wall), and the overhead: the CPU the run
//! spends beyond the program's own work, per position and as a share of it. CPU times come
//! from /proc/self/stat (the programs' once they have been waited for), so they hold on a
//! busy machine where wall times do not.

use sprague::custom::program::{Ask, Explorer, GameProgram, GraphLimits, ProgramLimits, Verb, Verbs};
use sprague::impartial::Convention;
use sprague::stress::CommandLine;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux).
const TICKS: f64 = 100.0;

/// CPU seconds (user + system) of this process and of its waited-for children, from /proc/self/stat.
fn cpu() -> (f64, f64) {
    stat("/proc/self/stat")
}

/// CPU seconds of the calling thread, from /proc/thread-self/stat.
fn thread_cpu() -> f64 {
    stat("/proc/thread-self/stat").0
}

/// CPU seconds of this process's threads other than the calling one (alive now).
fn other_threads_cpu() -> f64 {
    let me = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self");
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    let others = tasks.map(|t| t.unwrap().path()).filter(|t| t.file_name() != me.file_name());
    others.map(|t| stat(&t.join("stat").to_string_lossy()).0).sum()
}

/// CPU seconds (own, waited-for children) of a /proc stat file.
fn stat(path: &str) -> (f64, f64) {
    let stat = std::fs::read_to_string(path).expect("a /proc stat file");
    let fields: Vec<f64> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().map(|f| f.parse().unwrap_or(0.0)).collect();
    // After the command: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    ((fields[11] + fields[12]) / TICKS, (fields[13] + fields[14]) / TICKS)
}

/// The program, with the wall time spent waiting for its answers counted.
struct Timed {
    program: GameProgram,
    nanos: AtomicU64,
    requests: AtomicU64,
}

impl Ask for Timed {
    fn verbs(&self) -> Verbs {
        self.program.verbs()
    }
    fn ask(&self, verb: Verb, args: &[&str]) -> sprague::Result<Vec<String>> {
        let start = Instant::now();
        let answers = self.program.ask(verb, args);
        self.nanos.fetch_add(start.elapsed().as_nanos() as u64, Relaxed);
        self.requests.fetch_add(args.len() as u64, Relaxed);
        answers
    }
}

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/games")
}

fn kayles(copies: usize) -> GameProgram {
    let command = CommandLine::parse(&format!("python3 {}", games().join("kayles.py").display())).unwrap();
    GameProgram::start(command, copies, ProgramLimits::default()).unwrap()
}

/// A run through sprague: its positions and what it cost (seconds).
struct Sprague {
    tokens: Vec<String>,
    requests: u64,
    wall: f64,
    /// Wall time inside `ask` (the pool busy), the rest is the explorer's own.
    asked: f64,
    /// CPU of the main thread (requests written into batches' strings, answers interned, values).
    main: f64,
    /// CPU of the threads that write requests to the copies and read their answers.
    pipes: f64,
    /// CPU of all sprague's threads (the main one, the pool's, the pipes' readers and writers).
    sprague: f64,
    /// CPU of the program copies.
    programs: f64,
}

/// Every position with at most `max` pins through sprague.
fn through_sprague(max: u32, copies: usize) -> Sprague {
    let ((own0, children0), main0, start) = (cpu(), thread_cpu(), Instant::now());
    let timed = Arc::new(Timed { program: kayles(copies), nanos: 0.into(), requests: 0.into() });
    let sizes: Vec<String> = (0..=max).map(|n| n.to_string()).collect();
    let args: Vec<&str> = sizes.iter().map(String::as_str).collect();
    let answers = timed.ask(Verb::Positions, &args).unwrap();
    let mut explorer = Explorer::new(timed.clone(), Convention::Normal, GraphLimits::default());
    let roots: Vec<u32> = answers.iter().flat_map(|a| explorer.intern_all(a, "positions").unwrap()).collect();
    explorer.values(&roots).unwrap();
    let tokens: Vec<String> = (0..explorer.len() as u32).map(|id| explorer.token(id).to_string()).collect();
    let (asked, requests) = (timed.nanos.load(Relaxed) as f64 / 1e9, timed.requests.load(Relaxed));
    let (main, pipes) = (thread_cpu() - main0, other_threads_cpu());
    drop(explorer);
    drop(timed); // the copies stop and are waited for: their CPU time is now the children's
    let ((own1, children1), wall) = (cpu(), start.elapsed().as_secs_f64());
    Sprague { tokens, requests, wall, asked, main, pipes, sprague: own1 - own0, programs: children1 - children0 }
}

/// CPU of starting the copies and stopping them (Python's start, the handshake).
fn startup(copies: usize) -> f64 {
    let children0 = cpu().1;
    drop(kayles(copies));
    cpu().1 - children0
}

/// The same requests (`positions` of every size, `moves` of every position) answered in a
/// plain Python loop: (wall s, CPU s).
fn plain_loop(max: u32, tokens: &[String]) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("requests.txt");
    let positions = (0..=max).map(|n| format!("positions {n}\n"));
    let requests: String = positions.chain(tokens.iter().map(|t| format!("moves {t}\n"))).collect();
    std::fs::write(&file, requests).unwrap();
    let out = std::process::Command::new("python3").arg(games().join("plain_loop.py")).arg("kayles").arg(&file).current_dir(games()).output().unwrap();
    assert!(out.status.success(), "plain_loop.py: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let numbers: Vec<f64> = text.split_whitespace().map(|n| n.parse().unwrap()).collect();
    assert_eq!(numbers[0] as usize, tokens.len() + max as usize + 1);
    (numbers[1], numbers[2])
}

fn main() {
    let numbers: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (max, copies) = (numbers.first().map_or(30, |&n| n as u32), numbers.get(1).map_or(2, |&n| n as usize));
    let run = through_sprague(max, copies);
    let started = startup(copies);
    let (loop_wall, loop_cpu) = plain_loop(max, &run.tokens);
    let positions = run.tokens.len() as f64;
    let per = |seconds: f64| seconds / positions * 1e6;
    let total = run.sprague + run.programs;
    let overhead = total - loop_cpu;
    println!("custom_protocol: Kayles, every multiset of rows with at most {max} pins: {positions} positions, {} requests", run.requests);
    println!(
        "  sprague, {copies} copies: {:.2} s wall ({:.1} k positions/s), the pool busy {:.2} s of it; CPU {total:.2} s = sprague {:.2} s (main thread {:.2} s) + programs {:.2} s: {:.2} cores busy",
        run.wall,
        positions / run.wall / 1e3,
        run.asked,
        run.sprague,
        run.main,
        run.programs,
        total / run.wall
    );
    println!("  plain Python loop, 1 core: {loop_wall:.2} s wall ({:.1} k positions/s), CPU {loop_cpu:.2} s = {:.1} µs a position", positions / loop_wall / 1e3, per(loop_cpu));
    println!(
        "  overhead: CPU {overhead:.2} s = {:.1} µs a position = {:.0}% of the program's own {:.1} µs; of it: starting {copies} copies {:.1} µs, their protocol loops {:.1} µs, sprague {:.1} µs (main thread {:.1} µs, pipes' readers and writers {:.1} µs, the pool's threads {:.1} µs)",
        per(overhead),
        overhead / loop_cpu * 100.0,
        per(loop_cpu),
        per(started),
        per(run.programs - started - loop_cpu),
        per(run.sprague),
        per(run.main),
        per(run.pipes),
        per(run.sprague - run.main - run.pipes)
    );
}
