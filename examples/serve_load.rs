//! A load test of `sprague serve` on loopback (scripts/serve-load.sh starts the server and
//! runs this): REQUESTS requests from CONCURRENCY threads at once, each its own connection,
//! a mix of valid analyses (small boards and 20×20 ones) and bad requests (malformed,
//! unknown game, too large, oversized body). Bounded in count and in time (SECONDS); reports
//! p50/p99 latency, requests per second and every answer that was not the one expected.
//!
//! `cargo run --release --example serve_load -- http://127.0.0.1:PORT [REQUESTS] [CONCURRENCY] [SECONDS]`

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One kind of request: a name, the game, the body and the status expected.
struct Kind {
    name: &'static str,
    game: &'static str,
    body: String,
    expect: u16,
}

fn board(rows: usize, cols: usize, seed: usize) -> String {
    let lines: Vec<String> = (0..rows).map(|r| (0..cols).map(|c| if (r * 7 + c * 3 + seed).is_multiple_of(11) { 'X' } else { '.' }).collect()).collect();
    format!("{rows} {cols}\n{}\n", lines.join("\n"))
}

fn kinds() -> Vec<Kind> {
    let position = |text: String| serde_json::json!({ "position": text }).to_string();
    vec![
        Kind { name: "6x7 board", game: "wall", body: position(board(6, 7, 1)), expect: 200 },
        Kind { name: "12x12 board", game: "wall", body: position(board(12, 12, 2)), expect: 200 },
        Kind { name: "20x20 board", game: "wall", body: position(board(20, 20, 3)), expect: 200 },
        Kind { name: "malformed", game: "wall", body: position("2 2\n..\n.a\n".into()), expect: 400 },
        Kind { name: "not JSON", game: "wall", body: "{position".into(), expect: 400 },
        Kind { name: "unknown game", game: "chess", body: position("1 1\n.\n".into()), expect: 404 },
        Kind { name: "too large", game: "wall", body: position(board(40, 40, 0)), expect: 422 },
        Kind { name: "oversized body", game: "wall", body: position(".".repeat(70_000)), expect: 413 },
    ]
}

/// Which kind request `i` is: mostly small valid boards, one in ten a 20×20 board.
fn kind_of(i: usize) -> usize {
    match i % 20 {
        0 | 10 => 2,
        1 => 3,
        2 => 4,
        3 => 5,
        4 => 6,
        5 => 7,
        n if n % 2 == 0 => 0,
        _ => 1,
    }
}

fn arg(n: usize, default: u64) -> u64 {
    std::env::args().nth(n).map_or(default, |a| a.parse().unwrap_or_else(|_| panic!("argument {n}: not a number: {a}")))
}

fn main() {
    let base = std::env::args().nth(1).expect("usage: serve_load http://127.0.0.1:PORT [REQUESTS] [CONCURRENCY] [SECONDS]");
    let (requests, concurrency, seconds) = (arg(2, 5000) as usize, arg(3, 1000) as usize, arg(4, 120));
    let kinds = kinds();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(vec![Vec::new(); kinds.len()]);
    let wrong = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..concurrency {
            let (kinds, next, latencies, wrong, base) = (&kinds, &next, &latencies, &wrong, &base);
            std::thread::Builder::new().stack_size(256 * 1024).spawn_scoped(scope, move || {
                let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(60)).build();
                let mut mine = vec![Vec::new(); kinds.len()];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests || Instant::now() > deadline {
                        break;
                    }
                    let k = kind_of(i);
                    let at = Instant::now();
                    let url = format!("{base}/api/games/{}/analyse", kinds[k].game);
                    let status = match agent.post(&url).set("Content-Type", "application/json").send_string(&kinds[k].body) {
                        Ok(r) => {
                            let code = r.status();
                            r.into_string().map(|_| code).unwrap_or(0)
                        }
                        Err(ureq::Error::Status(code, r)) => r.into_string().map(|_| code).unwrap_or(0),
                        Err(other) => {
                            wrong.lock().unwrap().push(format!("{}: {other}", kinds[k].name));
                            continue;
                        }
                    };
                    mine[k].push(at.elapsed());
                    if status != kinds[k].expect {
                        wrong.lock().unwrap().push(format!("{}: {status}, expected {}", kinds[k].name, kinds[k].expect));
                    }
                }
                let mut all = latencies.lock().unwrap();
                for (k, times) in mine.into_iter().enumerate() {
                    all[k].extend(times);
                }
            }).expect("a client thread starts");
        }
    });
    report(&kinds, latencies.into_inner().unwrap(), wrong.into_inner().unwrap(), started.elapsed());
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

fn report(kinds: &[Kind], latencies: Vec<Vec<Duration>>, wrong: Vec<String>, elapsed: Duration) {
    let mut all: Vec<Duration> = latencies.iter().flatten().copied().collect();
    all.sort();
    println!("{:<16} {:>8} {:>10} {:>10} {:>10}", "request", "count", "p50 ms", "p99 ms", "max ms");
    for (kind, mut times) in kinds.iter().zip(latencies) {
        times.sort();
        println!("{:<16} {:>8} {:>10.2} {:>10.2} {:>10.2}", kind.name, times.len(), percentile(&times, 0.5), percentile(&times, 0.99), percentile(&times, 1.0));
    }
    println!("{:<16} {:>8} {:>10.2} {:>10.2} {:>10.2}", "all", all.len(), percentile(&all, 0.5), percentile(&all, 0.99), percentile(&all, 1.0));
    println!("{} answers in {:.2} s: {:.0} requests/s; {} unexpected", all.len(), elapsed.as_secs_f64(), all.len() as f64 / elapsed.as_secs_f64(), wrong.len());
    for line in wrong.iter().take(10) {
        println!("unexpected: {line}");
    }
    if !wrong.is_empty() {
        std::process::exit(1);
    }
}
