//! Bad requests never hurt `sprague serve`: each gets a JSON error with a clear 4xx, and the
//! server answers the next request as before.

mod common;
use common::sprague;

mod serve_support;

use serve_support::{assert_error_reply, error_of, read_all, status_and_body, Server};
use std::io::Write;
use std::time::{Duration, Instant};

/// `(status, error message)` of a request that must fail, after which the server still answers.
fn refused(server: &Server, reply: (u16, String)) -> (u16, String) {
    let (status, body) = reply;
    assert!((400..500).contains(&status), "{status}: {body}");
    assert!(server.answers(), "the server stopped answering after a {status}");
    (status, error_of(&body))
}

fn analyse_raw(server: &Server, game: &str, body: &str) -> (u16, String) {
    refused(server, server.post(&format!("/api/games/{game}/analyse"), body))
}

fn position(text: &str) -> String {
    serde_json::json!({ "position": text }).to_string()
}

#[test]
fn malformed_positions_are_400_with_line_and_column() {
    let server = Server::start(&[]);
    let cases = [
        ("2 2\n..\n.a\n", "position:3:2: 'a' is not '.', 'X' or '#'"),
        ("2 2\n..\n", "position:3:1: missing board row 2 of 2"),
        ("", "position:1:1: expected H (rows), found end of input"),
        ("3 3\n...\n.##\n.#.\n", "position:3:2: the region of non-wall cells from row 1 column 1 is not a rectangle"),
        ("0 0\n", "position:1:1: H (rows) must be between 1 and 20, found 0"),
        ("-1 1\n", "position:1:1: H (rows) must be between 1 and 20, found -1"),
        ("99999999999999999999 1\n", "position:1:1: H (rows) must be between 1 and 20, found 99999999999999999999"),
    ];
    for (text, expected) in cases {
        let (status, message) = analyse_raw(&server, "wall", &position(text));
        assert_eq!(status, 400, "{text:?}");
        assert!(message.starts_with(expected), "{text:?}: {message}");
    }
}

#[test]
fn bodies_that_are_not_the_request_are_400() {
    let server = Server::start(&[]);
    for body in ["", "not json", "{\"board\": \"2 2\"}", "[1, 2]", "{\"position\": 3}", r#"["1 1\n.\n"]"#, r#""1 1\n.\n""#] {
        let (status, message) = analyse_raw(&server, "wall", body);
        assert_eq!(status, 400, "{body:?}");
        assert!(message.contains("{\"position\": \"…\"}"), "{message}");
    }
}

#[test]
fn an_oversized_body_is_413() {
    let server = Server::start(&[]);
    // Twenty times each: the server used to close while the client was still sending, and the
    // client then met a broken pipe instead of the 413 (one CI run in a few).
    for size in [1_100_000, 1_500_000, 3_500_000] {
        let huge = position(&".".repeat(size));
        for _ in 0..20 {
            let (status, message) = analyse_raw(&server, "wall", &huge);
            assert_eq!(status, 413, "{size} bytes");
            assert!(message.contains("over the limit of 1048576 bytes"), "{message}");
        }
    }
    assert!(server.answers());
}

#[test]
fn a_path_too_long_to_parse_is_414_with_a_json_error() {
    let server = Server::start(&[]);
    let reply = server.raw(&format!("GET /{} HTTP/1.1", "a".repeat(100_000)));
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 414") && head.contains("content-type: application/json"), "{head}");
    assert_eq!(error_of(body), "the request's path is over the limit of 65534 bytes");
    assert!(server.answers());
}

#[test]
fn a_board_past_20_by_20_is_422_with_the_estimate() {
    let server = Server::start(&[]);
    let rows = vec![".".repeat(30); 30].join("\n");
    let (status, message) = analyse_raw(&server, "wall", &position(&format!("30 30\n{rows}\n")));
    assert_eq!(status, 422);
    assert!(message.starts_with("a 30×30 board is past the contest limit of 20×20"), "{message}");
    assert!(message.contains("216225 sub-rectangles"), "{message}");
}

#[test]
fn unknown_games_paths_and_methods_are_404_and_405() {
    let server = Server::start(&[]);
    let (status, message) = analyse_raw(&server, "chess", &position("1 1\n.\n"));
    assert_eq!(status, 404);
    assert!(message.starts_with("no game \"chess\" here (games: wall"), "{message}");
    let (status, message) = refused(&server, server.get("/api/nothing"));
    assert_eq!((status, message.as_str()), (404, "nothing at /api/nothing"));
    let (status, message) = refused(&server, server.get("/api/games/wall/analyse"));
    assert_eq!(status, 405);
    assert!(message.starts_with("GET is not allowed on /api/games/wall/analyse"), "{message}");
    let (status, message) = refused(&server, server.get("/api/results"));
    assert_eq!(status, 404);
    assert!(message.contains("--results DIR"), "{message}");
}

/// The results view serves the files under `--results DIR` and nothing else: not `..`, not an
/// absolute path, not a symlink that leads out.
#[test]
fn results_files_never_leave_their_directory() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("report");
    std::fs::create_dir_all(results.join("plots")).unwrap();
    std::fs::write(results.join("report.md"), "# Report\n\n![plot](plots/a.svg)\n").unwrap();
    std::fs::write(results.join("plots/a.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "not served").unwrap();
    std::fs::write(results.join(".sprague.lock"), "a lock").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), results.join("link.txt")).unwrap();
    let server = Server::start(&["--results", results.to_str().unwrap()]);
    let (status, listing) = server.get("/api/results");
    assert_eq!(status, 200);
    let listing: serde_json::Value = serde_json::from_str(&listing).unwrap();
    assert_eq!(listing["report"], "report.md");
    let paths: Vec<&str> = listing["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["plots/a.svg", "report.md"], "the symlink and the hidden file are not listed");
    assert_eq!(server.get("/api/results/report.md"), (200, "# Report\n\n![plot](plots/a.svg)\n".to_string()));
    assert_eq!(server.get("/api/results/plots/a.svg").0, 200);
    let (status, message) = refused(&server, server.get("/api/results/..%2Fsecret.txt"));
    assert_eq!(status, 400);
    assert!(message.contains("no '..'"), "{message}");
    assert_eq!(refused(&server, server.get("/api/results/%2Fetc%2Fpasswd")).0, 400);
    assert_eq!(refused(&server, server.get("/api/results/link.txt")), (404, "link.txt: leads outside the results directory".to_string()));
    assert_eq!(refused(&server, server.get("/api/results/none.svg")).0, 404);
    // Hidden files are neither listed nor served (the lock names a pid and a command line).
    std::fs::create_dir(results.join(".hidden")).unwrap();
    std::fs::write(results.join(".hidden/s"), "hidden").unwrap();
    for hidden in [".sprague.lock", ".hidden/s"] {
        assert_eq!(refused(&server, server.get(&format!("/api/results/{hidden}"))), (404, format!("{hidden}: no such file under the results directory")));
    }
    // Sent byte for byte, without a client that would resolve the dots first.
    assert!(server.raw_status("GET /api/results/../secret.txt HTTP/1.1").starts_with("HTTP/1.1 400"));
    assert!(server.raw_status("GET /api/results/plots/../../secret.txt HTTP/1.1").starts_with("HTTP/1.1 400"));
    assert!(server.answers());
}

/// A directory the results listing cannot walk in full (nested deeper than PATH_MAX) is named
/// in the listing, as `check` names it, and the rest is listed as before.
#[cfg(target_os = "linux")]
#[test]
fn the_results_listing_names_a_directory_it_cannot_walk() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("report");
    std::fs::create_dir(&results).unwrap();
    std::fs::write(results.join("report.md"), "# Report\n").unwrap();
    let name = common::too_deep_chain(&results.join("chain"));
    let server = Server::start(&["--results", results.to_str().unwrap()]);
    let (status, listing) = server.get("/api/results");
    assert_eq!(status, 200, "{listing}");
    let listing: serde_json::Value = serde_json::from_str(&listing).unwrap();
    assert_eq!(listing["report"], "report.md");
    assert_eq!(listing["files"][0]["path"], "report.md", "{listing}");
    let unwalked = listing["unwalked"].as_array().unwrap();
    assert_eq!(unwalked.len(), 1, "{listing}");
    let (named, error) = (unwalked[0]["dir"].as_str().unwrap(), unwalked[0]["error"].as_str().unwrap());
    assert!(named.starts_with(&format!("chain/{name}/{name}/")), "{named}");
    assert!(error.starts_with("cannot be walked in full: File name too long"), "{error}");
}

#[test]
fn a_failing_flood_of_bad_requests_leaves_the_server_answering() {
    let server = Server::start(&[]);
    std::thread::scope(|scope| {
        for t in 0..8 {
            let server = &server;
            scope.spawn(move || {
                for i in 0..50 {
                    let (status, _) = server.post("/api/games/wall/analyse", &position(&format!("{t} {i}\n")));
                    assert!(matches!(status, 400 | 422), "{status}");
                }
            });
        }
    });
    let (status, analysis) = server.analyse("wall", "2 2\n..\n..\n");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(0)));
}

/// The hostile game program (subtraction {1, 3, 4}, with `deep`, `hang`, `bad` and `die`).
const HOSTILE: &str = "python3 tests/fixtures/programs/hostile_game.py";

/// A game program's position whose exploration never ends is refused at the time limit per
/// analysis, naming it, and the game answers the next position.
#[test]
fn an_endless_custom_position_is_422_at_the_time_limit() {
    let server = Server::start(&["--game-cmd", HOSTILE, "--game-budget", "0.5"]);
    let (status, message) = analyse_raw(&server, "custom", &position("deep"));
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("\"deep\" stopped at the time limit of 0.5 s per analysis (--game-budget)"), "{message}");
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "{analysis}");
}

/// While the game program is taken, another of its requests gets 503 after the queue wait and
/// the built-in games are answered; a program that hangs or breaks the protocol is replaced by
/// a fresh copy, so the positions after the failure are answered.
#[test]
fn a_taken_custom_game_is_503_and_a_failed_program_is_restarted() {
    // A budget past the timeout: the hang fails at --game-timeout, not at the time limit.
    let server = Server::start(&["--game-cmd", HOSTILE, "--game-timeout", "6", "--game-budget", "10", "--queue-wait", "1"]);
    std::thread::scope(|scope| {
        let hang = scope.spawn(|| analyse_raw(&server, "custom", &position("hang")));
        // The hang holds the game for 6 s; this request comes 2 s in and waits 1 s.
        std::thread::sleep(std::time::Duration::from_secs(2));
        let (status, analysis) = server.analyse("wall", "2 2\n..\n..\n");
        assert_eq!((status, analysis["value"].as_u64()), (200, Some(0)), "the built-in games go on");
        let (status, body) = server.post("/api/games/custom/analyse", &position("5"));
        assert_eq!((status, error_of(&body).as_str()), (503, "busy: every turn of custom (1 analysis at a time) was taken for 1 s; try again"));
        let (status, message) = hang.join().unwrap();
        assert_eq!(status, 422, "{message}");
        assert!(message.contains("request `moves hang`: gave no answer within 6 s (--game-timeout)"), "{message}");
    });
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "after the hang: {analysis}");
    let (status, message) = analyse_raw(&server, "custom", &position("bad"));
    assert!(status == 422 && message.contains("request `moves bad`: answered with a line that is not UTF-8"), "{status}: {message}");
    for (heap, value) in [(5, 3), (8, 1), (13, 2)] {
        let (status, analysis) = server.analyse("custom", &heap.to_string());
        assert_eq!((status, analysis["value"].as_u64()), (200, Some(value)), "after the bad line: {analysis}");
    }
}

#[test]
fn a_game_command_that_cannot_start_is_named_by_its_option() {
    let run = |command: &str| sprague().args(["serve", "--port", "0", "--game-cmd", command]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
    let stderr = |assert: assert_cmd::assert::Assert| String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let missing = stderr(run("no-such-game-program"));
    assert_eq!(missing, "error: --game-cmd \"no-such-game-program\": command \"no-such-game-program\" not found on PATH\n");
    assert!(stderr(run("'")).contains("--game-cmd \"'\": unbalanced quotes"));
}

#[test]
fn a_port_out_of_range_is_named_with_the_range() {
    let assert = assert_cmd::Command::cargo_bin("sprague").unwrap().args(["serve", "--port", "70000"]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(stderr, "error: --port must be a port number in 0..=65535, not 70000\n");
}

/// A count past what the server can hold (tokio's semaphores stop at 2^61) is refused before
/// it listens, with the range, not a panic after "listening".
#[test]
fn counts_past_their_range_are_refused_before_listening() {
    for (option, value, most) in [("--max-connections", "2305843009213693952", "1048576"), ("--max-connections", "0", "1048576"), ("--answer-memory", "99999999999999999999", "4194303")] {
        let assert = sprague().args(["serve", "--port", "0", option, value]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr, format!("error: {option} must be a whole number from 1 to {most}, not {value}\n"));
    }
}

/// `--results` that is not there is a usage error naming the option.
#[test]
fn a_missing_results_directory_is_named_by_its_option() {
    let assert = sprague().args(["serve", "--port", "0", "--results", "/nonexistent-sprague-results"]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(stderr, "error: --results /nonexistent-sprague-results: No such file or directory\n");
}

/// An IPv6 host is listened on whether it is given bracketed or not (where the machine has IPv6).
#[test]
fn an_ipv6_host_may_be_bracketed() {
    if std::net::TcpListener::bind("[::1]:0").is_err() {
        eprintln!("no IPv6 loopback here: skipped");
        return;
    }
    for host in ["[::1]", "::1"] {
        let server = Server::start(&["--host", host]);
        assert!(server.base.starts_with("http://[::1]:"), "{}", server.base);
        assert!(server.answers(), "{host}");
    }
}

/// Seconds from now until the server closes `stream` (its reads end or fail).
fn closed_after(stream: &mut std::net::TcpStream) -> f64 {
    let started = Instant::now();
    read_all(stream);
    started.elapsed().as_secs_f64()
}

/// A connection that sends nothing, or half a request head, is closed at the read timeout, and
/// so is one that sends half a body (after its 408); the server answers meanwhile.
#[test]
fn slow_or_silent_requests_are_closed_at_the_read_timeout() {
    let server = Server::start(&["--read-timeout", "1"]);
    let (mut silent, mut half_head, mut half_body) = (server.connect(), server.connect(), server.connect());
    half_head.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let head = "POST /api/games/wall/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"posi";
    half_body.write_all(head.as_bytes()).unwrap();
    assert!(server.answers());
    for (name, stream) in [("silent", &mut silent), ("half a head", &mut half_head)] {
        let after = closed_after(stream);
        assert!(after < 4.0, "{name}: closed after {after} s");
    }
    let reply = String::from_utf8(read_all(&mut half_body)).unwrap();
    assert_error_reply(&reply, 408, "the request body was not sent within 1 s (--read-timeout)", "half a body");
    assert!(server.answers());
}

/// A client still sending its body when it is answered 408 meets no reset: the server reads
/// and drops what it still sends for a while (a lingering close), so it can read the 408.
#[test]
fn a_client_still_sending_after_its_408_reads_it() {
    let server = Server::start(&["--read-timeout", "1"]);
    let mut stream = server.connect();
    let head = "POST /api/games/wall/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"posi";
    stream.write_all(head.as_bytes()).unwrap();
    stream.peek(&mut [0; 16]).unwrap(); // the 408 has come
    // Long enough for the server to have closed, were it not lingering.
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..64 {
        stream.write_all(&[b' '; 4096]).expect("the server still takes the body");
    }
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let reply = String::from_utf8(read_all(&mut stream)).unwrap();
    assert_error_reply(&reply, 408, "the request body was not sent within 1 s (--read-timeout)", "still sending");
}

/// A body whose Content-Length is over the limit is answered 413 at once: nothing of it is
/// waited for (it used to wait for the body, then answer 408).
#[test]
fn a_declared_length_over_the_limit_is_413_at_once() {
    let server = Server::start(&["--read-timeout", "30"]);
    let mut stream = server.connect();
    let head = "POST /api/games/wall/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let reply = String::from_utf8(read_all(&mut stream)).unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "answered after {:?}", started.elapsed());
    assert_error_reply(&reply, 413, "the request body (100000000 bytes, its Content-Length) is over the limit of 1048576 bytes", "declared");
}

/// A client that leaves while the game program analyses its position cancels the analysis:
/// the game's one turn is free again long before the time limit, and the next position is
/// answered.
#[test]
fn an_analysis_whose_client_left_is_cancelled() {
    let server = Server::start(&["--game-cmd", HOSTILE, "--game-budget", "600", "--queue-wait", "0.5"]);
    let body = position("deep");
    let mut leaving = server.connect();
    write!(leaving, "POST /api/games/custom/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    // Once the endless analysis holds the turn, another request waits 0.5 s and gets 503.
    let held = (0..20).any(|_| server.post("/api/games/custom/analyse", &position("5")).0 == 503);
    assert!(held, "the endless analysis never held the game");
    drop(leaving);
    // Each try waits up to 0.5 s for the turn; uncancelled, the analysis would hold it 600 s.
    let answered = (0..40).map(|_| server.analyse("custom", "5")).find(|(status, _)| *status == 200);
    let value = answered.as_ref().and_then(|(_, analysis)| analysis["value"].as_u64());
    assert_eq!(value, Some(3), "the turn was never freed: the analysis went on after its client left");
}

/// A kept-alive connection may wait longer than the read timeout for its next request (the idle
/// timeout), and is closed after it.
#[test]
fn a_kept_alive_connection_is_closed_at_the_idle_timeout() {
    let server = Server::start(&["--read-timeout", "0.5", "--idle-timeout", "1.5"]);
    let mut stream = server.connect();
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let request = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    for _ in 0..2 {
        stream.write_all(request).unwrap();
        let reply = String::from_utf8(read_all(&mut stream)).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply:?}");
        std::thread::sleep(Duration::from_secs(1)); // past the read timeout, within the idle one
    }
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let after = closed_after(&mut stream);
    assert!(after < 3.0, "closed {after} s after the last answer");
}

/// Over --max-connections nothing more is accepted: a new connection waits until one closes
/// (here, silent ones at the read timeout), then is answered.
#[test]
fn over_the_connection_cap_a_connection_waits_then_is_answered() {
    let server = Server::start(&["--max-connections", "2", "--read-timeout", "1"]);
    let taken = [server.connect(), server.connect()];
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    assert!(server.answers());
    let waited = started.elapsed().as_secs_f64();
    assert!(waited > 0.5 && waited < 4.0, "answered after {waited} s");
    drop(taken);
}

/// A client that reads nothing of a large answer holds at most --answer-memory: meanwhile
/// other answers wait for room and get 503 after the queue wait; its connection is closed at
/// the write timeout, the answer cut short, and answers have room again.
#[test]
fn an_unread_answer_is_cut_at_the_write_timeout_and_holds_at_most_the_answer_memory() {
    let server = Server::start(&["--answer-memory", "1", "--queue-wait", "0.5", "--write-timeout", "1.5"]);
    let heaps = vec!["50"; 400].join(" ");
    let body = serde_json::json!({ "position": format!("400\n{heaps}\n") }).to_string();
    let mut stalled = server.connect();
    write!(stalled, "POST /api/games/grundy/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stalled.peek(&mut [0; 16]).unwrap(); // the answer has started: it holds its room
    let stalled_at = Instant::now();
    let (status, reply) = server.post("/api/games/wall/analyse", &position("2 2\n..\n..\n"));
    assert_eq!(status, 503, "{reply}");
    assert_eq!(error_of(&reply), "busy: the answers being sent held all of their 1 MiB (--answer-memory) for 0.5 s; try again");
    // Reading before the write timeout would let the answer go on.
    std::thread::sleep(Duration::from_secs(2).saturating_sub(stalled_at.elapsed()));
    let reply = read_all(&mut stalled);
    let text = String::from_utf8_lossy(&reply);
    let (head, answer) = text.split_once("\r\n\r\n").unwrap();
    let length: usize = head.lines().find_map(|l| l.strip_prefix("content-length: ")).unwrap().parse().unwrap();
    assert!(length > 4 << 20 && answer.len() < length, "{} of {length} bytes", answer.len());
    let (status, analysis) = server.analyse("wall", "2 2\n..\n..\n");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(0)));
}

/// An HTTP/2 client with prior knowledge (its preface whole or in pieces), an HTTP/2.0 request
/// line, a malformed HTTP/1.0 request and a Content-Length that is no number get the same 400
/// with a JSON error.
#[test]
fn requests_that_are_not_http1_get_a_json_400() {
    let server = Server::start(&[]);
    let not_http1 = "the request is not valid HTTP/1.0 or HTTP/1.1, the versions served here (its request line or a header cannot be read: e.g. a Content-Length that is not one number)";
    for request in ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", "GET / HTTP/1.0\r\nnot a header\r\n\r\n", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"] {
        let reply = server.exchange(request.as_bytes());
        assert_error_reply(&reply, 400, not_http1, &format!("{request:?}"));
    }
    // The preface in pieces, each its own read: the server waits for the rest.
    for cut in [3, 8, 15, 16] {
        let mut stream = server.connect();
        stream.set_nodelay(true).unwrap();
        let (first, rest) = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".split_at(cut);
        stream.write_all(first).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        stream.write_all(rest).unwrap();
        let reply = String::from_utf8_lossy(&read_all(&mut stream)).into_owned();
        assert_error_reply(&reply, 400, not_http1, &format!("cut at {cut}"));
    }
    // A request whose first piece could start a preface is answered as sent.
    let body = position("2 2\n..\n..\n");
    let request = format!("POST /api/games/wall/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
    let mut stream = server.connect();
    stream.set_nodelay(true).unwrap();
    stream.write_all(b"P").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    stream.write_all(&request.as_bytes()[1..]).unwrap();
    let reply = String::from_utf8_lossy(&read_all(&mut stream)).into_owned();
    let (status, body) = status_and_body(&reply);
    assert!(status.starts_with("HTTP/1.1 200") && body.contains("\"value\":0"), "{reply:?}");
    assert!(server.answers());
}

/// A client that half-closes its connection after a whole request still gets the answer.
#[test]
fn a_half_closed_client_gets_its_answer() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let reply = String::from_utf8(read_all(&mut stream)).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200") && reply.contains("\"name\":\"wall\""), "{reply:?}");
}

/// An analysis whose body is not declared JSON is 415: a page of another site cannot post one
/// without the browser asking the server first.
#[test]
fn an_analysis_not_sent_as_json_is_415() {
    let server = Server::start(&[]);
    let url = format!("{}/api/games/wall/analyse", server.base);
    let body = position("2 2\n..\n..\n");
    for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
        let Err(ureq::Error::Status(status, reply)) = ureq::post(&url).set("Content-Type", content_type).send_string(&body) else { panic!("{content_type}: answered") };
        let message = error_of(&reply.into_string().unwrap());
        assert_eq!(status, 415, "{content_type}: {message}");
        assert_eq!(message, format!("the body must be sent with Content-Type: application/json (found {content_type:?})"));
    }
    let reply = server.exchange(format!("POST /api/games/wall/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    assert_error_reply(&reply, 415, "the body must be sent with Content-Type: application/json (found none)", "no Content-Type");
    assert!(server.answers());
}

/// A server on loopback answers requests for localhost, 127.0.0.1 and [::1] (any port) and
/// refuses (421) a Host of another name: DNS rebinding reads nothing.
#[test]
fn a_loopback_server_refuses_other_hosts() {
    let server = Server::start(&[]);
    let get = |host: &str| server.exchange(format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes());
    for host in ["localhost", "localhost:8080", "127.0.0.1:1", "[::1]:9"] {
        assert!(get(host).starts_with("HTTP/1.1 200"), "{host}");
    }
    for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example"] {
        let reply = get(host);
        assert_error_reply(&reply, 421, &format!("Host {host:?} is not this machine: a server on loopback answers only localhost, 127.0.0.1 and [::1] (docs/serve.md)"), host);
    }
    // The host is the one RFC 9112 §3.2 names: an absolute-form target's (whatever Host says),
    // never one of two Host headers, and an HTTP/1.1 request must name one.
    let request = |head: &str| server.exchange(format!("{head}\r\nConnection: close\r\n\r\n").as_bytes());
    let absolute = request("GET http://127.0.0.1@evil.example:80/api/games HTTP/1.1\r\nHost: 127.0.0.1");
    assert_error_reply(&absolute, 421, "Host \"evil.example\" is not this machine: a server on loopback answers only localhost, 127.0.0.1 and [::1] (docs/serve.md)", "absolute-form");
    assert!(request("GET http://[::1]:9/api/games HTTP/1.1\r\nHost: evil.example").starts_with("HTTP/1.1 200"));
    let two = request("GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example");
    assert_error_reply(&two, 400, "the request has 2 Host headers (\"127.0.0.1\", \"evil.example\"); it must have one (RFC 9112 §3.2)", "two Hosts");
    let none = request("GET /api/games HTTP/1.1");
    assert_error_reply(&none, 400, "the request has no Host header; an HTTP/1.1 request must have one (RFC 9112 §3.2)", "no Host");
    assert!(server.exchange(b"GET /api/games HTTP/1.0\r\n\r\n").starts_with("HTTP/1.0 200"), "HTTP/1.0 without Host");
    assert!(server.answers());
}

/// A game program refused at startup by a limit names the options serve has (no `--max`).
#[test]
fn a_game_program_past_a_limit_at_startup_names_serves_options() {
    let kayles = "python3 examples/games/kayles_doc.py";
    let run = |limit: &[&str]| {
        let assert = sprague().args(["serve", "--port", "0", "--game-cmd", kayles]).args(limit).timeout(std::time::Duration::from_secs(30)).assert().code(2);
        String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
    };
    let positions = run(&["--max-positions", "1"]);
    assert!(positions.contains("raise --max-positions if they fit") && !positions.contains("--max,") && !positions.contains("--max "), "{positions}");
    let memory = run(&["--memory-limit", "1"]);
    assert!(memory.contains("raise --memory-limit") && !memory.contains("--max,") && !memory.contains("lower --max"), "{memory}");
}

/// A path part that is not UTF-8 once its escapes are decoded is a JSON 400 naming the part.
#[test]
fn a_path_that_is_not_utf8_is_a_json_400_naming_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["--results", dir.path().to_str().unwrap()]);
    for (request, part) in [("POST /api/games/%FF/analyse", "the game name"), ("GET /assets/%FF", "the asset name"), ("GET /api/results/%FF", "the results path")] {
        let reply = server.raw(&format!("{request} HTTP/1.1"));
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400") && head.contains("content-type: application/json"), "{request}: {head}");
        assert!(error_of(body).starts_with(&format!("{part} in the path cannot be read: ")), "{request}: {body}");
    }
    assert!(server.answers());
}

/// A control character in a position is refused before any game sees it (a game program would
/// be handed it), naming the character and its place; line breaks and tabs are text.
#[test]
fn a_position_with_a_control_character_is_400_naming_it() {
    let server = Server::start(&["--game-cmd", HOSTILE]);
    let (status, message) = analyse_raw(&server, "custom", &position("7\u{0}"));
    assert_eq!((status, message.as_str()), (400, "position:1:2: the control character U+0000 is not allowed in a position"));
    let (status, message) = analyse_raw(&server, "wall", &position("2 2\n.\u{7}\n..\n"));
    assert_eq!((status, message.as_str()), (400, "position:2:2: the control character U+0007 is not allowed in a position"));
    let (status, analysis) = server.analyse("wall", "2 2\r\n..\t\r\n..\r\n");
    assert_eq!(status, 200, "{analysis}");
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "{analysis}");
}

/// A game program that fails is quoted in the 422 with the end of its stderr, bounded.
#[test]
fn a_failing_programs_stderr_is_quoted_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("noisy.py");
    let program = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'sprague': print('positions moves')\n    elif verb == 'positions': print(arg)\n    elif verb == 'moves' and arg == 'boom':\n        sys.stderr.write('noise ' * 200000 + 'the end')\n        sys.exit(3)\n    elif verb == 'moves': print('')\n    elif verb == 'flush': sys.stdout.flush()\n";
    std::fs::write(&script, program).unwrap();
    let server = Server::start(&["--game-cmd", &format!("python3 {}", script.display())]);
    let (status, message) = analyse_raw(&server, "custom", &position("boom"));
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("exited (status 3)") && message.ends_with("the end") && message.contains("the last 4096 bytes of its stderr"), "{}", &message[..200.min(message.len())]);
    assert!(message.len() < 5000, "{} bytes", message.len());
}

/// A key given twice is refused, naming it (the last one used to win).
#[test]
fn a_repeated_key_is_400_naming_it() {
    let server = Server::start(&[]);
    let (status, message) = analyse_raw(&server, "wall", r#"{"position":"1 1\n.\n","position":"2 2\n..\n..\n"}"#);
    assert_eq!(status, 400);
    assert!(message.contains("duplicate field `position`"), "{message}");
    let (status, _) = server.post("/api/games/wall/analyse", r#" {"position":"1 1\n.\n","other":1}"#);
    assert_eq!(status, 200, "other keys are ignored");
}

/// The largest documented input of a game on the page fits the body limit: a DAGame of 500
/// nodes and 100,000 edges (here one token with one move).
#[test]
fn the_largest_dagame_input_fits_the_body_limit() {
    let server = Server::start(&[]);
    let edges: String = std::iter::once("1 2\n".to_string()).chain((1..100_000).map(|i| format!("{} 500\n", 400 + i % 99))).collect();
    let text = format!("500 100000\n{edges}1\n1 1\n");
    let body = position(&text);
    assert!(body.len() > 800_000, "{} bytes", body.len());
    let (status, reply) = server.post("/api/games/dagame/analyse", &body);
    assert_eq!(status, 200, "{}", &reply[..300.min(reply.len())]);
    let analysis: serde_json::Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(analysis["moves"].as_array().unwrap().len(), 1);
}
